# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action plugin roce.fabric.plan: a thin shell over module_utils.plan.build_plan.

It gathers every planned host's roce_* variables, hands them to the core (whose input schema is
the single gate), adds to each input error the file and line the value came from, and never
lets a Python traceback reach the user: an unexpected exception is reported as a bug, with the
traceback only at -vvv.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re
import traceback

from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.inputs import role_vars, validate
from ansible_collections.roce.fabric.plugins.plugin_utils import plan_store, shared_vars

try:   # ansible-core 2.19 data tagging: where a variable's value was read from
    from ansible._internal._datatag._tags import Origin
except ImportError:   # older or newer cores: messages simply carry no origin
    Origin = None

display = Display()
_PATH_PART = re.compile(r"[^.\[\]]+|\[\d+\]")


def _children(hostvars):
    """{group: [child group names]} from the inventory behind hostvars (for leaf pairs)."""
    try:
        groups = hostvars._inventory.groups  # pylint: disable=protected-access
    except AttributeError:
        return {}
    return dict((name, [child.name for child in group.child_groups])
                for name, group in groups.items())


def _origin(hostvars, host, field):
    """{"group": "leaf_pair1" or None, "where": "inventories/example/group_vars/leaf_pair1.yml:3"}
    for the value at ``field`` (dotted path) of ``host``, or None."""
    if Origin is None or not host or host not in hostvars:
        return None
    parts = _PATH_PART.findall(field)
    tag = None
    try:
        node = hostvars[host][parts[0]]
        tag = Origin.get_tag(node)
        for part in parts[1:]:
            key = int(part[1:-1]) if part.startswith("[") else part
            if isinstance(node, dict) and key not in node:
                key = next((k for k in node if str(k) == str(key)), key)
            node = node[key]
            tag = Origin.get_tag(node) or tag
    except Exception:   # pylint: disable=broad-except
        pass        # the origin is a best-effort hint only
    if tag is None and len(parts) == 1:
        tag = _key_tag(hostvars, host, parts[0])
    if tag is None or not getattr(tag, "path", None):
        return None
    path = tag.path
    rel = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    group = re.search(r"group_vars/([^/]+?)(\.ya?ml|\.json)?(/|$)", path)
    return {"group": group.group(1) if group else None, "where": "%s:%s" % (rel, tag.line_num)}


def _key_tag(hostvars, host, name):
    """The origin of a variable's name where its value carries none (a bool or a number: only
    strings and containers are tagged; the name, a YAML key, is)."""
    raw = getattr(hostvars[host], "_vars", None)
    try:
        return next((Origin.get_tag(key) for key in raw if key == name), None)
    except Exception:   # pylint: disable=broad-except
        return None      # a best-effort hint only


def _read(name):
    """True for the variable names the plan reads: roce_* and the roles' prefixes."""
    return name.startswith("roce_") or role_vars.owner(name) is not None


