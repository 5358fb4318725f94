# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Render the plan's devices into files: per switch its config, structured intent and device
document, per GPU host its intent, and the fabric report.

Output paths are relative to the output root: configs/<host>.json (SONiC config_db) plus
configs/<host>.bgpd.conf (FRR, split mode), or configs/<host>.cfg (EOS); structured/<host>.yml;
docs/<host>.md; anta/<host>.yml (EOS: an ANTA test catalog); for GPU hosts hosts/<host>.yml,
hosts/<host>/nccl.conf, nccl.env and sysctl.conf (render/host.py); the fabric report under
fabric/ (render/report.py). Pure text in, text out: the action plugin decides what to write.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.roce.fabric.plugins.module_utils.render import anta
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import config_db as sonic
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import frr
from ansible_collections.roce.fabric.plugins.module_utils.render.doc import device_doc
from ansible_collections.roce.fabric.plugins.module_utils.render.host import (  # noqa: F401
    render_host)
from ansible_collections.roce.fabric.plugins.module_utils.render.report import (  # noqa: F401
    render_report)
from ansible_collections.roce.fabric.plugins.module_utils.render.structured import (  # noqa: F401
    config_db_json, structured_yaml)


OUTPUTS = ("configs", "structured", "docs", "anta")     # per switch (anta: EOS only)
FABRIC_OUTPUTS = ("hosts", "fabric")            # per GPU host, and the fabric report


def render_switch(dev, outputs=OUTPUTS):
    """{relative path: text} for switch intent ``dev``: the device config (``configs``), the
    structured intent (``structured``) and the device document (``docs``)."""
    name = dev["name"]
    files = {}
    if "structured" in outputs:
        files["structured/%s.yml" % name] = structured_yaml(dev)
    if "docs" in outputs:
        files["docs/%s.md" % name] = device_doc(dev)
    if "configs" not in outputs:
        return files
    if dev["platform"] == "sonic":
        files["configs/%s.json" % name] = config_db_json(sonic.config_db(dev))
        files["configs/%s.bgpd.conf" % name] = frr.frr_bgpd(dev)
    else:
        files["configs/%s.cfg" % name] = eos.eos_config(dev)
    return files


def render_anta(dev, plan, leaves=None):
    """{relative path: text}: the ANTA catalog of an EOS switch (it needs the whole plan for the
    ECMP width of every remote prefix; ``leaves``: targets.leaf_prefixes(plan), built once for
    many switches); nothing for SONiC."""
    if dev["platform"] != "eos":
        return {}
    return {"anta/%s.yml" % dev["name"]: anta.catalog_yaml(dev, plan, leaves)}
