# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action plugin roce.fabric.plan: a thin shell over module_utils.plan.build_plan."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase

from ansible_collections.roce.fabric.plugins.module_utils import errors, fabric, plan


def _children(hostvars):
    """{group: [child group names]} from the inventory behind hostvars (for leaf pairs)."""
    try:
        groups = hostvars._inventory.groups  # pylint: disable=protected-access
    except AttributeError:
        return {}
    return dict((name, [child.name for child in group.child_groups])
                for name, group in groups.items())


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(("fail_on_error",))

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        fail_on_error = boolean(self._task.args.get("fail_on_error", True), strict=False)
        hostvars = task_vars["hostvars"]
        groups = dict((k, list(v)) for k, v in task_vars["groups"].items())
        groups["_children"] = _children(hostvars)
        wanted = set()
        names = dict(fabric.FABRIC_DEFAULTS["groups"])
        for host in groups.get("all", []):
            hv = hostvars[host]
            if "roce_fabric" in hv and isinstance(hv["roce_fabric"], dict):
                names.update(hv["roce_fabric"].get("groups") or {})
                break
        for key in ("spines", "leaves", "superspines", "hosts"):
            wanted.update(groups.get(names[key], []))
        inputs = {}
        for host in wanted:
            hv = hostvars[host]
            inputs[host] = dict((k, hv[k]) for k in hv if k.startswith("roce_"))
        try:
            result_plan = plan.build_plan(groups, inputs)
        except errors.RoceInputError as exc:
            result.update(failed=True, msg="roce.fabric.plan: invalid inventory: %s" % exc)
            return result
        report = plan.format_report(result_plan)
        # Returned, not set as a fact: Ansible deep-copies every fact of every host for each
        # task, which for a large plan set on every host costs minutes. Register the result.
        result.update(changed=False, report=report, plan=result_plan)
        if fail_on_error and result_plan["summary"]["errors"]:
            result.update(failed=True, msg="\n".join(report))
        return result
