# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""SONiC's renderer: config_db.json and FRR's bgpd.conf (split mode) per switch, their change
classifiers, and the device document's SONiC notes (what the buffer manager is told)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, List, Mapping

from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import renderer, structured
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    changes, config_db, frr)


def _config_db(dev: SwitchIntent) -> str:
    return structured.config_db_json(config_db.config_db(dev))


def doc_notes(dev: SwitchIntent) -> List[str]:
    lines = ["", "## SONiC notes", "", "- FRR runs in split mode: bgpd.conf is rendered "
             "next to config_db.json and loaded as is."]
    if dev["bgp"]["bfd"]:
        lines.append(BFDD_NOTE)
    return lines + buffer_lines(dev["buffer"])


# SONiC's bgp container starts bfdd only where its supervisord config has a [program:bfdd]
# (sonic-net/SONiC BFD HLD, "Enable/Disable BFD daemon": added at build time or on the switch);
# without it bgpd keeps the lines and the sessions, and failures are found by the hold time.
BFDD_NOTE = ("- BFD: `neighbor X bfd` is rendered on every session; it takes effect only "
             "where bfdd runs in the bgp container (not started by every SONiC image: check "
             "`vtysh -c 'show bfd peers'`). Without bfdd a failure is detected by the BGP hold "
             "time alone.")


def buffer_lines(buf: Mapping[str, Any]) -> List[str]:
    """What SONiC's buffer manager is told, and why the plan equals what it computes."""
    sonic = buf.get("sonic")
    if not sonic:
        return []
    out = ["- buffer model %s, SONiC %s (headroom formula revision %s)."
           % (sonic["buffer_model"], sonic["version"], sonic["revision"])]
    pattern = sonic.get("traffic_pattern")
    if sonic["buffer_model"] == "dynamic":
        out.append("- lossless PGs are NULL: buffermgrd computes their headroom from the port, "
                   "CABLE_LENGTH and LOSSLESS_TRAFFIC_PATTERN (%d %% small packets, lossless "
                   "MTU %d B), the numbers in the table above; pool sizes are pinned, so "
                   "buffermgrd does not resize them."
                   % (pattern["small_packet_pct"], pattern["lossless_mtu_bytes"]))
    else:
        out.append("- lossless PG profiles are pinned in BUFFER_PROFILE (pg_lossless_<speed>_"
                   "<cable>m_profile); buffermgrd's pg_profile_lookup.ini lookup plays no part.")
        if pattern:
            out.append("- headroom sized for %d %% small packets, lossless MTU %d B%s."
                       % (pattern["small_packet_pct"], pattern["lossless_mtu_bytes"],
                          " (the %s table's pattern)" % sonic["hwsku"] if buf["model"] ==
                          "sonic-sku" else ""))
    return out


RENDERER = renderer.Renderer(
    configs=(renderer.ConfigFile("configs/%s.json", _config_db, changes.config_db_parts),
             renderer.ConfigFile("configs/%s.bgpd.conf", frr.frr_bgpd, changes.frr_parts)),
    anta=None, doc_notes=doc_notes, legend=("#dbeafe", "SONiC switch"))
