#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Documentation of the roce.fabric.render action plugin (it runs on the controller only)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: render
short_description: Render the configs, intent and docs of many switches and hosts, and the fabric report, in one task
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Writes, for every switch in O(devices), C(configs/<host>.json) (SONiC config_db) and
    C(configs/<host>.bgpd.conf) (FRR, split mode) or C(configs/<host>.cfg) (Arista EOS),
    C(structured/<host>.yml) (platform-neutral intent) and C(docs/<host>.md) (per-port lossless
    table and where each number came from) under O(output_dir).
  - Numbers are copied from the plan of M(roce.fabric.plan); nothing is recomputed. A plan with
    any ERROR renders nothing.
  - With V(hosts) in O(outputs), writes for every GPU host in O(devices) C(hosts/<host>.yml)
    (its plan - NICs, addresses, QoS and NIC settings, sysctls), C(hosts/<host>/nccl.conf) and
    C(hosts/<host>/sysctl.conf), the files the host role writes, so a host change can be
    reviewed without C(roce_deploy).
  - With V(fabric), writes the fabric report under C(fabric/) - C(README.md), the cabling plan
    (C(cabling.csv), C(cabling.md)), the IP and ASN plan (C(addressing.md)), every rule's verdict
    (C(verdicts.md)), C(topology.svg), one C(buffer-<model>-<platform>-<role>.svg) per switch
    model, the rollout waves (C(rollout.json), C(rollout.md) - the batches a multi-switch
    deploy rolls in) and the failure what-if (C(failures.json) - every failure scenario with its
    oversubscription, ECMP, routing, deadlock and ECN figures - and C(failures.md), the verdict
    per failure class) - from the whole plan, whatever O(devices) holds.
  - Writes only files whose content changes (atomically), so a second run changes nothing.
