# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The failure what-if of the fabric report: fabric/failures.json (every scenario of the
plan's sweep, checks/failures.py, with its figures; the verdict per class) and
fabric/failures.md (the verdict, a picture of the worst oversubscription per orbit against
1:1, and one row per orbit). Field meanings: docs/fabric-and-checks.md, "Failure what-if"."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from typing import Any, Dict, List, Optional

from ansible_collections.roce.fabric.plugins.module_utils.records import Plan

BAR = 40            # characters of the picture's bar at 2:1
SHOWN = 3           # failed names a table cell shows before "and N more"


def failure_files(plan: Plan) -> Dict[str, str]:
    got = plan["failures"]
    return {"fabric/failures.json": failures_json(got), "fabric/failures.md": failures_md(got)}


def failures_json(got: Dict[str, Any]) -> str:
    """One scenario per line: a 10,000-switch fabric's file stays one a reviewer can page."""
    head = dict((k, got[k]) for k in ("scope", "budget", "verdict", "cycles"))
    lines = ["{"]
    lines += ['  "%s": %s,' % (k, json.dumps(v, sort_keys=True)) for k, v in head.items()]
    lines.append('  "scenarios": [')
    rows = got["scenarios"]
    lines += ["    %s%s" % (json.dumps(r, sort_keys=True), "," if i < len(rows) - 1 else "")
              for i, r in enumerate(rows)]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def _ratio(value: Optional[float]) -> str:
    return "-" if value is None else "%.3f:1" % value


def _names(names: List[str]) -> str:
    head = ", ".join(names[:SHOWN])
    return head if len(names) <= SHOWN else "%s and %d more" % (head, len(names) - SHOWN)


