# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action plugin roce.fabric.render: write every selected switch's files in one task."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
import os

from ansible.plugins.action import ActionBase

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.plan import build as plan_utils
from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils.inputs import names
from ansible_collections.roce.fabric.plugins.module_utils.render import changes as change_plan
from ansible_collections.roce.fabric.plugins.module_utils.render import diff as file_diff
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.plugin_utils import fork_map, plan_store

CHECK_DIR = ".check"   # under output_dir: what a check-mode run would render
# Below this many devices per process a fork costs more than it saves (a switch or host renders
# in about 1-4 ms; a fork of a worker holding a large plan about 10 ms): the example renders in
# this process.
MIN_DEVICES_PER_PROCESS = 500


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(("plan", "plan_file", "devices", "output_dir", "check_copy", "outputs",
                             "diff_full", "switch_results", "baseline_dir", "workers"))

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        args = self._task.args
        plan, root = args.get("plan"), args.get("output_dir")
        if plan is None and args.get("plan_file"):
            try:        # the plan action's file: no large plan templated into this task
                with plan_utils.gc_paused():     # millions of objects: no collector passes
                    plan = plan_store.load(args["plan_file"])
            except (OSError, ValueError) as exc:
                return dict(result, failed=True, msg="plan_file: %s" % exc)
        if not isinstance(plan, dict) or "devices" not in plan:
            return dict(result, failed=True, msg="plan or plan_file: pass the registered result "
                        "of roce.fabric.plan, e.g. plan_file: plan_result.plan_file")
        if plan["summary"]["errors"]:
            return dict(result, failed=True, msg="the plan has %d ERROR(s); nothing rendered"
                        % plan["summary"]["errors"])
        if not root:
            return dict(result, failed=True, msg="output_dir is required")
        root = os.path.abspath(os.path.expanduser(root))
        # the deployed-state record switch_deploy keeps: the change plan's baseline
        base = args.get("baseline_dir")
        base = os.path.abspath(os.path.expanduser(base)) if base else None
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
        full = bool(args.get("diff_full"))
        processes = args.get("workers") or 0
        if isinstance(processes, str) and processes.strip().isdigit():
            processes = int(processes)      # templated task arguments arrive as text
        if isinstance(processes, bool) or not isinstance(processes, int) or processes < 0:
            return dict(result, failed=True, msg="roce.fabric.render: workers = %r is not valid:"
                        " a whole number of processes, 0 or more (0: one per CPU)"
                        % (args.get("workers"),))
        plan_out = None
        where = (root, files_dir, scratch, full)
        try:
            with plan_utils.gc_paused():
                leaves = plan_targets.leaf_prefixes(plan) if "anta" in outputs else None

                def part(devices):
                    return self._render_part(plan, devices, outputs, leaves, base, where)

                def report(configs, own=None):
                    return self._render_fabric(plan, configs, own, base, where,
                                               task_vars or {})

                # switches only where a switch output is asked for (the report task's devices
                # are every host of the play: it renders no switch file)
                devices = ((switches if set(outputs) & set(render.OUTPUTS) else [])
                           + (hosts if "hosts" in outputs else []))
                # Parts of the switches and hosts in forked processes of this one (the plan
                # is shared, not loaded again; a small fabric renders here, in one). The fabric
                # report is a part of its own beside the hosts; after the switches when this
                # task renders both (it reads their configs). One process more than CPUs then:
                # the report takes about half a host part.
                procs = fork_map.workers(processes, len(devices), MIN_DEVICES_PER_PROCESS)
                beside = "fabric" in outputs and procs > 1 and not (
                    set(outputs) & set(render.OUTPUTS))
                jobs = [functools.partial(part, p) for p in fork_map.split(devices, procs)]
                if beside:
                    jobs.append(functools.partial(report, {}))
                parts = fork_map.fork_run(jobs)
                if "fabric" in outputs and not beside:
                    # the switches this task rendered are in this run's change plan too
                    own = {"rendered_switches": [d for d in devices
                                                 if plan["devices"][d]["kind"] == "switch"],
                           "changes": [r for p in parts for r in p["records"]],
                           "recorded": sum(p["recorded"] for p in parts)}
                    parts.append(report(dict(kv for p in parts for kv in p["configs"].items()),
                                        own if "configs" in outputs else None))
                changed = [rel for p in parts for rel in p["changed"]]
                diffs = [d for p in parts for d in p["diffs"]]     # (path, diff) pairs
                records = [r for p in parts for r in p.get("records", ())]
                recorded = sum(p.get("recorded", 0) for p in parts)
                plan_out = parts[-1]["change_plan"] if "fabric" in outputs else None
        except (errors.RoceInputError, fork_map.WorkerError) as exc:
            # a path that would leave output_dir, or a render process lost
            return dict(result, failed=True, msg="roce.fabric.render: %s; nothing more written"
                        % exc)
        changed.sort()
        diffs = [d for _rel, d in sorted(diffs, key=lambda pair: pair[0])]
        written = 0 if self._task.check_mode else len(changed)
        result.update(changed=bool(changed), rendered=len(switches),
                      rendered_hosts=len(hosts) if "hosts" in outputs else 0,
                      changed_files=changed, changed_count=len(changed),
                      output_dir=root, files_dir=files_dir, written=written,
                      baseline_dir=base)
        if "configs" in outputs:
            result.update(rendered_switches=switches, changes=records, recorded=recorded,
                          change_table=change_plan.table({"devices": records})[1:])
            plan_store.save_changes({"rendered_switches": switches, "changes": records,
                                     "recorded": recorded})
        if plan_out is not None:
            result.update(change_plan=plan_out,
                          change_table=change_plan.table(
                              plan_out, os.path.join(root, "fabric", "changes.md")),
                          outside_limit=(plan_out["outside_limit"] or {}).get("devices", []),
                          covering_limit=(plan_out["outside_limit"] or {}).get("limit"),
                          pending=change_plan.pending(plan_out))
        if diffs:
            result["diff"] = diffs
        return result

    def _change_plan(self, plan, switch_results, base, task_vars):
        """The run's change plan: the records the switch plays returned, and every switch of
        the plan they did not render (outside --limit or --tags) whose configs, rendered now in
        memory, differ from the deployed-state record ``base`` or that it does not hold."""
        records, rendered, recorded = {}, set(), 0
        for res in switch_results:
            if not isinstance(res, dict):
                continue
            rendered.update(res.get("rendered_switches") or [])
            recorded += res.get("recorded") or 0     # what the switch renders found recorded
            for rec in res.get("changes") or []:
                records[rec["device"]] = rec
        others = [n for n, d in sorted(plan["devices"].items())
                  if d["kind"] == "switch" and n not in rendered]
        files = {}
        for name in others:
            files.update(render.render_switch(plan["devices"][name], ("configs",)))
        outside, recorded_outside = _switch_changes(plan, others, files, base)
        recorded += recorded_outside
        baseline = {"source": base, "recorded": recorded,
                    "switches": len(others) + len(rendered)}
        limit = task_vars.get("ansible_limit") or None
        groups = task_vars.get("groups") or {}
        tags = list(task_vars.get("ansible_run_tags") or [])
        return change_plan.change_plan(list(records.values()), outside, plan, limit,
                                       dict(groups), tags, baseline)

    def _render_fabric(self, plan, configs, own, base, where, task_vars):
        """Render and write the fabric report and the change plan; ``configs``: the switch
        configs this task rendered ({path: text}); ``own``: its switch result, None if it
        renders no config. {changed, diffs, change_plan}."""
        files = render.render_report(plan, configs)
        switch_results = self._task.args.get("switch_results")
        if switch_results is None:   # what this run's switch renders kept
            switch_results = plan_store.load_changes()
        if own is not None:
            switch_results = list(switch_results) + [own]
        plan_out = self._change_plan(plan, switch_results, base, task_vars)
        if _worth_writing(plan_out):
            files["fabric/changes.md"] = change_plan.markdown(
                plan_out, plan["summary"].get("name", "fabric"))
        changed, diffs = [], []
        self._write(files, where, changed, diffs)
        return {"changed": changed, "diffs": diffs, "change_plan": plan_out}

    def _render_part(self, plan, devices, outputs, leaves, base, where):
        """Render and write ``devices`` (switches and hosts of the plan): {changed: [path],
        diffs: [(path, diff)], records, recorded: the change records of its switches and how
        many the deployed-state record holds, configs: its switch configs (for the fabric
        report, when this task renders it)}."""
        files = {}
        switches = []
        for name in devices:
            device = plan["devices"][name]
            if device["kind"] == "host":
                files.update(render.render_host(device))
                continue
            switches.append(name)
            files.update(render.render_switch(device, outputs))
            if "anta" in outputs:
                files.update(render.render_anta(device, plan, leaves))
        records, recorded = [], 0
        if "configs" in outputs:
            records, recorded = _switch_changes(plan, switches, files, base)
        configs = {}
        if "fabric" in outputs:     # the deviation report reads them instead of rendering again
            configs = dict((p, files[p]) for name in switches
                           for p in change_plan.config_paths(plan["devices"][name]) if p in files)
        changed, diffs = [], []
        self._write(files, where, changed, diffs)
        return {"changed": changed, "diffs": diffs, "records": records, "recorded": recorded,
                "configs": configs}

    def _write(self, files, where, changed, diffs):
        """Write ``files`` under ``where`` = (root, files_dir, scratch, full); append each
        changed path to ``changed`` and (path, its diff) to ``diffs``."""
        root, files_dir, scratch, full = where
        # the roots resolved once and each directory made once: 100,000+ files at scale
        real_root, real_files_dir = os.path.realpath(root), os.path.realpath(files_dir)
        made = set()
        for rel, text in sorted(files.items()):
            # Names passed the grammar at the gate; the paths are confined all the same.
            path = names.confined_path(root, rel, real_root)
            if scratch:
                _write(names.confined_path(files_dir, rel, real_files_dir), text, made)
            old = None
            if os.path.exists(path):
                with open(path) as handle:
                    old = handle.read()
            if old == text:
                continue
            changed.append(rel)
            if self._task.diff:
                # every changed line (a long diff summarised per table/section, never cut)
                diffs.append((rel, {"prepared": file_diff.file_diff(rel, old, text, full)}))
            if not self._task.check_mode:
                _write(path, text, made)


