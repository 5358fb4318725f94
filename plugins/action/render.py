# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action plugin roce.fabric.render: write every selected switch's files in one task."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

from ansible.plugins.action import ActionBase

from ansible_collections.roce.fabric.plugins.module_utils import errors, render
from ansible_collections.roce.fabric.plugins.module_utils.plan import build as plan_utils
from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils.inputs import names
from ansible_collections.roce.fabric.plugins.module_utils.render import diff as file_diff

CHECK_DIR = ".check"   # under output_dir: what a check-mode run would render


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(("plan", "devices", "output_dir", "check_copy", "outputs"))

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        args = self._task.args
        plan, root = args.get("plan"), args.get("output_dir")
        if not isinstance(plan, dict) or "devices" not in plan:
            return dict(result, failed=True, msg="plan: pass the registered result of "
                        "roce.fabric.plan, e.g. plan_result.plan")
        if plan["summary"]["errors"]:
            return dict(result, failed=True, msg="the plan has %d ERROR(s); nothing rendered"
                        % plan["summary"]["errors"])
        if not root:
            return dict(result, failed=True, msg="output_dir is required")
        root = os.path.abspath(os.path.expanduser(root))
        wanted = args.get("devices") or []
        missing = [d for d in wanted if d not in plan["devices"]]
        if missing:
            return dict(result, failed=True, msg="devices not in the plan: %s" % missing)
        switches = [d for d in wanted if plan["devices"][d]["kind"] == "switch"]
        hosts = [d for d in wanted if plan["devices"][d]["kind"] == "host"]
        # Check mode leaves output_dir alone but writes a scratch copy (output_dir/.check), so a
        # deploy in the same --check --diff run compares devices with what would be rendered.
        outputs = args.get("outputs") or list(render.OUTPUTS)
        known = render.OUTPUTS + render.FABRIC_OUTPUTS
        if not isinstance(outputs, list) or [o for o in outputs if o not in known]:
            return dict(result, failed=True, msg="outputs: a list of %s, got %r"
                        % (", ".join(known), outputs))
        scratch = self._task.check_mode and bool(args.get("check_copy"))
        files_dir = os.path.join(root, CHECK_DIR) if scratch else root
        changed, diffs = [], []
        try:
            with plan_utils.gc_paused():
                files = {}
                leaves = plan_targets.leaf_prefixes(plan) if "anta" in outputs else None
                for name in switches:
                    files.update(render.render_switch(plan["devices"][name], outputs))
                    if "anta" in outputs:
                        files.update(render.render_anta(plan["devices"][name], plan, leaves))
                if "hosts" in outputs:
                    for name in hosts:
                        files.update(render.render_host(plan["devices"][name]))
                if "fabric" in outputs:
                    files.update(render.render_report(plan))
                self._write(files, root, files_dir, scratch, changed, diffs)
        except errors.RoceInputError as exc:     # a path that would leave output_dir
            return dict(result, failed=True, msg="roce.fabric.render: %s; nothing more written"
                        % exc)
        written = 0 if self._task.check_mode else len(changed)
        result.update(changed=bool(changed), rendered=len(switches),
                      rendered_hosts=len(hosts) if "hosts" in outputs else 0,
                      changed_files=changed,
                      output_dir=root, files_dir=files_dir, written=written)
        if diffs:
            result["diff"] = diffs
        return result

    def _write(self, files, root, files_dir, scratch, changed, diffs):
        for rel, text in sorted(files.items()):
            # Names passed the grammar at the gate; the paths are confined all the same.
            path = names.confined_path(root, rel)
            if scratch:
                _write(names.confined_path(files_dir, rel), text)
            old = None
            if os.path.exists(path):
                with open(path) as handle:
                    old = handle.read()
            if old == text:
                continue
            changed.append(rel)
            if self._task.diff:
                # every changed line (a long diff summarised per table/section, never cut)
                diffs.append({"prepared": file_diff.file_diff(rel, old, text)})
            if not self._task.check_mode:
                _write(path, text)


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp_path = path + ".tmp"
    with open(tmp_path, "w") as handle:
        handle.write(text)
    os.replace(tmp_path, path)   # atomic: never a half-written config
