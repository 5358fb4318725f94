#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Apply a rendered config_db.json to a SONiC switch as a JSON patch, with a checkpoint."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: sonic_config
short_description: Apply a rendered config_db.json to SONiC as a checked JSON patch with a checkpoint
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Reads the running CONFIG_DB (C(show runningconfiguration all)), computes the RFC 6902 patch
    that makes it carry the rendered config (in the tables the plan owns, its own ports',
    loopbacks', BGP neighbours' and named objects' keys are made equal to the plan and every
    other key is left as it runs; shared tables such as PORT only get the plan's fields), and
    applies it with sonic-utilities' generic
    config updater - C(config checkpoint), C(config apply-patch -d) (dry run, validates
    against the switch's YANG models), C(config apply-patch), C(config save -y).
  - Why not C(config load) - it merges without validation and never deletes a stale key; and
    C(config reload) restarts services. See the collection's docs/deploy.md.
  - An empty patch changes nothing (second run). A failure after the patch started to apply
    runs C(config rollback) to the checkpoint and fails, saying so. The checkpoint is kept on
    success so a later verify failure can still roll back; O(state=forgotten) removes it.
options:
  intended:
    description: The rendered config_db.json content.
    type: dict
  checkpoint:
    description: Checkpoint name to take before applying (and to roll back or forget).
    type: str
    required: true
  patch_path:
    description: Where the computed patch is written on the switch.
    type: path
    default: /var/tmp/roce-fabric/patch.json
  allow_reload_fields:
    description:
      - DEVICE_METADATA fields the patch may change although the change only takes effect after
        a config reload (C(docker_routing_config_mode), C(buffer_model)). By default a patch
        that changes one is refused, naming the consequence.
    type: list
    elements: str
    default: []
  allow_buffer_recreate:
    description:
      - Fields orchagent sets only when it creates a buffer object (a BUFFER_POOL's C(type) or
        C(mode), a BUFFER_PROFILE's C(pool) or threshold mode) and that the plan changes on an
        existing object - the vendor template's C(ingress_lossy_profile) on
        C(ingress_lossy_pool), for example. By default such a patch is refused, one line per
        object with the running and planned values (a SET on the existing object would be
        ignored until C(config reload)).
      - V(true) deletes and re-creates those objects instead, in two C(config apply-patch)
        runs after the checkpoint (the updater re-sorts inside one run and would collapse a
        delete and re-create into the ignored SET) - first the rows using them, then the
        profiles, then the pools; then everything else, which creates them again with the
        planned fields and puts rows the plan does not own back as they ran. The ports lose
        those PGs and queues in between, so use a maintenance window.
    type: bool
    default: false
  hand_over:
    description:
      - Named objects the plan writes, as C(TABLE|name) (for example
        C(BUFFER_PROFILE|pg_lossless_400000_5m_profile)), that the switch runs with other
        fields while keys the plan does not own use them (other ports' BUFFER_PG, BUFFER_QUEUE,
        profile lists, PORT_QOS_MAP or QUEUE rows). By default such a patch is refused, naming
        the object, the differing fields, the users and (for a buffer profile) the extra
        reservation; listed here, the patch rewrites the object for every user.
      - Also refused before anything is applied, and not affected by this option - free the
        object on the switch or change the plan - a plan port that is a PortChannel or VLAN
        member or is bound to a VRF the plan drops, a service (TACACS+, RADIUS, NTP, syslog,
        SNMP, sFlow, DHCP relay) that takes its source from an interface or address the plan
        changes, and a plan port the device's breakout mode (BREAKOUT_CFG) does not have.
      - An entry naming no object the plan writes fails, listing the valid names.
    type: list
    elements: str
    default: []
  state:
    description:
      - V(applied) computes and applies the patch; V(rolled_back) runs C(config rollback) to
        the checkpoint; V(forgotten) deletes the checkpoint.
    type: str
    choices: [applied, rolled_back, forgotten]
    default: applied
attributes:
  check_mode:
    support: full
    description: Computes and shows the patch without touching the switch.
  diff_mode:
    support: full
    description: Shows the patch operations per table.
  platform:
    support: full
    platforms: sonic
    description: SONiC with sonic-utilities' generic config updater (apply-patch, checkpoint).
"""

EXAMPLES = r"""
- name: Apply the rendered config_db.json
  roce.fabric.sonic_config:
    intended: "{{ lookup('ansible.builtin.file', 'intended/configs/leaf1a.json') | from_json }}"
    checkpoint: roce-fabric-before
"""

RETURN = r"""
patch:
  description: The RFC 6902 operations applied (or that would be, in check mode).
  returned: when state is applied
  type: list
  elements: dict
phases:
  description:
    - The patch as the C(config apply-patch) runs that apply it, in order (their concatenation
      is RV(patch)); more than one when objects are re-created (O(allow_buffer_recreate)) or
      pools grow while others are removed or shrunk.
  returned: when state is applied
  type: list
  elements: list
tables:
  description: Operations per table, for example V({"BUFFER_PROFILE" = {"replace" = 2}}).
  returned: when state is applied
  type: dict
steps:
  description: Each command run, with its return code.
  returned: always
  type: list
  elements: dict
rolled_back:
  description: Whether a failure triggered C(config rollback).
  returned: always
  type: bool
ends_at:
  description:
    - Where CONFIG_DB stands after an apply failed and was rolled back, read again from the
      switch and compared path by path with the patch - V(old) (every path as before), V(new)
      (every path applied), V(between) (the message names the paths part way), or V(unknown)
      (it could not be read). The generic config updater applies a patch as a sequence of
      changes and undoes none when one fails, so this is the only way to know.
  returned: when an apply failed after something was applied
  type: str
  sample: old
"""

import json
import os

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.roce.fabric.plugins.module_utils.deploy import buffers as deploy_buffers
from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic as deploy_sonic
from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic_secrets


def _read_again(module, before, patch, checkpoint, result):
    """After a failed apply and its rollback: CONFIG_DB read again, where it stands against the
    patch (result["ends_at"]) and the sentence that says so."""
    rc, out, err = module.run_command(["show", "runningconfiguration", "all"])
    try:
        now = json.loads(out) if rc == 0 else None
    except ValueError:
        now = None
    if now is None:
        result["ends_at"] = "unknown"
        return "; CONFIG_DB could not be read again (%s): where it stands is unknown" % (
            sonic_secrets.redact_text((err or out).strip())[-300:])
    where, paths = deploy_sonic.ends_at(now, before, patch)
    result["ends_at"] = where
    if where == "old":
        return "; CONFIG_DB read again: at its old config (every path of the patch as before)"
    if where == "new":
        return "; CONFIG_DB read again: at its new config (every path of the patch applied)"
    return ("; CONFIG_DB read again: BETWEEN its old and its new config - %d of the patch's %d "
            "paths part way (%s%s): run `config rollback %s` on the switch before anything "
            "else" % (len(paths), len(patch), ", ".join(paths[:3]),
                      ", ..." if len(paths) > 3 else "", checkpoint))


def main():
    module = AnsibleModule(
        argument_spec=dict(
            intended=dict(type="dict"),
            checkpoint=dict(type="str", required=True),
            patch_path=dict(type="path", default="/var/tmp/roce-fabric/patch.json"),
            allow_reload_fields=dict(type="list", elements="str", default=[]),
            allow_buffer_recreate=dict(type="bool", default=False),
            hand_over=dict(type="list", elements="str", default=[]),
            state=dict(type="str", default="applied",
                       choices=["applied", "rolled_back", "forgotten"]),
        ),
        required_if=[("state", "applied", ["intended"])],
        supports_check_mode=True,
    )
    p = module.params
    steps = deploy_sonic.steps(p["checkpoint"], p["patch_path"], "")
    done = []

    def run(step):
        rc, out, err = module.run_command(steps[step])
        done.append({"step": step, "argv": steps[step], "rc": rc,
                     # what the switch prints back may carry its secrets (a passkey in a
                     # failed apply-patch's config dump): redacted before it is kept
                     "output": sonic_secrets.redact_text((out + err).strip())[-2000:]})
        return rc

    if p["state"] != "applied":
        step = "rollback" if p["state"] == "rolled_back" else "forget"
        if not module.check_mode and run(step) != 0:
            module.fail_json(msg="%s failed: %s" % (" ".join(steps[step]), done[-1]["output"]),
                             steps=done, rolled_back=False)
        module.exit_json(changed=True, steps=done, rolled_back=step == "rollback")

    intended = p["intended"]
    rc, out, err = module.run_command(["show", "runningconfiguration", "all"])
    if rc != 0:
        module.fail_json(msg="cannot read the running CONFIG_DB: %s"
                         % sonic_secrets.redact_text(err or out)[-2000:])
    try:
        running = json.loads(out)
    except ValueError as exc:
        module.fail_json(msg="show runningconfiguration all did not print JSON: %s" % exc)
    try:
        phases = deploy_sonic.config_phases(running, intended,
                                            allow_reload=p["allow_reload_fields"],
                                            allow_buffer_recreate=p["allow_buffer_recreate"],
                                            hand_over=p["hand_over"])
    except ValueError as exc:   # management plane, referenced key, reload, create-only, shared
        module.fail_json(msg="%s: nothing was applied" % exc)
    patch = [op for phase in phases for op in phase]
    tables = deploy_sonic.summarize(patch)
    result = dict(changed=bool(patch), patch=patch, phases=phases, tables=tables, steps=done,
                  rolled_back=False)
    if module._diff and patch:
        lines = ["%s %s %s\n" % (op["op"], op["path"],
                                 json.dumps(op.get("value", ""), sort_keys=True))
                 for op in patch]
        result["diff"] = {"before": "", "after": "".join(lines)}
    if not patch or module.check_mode:
        module.exit_json(**result)

    directory = os.path.dirname(p["patch_path"])
    if directory and not os.path.isdir(directory):
        os.makedirs(directory)
    with open(p["patch_path"], "w") as handle:
        json.dump(patch, handle, indent=1, sort_keys=True)
    order = ("checkpoint", "dry_run", "apply", "save")
    if len(phases) > 1:     # one apply-patch run per phase; the dry run checks the whole patch
        base = p["patch_path"][:-5] if p["patch_path"].endswith(".json") else p["patch_path"]
        paths = ["%s.%d.json" % (base, n) for n in range(1, len(phases) + 1)]
        for path, phase in zip(paths, phases):
            with open(path, "w") as handle:
                json.dump(phase, handle, indent=1, sort_keys=True)
        steps.update(deploy_sonic.steps(p["checkpoint"], p["patch_path"], "",
                                        phase_paths=paths))
        order = ("checkpoint", "dry_run") + tuple(
            "apply_%d" % n for n in range(1, len(phases) + 1)) + ("save",)
    for step in order:
        if run(step) != 0:
            results = [(d["step"], d["rc"]) for d in done]
            where = ""
            if deploy_sonic.rollback_needed(results):
                result["rolled_back"] = run("rollback") == 0
                where = _read_again(module, running, patch, p["checkpoint"], result)
            # a rollback writes the old create-only fields onto objects the second run already
            # re-created: orchagent ignores that SET (deploy/buffers.py)
            recreated = result["rolled_back"] and p["allow_buffer_recreate"] and any(
                d["step"] in ("apply_2", "save") for d in done) and \
                deploy_buffers.create_only(running, intended)
            module.fail_json(msg="%s failed%s: %s%s" % (
                " ".join(steps[step]),
                ", rolled back to checkpoint %s" % p["checkpoint"] if result["rolled_back"]
                else "", done[-1]["output"] if not result["rolled_back"] else
                done[-2]["output"],
                "; re-created buffer objects (%s) keep their new fields in orchagent until "
                "`config reload`" % ", ".join(sorted(set("%s|%s" % c[:2] for c in recreated)))
                if recreated else "") + where, **result)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
