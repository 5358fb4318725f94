# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the plan expects a switch to show once deployed: its planned BGP neighbours and, for every
host prefix behind another switch, the number of next hops the plan gives towards it.

Read by the verify role (deploy/verify.py compares it with what the switch prints) and by the
ANTA catalogs.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import socket
from typing import Any, Dict, List, Optional, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.records import Plan, SwitchIntent

# {plane: [(leaf, pod, [host prefixes])]}
LeafPrefixes = Dict[int, List[Tuple[str, Optional[str], List[str]]]]
# (leaf, pod, next hops towards it, [its host prefixes])
RemoteLeaf = Tuple[str, Optional[str], int, List[str]]


def network(address: str) -> str:
    """The network of an IPv4 interface address: '10.0.0.1/31' -> '10.0.0.0/31'. Plain integer
    arithmetic: the plan's addresses passed the gate (dotted quads, IPv4 only), and this runs
    for every host port of every switch (ipaddress was a third of the config render time)."""
    ip, _slash, plen = address.partition("/")
    if plen == "31":      # a link /31 (most calls): the two halves differ in the last bit only;
        head, _dot, last = ip.rpartition(".")     # the gate parsed given ones with inet_pton
        octet = int(last)
        return address if not octet & 1 else "%s.%d/31" % (head, octet - 1)
    length = int(plen) if plen else 32
    value = int.from_bytes(socket.inet_aton(ip), "big")
    mask = (0xFFFFFFFF << (32 - length)) & 0xFFFFFFFF
    return "%s/%d" % (socket.inet_ntoa((value & mask).to_bytes(4, "big")), length)


def connected_prefixes(dev: SwitchIntent) -> List[str]:
    """The prefixes ``dev`` announces (render/policy.py RF-CONNECTED on FRR and EOS): its
    loopback, then each host port's /31, port order."""
    out = [dev["loopback"]]
    for port in dev["ports"]:
        if port["peer_kind"] == "host" and port.get("address"):
            out.append(network(cast(str, port["address"])))
    return out


def announced_prefixes(dev: SwitchIntent) -> List[str]:
    """The prefixes ``dev``'s neighbours receive from it: connected_prefixes, or - a leaf with
    an aggregate (routing.advertise aggregate) - its loopback and the aggregate, whose
    more-specific host /31s it suppresses (summary-only)."""
    aggregate = dev["bgp"].get("aggregate")
    return [dev["loopback"], aggregate] if aggregate else connected_prefixes(dev)


def leaf_prefixes(plan: Plan) -> LeafPrefixes:
    """{plane: [(leaf, pod, [host prefixes])]}: the leaves expected_routes reads, built once per
    plan so that rendering a catalog for every switch does not re-scan every device."""
    out: LeafPrefixes = {}
    for name, dev in plan["devices"].items():
        if dev.get("kind") == "host" or dev.get("role") != "leaf":
            continue
        leaf = cast(SwitchIntent, dev)
        up = [p for p in leaf["ports"]
              if p["peer_kind"] == "host" and p["up"] and p.get("address")]
        aggregate = leaf["bgp"].get("aggregate")
        # what the others see: the block (while a /31 of it is up), not its /31s
        prefixes = ([aggregate] if up else []) if aggregate else [
            network(cast(str, p["address"])) for p in up]
        out.setdefault(leaf.get("plane", 0), []).append((name, leaf.get("pod"), prefixes))
    return out


def remote_leaves(device: str, plan: Plan,
                  leaves: Optional[LeafPrefixes] = None) -> List[RemoteLeaf]:
    """[(leaf, pod, next hops, [host prefixes])] for every other leaf of ``device``'s plane, from
    the plan: a leaf reaches it over all its uplinks; a spine over its links to a leaf of its pod,
    or over all its super-spine uplinks for another pod; a super-spine over its links to the
    destination pod's spines. Planes are separate fabrics. One entry per leaf, not per prefix:
    the ANTA catalogs sample it (their size must not grow with the fabric)."""
    devices = cast(Dict[str, SwitchIntent], plan["devices"])    # the switches are read here
    me = devices[device]
    leaves = leaf_prefixes(plan) if leaves is None else leaves
    up = [p for p in me["ports"] if p["up"]]
    uplinks = sum(1 for p in up if p["peer_kind"] in ("spine", "superspine"))
    links_to: Dict[Optional[str], int] = {}   # a spine's links per leaf, a super-spine's per pod
    for p in up:
        key = devices[p["peer"]].get("pod") if me["role"] == "superspine" else p["peer"]
        links_to[key] = links_to.get(key, 0) + 1
    out: List[RemoteLeaf] = []
    for name, pod, prefixes in leaves.get(me.get("plane", 0), []):
        if name == device:
            continue
        if me["role"] == "leaf" or (me["role"] == "spine" and pod != me.get("pod")):
            width = uplinks
        else:
            width = links_to.get(name if me["role"] == "spine" else pod, 0)
        out.append((name, pod, width, prefixes))
    return out


def expected_routes(device: str, plan: Plan,
                    leaves: Optional[LeafPrefixes] = None) -> Dict[str, int]:
    """{host prefix: number of next hops} that ``device`` must have (remote_leaves per prefix).
    ``leaves``: leaf_prefixes(plan), when the caller has it."""
    return dict((prefix, width) for _name, _pod, width, prefixes
                in remote_leaves(device, plan, leaves) for prefix in prefixes)


def targets(device: str, plan: Plan) -> Dict[str, Any]:
    """What ``device`` must show: its planned neighbours and {host prefix: next hops}."""
    switch = cast(SwitchIntent, plan["devices"][device])
    nbrs = [{"address": n["address"], "name": n["name"]} for n in switch["bgp"]["neighbors"]]
    return {"device": device, "neighbors": nbrs, "routes": expected_routes(device, plan)}