options:
  plan:
    description:
      - The C(plan) returned by M(roce.fabric.plan) (with its O(roce.fabric.plan#module:return_plan)).
        Give this or O(plan_file).
    type: dict
  plan_file:
    description:
      - The C(plan_file) returned by M(roce.fabric.plan) in the same run; the plan is read from
        it, so no large plan is templated into the task (what the roles use).
    type: path
  devices:
    description: Inventory names to render, typically C(ansible_play_hosts) so C(--limit) applies.
    type: list
    elements: str
    required: true
  output_dir:
    description: Root directory of the rendered files.
    type: path
    required: true
  outputs:
    description:
      - Which files to write. Per switch, V(configs) is the device configuration, V(structured)
        the platform-neutral intent, V(docs) the device document, V(anta) (EOS) an ANTA test
        catalog C(anta/<host>.yml) - BGP sessions, ECMP width per remote prefix, port status,
        speed, lanes and MTU, LLDP neighbours, routing model, PFC/ECN counters - for
        C(anta nrfu); V(hosts) the GPU hosts' intent and files; V(fabric) the fabric report.
      - On fabrics of thousands of switches, V(configs) alone is about a third of the time
        (see the benchmark figures in docs/scale.md).
    type: list
    elements: str
    choices: [configs, structured, docs, anta, hosts, fabric]
    default: [configs, structured, docs, anta]
  check_copy:
    description:
      - In check mode, write what would be rendered into a scratch copy, C(<output_dir>/.check),
        and return it as RV(files_dir), so that a deploy in the same C(--check --diff) run
        compares devices with the new files. O(output_dir)'s own files stay untouched.
      - No effect outside check mode.
    type: bool
    default: false
  diff_full:
    description:
      - With C(--diff), show every changed line of every file. By default configs are shown in
        full and the other files (docs, structured intent, report, pictures) one line each.
    type: bool
    default: false
  workers:
    description:
      - Processes that render the switches and hosts of this task, each a fork of the action's
        process sharing the loaded plan. V(0) - one per CPU the controller lets this process
        use, at most 8, and one per 500 devices at least (a small fabric renders in one
        process). The files are the same for any value.
    type: int
    default: 0
  switch_results:
    description:
      - With V(fabric) in O(outputs), the results of this run's switch renders the change plan
        is made from. By default they are read from where each switch render of this run kept
        them (Ansible's temporary directory of the run), so no task templates every host's
        result.
    type: list
    elements: dict
  baseline_dir:
    description:
      - The deployed-state record (C(switch_deployed_dir)) - the config files the
        P(roce.fabric.switch_deploy#role) role left on each switch after it verified, under
        the same relative paths as O(output_dir) - is the change plan's baseline; the
        controller's previous render never is.
      - A switch the record does not hold has no baseline, is listed as such (class
        C(no-baseline)) and counts as changed; outside C(--limit) that makes it pending.
      - Unset, no switch has a baseline.
    type: path
attributes:
  check_mode:
    support: full
    description:
      - Reports the files that would change and writes nothing, unless O(check_copy) asks for a
        scratch copy.
  diff_mode:
    support: full
    description:
      - Shows every changed line of every file as a unified diff with context; a diff longer
        than 400 lines is summarised per config_db table or EOS section (counts, the keys and the
        field changes they share), never cut off.
  platform:
    support: full
    platforms: posix
    description: Runs on the controller only; no device is contacted.
"""

EXAMPLES = r"""
- name: Render the switches of this play
  roce.fabric.render:
    plan_file: "{{ plan_result.plan_file }}"
    devices: "{{ ansible_play_hosts }}"
    output_dir: "{{ playbook_dir }}/intended"
  run_once: true
"""

RETURN = r"""
rendered:
  description: Number of switches rendered.
  returned: success
  type: int
rendered_hosts:
  description: Number of GPU hosts rendered (0 without V(hosts) in O(outputs)).
  returned: success
  type: int
changed_files:
  description: Paths (relative to output_dir) whose content changed.
  returned: success
  type: list
  elements: str
changed_count:
  description:
    - How many paths changed (the length of RV(changed_files); a message templating it reads
      one number, not a list of 100,000 paths).
  returned: success
  type: int
output_dir:
  description: Absolute output root.
  returned: success
  type: str
files_dir:
  description:
    - Where this run's rendered files are. O(output_dir), or C(<output_dir>/.check) in check
      mode with O(check_copy).
    - Deploy roles read the files from here.
  returned: success
  type: str
written:
  description: Files written (0 in check mode).
  returned: success
  type: int
rendered_switches:
  description: The switches this task rendered (with V(configs) in O(outputs)).
  returned: with V(configs) in O(outputs)
  type: list
  elements: str
recorded:
  description: How many of them the deployed-state record (O(baseline_dir)) holds.
  returned: with V(configs) in O(outputs)
  type: int
baseline_dir:
  description: The deployed-state record compared with (O(baseline_dir), absolute), or null.
  returned: always
  type: str
changes:
  description:
    - Per changed switch, what changes in its config (config_db tables, EOS sections,
      bgpd.conf) and its disruption class (hitless, traffic-affecting, port-flapping, reload),
      docs/deploy.md.
  returned: with V(configs) in O(outputs)
  type: list
  elements: dict
change_table:
  description: The change plan as short table lines (printed before the verdict).
  returned: with V(configs) or V(fabric) in O(outputs)
  type: list
  elements: str
change_plan:
  description:
    - The run's change plan (also C(fabric/changes.md)), every switch with its class, and
      RV(outside_limit).
  returned: with V(fabric) in O(outputs)
  type: dict
outside_limit:
  description: Switches outside this run's C(--limit) or C(--tags) whose configs change too.
  returned: with V(fabric) in O(outputs)
  type: list
  elements: str
covering_limit:
  description: A C(--limit) that covers every switch the change touches.
  returned: with V(fabric) in O(outputs) and switches outside the limit change
  type: str
pending:
  description:
    - The verdict's first words when switches outside this run change too (else empty),
      C(PENDING - N switch(es) outside this run change too) with their names and the
      C(--limit) that covers them. site.yml's last line starts with it.
  returned: with V(fabric) in O(outputs)
  type: str
"""
