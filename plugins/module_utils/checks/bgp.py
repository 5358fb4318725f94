# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""BGP session parameters: both ends of a fabric link agree on timers and BFD, and every
neighbour's route limit holds what that neighbour sends.

Both rules read what the renders write verbatim: the switch's bgp keepalive_s / hold_s / bfd
(every neighbour's timers and bfd lines) and each neighbour's max_routes (maximum-routes on
EOS, maximum-prefix on FRR). The route count is recounted here with the renderer's own prefix
list (plan/targets.py announced_prefixes: what render/policy.py writes into RF-CONNECTED, or a
leaf's loopback and the aggregate-address summary-only it renders), not taken from the plan's
``routes``. A leaf's aggregate must hold every host /31 of the leaf and no other leaf's
(bgp-aggregate): a /31 outside it would be suppressed nowhere and announced nowhere else.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import socket
from typing import Any, Dict, List, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import (
    finding, rule, switches)
from ansible_collections.roce.fabric.plugins.module_utils.plan import bgp_limits, targets
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, Finding, SwitchIntent)

PROVES_TIMERS = ("both ends of every fabric BGP session render the same keepalive / hold time "
                 "and both or neither run BFD (an end that drops a session the other still "
                 "holds up blackholes traffic until its hold time)")
PROVES_LIMIT = ("every neighbour's rendered route limit (EOS maximum-routes, FRR "
                "maximum-prefix) is at least the routes that neighbour can send: every prefix "
                "announced in its BGP component (loopbacks and host /31s or the leaves' aggregates), one "
                "path each")
PROVES_AGGREGATE = ("each aggregating leaf's rendered aggregate-address holds every host /31 of "
                    "that leaf, and no two leaves' aggregates overlap (traffic to a host would "
                    "follow the other leaf's announcement)")


def _session(dev: SwitchIntent) -> Tuple[int, int, bool]:
    b = dev["bgp"]
    return b["keepalive_s"], b["hold_s"], b["bfd"]


@rule("bgp-timers", "ERROR", PROVES_TIMERS)
def bgp_timers(_fab: Any, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    by_name = dict((d["name"], d) for d in switches(devices))
    for dev in by_name.values():
        mine = _session(dev)
        for n in dev["bgp"]["neighbors"]:
            peer = by_name.get(n["name"])
            # each link once: from its end with the smaller (name, port)
            if peer is None or (dev["name"], n["port"]) > (n["name"], str(n["peer_port"])):
                continue
            theirs = _session(peer)
            if mine != theirs:
                out.append(finding(
                    "bgp-timers", "ERROR", dev["name"], n["port"],
                    "BGP session %s:%s - %s:%s: keepalive/hold/BFD %d/%d/%s here, %d/%d/%s "
                    "there" % ((dev["name"], n["port"], n["name"], n["peer_port"])
                               + mine[:2] + (_on(mine[2]),) + theirs[:2] + (_on(theirs[2]),)),
                    "give both switches the same roce_fabric.routing keepalive_s, hold_s and "
                    "bfd", keepalive_s=mine[0], hold_s=mine[1], bfd=mine[2],
                    peer_keepalive_s=theirs[0], peer_hold_s=theirs[1], peer_bfd=theirs[2]))
    return out


def _on(flag: bool) -> str:
    return "on" if flag else "off"


@rule("bgp-route-limit", "ERROR", PROVES_LIMIT)
def bgp_route_limit(_fab: Any, devices: Dict[str, Device]) -> List[Finding]:
    by_name = dict((d["name"], d) for d in switches(devices))
    comp = bgp_limits.components(by_name)
    sent: Dict[int, int] = {}
    for name, dev in by_name.items():
        sent[comp[name]] = sent.get(comp[name], 0) + len(targets.announced_prefixes(dev))
    out: List[Finding] = []
    for name, dev in by_name.items():
        routes = sent[comp[name]]
        for n in dev["bgp"]["neighbors"]:
            if n["max_routes"] < routes:
                out.append(finding(
                    "bgp-route-limit", "ERROR", name, n["port"],
                    "neighbour %s (%s) may send %d routes, above the rendered limit %d: the "
                    "session would be torn down" % (n["name"], n["address"], routes,
                                                    n["max_routes"]),
                    "re-plan the fabric so the limit is sized from it (plan/bgp_limits.py: at "
                    "least %d)" % bgp_limits.route_limit(routes),
                    routes=routes, max_routes=n["max_routes"]))
    return out


def _span(prefix: str) -> Tuple[int, int]:
    network = targets.network(prefix)
    ip, _slash, plen = network.partition("/")
    first = int.from_bytes(socket.inet_aton(ip), "big")
    return first, first + (1 << (32 - int(plen))) - 1


@rule("bgp-aggregate", "ERROR", PROVES_AGGREGATE)
def bgp_aggregate(_fab: Any, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    spans: List[Tuple[int, int, str]] = []
    for dev in switches(devices):
        aggregate = dev["bgp"].get("aggregate")
        if not aggregate:
            continue
        low, high = _span(aggregate)
        spans.append((low, high, dev["name"]))
        for port in dev["ports"]:
            address = port.get("address")
            if port["peer_kind"] != "host" or not address:
                continue
            first, last = _span(address)
            if first < low or last > high:
                out.append(finding(
                    "bgp-aggregate", "ERROR", dev["name"], port["name"],
                    "host /31 %s is outside the leaf's aggregate %s: suppressed nowhere, "
                    "announced by no one" % (targets.network(address), aggregate),
                    "leave the port's address to the plan (its block) or set "
                    "routing.advertise specific", aggregate=aggregate))
    spans.sort()
    for (_a, high, left), (low, _b, right) in zip(spans, spans[1:]):
        if low <= high:
            out.append(finding(
                "bgp-aggregate", "ERROR", right, "bgp",
                "its aggregate overlaps %s's: traffic to one leaf's hosts would follow the "
                "other's announcement" % left,
                "give the leaves apart host_p2p blocks (the plan's own blocks never overlap)"))
    return out
