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
- the hostname, ``service routing protocols model``, ``ip routing``, and of the QoS, PFC,
  buffer (``platform trident``) and hardware-FIB sections the commands the plan renders: a line
  is the plan's when its command (``setting_key``: the keywords before the first value) is one
  the rendered config carries, and a named QoS or MMU profile when it carries the plan's name
  (``ROCE*``). Any other line of those families - ``platform trident forwarding-table
  partition``, ``ip hardware fib optimize``, another team's ``qos profile`` - is kept: the plan
  does not render it, and EOS restarts its forwarding agents to apply the first two (see
  render/eos/changes.py).

Everything else is kept exactly as it runs (candidate.py). The rendered config carries the
inventory's ``roce_eos_base_config`` after a marker line: split_rendered tells the plan's
blocks from the base config's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import List, Optional, Sequence, Set, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar

RF_PREFIX = "RF-"
# The plan's QoS and MMU profile names (render/eos/cli.py: ROCE_<kmin>_<kmax>, ROCE).
PROFILE_PREFIX = "ROCE"
# Top-level families whose lines the plan owns only command by command (setting_key).
FAMILIES = (("qos",), ("priority-flow-control",), ("platform", "trident"),
            ("ip", "load-sharing"), ("ip", "hardware", "fib"), ("load-balance",))
# Named objects of those families: the name is part of the setting.
NAMED = (("qos", "profile"), ("platform", "trident", "mmu", "queue", "profile"))


class Ownership(object):
    """What the plan owns on one switch, read from its rendered config (the base config's
    lines excluded)."""

    def __init__(self, plan_blocks: Sequence[grammar.Block], whole_families: bool = False) -> None:
        # whole_families: every line of the QoS/PFC/buffer/hardware-FIB families counts as the
        # plan's (the base-config gate, which runs before anything is rendered: a base config
        # may not set what the plan could render)
        self.whole_families = whole_families
        self.ports: Set[str] = set()
        self.asn: Optional[str] = None
        self.neighbors: Set[str] = set()
        self.bgp_keys: Set[str] = set()
        self.keys = set(grammar.head_key(head) for head, _body in plan_blocks)
        self.settings = set(setting_key(k) for k in self.keys if _family(k.split()))
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
        if _family(low) and self.whole_families:
            return "QoS/PFC/ECN/buffer section"
        if _family(low):
            named = _named(words)
            if named is not None:
                return "QoS/PFC/ECN/buffer section" if named.startswith(PROFILE_PREFIX) \
                    else None
            if setting_key(" ".join(words)) in self.settings:
                return "QoS/PFC/ECN/buffer section"
            return None
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


def _family(low: Sequence[str]) -> bool:
    low = [w.lower() for w in low]
    return any(tuple(low[:len(f)]) == f for f in FAMILIES)


def _named(words: Sequence[str]) -> Optional[str]:
    """The profile name of a named QoS/MMU object line, else None."""
    low = [w.lower() for w in words]
    for prefix in NAMED:
        if tuple(low[:len(prefix)]) == prefix and len(words) > len(prefix):
            return words[len(prefix)]
    return None


def setting_key(head: str) -> str:
    """The command a family line sets, without its values: its words up to the first one with a
    digit, at most four ('qos map dscp', 'platform trident mmu headroom-pool', 'ip hardware fib
    optimize', 'priority-flow-control pause watchdog action'); a leading 'no' dropped."""
    words = head.split()
    if words[:1] == ["no"]:
        words = words[1:]
    out = []
    for word in words[:4]:
        if any(c.isdigit() for c in word):
            break
        out.append(word.lower())
    return " ".join(out)


def child_key(line: str) -> str:
    """The setting a router bgp child line sets: 'neighbor <peer>' for any neighbour line, two
    words for bgp/no/redistribute/address-family/vrf/aggregate-address lines, else the first
    word."""
    words = line.split()
    if not words:
        return ""
    if words[0] == "neighbor" and len(words) > 1:
        if words[1] == "interface":
            return "neighbor interface " + " ".join(words[2:3])
        return "neighbor " + words[1]
    # aggregate-address per prefix: the plan's aggregate never replaces another's
    if words[0] in ("bgp", "no", "redistribute", "address-family", "vrf", "vlan",
                    "vlan-aware-bundle", "graceful-restart", "aggregate-address") \
            and len(words) > 1:
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
