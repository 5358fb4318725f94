# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cumulus Linux's change classifier: a startup.yaml change per part of NVUE's tree (interfaces,
each QoS section, routing policy, BGP, forwarding), each leaf that changes given its disruption
class (render/change_classes.py) by what NVUE does to apply it (hardware/cumulus.py sources):

- a port's breakout, speed, MTU or admin state re-initialises the link: port-flapping;
- the hash seed restarts switchd, "which causes all network ports to reset" (ECMP page):
  port-flapping for every port;
- buffer pools, the queue map and PFC are qos_infra.conf or PFC changes whose switchd reload
  "might result in momentary packet loss" (QoS page): traffic-affecting;
- ECN thresholds and the watchdog reload switchd without a buffer change: hitless;
- adaptive routing "reloads the switchd service" and re-steers flows: traffic-affecting;
- the BGP ASN restarts FRR (BGP pages): traffic-affecting.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from typing import Any, Dict, List, Set, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import (
    document, ownership)
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes

# (dotted path pattern, reason), first match wins
RULES: Tuple[Tuple[Any, str], ...] = tuple((re.compile(pattern), reason) for pattern, reason in (
    (r"interface\.[^.]+\.link\.(breakout|mtu|speed|state)\b", "port"),
    (r"interface\.[^.]+\.description$", "cosmetic"),
    (r"interface\.[^.]+\.qos\.pfc-watchdog\b", "watchdog"),
    (r"interface\.[^.]+\.qos\.congestion-control\b", "ecn"),
    (r"interface\.[^.]+\.qos\b", "buffer"),
    (r"interface\.[^.]+\.router\.adaptive-routing\b", "adaptive-routing"),
    (r"interface\.", "routing"),
    (r"qos\.(mapping|egress-scheduler)\b", "qos"),
    (r"qos\.(egress-queue-mapping|traffic-pool|pfc)\.", "buffer"),
    (r"qos\.congestion-control\b", "ecn"),
    (r"qos\.pfc-watchdog\b", "watchdog"),
    (r"system\.forwarding\.hash-seed$", "switchd-restart"),
    (r"system\.forwarding\.ecmp-hash\b", "hash"),
    (r"router\.adaptive-routing\b", "adaptive-routing"),
    (r"router\.bgp\.autonomous-system$", "frr-restart"),
    (r"router\.(bgp|policy)\b", "routing"),
    (r"vrf\.[^.]+\.router\.bgp\.neighbor\.[^.]+\.(timers|bfd|address-family\.ipv4-unicast\."
     r"prefix-limits)\b", "bgp-session"),
    (r"vrf\.[^.]+\.router\.bgp\b", "routing"),
))


def reason(path: Tuple[str, ...]) -> str:
    """The change class reason of a leaf of NVUE's tree (change_classes.REASONS id)."""
    dotted = ".".join(path)
    for pattern, why in RULES:
        if pattern.match(dotted):
            return why
    return "unknown"


def _part(path: Tuple[str, ...]) -> Tuple[str, Tuple[str, ...]]:
    """(the part a leaf belongs to, the object it is counted with): interfaces one part, each
    QoS section one, a BGP neighbour an object of its own."""
    if path[0] == "vrf":
        depth = 6 if len(path) > 5 and path[4] == "neighbor" else 4
        return "vrf %s router bgp" % path[1], path[:depth]
    if path[0] == "interface":
        return "interface", path[:2]
    return " ".join(path[:2]), path[:3]


def nvue_parts(old: str, new: str) -> List[change_classes.Part]:
    """Per part of the tree: objects added, removed and changed, and the class from the leaves
    that change."""
    before = dict(document.flatten(ownership.plan_tree(old)))
    after = dict(document.flatten(ownership.plan_tree(new)))
    reasons: Dict[str, Set[str]] = {}
    objects: Dict[Tuple[str, ...], str] = {}         # object -> its part
    for path in set(before) | set(after):
        if before.get(path) != after.get(path):
            part, obj = _part(path)
            reasons.setdefault(part, set()).add(reason(path))
            objects[obj] = part
    # an object is added when none of its leaves was there, removed when none is left
    was = set(_part(p)[1] for p in before)
    now = set(_part(p)[1] for p in after)
    counts: Dict[str, List[int]] = dict((part, [0, 0, 0]) for part in reasons)
    for obj, part in objects.items():
        counts[part][0 if obj not in was else 1 if obj not in now else 2] += 1
    return [change_classes.part("startup.yaml", part, counts[part][0], counts[part][1],
                                counts[part][2], reasons[part]) for part in sorted(reasons)]
