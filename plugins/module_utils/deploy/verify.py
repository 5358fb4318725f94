# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Live routing state of a switch against the plan: BGP sessions and ECMP width.

Input is what the switch prints: FRR's ``show bgp ipv4 unicast summary json`` and the kernel's
``ip -j route show`` (SONiC, FRR routers), or EOS's ``show ip bgp summary | json`` and
``show ip route | json``. Expected state comes from the plan (plan/targets.py): every planned neighbour
Established, and every host prefix behind another switch reached over all the links the plan
gives towards it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List


def _peers(summary: Dict[str, Any]) -> Dict[str, Any]:
    """{address: {"state": ...}} from FRR (``peers``, or under ``ipv4Unicast``), from EOS
    ``show ip bgp summary | json`` (``vrfs.default.peers``, state in ``peerState``) or from
    Cumulus NVUE (``nvue``: GET /nvue_v1/vrf/default/router/bgp/neighbor, neighbour -> state,
    lower case: Troubleshooting-BGP.md shows established, idle, connect)."""
    if "nvue" in summary:
        return dict((a, {"state": str((p or {}).get("state", "absent")).capitalize()})
                    for a, p in (summary["nvue"] or {}).items())
    if "vrfs" in summary:
        peers = ((summary["vrfs"].get("default") or {}).get("peers") or {})
        return dict((a, {"state": p.get("peerState", "absent")}) for a, p in peers.items())
    if "peers" in summary:
        return summary["peers"]
    return (summary.get("ipv4Unicast") or {}).get("peers", {})


def _nvue_routes(rib: Dict[str, Any], nexthop: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Cumulus NVUE: GET /nvue_v1/vrf/default/router/rib/ipv4/route (prefix -> route-entry ->
    nexthop-group-id, flags) and GET /nvue_v1/router/nexthop (rib -> group -> resolved-via, its
    members; depends: child groups) (NVUE-API.md, Show-Commands/Router-Nexthop.md), as rows:
    the selected entry's group's next hops."""
    groups = (nexthop or {}).get("rib") or {}

    def members(gid: Any, seen: Any = ()) -> List[str]:
        # a group lists its own next hops (resolved-via) and the singleton groups it is made
        # of (depends: Router-Nexthop.md's group 108, four of each): the children only count
        # where the group lists none itself
        group = groups.get(str(gid)) or {}
        out = list(group.get("resolved-via") or {})
        if out:
            return out
        for child in (group.get("depends") or {}):
            if str(child) not in seen:
                out += members(child, tuple(seen) + (str(gid),))
        return out
    rows = []
    for prefix, route in (rib or {}).items():
        entries = list(((route or {}).get("route-entry") or {}).values())
        chosen = [e for e in entries if "selected" in (e.get("flags") or {})] or entries
        if chosen:
            rows.append({"dst": prefix,
                         "nexthops": members(chosen[0].get("nexthop-group-id"))})
    return rows


def routes_list(routes: Any) -> List[Dict[str, Any]]:
    """Kernel ``ip -j route show`` rows as they are; EOS ``show ip route | json``
    (``vrfs.default.routes``: prefix -> ``vias``) and Cumulus NVUE (``nvue``: {rib, nexthop})
    as the same rows."""
    if isinstance(routes, dict) and "nvue" in routes:
        return _nvue_routes(routes["nvue"].get("rib") or {}, routes["nvue"].get("nexthop") or {})
    if isinstance(routes, dict):
        table = ((routes.get("vrfs") or {}).get("default") or {}).get("routes") or {}
        return [{"dst": prefix, "nexthops": entry.get("vias") or []}
                for prefix, entry in table.items()]
    return routes


def _nexthops(route: Dict[str, Any]) -> int:
    if route.get("nexthops"):
        return len(route["nexthops"])
    return 1 if route.get("gateway") or route.get("dev") else 0


def check(targets_: Dict[str, Any], bgp_summary: Any, routes: Any, sessions: str = "established",
          prefixes: str = "all") -> Dict[str, Any]:
    """Rows {device, check, item, expected, actual, ok} and a verdict.

    ``sessions``: "established" (every planned neighbour up) or "configured" (bgpd knows every
    planned neighbour, whatever its state: a spine deployed before its leaves). ``prefixes``:
    "all" (every remote host prefix present at plan width) or "present" (those announced so
    far must be at plan width: a leaf pair rolled while others are not yet deployed)."""
    device = targets_["device"]
    peers = _peers(bgp_summary)
    rows = []
    for nbr in targets_["neighbors"]:
        state = (peers.get(nbr["address"]) or {}).get("state", "absent")
        ok = state == "Established" if sessions == "established" else state != "absent"
        item = "%s (%s)" % (nbr["address"], nbr["name"])
        rows.append({"device": device, "check": "bgp", "item": item,
                     "expected": "Established" if sessions == "established" else "configured",
                     "actual": state, "ok": ok})
    table = dict((r["dst"], _nexthops(r)) for r in routes_list(routes) if "dst" in r)
    for prefix, width in sorted(targets_["routes"].items()):
        have = table.get(prefix, 0)
        if not have and prefixes == "present":
            continue
        rows.append({"device": device, "check": "ecmp", "item": prefix, "expected": width,
                     "actual": have, "ok": have == width})
    bad = [r for r in rows if not r["ok"]]
    bgp = [r for r in rows if r["check"] == "bgp"]
    ecmp = [r for r in rows if r["check"] == "ecmp"]
    return {"ok": not bad, "rows": rows, "failed": bad,
            "summary": "%s: %d/%d BGP sessions %s, %d/%d host prefixes at plan ECMP width"
                       % (device, sum(r["ok"] for r in bgp), len(bgp),
                          "Established" if sessions == "established" else "configured",
                          sum(r["ok"] for r in ecmp), len(ecmp))}