def _orbits(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """One row per (class, k, orbit): the worst member (highest oversubscription) of each."""
    best: Dict[Any, Dict[str, Any]] = {}
    order: List[Any] = []
    for r in rows:
        key = (r["class"], r["k"], r["orbit"])
        worse = key in best and (r["oversubscription"] or float("inf")) > (
            best[key]["oversubscription"] or float("inf"))
        if key not in best:
            order.append(key)
            best[key] = dict(r, members=0)
        elif worse:
            best[key] = dict(r, members=best[key]["members"])
        best[key]["members"] += r["equivalent"]
    return [best[k] for k in order]


def _picture(orbits: List[Dict[str, Any]]) -> List[str]:
    """Bars of the worst leaf's oversubscription per orbit; '|' marks 1:1."""
    one = BAR // 2
    out = ["```", "worst leaf host Gb/s / surviving uplink Gb/s   (| = 1:1, bar end = 2:1)"]
    for r in orbits:
        label = ("%s k=%d %s" % (r["class"], r["k"], r["orbit"]))[:44]
        value = r["oversubscription"]
        n = BAR if value is None else min(BAR, int(round(value * one)))
        drawn = ("#" * n).ljust(BAR)
        drawn = drawn[:one] + "|" + drawn[one + 1:]
        shown = _ratio(value) if value is not None or not r["worst_leaf"] else "no uplink left"
        out.append("%-44s %s %s" % (label, drawn, shown))
    out.append("```")
    return out


def failures_md(got: Dict[str, Any]) -> str:
    v = got["verdict"]
    rows = got["scenarios"]
    out = ["# Failure what-if", "",
           "%d scenarios: every spine, super-spine, leaf, pod and plane alone, links and two "
           "failures of a class by orbit (worst member; `members` counts the scenarios it "
           "stands for). Routing figures: %s. Every scenario with its figures is in "
           "failures.json." % (len(rows), got["scope"]), "",
           "## Verdict", "",
           "| class | tolerated losslessly | tolerated at %g:1 | first scenario that breaks it |"
           % v["ratio"], "|---|---|---|---|"]
    for cls, c in v["classes"].items():
        broken = c["broken_at_ratio"] or c["broken_lossless"]
        why = "-" if broken is None else "%s (%s): %s" % (
            " + ".join(broken["failed"]), broken["orbit"], broken["why"])
        out.append("| %s | %d of %d | %d of %d | %s |" % (
            cls, c["tolerated_lossless"], c["max_k"], c["tolerated_at_ratio"], c["max_k"], why))
    for role, n in sorted(v["n_plus_k"].items()):
        out += ["", "%s per %s at %g:1: %d needed (N), N+1 = %d, N+2 = %d; %s has %d."
                % (role.replace("superspines", "Super-spines").capitalize(),
                   "leaf" if role == "spines" else "spine", n["ratio"], n["n"], n["n_plus_1"],
                   n["n_plus_2"], n["switch"], n["have"])]
    budget = dict((k, n) for k, n in got["budget"].items() if k != "oversubscription" and n)
    out += ["", "Budget (roce_fabric.failure_budget, rule failure-budget): %s." % (
        ", ".join("%s %d" % kv for kv in sorted(budget.items())) if budget else "none set")]
    orbits = _orbits(rows)
    out += ["", "## Worst oversubscription per orbit", ""] + _picture(orbits)
    out += ["", "## Orbits", "",
            "| class | k | orbit | worst member | members | worst leaf | leaf ECMP width | "
            "spine tier | routing | ECN before PFC | hosts degraded / cut off |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in orbits:
        out.append("| %s | %d | %s | %s | %d | %s %s | %s | %s | %s | %s | %d / %d |" % (
            r["class"], r["k"], r["orbit"], _names(r["failed"]) or "-", r["members"],
            r["worst_leaf"] or "-", _ratio(r["oversubscription"]) if r["oversubscription"]
            or not r["worst_leaf"] else "(no uplink left)", _width(r["ecmp"]["leaf"]),
            _spine(r), _routing(r["routing"]), _ecn(r["buffer"]), r["hosts_degraded"],
            r["hosts_isolated"]))
    if got["cycles"]:
        out += ["", "## Cyclic buffer dependencies", ""]
        out += ["Each cycle is a ring of ingress buffers (switch, from the neighbour) that wait "
                "on each other for the lossless priority: PFC can deadlock there.", ""]
        out += ["- %s k=%d, %s (%s): %s" % (
            c["class"], c["k"], c["orbit"], _names(c["failed"]),
            " -> ".join("%s (in from %s)" % (n[0], n[1] or "hosts")
                        for n in c["cycle"] + c["cycle"][:1])) for c in got["cycles"]]
    return "\n".join(out) + "\n"


def _width(e: Dict[str, Any]) -> str:
    eff = " (efficiency %.3f)" % e["efficiency"] if "efficiency" in e else ""
    return "%d of %d%s" % (e["width"], e["planned"], eff)


def _spine(r: Dict[str, Any]) -> str:
    if "oversubscription_spine" not in r:
        return "-"
    return "%s %s, width %s" % (r["worst_spine"], _ratio(r["oversubscription_spine"]),
                                _width(r["ecmp"]["spine"]))


def _routing(r: Optional[Dict[str, Any]]) -> str:
    if r is None:
        return "not analysed"
    radius = "unbounded" if r["pause_radius_hops"] is None else "%d hops" % r[
        "pause_radius_hops"]
    return "%s; %s; pause radius %s" % (
        "all leaf pairs routed" if not r["unreachable_pairs"] else
        "%d leaf pairs unreachable" % r["unreachable_pairs"],
        "DEADLOCK (cycle)" if r["deadlock"] else "no cycle", radius)


def _ecn(b: Optional[Dict[str, Any]]) -> str:
    if b is None:
        return "-"
    return "%s: %d PG(s) pause at {:,} B, Kmin {:,} B, Kmax {:,} B (%s)".format(
        b["pause_bytes"], b["kmin_bytes"], b["kmax_bytes"]) % (
        b["switch"], b["congested_pgs"], "yes" if b["ecn_first"] else "NO")
