# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the plan owns on an EOS switch (docs/deploy.md), read from its rendered config.

The plan owns a declared set of the running config:

- the ports it wires and Loopback0 (``interface`` blocks; every spelling - Et1/1, ethernet1/1,
  ``Ethernet 1/1`` - is canonicalised as EOS does before it is compared);
- its ``router bgp`` instance: the settings it renders and the neighbours it plans; any other
  neighbour, peer group, VRF, VLAN or address family in that instance is kept;
- route-maps, prefix-lists and community-lists named ``RF-*``;
- the hostname, ``service routing protocols model``, ``ip routing`` and the QoS, PFC, ECN,
  buffer (``platform trident``) and load-sharing sections.

Everything else is kept exactly as it runs (candidate.py). The rendered config carries the
inventory's ``roce_eos_base_config`` after a marker line: split_rendered tells the plan's
blocks from the base config's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import List, Optional, Sequence, Set, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar

RF_PREFIX = "RF-"


class Ownership(object):
    """What the plan owns on one switch, read from its rendered config (the base config's
    lines excluded)."""

    def __init__(self, plan_blocks: Sequence[grammar.Block]) -> None:
        self.ports: Set[str] = set()
        self.asn: Optional[str] = None
        self.neighbors: Set[str] = set()
        self.bgp_keys: Set[str] = set()
        self.keys = set(grammar.head_key(head) for head, _body in plan_blocks)
        for head, body in plan_blocks:
            words = head.split()
            if words[0].lower() == "interface":
                self.ports.add(grammar.canonical_interface(" ".join(words[1:])))
            elif words[:2] == ["router", "bgp"]:
                self.asn = words[2] if len(words) > 2 else None
                for item in grammar.items(body):
                    key = child_key(item[0])
                    if key.startswith("neighbor "):
                        self.neighbors.add(key.split()[1])
                    else:
                        self.bgp_keys.add(key)

    def owner(self, head: str) -> Optional[str]:
        """What of the plan owns this top-level line, or None when the switch keeps it."""
        words = grammar.head_key(head).split()
        if words[:1] == ["no"]:
            words = words[1:]
        low = [w.lower() for w in words]
        if not low:
            return None
        if low[0] == "interface" and len(words) > 1:
            return "plan port" if words[1] in self.ports else None
        if low[:2] == ["router", "bgp"]:
            return "BGP instance"
        if low[0] in ("hostname",) or low[:3] == ["service", "routing", "protocols"]:
            return "plan setting"
        if low == ["ip", "routing"]:
            return "plan setting"
        if low[0] in ("qos", "priority-flow-control") or low[:2] == ["platform", "trident"] \
                or low[:2] == ["ip", "load-sharing"] or low[:3] == ["ip", "hardware", "fib"] \
                or low[:1] == ["load-balance"]:
            return "QoS/PFC/ECN/buffer/load-sharing section"
        if low[0] == "route-map" and len(words) > 1 and words[1].startswith(RF_PREFIX):
            return "plan policy (RF-*)"
        if low[:2] in (["ip", "prefix-list"], ["ip", "community-list"]) and len(words) > 2 \
                and words[-1 if low[2:3] == ["regexp"] else 2].startswith(RF_PREFIX):
            return "plan policy (RF-*)"
        return None

    def owns_bgp_child(self, line: str) -> bool:
        key = child_key(line)
        if key.startswith("neighbor "):
            return key.split()[1] in self.neighbors
        return key in self.bgp_keys


def child_key(line: str) -> str:
    """The setting a router bgp child line sets: 'neighbor <peer>' for any neighbour line, two
    words for bgp/no/redistribute/address-family/vrf lines, else the first word."""
    words = line.split()
    if not words:
        return ""
    if words[0] == "neighbor" and len(words) > 1:
        if words[1] == "interface":
            return "neighbor interface " + " ".join(words[2:3])
        return "neighbor " + words[1]
    if words[0] in ("bgp", "no", "redistribute", "address-family", "vrf", "vlan",
                    "vlan-aware-bundle", "graceful-restart") and len(words) > 1:
        return " ".join(words[:2])
    return words[0]


def split_rendered(rendered: str) -> Tuple[List[grammar.Block], List[grammar.Block]]:
    """(plan blocks, base-config blocks) of a rendered config: the renderer writes the base
    config between '! base config (roce_eos_base_config)' and the first plan line after it."""
    lines = (rendered or "").splitlines()
    marker = [i for i, line in enumerate(lines) if line.startswith("! base config")]
    if not marker:
        return grammar.read(rendered), []
    start = marker[0] + 1
    end = next((i for i in range(start, len(lines))
                if lines[i].startswith("service routing protocols")), len(lines))
    base = "\n".join(lines[start:end])
    plan = "\n".join(lines[:marker[0]] + lines[end:])
    return grammar.read(plan), grammar.read(base)
