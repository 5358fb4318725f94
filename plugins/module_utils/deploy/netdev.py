# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A SONiC switch's routed Linux interfaces from its config_db.json.

On SONiC, portmgrd and intfmgrd program the kernel netdevs from CONFIG_DB: PORT sets MTU and
admin status, INTERFACE and LOOPBACK_INTERFACE add the addresses, Loopback0 is a dummy netdev.
FRR routes over exactly those netdevs. This module computes the same kernel state from the
rendered config_db.json and the live ``ip -j link`` / ``ip -j addr`` output, as argv changes,
for switches whose kernel we manage directly: the namespace lab's FRR routers (and any plain
Linux/FRR box used as a SONiC stand-in). On a real SONiC switch the config updater writes
CONFIG_DB and SONiC's own managers do this.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from typing import Any, Dict, List, Optional, Tuple


def intended(config_db: Dict[str, Any],
             loopback_device: str = "dummy") -> Dict[str, Dict[str, Any]]:
    """{netdev: {"mtu": int | None, "up": bool, "addresses": set, "loopback": bool}}.

    ``loopback_device``: "dummy" (SONiC: Loopback0 is a dummy netdev) or "lo" (the loopback
    addresses go on lo, for kernels built without the dummy driver)."""
    out = {}
    for name, fields in config_db.get("PORT", {}).items():
        out[name] = {"mtu": int(fields["mtu"]) if fields.get("mtu") else None,
                     "up": fields.get("admin_status", "down") == "up",
                     "addresses": set(), "loopback": False}
    for table, loopback in (("INTERFACE", False), ("LOOPBACK_INTERFACE", True)):
        for key in config_db.get(table, {}):
            name, sep, address = key.partition("|")
            if loopback and loopback_device == "lo":
                name = "lo"
            entry = out.setdefault(name, {"mtu": None, "up": True, "addresses": set(),
                                          "loopback": loopback})
            if sep:
                entry["addresses"].add(address)
    return out


def live(link_json: Optional[str], addr_json: Optional[str]) -> Dict[str, Dict[str, Any]]:
    """Parse ``ip -j link show`` and ``ip -j addr show``: {netdev: {mtu, up, addresses}};
    only global IPv4 addresses count (link-local IPv6 is the kernel's own)."""
    out = {}
    for link in json.loads(link_json or "[]"):
        out[link["ifname"]] = {"mtu": link.get("mtu"), "addresses": set(),
                               "up": "UP" in link.get("flags", [])}
    for link in json.loads(addr_json or "[]"):
        entry = out.setdefault(link["ifname"], {"mtu": link.get("mtu"), "addresses": set(),
                                                "up": "UP" in link.get("flags", [])})
        for a in link.get("addr_info", []):
            if a.get("family") == "inet" and a.get("scope") == "global":
                entry["addresses"].add("%s/%s" % (a["local"], a["prefixlen"]))
    return out


def decide(want: Dict[str, Dict[str, Any]], have: Dict[str, Dict[str, Any]]
           ) -> Tuple[List[Dict[str, Any]], List[str]]:
    """(changes, missing): argv changes in a safe order (create, MTU, addresses, up), and the
    planned ports the box does not have."""
    changes, missing = [], []
    for name in sorted(want):
        w = want[name]
        h = have.get(name)
        if h is None:
            if not w["loopback"]:
                missing.append(name)
                continue
            changes.append(_change(name, "create", None, "dummy",
                                   ["ip", "link", "add", name, "type", "dummy"]))
            h = {"mtu": None, "up": False, "addresses": set()}
        if w["mtu"] and h["mtu"] != w["mtu"]:
            changes.append(_change(name, "mtu", h["mtu"], w["mtu"],
                                   ["ip", "link", "set", "dev", name, "mtu", str(w["mtu"])]))
        for address in sorted(h["addresses"] - w["addresses"]):
            changes.append(_change(name, "address", address, None,
                                   ["ip", "addr", "del", address, "dev", name]))
        for address in sorted(w["addresses"] - h["addresses"]):
            changes.append(_change(name, "address", None, address,
                                   ["ip", "addr", "add", address, "dev", name]))
        if h["up"] != w["up"]:
            changes.append(_change(name, "admin_status", "up" if h["up"] else "down",
                                   "up" if w["up"] else "down",
                                   ["ip", "link", "set", "dev", name,
                                    "up" if w["up"] else "down"]))
    return changes, missing


def _change(name: str, setting: str, current: Any, desired: Any, argv: List[str]
            ) -> Dict[str, Any]:
    return {"netdev": name, "setting": setting, "current": current, "desired": desired,
            "argv": argv}