def _may_template(value):
    """True if ``value`` may hold a Jinja template (any string with '{') or is of a type other
    than plain data: such a value is templated for every host."""
    if isinstance(value, str):
        return "{" in value
    if isinstance(value, bool) or value is None or isinstance(value, (int, float)):
        return False
    if isinstance(value, dict):
        return any(_may_template(k) or _may_template(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_may_template(v) for v in value)
    return True


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(("fail_on_error", "return_plan"))

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        hostvars = task_vars["hostvars"]
        try:
            groups, inputs, owned = self._inputs(task_vars, hostvars)
            # first: the role's plan_return_plan feeds return_plan, and its error names the
            # variable and the file it is set in
            self._check_role_vars(groups, inputs, owned)
            try:
                fail_on_error, return_plan = self._options()
            except TypeError as exc:
                return dict(result, failed=True, msg="roce.fabric.plan: fail_on_error, "
                            "return_plan: %s" % exc)
            result_plan = plan.build_plan(groups, inputs)
        except errors.RoceInputError as exc:
            lines = getattr(exc, "lines", [exc])
            for line in lines:
                line.origin = _origin(hostvars, getattr(line, "first_host", line.host),
                                      line.field)
            result.update(failed=True, msg="roce.fabric.plan: invalid inventory, nothing was "
                          "planned, rendered or pushed:\n%s" % exc)
            return result
        except Exception as exc:   # pylint: disable=broad-except
            display.vvv(traceback.format_exc())
            result.update(failed=True, msg="roce.fabric.plan: internal error, a bug in "
                          "roce.fabric rather than in the inventory (%s: %s); nothing was "
                          "rendered or pushed. Please report it with the -vvv output."
                          % (type(exc).__name__, exc))
            return result
        report = plan.format_report(result_plan)
        # Returned, not set as a fact: Ansible deep-copies every fact of every host for each
        # task, which for a large plan set on every host costs minutes. Register the result.
        # Hosts that touch devices: later plays end at once without them (no per-host skips).
        deploy_hosts = sorted(h for h, v in inputs.items() if v.get("roce_deploy") is True)
        # The render actions read the plan from plan_file; the whole plan is returned only where
        # per-host roles read it (a deploy) or when asked (see plan_store).
        result.update(changed=False, report=report, summary=result_plan["summary"],
                      violations=result_plan["violations"], plan_file=plan_store.save(result_plan),
                      deploy_hosts=deploy_hosts)
        if return_plan is True or (return_plan == "auto" and deploy_hosts):
            result["plan"] = result_plan
        if fail_on_error and result_plan["summary"]["errors"]:
            result.update(failed=True, msg="\n".join(report))
        return result

    def _options(self):
        fail_on_error = boolean(self._task.args.get("fail_on_error", True), strict=True)
        return_plan = self._task.args.get("return_plan", "auto")
        if return_plan != "auto":
            return_plan = boolean(return_plan, strict=True)
        return fail_on_error, return_plan

    @staticmethod
    def _check_role_vars(groups, inputs, owned):
        """The roles' variables of every inventory host against their argument specs
        (inputs/role_vars.py), before the plan; refused together with the roce_* errors."""
        found = role_vars.check_hosts(owned)
        if not found:
            return
        refused = validate.RoceInputErrors(found)
        try:
            validate.validate_inventory(groups, inputs)
        except errors.RoceInputError as exc:
            refused.lines = getattr(exc, "lines", [exc]) + refused.lines
        raise refused

    @staticmethod
    def _inputs(task_vars, hostvars):
        """(groups, {host: roce_* variables} of every host in a planned tier, {host: variables
        of the roles' prefixes} of every host of the inventory, also outside --limit)."""
        groups = dict((k, list(v)) for k, v in task_vars["groups"].items())
        groups["_children"] = _children(hostvars)
        fabric = None
        for host in groups.get("all", []):
            if "roce_fabric" in hostvars[host]:
                fabric = hostvars[host]["roce_fabric"]
                break
        wanted = set()
        for group in validate.tier_groups(fabric):
            wanted.update(groups.get(group, []))
        inputs, owned, unreadable = {}, {}, []
        # A group_vars value is one object in the raw variables of every host of the group; if
        # it holds nothing to template, templating it gives the same value for every host, so
        # it is templated once and shared (the roce_fabric of group_vars/all, a tier's model
        # and platform). Anything that may hold a template is still templated per host.
        done = {}       # id(raw value) -> (raw value, templated value or None if per host)
        # hosts with no variable of their own share their groups' values (merged once)
        shared = shared_vars.SharedVars(hostvars, _read)
        for host in groups.get("all", []):
            group_key = shared.key(host)
            kept = shared.get(group_key)
            if kept is not None:
                if host in wanted:
                    inputs[host] = dict(kept[0])
                owned[host] = dict(kept[1])
                continue
            shareable = True
            hv = hostvars[host]
            raw = getattr(hv, "_vars", None)     # HostVarsVars' untemplated variables
            if not isinstance(raw, dict):
                raw = None
            if host in wanted:
                inputs[host] = {}
            owned[host] = {}
            for key in hv:
                if key.startswith("roce_"):
                    if host not in wanted:
                        continue
                    into = inputs[host]
                elif role_vars.owner(key):
                    into = owned[host]
                else:
                    continue
                seen = done.get(id(raw[key])) if raw is not None else None
                if seen is not None and seen[0] is raw[key] and seen[1] is not None:
                    into[key] = seen[1]
                    continue
                shareable = shareable and raw is not None and not _may_template(raw[key])
                try:
                    into[key] = hv[key]
                except Exception as exc:   # pylint: disable=broad-except
                    shareable = False
                    if into is owned[host]:
                        # may name what only this run sets (plan_result): the role's own
                        # argument validation checks it when the role starts
                        continue
                    unreadable.append(errors.RoceInputError(
                        key, "(unreadable)", "a value Ansible can template: %s"
                        % str(exc).splitlines()[0], host))
                    continue
                if raw is not None and seen is None:
                    done[id(raw[key])] = (raw[key], None if _may_template(raw[key])
                                          else into[key])
            shared.keep(group_key, (inputs.get(host, {}), owned[host]), shareable)
        if unreadable:
            raise validate.RoceInputErrors([(e.field, e.value, e.allowed, e.host)
                                            for e in unreadable])
        return groups, inputs, owned
