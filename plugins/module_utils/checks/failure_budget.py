# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The failure sweep's verdict - how many failures of each class the fabric survives
losslessly and at 1:1, the spines and super-spines N+k needs - and the ``failure-budget`` rule
that holds the fabric to ``roce_fabric.failure_budget``.

A scenario is *lossless* when BGP still connects every pair of surviving leaves, the surviving
and transient routes have no cyclic buffer dependency, ECN still marks (Kmin) before a PG
pauses with the scenario's congested PGs, and no host loses every NIC. A class is tolerated up
to k failures when every scenario of it with at most k failures is lossless (and, "at 1:1",
keeps the worst leaf at host Gb/s <= surviving uplink Gb/s and three-tier spines within their
planned ratio). Routing that could not be analysed proves nothing: such a class is tolerated
up to 0.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.checks import failure_orbits
from ansible_collections.roce.fabric.plugins.module_utils.checks.failures import (
    CLASSES, EPS, MAX_K, Scenario, Sweep)
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import finding, rule
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import Device, Finding

# roce_fabric.failure_budget key -> scenario class
BUDGET_KEYS = {"links": "link", "leaves": "leaf", "spines": "spine",
               "superspines": "superspine", "pods": "pod", "planes": "plane"}
_LAST: List[Tuple[Dict[str, Device], Dict[str, Any]]] = []      # one sweep per plan


def report(fab: Fabric, devices: Dict[str, Device]) -> Dict[str, Any]:
    """The sweep of a plan: {scenarios, verdict, budget, scope}; computed once per plan (the
    rule and the plan's fabric/failures.json share it)."""
    if _LAST and _LAST[0][0] is devices:
        return _LAST[0][1]
    sweep = Sweep(fab, devices)
    rows = failure_orbits.scenarios(sweep)
    budget = dict(fab.settings["failure_budget"])
    out = {"scope": sweep.routing.scope, "budget": budget,
           "verdict": verdict(sweep, rows, float(budget["oversubscription"])),
           "scenarios": rows, "cycles": _cycles(rows)}
    del _LAST[:]
    _LAST.append((devices, out))
    return out


def lossless(row: Scenario) -> Optional[str]:
    """None when the scenario is lossless, else why not (one phrase)."""
    r = row["routing"]
    if r is None:
        return "routing not analysed"
    if r["unreachable_pairs"]:
        return "%d leaf pair(s) unreachable" % r["unreachable_pairs"]
    if r["deadlock"]:
        return "a cyclic buffer dependency (deadlock)"
    if row["buffer"] is not None and not row["buffer"]["ecn_first"]:
        b = row["buffer"]
        return ("PFC pauses before ECN marks on %s (%d congested PGs pause at %d B, Kmin %d B)"
                % (b["switch"], b["congested_pgs"], b["pause_bytes"], b["kmin_bytes"]))
    if row["hosts_isolated"]:
        return "%d host(s) lose every NIC" % row["hosts_isolated"]
    return None


def within(row: Scenario, ratio: float, above_pod: float) -> Optional[str]:
    """None when the scenario keeps the capacity asked for, else why not."""
    over = row["oversubscription"]
    if row["worst_leaf"] is None:
        return "no leaf left"
    if over is None or over > ratio + EPS:
        return "leaf %s at %s:1 (limit %g:1)" % (row["worst_leaf"], _ratio(over), ratio)
    spine = row.get("oversubscription_spine")
    if "oversubscription_spine" in row and (spine is None or spine > above_pod + EPS):
        return "spine %s at %s:1 (planned %g:1)" % (
            row["worst_spine"], _ratio(spine), above_pod)
    return None


def _ratio(value: Optional[float]) -> str:
    return "inf" if value is None else "%.3g" % value


def verdict(sweep: Sweep, rows: List[Scenario], ratio: float) -> Dict[str, Any]:
    """Per class: the failures tolerated losslessly and at ``ratio`` (1:1 unless the budget
    says otherwise), the first scenario that breaks each; the spines and super-spines N+1 and
    N+2 need."""
    above = float(sweep.fab.settings["max_oversubscription_above_pod"])
    classes: Dict[str, Any] = {}
    for cls in CLASSES:
        mine = [r for r in rows if r["class"] == cls]
        if not mine:
            continue
        got: Dict[str, Any] = {"scenarios": len(mine), "max_k": MAX_K[cls]}
        for key, test in (("lossless", lossless),
                          ("at_ratio", lambda r: lossless(r) or within(r, ratio, above))):
            tolerated, broken = MAX_K[cls], None
            for k in range(1, MAX_K[cls] + 1):
                bad = [(r, test(r)) for r in mine if r["k"] == k and test(r)]
                if bad:
                    tolerated, broken = k - 1, bad[0]
                    break
            if cls == "mixed" and broken is not None:
                # no mixed scenario of one failure: one failure is the single classes' verdict
                tolerated = min([1] + [classes[c]["tolerated_" + key] for c in
                                       ("link", "spine", "superspine") if c in classes])
            got["tolerated_" + key] = tolerated
            got["broken_" + key] = None if broken is None else {
                "failed": broken[0]["failed"], "orbit": broken[0]["orbit"], "why": broken[1]}
        classes[cls] = got
    return {"classes": classes, "ratio": ratio, "n_plus_k": _n_plus_k(sweep, ratio, above)}


