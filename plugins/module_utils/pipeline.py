# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan with its verdict: inventory -> fabric model -> per-device intent -> every rule.

The stages (docs/architecture.md): hardware <- inputs <- model <- lossless <- plan <- checks, and
this module joins the last two, so that the plan itself never imports the checks. Renderers and
deployers only read what build_plan returns.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time
from typing import Any, Dict, Optional

from ansible_collections.roce.fabric.plugins.module_utils.checks import failure_budget
from ansible_collections.roce.fabric.plugins.module_utils.checks import run as checks
from ansible_collections.roce.fabric.plugins.module_utils.plan import build, summary
from ansible_collections.roce.fabric.plugins.module_utils.plan.summary import format_report
from ansible_collections.roce.fabric.plugins.module_utils.records import Plan

__all__ = ["build_plan", "format_report"]


def build_plan(groups: Dict[str, Any], hostvars: Dict[str, Dict[str, Any]],
               timings: Optional[Dict[str, float]] = None) -> Plan:
    """Plan the whole fabric. Returns {devices, violations, failures, summary}; raises
    RoceInputError (naming host, field, value and what is allowed) on invalid inventory.
    ``timings``, if given, receives the CPU seconds of each stage (benchmarks/bench_plan.py)."""
    clock = time.process_time
    start = clock()
    with build.gc_paused():
        fab, devices = build.build_intent(groups, hostvars)
        intent = clock()
        violations = checks.run_all(fab, devices)
        checked = clock()
        # the failure what-if (fabric/failures.json); the failure-budget rule's, if it ran
        failures = failure_budget.report(fab, devices)
    if timings is not None:
        timings.update(intent=intent - start, checks=checked - intent,
                       failures=clock() - checked)
    return {"devices": devices, "violations": violations, "failures": failures,
            "summary": summary.summary(fab, violations, len(checks.RULE_IDS))}