def _read(path):
    if not os.path.exists(path):
        return None
    with open(path) as handle:
        return handle.read()


def _switch_changes(plan, switches, files, base):
    """Change records of ``switches`` from their config files in the deployed-state
    record ``base`` (None: no record) to ``files`` (this render), and how many the record
    holds."""
    out, recorded = [], 0
    real_base = os.path.realpath(base) if base else None     # resolved once: 10,000+ switches
    for name in switches:
        paths = [p for p in change_plan.config_paths(plan["devices"][name]) if p in files]
        old = dict((p, _read(names.confined_path(base, p, real_base)) if base else None)
                   for p in paths)
        recorded += bool(paths) and all(v is not None for v in old.values())
        record = change_plan.device_change(plan["devices"][name], old,
                                           dict((p, files[p]) for p in paths))
        if record is not None:
            out.append(record)
    return out, recorded


def _worth_writing(plan_out):
    """changes.md is written when a switch config differs from its baseline or has none (a run
    that changes nothing leaves the last plan)."""
    return bool(plan_out["devices"])


def _write(path, text, made=None):
    folder = os.path.dirname(path)
    if made is None or folder not in made:
        os.makedirs(folder, exist_ok=True)
        if made is not None:
            made.add(folder)
    tmp_path = path + ".tmp"
    with open(tmp_path, "w") as handle:
        handle.write(text)
    os.replace(tmp_path, path)   # atomic: never a half-written config
