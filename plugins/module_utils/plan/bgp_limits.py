# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""How many routes each BGP neighbour sends a switch, and the per-neighbour route limit.

What a switch announces is its loopback and the /31 of each host-facing port with an address
(plan/targets.py connected_prefixes: the list the renders write into RF-CONNECTED; rule
bgp-route-limit recounts it). Fabric /31s are not announced.

A neighbour sends at most one path per prefix (no add-path is rendered), and in a connected
eBGP fabric every switch has a route to every prefix of its BGP component (a plane is its own
component: no session crosses planes). So the honest upper bound of what any neighbour sends is
every prefix originated in the component - the receiving switch's own prefixes included: a
peer may send them back (the receiver drops them by AS-path loop detection, but EOS's
maximum-routes counts routes received, before policy). Nothing is subtracted for a path a
peer's best-path or split horizon would withhold: the bound may be high, never low.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List

from ansible_collections.roce.fabric.plugins.module_utils.plan import targets
from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent

# The limit over the count: x1.5, and at least +1000. Why: switches are re-rendered one roll at
# a time, so a fabric grown by half (new leaves) must not trip the limit on a switch still
# running the old config; a leak (a host's or a border's table, 10^4..10^6 routes) still trips
# it. The +1000 floor keeps a small lab from tripping on a few test prefixes. A design choice,
# not a vendor figure: EOS's per-neighbour default (12,000 where AVD renders it) is too low for
# the largest generated fabrics, which is why the limit is rendered at all.
MARGIN_NUM, MARGIN_DEN = 3, 2
MARGIN_FLOOR = 1000


def route_limit(count: int) -> int:
    """ceil(count x 1.5), and at least count + 1000."""
    return max(-(-count * MARGIN_NUM // MARGIN_DEN), count + MARGIN_FLOOR)


def originated(dev: SwitchIntent) -> int:
    """How many prefixes ``dev`` announces (an aggregating leaf: loopback and aggregate)."""
    return len(targets.announced_prefixes(dev))


def components(switches: Dict[str, SwitchIntent]) -> Dict[str, int]:
    """{switch: index of its BGP component}, components joined by the plan's sessions."""
    out: Dict[str, int] = {}
    index = -1
    for start in switches:
        if start in out:
            continue
        index += 1                  # a new component (counting out's values was O(S x C))
        out[start] = index
        todo: List[str] = [start]
        while todo:
            for n in switches[todo.pop()]["bgp"]["neighbors"]:
                if n["name"] not in out and n["name"] in switches:
                    out[n["name"]] = index
                    todo.append(n["name"])
    return out


def assign(switches: Dict[str, SwitchIntent]) -> None:
    """Set every neighbour's ``routes`` (what it sends, the bound above) and ``max_routes``."""
    comp = components(switches)
    totals: Dict[int, int] = {}
    for name, dev in switches.items():
        totals[comp[name]] = totals.get(comp[name], 0) + originated(dev)
    for name, dev in switches.items():
        count = totals[comp[name]]
        limit = route_limit(count)
        for n in dev["bgp"]["neighbors"]:
            n["routes"] = count
            n["max_routes"] = limit
