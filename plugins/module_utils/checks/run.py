# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run every rule over the plan (lossless-math.md §3.5, §4, §5, §6).

Each rule returns findings {rule, severity, device, location, message, numbers, hint}. ERROR
stops the run before anything is rendered or pushed; WARN is reported. Every rule is linear in
devices and links; the deadlock analysis uses the fabric's symmetry where that is exact.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List

# The rule modules register their rules on import.
from ansible_collections.roce.fabric.plugins.module_utils.checks import (  # noqa: F401
    bgp, buffer, deadlock, ecmp, failure_budget, links, qos, tiers, waste)
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import RULES
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import Device, Finding

RULE_MODULES = (bgp, buffer, deadlock, ecmp, failure_budget, links, qos, tiers, waste)

# The order rules run and verdicts are listed in (and the docs table's).
RULE_IDS = ("ecn-before-pfc", "xon-below-xoff", "headroom-covers-flight", "buffer-budget",
            "pfc-match", "lossless-class-match", "lossless-only-roce", "cnp-strict-lossy",
            "mtu-chain", "pfc-watchdog", "mtu-path",
            "oversubscription", "ecmp-width", "ecmp-efficiency", "hash-entropy",
            "hash-polarization", "ecn-before-pfc-incast", "pfc-deadlock", "failure-budget",
            "headroom-waste", "bgp-timers", "bgp-route-limit", "bgp-aggregate")
if set(RULE_IDS) != set(RULES):
    raise ImportError("checks/run.py RULE_IDS and the registered rules differ: %s"
                      % sorted(set(RULE_IDS) ^ set(RULES)))


def run_all(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """Every rule's findings: errors first, then by rule, device and place (stable for review)."""
    out = []
    for rule_id in RULE_IDS:
        out.extend(RULES[rule_id].check(fab, devices))
    order = {"ERROR": 0, "WARN": 1}
    out.sort(key=lambda v: (order[v["severity"]], v["rule"], v["device"], v["location"]))
    return out


def rule_table() -> str:
    """The rule table of docs/fabric-and-checks.md (tools/schema-doc.py writes it)."""
    out = ["| rule | severity | what it proves |", "|---|---|---|"]
    for rule_id in RULE_IDS:
        r = RULES[rule_id]
        out.append("| `%s` | %s | %s |" % (r.id, r.severity, r.proves))
    return "\n".join(out)


DOC_SECTIONS = {"rules": ("plugins/module_utils/checks/", rule_table)}
