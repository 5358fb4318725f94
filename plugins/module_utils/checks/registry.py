# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rule registry: one function per rule id, registered with its severity and what it proves.

A rule module decorates its function with ``@rule(id, severity, proves)``; checks/run.py imports
every rule module and runs them in its documented order. The rule table of
docs/fabric-and-checks.md is generated from this registry (tools/schema-doc.py), so a rule cannot
exist undocumented or be documented without existing.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, List, NamedTuple, Protocol, cast

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, Finding, SwitchIntent)

Check = Callable[[Any, Dict[str, Device]], List[Finding]]     # (fabric, devices) -> findings


class _MakeFinding(Protocol):
    def __call__(self, rule: str, severity: str, device: str, location: str, message: str,
                 hint: str, **numbers: Any) -> Finding: ...


# errors.finding() itself, which returns errors.py's own declaration of records.Finding
finding: _MakeFinding = errors.finding


class Rule(NamedTuple):
    id: str
    severity: str       # the worst it reports: "ERROR", "WARN" or "ERROR / WARN"
    proves: str         # one line (markdown) for the docs table
    check: Check


RULES: Dict[str, Rule] = {}


def rule(rule_id: str, severity: str, proves: str) -> Callable[[Check], Check]:
    """Register the decorated function as the check of ``rule_id``; one function per id."""
    def register(check: Check) -> Check:
        if rule_id in RULES:
            raise ValueError("rule %s registered twice" % rule_id)
        RULES[rule_id] = Rule(rule_id, severity, proves, check)
        return check
    return register


def switches(devices: Dict[str, Device]) -> List[SwitchIntent]:
    """The switch intents of the plan's devices."""
    return cast(List[SwitchIntent], [d for d in devices.values() if d["kind"] == "switch"])
