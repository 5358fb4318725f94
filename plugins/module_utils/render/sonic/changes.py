# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""SONiC's change classifier: a config_db.json change per table (fields where a table mixes
classes) and a bgpd.conf change by its lines, each given its disruption class
(render/change_classes.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import difflib
import json
from typing import List

from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes

TABLES = {
    "WRED_PROFILE": "ecn", "PFC_WD": "watchdog", "FLEX_COUNTER_TABLE": "cosmetic",
    "DEVICE_NEIGHBOR": "cosmetic", "DEVICE_NEIGHBOR_METADATA": "cosmetic",
    "BUFFER_POOL": "buffer", "BUFFER_PROFILE": "buffer", "BUFFER_PG": "buffer",
    "BUFFER_QUEUE": "buffer", "BUFFER_PORT_INGRESS_PROFILE_LIST": "buffer",
    "BUFFER_PORT_EGRESS_PROFILE_LIST": "buffer", "CABLE_LENGTH": "buffer",
    "LOSSLESS_TRAFFIC_PATTERN": "buffer", "DEFAULT_LOSSLESS_BUFFER_PARAMETER": "buffer",
    "DSCP_TO_TC_MAP": "qos", "TC_TO_PRIORITY_GROUP_MAP": "qos", "TC_TO_QUEUE_MAP": "qos",
    "MAP_PFC_PRIORITY_TO_QUEUE": "qos", "PORT_QOS_MAP": "qos", "SCHEDULER": "qos",
    "QUEUE": "qos", "INTERFACE": "routing", "LOOPBACK_INTERFACE": "routing",
    "BGP_NEIGHBOR": "routing", "SWITCH_HASH": "hash",
}
# field-level rules where a table mixes classes
FIELDS = {
    "DEVICE_METADATA": ({"buffer_model": "reload", "docker_routing_config_mode": "reload",
                         "hwsku": "reload", "platform": "reload", "type": "reload",
                         "bgp_asn": "routing", "default_pfcwd_status": "watchdog"}, "cosmetic"),
    "PORT": ({"speed": "port", "fec": "port", "mtu": "port", "lanes": "port",
              "admin_status": "port", "autoneg": "port"}, "cosmetic"),
    "BUFFER_POOL": ({"mode": "reload", "type": "reload"}, "buffer"),
    "BUFFER_PROFILE": ({"pool": "reload"}, "buffer"),
}


def config_db_parts(old: str, new: str) -> List[change_classes.Part]:
    """Per changed config_db table: keys added/removed/changed and the class."""
    before, after = json.loads(old) if old else {}, json.loads(new) if new else {}
    out = []
    for table in sorted(set(before) | set(after)):
        have, want = before.get(table) or {}, after.get(table) or {}
        if have == want:
            continue
        added = [k for k in want if k not in have]
        removed = [k for k in have if k not in want]
        changed = [k for k in want if k in have and have[k] != want[k]]
        fields, default = FIELDS.get(table, ({}, TABLES.get(table, "unknown")))
        reasons = set()
        for key in changed:
            a, b = have[key], want[key]
            if not (isinstance(a, dict) and isinstance(b, dict)):
                reasons.add(default)
                continue
            for field in set(a) | set(b):
                if a.get(field) != b.get(field):
                    reasons.add(fields.get(field, default))
        if added or removed:
            # a new or removed key carries all its fields: a new port is a flap, a new
            # profile a buffer change
            reasons.add("port" if table == "PORT" else default if table not in
                        ("DEVICE_METADATA",) else "reload")
        out.append(change_classes.part("config_db", table, len(added), len(removed),
                                       len(changed), reasons))
    return out


def frr_parts(old: str, new: str) -> List[change_classes.Part]:
    """bgpd.conf: lines added and removed (comments alone are hitless)."""
    diff = [line for line in difflib.unified_diff((old or "").splitlines(),
                                                  (new or "").splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    if not diff:
        return []
    added = sum(1 for line in diff if line.startswith("+"))
    removed = len(diff) - added
    real = [line[1:] for line in diff if not line[1:].lstrip().startswith("!")]
    reasons = set("bgp-session" if change_classes.BGP_SESSION.match(line) else "routing"
                  for line in real)
    return [change_classes.part("bgpd.conf", "bgpd.conf", added, removed, 0,
                                reasons or {"cosmetic"})]
