# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""EOS's change classifier: a CLI config change per top-level section kind (interface, qos
profile, router bgp, ...) and, inside interfaces and qos profiles, by the lines that change, each
given its disruption class (render/change_classes.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes

# EOS top-level sections by prefix (longest first), and interface / qos profile lines
SECTIONS = (
    ("platform trident mmu", "buffer"),
    ("platform trident forwarding-table", "agent-restart"),
    ("ip hardware fib optimize", "agent-restart"),
    ("ipv6 hardware fib optimize", "agent-restart"), ("qos profile", None), ("qos map", "qos"),
    ("qos", "qos"), ("priority-flow-control", "watchdog"), ("router bgp", None),
    ("ip prefix-list", "routing"), ("route-map", "routing"), ("ip community-list", "routing"),
    ("ip routing", "routing"), ("ip load-sharing", "hash"), ("ip hardware fib", "hash"),
    ("interface", None), ("service routing protocols model", "reload"),
    ("hostname", "cosmetic"),
)
LINES = (
    ("description", "cosmetic"), ("speed", "port"), ("mtu", "port"),
    ("error-correction", "port"), ("shutdown", "port"), ("no shutdown", "port"),
    ("random-detect ecn", "ecn"), ("priority-flow-control pause watchdog", "watchdog"),
    ("ip address", "routing"), ("no switchport", "routing"), ("service-profile", "qos"),
)


def _eos_kind(head: str) -> Tuple[str, Optional[str]]:
    for prefix, reason in SECTIONS:
        if head == prefix or head.startswith(prefix + " "):
            return prefix, reason
    return head.split()[0], "unknown"


def _line_reason(line: str, default: str) -> str:
    text = line.strip()
    for prefix, reason in LINES:
        if text == prefix or text.startswith(prefix + " "):
            return reason
    return default


def eos_parts(old: str, new: str) -> List[change_classes.Part]:
    """Per EOS section kind (interface, qos profile, router bgp, ...): sections added, removed
    and changed, and the class from the lines that change."""
    before, after = grammar.sections(old or ""), grammar.sections(new or "")
    groups: Dict[str, Dict[str, Any]] = {}
    for head in set(before) | set(after):
        a, b = before.get(head), after.get(head)
        if a == b:
            continue
        kind, reason = _eos_kind(head)
        entry = groups.setdefault(kind, {"added": 0, "removed": 0, "changed": 0,
                                         "reasons": set()})
        default = reason or ("qos" if kind == "qos profile" else "routing")
        if a is None or b is None:
            entry["added" if a is None else "removed"] += 1
            lines = b if a is None else a
        else:
            entry["changed"] += 1
            lines = list(set(a) ^ set(b))
        if reason is not None and kind != "interface":
            entry["reasons"].add(reason)
        elif kind == "router bgp":
            # a neighbour's timers, BFD or route limit alone is hitless; any other line not
            entry["reasons"].update("bgp-session" if change_classes.BGP_SESSION.match(line)
                                    else "routing" for line in lines or [head])
        else:
            entry["reasons"].update(_line_reason(line, default) for line in lines or [head])
    out = []
    for kind, g in sorted(groups.items()):
        # a one-line command whose value changes is one section removed and one added: changed
        paired = min(g["added"], g["removed"])
        out.append(change_classes.part("eos", kind, g["added"] - paired,
                                       g["removed"] - paired, g["changed"] + paired,
                                       g["reasons"]))
    return out
