# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Render the plan's devices into files: per switch its config, structured intent, device
document and (where its platform has one) ANTA catalog, per GPU host its intent, and the fabric
report.

Output paths are relative to the output root: the switch's configuration files as its platform's
renderer names them (render/registry.py: SONiC configs/<host>.json and configs/<host>.bgpd.conf,
FRR split mode; EOS configs/<host>.cfg); structured/<host>.yml; docs/<host>.md;
anta/<host>.yml (EOS: an ANTA test catalog); for GPU hosts hosts/<host>.yml,
hosts/<host>/nccl.conf, nccl.env and sysctl.conf (render/host.py); the fabric report under
fabric/ (render/report.py). Pure text in, text out: the action plugin decides what to write.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Optional, Sequence, cast

from ansible_collections.roce.fabric.plugins.module_utils.plan import targets
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    HostIntent, Plan, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.render import doc, host, registry, report, structured

OUTPUTS = ("configs", "structured", "docs", "anta")     # per switch (anta: where it has one)
FABRIC_OUTPUTS = ("hosts", "fabric")            # per GPU host, and the fabric report
render_host = host.render_host
render_report = report.render_report


def render_switch(dev: SwitchIntent, outputs: Sequence[str] = OUTPUTS) -> Dict[str, str]:
    """{relative path: text} for switch intent ``dev``: the device config (``configs``), the
    structured intent (``structured``) and the device document (``docs``)."""
    name = dev["name"]
    files = {}
    if "structured" in outputs:
        files["structured/%s.yml" % name] = structured.structured_yaml(dev)
    if "docs" in outputs:
        files["docs/%s.md" % name] = doc.device_doc(dev)
    if "configs" in outputs:
        for config in registry.RENDERERS[dev["platform"]].configs:
            files[config.path % name] = config.render(dev)
    return files


def render_anta(dev: SwitchIntent, plan: Plan, leaves: Optional[Any] = None) -> Dict[str, str]:
    """{relative path: text}: the ANTA catalog of a switch whose platform has one (it needs the
    whole plan for the ECMP width of every remote prefix; ``leaves``:
    targets.leaf_prefixes(plan), built once for many switches); nothing elsewhere."""
    catalog = registry.RENDERERS[dev["platform"]].anta
    if catalog is None:
        return {}
    return {"anta/%s.yml" % dev["name"]: catalog(dev, plan, leaves)}


def render_all(plan: Plan) -> Dict[str, str]:
    """{relative path: text}: every file site.yml renders from ``plan`` (each switch's default
    outputs, each GPU host's intent, the fabric report), as one batch."""
    files: Dict[str, str] = {}
    leaves = targets.leaf_prefixes(plan)        # once for every switch's ANTA catalog
    for name in sorted(plan["devices"]):
        dev = plan["devices"][name]
        if dev["kind"] == "switch":
            switch = cast(SwitchIntent, dev)
            files.update(render_switch(switch, OUTPUTS))
            files.update(render_anta(switch, plan, leaves))
        else:
            files.update(render_host(cast(HostIntent, dev)))
    files.update(render_report(plan, files))
    return files
