# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filter: the rollout waves this run rolls. Documentation: rollout_batches.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils.plan import rollout_run


def _names(value: Any, what: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise AnsibleFilterError("roce.fabric.rollout_batches: %s must be a list of names, got %r"
                                 % (what, value))
    return list(value)


def rollout_batches(plan: Any, hosts: Any, tags: Any = None, changed: Any = None,
                    verified: Any = None) -> Dict[str, Any]:
    if not isinstance(plan, dict) or "devices" not in plan or "summary" not in plan:
        raise AnsibleFilterError("roce.fabric.rollout_batches: expects the plan "
                                 "(plan_result.plan), got %s" % type(plan).__name__)
    return rollout_run.batches(plan, _names(hosts, "hosts"), _names(tags, "tags"),
                               _names(changed, "changed"), _names(verified, "verified"))


class FilterModule(object):
    """roce.fabric rollout filter."""

    def filters(self) -> Dict[str, Callable[..., Any]]:
        return {"rollout_batches": rollout_batches}
