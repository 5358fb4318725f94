# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan's summary: fabric counts with the checks' verdict, and its human-readable report."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from typing import Any, Dict, List

from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Finding, Plan, Summary)


def summary(fab: Fabric, violations: List[Finding], rules: int) -> Summary:
    """Counts of the fabric, its findings by severity and the number of rules checked."""
    counts = {"ERROR": 0, "WARN": 0}
    for v in violations:
        counts[v["severity"]] += 1
    return {
        "name": fab.settings.get("name", "fabric"),
        "spines": len(fab.spines), "leaves": len(fab.leaves), "leaf_pairs": len(fab.pairs),
        "superspines": len(fab.superspines), "tiers": fab.tiers, "planes": fab.planes,
        "pods": dict((pod["name"], sorted(sw.name for sw in pod["spines"] + pod["leaves"]))
                     for pod in fab.pods),
        "hosts": len(fab.hosts), "nics": sum(len(entry[1]) for entry in fab.hosts),
        "links": len(fab.links), "errors": counts["ERROR"], "warnings": counts["WARN"],
        "checks": rules,
        "pairs": [list(p) for p in fab.pairs],
    }


def format_report(plan: Plan) -> List[str]:
    """Human-readable check summary: a table of violations, or a one-line all-clear."""
    s = plan["summary"]
    head = ("%d spines, %d leaves (%d pairs), %d hosts, %d NICs, %d links; %d rules checked"
            % (s["spines"], s["leaves"], s["leaf_pairs"], s["hosts"], s["nics"], s["links"],
               s["checks"]))
    if s["tiers"] == 3 or s["planes"] > 1:
        head = "%d super-spines, %d pods, %d plane(s); %s" % (
            s["superspines"], len(s["pods"]), s["planes"], head)
    if not plan["violations"]:
        return ["all clear: " + head]
    lines = ["%d error(s), %d warning(s): %s" % (s["errors"], s["warnings"], head),
             "%-7s %-24s %-10s %-22s %s" % ("sev", "rule", "device", "where", "finding / fix")]
    for group in _causes(plan["violations"]):
        v = group[0]
        device = v["device"]
        if len(group) > 1:
            names = [g["device"] for g in group[:SHOWN]]
            more = ", ..." if len(group) > SHOWN else ""
            device = "{:,} devices ({}{})".format(len(group), ", ".join(names), more)
        lines.append("%-7s %-24s %-10s %-22s %s"
                     % (v["severity"], v["rule"], device, v["location"], v["message"]))
        lines.append("%-65s fix: %s" % ("", v["hint"]))
    return lines


SHOWN = 3       # devices named on a collapsed line; the report's checks.md lists every finding
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _causes(violations: List[Finding]) -> List[List[Finding]]:
    """Warnings grouped by cause - one rule, severity and where/message/fix equal once the
    device's name and every number are masked - in first-seen order; errors one each (they stop
    the run before the report that lists them is written, so each is printed)."""
    groups: Dict[Any, List[Finding]] = {}
    for i, v in enumerate(violations):
        if v["severity"] != "WARN":
            groups[i] = [v]
            continue
        key = (v["rule"],) + tuple(_NUMBER.sub("#", v[f].replace(v["device"] or "@", "@"))
                                   for f in ("location", "message", "hint"))
        groups.setdefault(key, []).append(v)
    return list(groups.values())