def _n_plus_k(sweep: Sweep, ratio: float, above: float) -> Dict[str, Any]:
    """Upper switches a lower switch needs for N+k: ceil(down Gb/s / (ratio x the Gb/s of its
    smallest upper switch)) + k, the worst lower switch's, beside what it has."""
    out: Dict[str, Any] = {}
    for role, lowers, limit in (("spines", sweep.leaves, ratio),
                                ("superspines", sweep.spines, above)):
        need, have, who = 0, 0, None
        for sw in lowers.values():
            if not sw.up:
                continue
            per = min(sum(g) for g in sw.up.values())
            n = int(math.ceil(sw.down_g / (limit * per) - EPS))
            if who is None or n > need:
                need, have, who = n, len(sw.up), sw.name
        if who is not None:
            out[role] = {"have": have, "n": need, "n_plus_1": need + 1, "n_plus_2": need + 2,
                         "switch": who, "ratio": limit}
    return out


def _cycles(rows: List[Scenario]) -> List[Dict[str, Any]]:
    """The cycles the sweep found, once per orbit: the scenario's failed names and the cycle
    through the analysed topology (the representative sub-fabric's switches when the fabric is
    symmetric)."""
    out, seen = [], set()
    for r in rows:
        key = (r["class"], r["k"], r["orbit"])
        if r["routing"] and r["routing"].get("cycle") and key not in seen:
            seen.add(key)
            out.append({"class": r["class"], "k": r["k"], "orbit": r["orbit"],
                        "failed": r["failed"], "cycle": r["routing"]["cycle"]})
    return out


@rule("failure-budget", "ERROR",
      "the fabric survives the failures of `roce_fabric.failure_budget` (links, leaves, spines,"
      " super-spines, pods, planes; up to 2, pods and planes 1) losslessly - every surviving "
      "leaf pair routed, no cyclic buffer dependency, ECN before PFC, no host cut off - with "
      "the worst leaf at most `failure_budget.oversubscription` (1:1); the finding names the "
      "first scenario that breaks it and the spines N+k needs (fabric/failures.md)")
def check_failure_budget(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    budget = fab.settings["failure_budget"]
    asked = [(key, cls, int(budget[key])) for key, cls in BUDGET_KEYS.items()
             if budget.get(key)]
    if not asked:
        return []
    got = report(fab, devices)
    ratio = float(budget["oversubscription"])
    above = float(fab.settings["max_oversubscription_above_pod"])
    out: List[Finding] = []
    for key, cls, want in asked:
        rows = [r for r in got["scenarios"] if r["class"] == cls and 1 <= r["k"] <= want]
        if not rows:
            out.append(finding("failure-budget", "ERROR", fab.settings["name"], key,
                               "failure_budget.%s: %d, but the fabric has no %s to fail"
                               % (key, want, cls), "set failure_budget.%s: 0" % key))
            continue
        bad = [(r, lossless(r) or within(r, ratio, above)) for r in rows]
        bad = [b for b in bad if b[1]]
        if not bad:
            continue
        row, why = bad[0]
        tolerated = got["verdict"]["classes"][cls]["tolerated_at_ratio"]
        out.append(finding(
            "failure-budget", "ERROR", row["failed"][0].split(":")[0], key,
            "failure_budget.%s: %d, but the fabric survives %d %s failure(s) at %g:1 and "
            "losslessly: %s down (%s) leaves %s" % (key, want, tolerated, cls,
                                                    ratio, " + ".join(row["failed"]),
                                                    row["orbit"], why),
            _hint(cls, got["verdict"]["n_plus_k"], want),
            failed=row["failed"], tolerated=tolerated, budget=want,
            oversubscription=row["oversubscription"]))
    return out


def _hint(cls: str, nk: Dict[str, Any], want: int) -> str:
    role = {"spine": "spines", "superspine": "superspines"}.get(cls)
    if role and role in nk:
        got = nk[role]
        return ("N+%d needs %d %s per %s at %g:1 (%s has %d): add %s, or more uplinks per "
                "leaf" % (want, got["n"] + want, role.replace("superspines", "super-spines"),
                          "leaf" if role == "spines" else "spine", got["ratio"], got["switch"],
                          got["have"], role.replace("superspines", "super-spines")))
    return ("add capacity or redundancy for this class (fabric/failures.md lists every "
            "scenario), or lower failure_budget.%s" % {"link": "links", "leaf": "leaves",
                                                       "pod": "pods", "plane": "planes"}
            .get(cls, cls))
