#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Documentation of the roce.fabric.plan action plugin (it runs on the controller only)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: plan
short_description: Plan the whole RoCE fabric once and check every lossless invariant
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Builds the fabric model from the inventory (spines, leaf pairs, GPU hosts and their NICs,
    links, addresses, ASNs), derives every device's intent (per-port PFC headroom, pause point
    and ECN thresholds, QoS maps and queues, BGP and ECMP, PFC watchdog, host NIC settings) and
    runs the fabric-wide checks (ECN before PFC for one PG and under incast, XON below XOFF,
    headroom against the bytes in flight on that very link, buffer budget, PFC/DSCP/lossless
    sets equal on both ends of every link, CNP on a strict lossy queue, MTU chain, PFC watchdog,
    1:1 oversubscription, ECMP width and efficiency, hash entropy and polarization, PFC deadlock
    with and without single-link failures). Checks credit only what the rendered configs carry
    (hash seed and fields, adaptive routing).
  - Every planned host's C(roce_*) variables pass one input schema first (JSON Schema, the
    C(jsonschema) library), which checks types, ranges, name grammars and unknown keys at every
    level, with a "did you mean" for misspellings. A refused inventory fails with one line per problem
    naming the host or the group (with the file and line the value came from), the field, the
    value and what is allowed; nothing is planned. An unexpected error is reported as a bug,
    never as a Python traceback.
  - The roles' variables (prefixes C(switch_deploy_), C(switch_), C(host_), C(nic_), C(plan_),
    C(report_), C(verify_)) of every host of the inventory, also outside C(--limit), pass the
    roles' own argument specs (C(roles/*/meta/argument_specs.yml)) at the same gate, with
    Ansible's type, element and choice rules and a "did you mean" for unknown names; nothing is
    rendered or pushed when one is refused.
  - Always plans every device of the inventory, also under C(--limit); run it with
    C(run_once) and C(register) so it is computed once per run and every host of the play gets
    the result. Each host's part is C(<registered>.plan.devices[inventory_hostname]).
  - The plan is returned rather than set as a fact on purpose; Ansible deep-copies every fact
    of every host for each task, which for a large fabric would cost minutes. Offline it is not
    returned whole either (see O(return_plan)); the render actions read RV(plan_file).
  - Runs on the controller and contacts no device. Invalid inventory fails with one message
    naming the host, the field, the value and what is allowed.
options:
  fail_on_error:
    description:
      - Fail the task when a check reports an ERROR. The role prints the table first and fails
        in a later task, so it sets this to V(false).
    type: bool
    default: true
  return_plan:
    description:
      - Also return the whole plan as RV(plan). V(auto) returns it when a host of the inventory
        deploys (C(roce_deploy)), where the per-host roles read their intent from it. Offline,
        the render actions read the plan from RV(plan_file), because a large plan in a task result is
        deep-copied and templated by Ansible at every use, which for 32,768 GPUs costs minutes.
    type: raw
    default: auto
attributes:
  check_mode:
    support: full
    description: Computes the same plan; changes nothing in either mode.
  diff_mode:
    support: none
    description: Nothing is changed, so there is nothing to diff.
  platform:
    support: full
    platforms: posix
    description: Runs on the controller only; no device is contacted.
requirements:
  - netaddr
  - jsonschema
notes:
  - Every inventory variable, its type, range and default is listed in
    C(docs/fabric-and-checks.md), generated from C(plugins/module_utils/inputs/schema.py).
"""

EXAMPLES = r"""
- name: Plan the fabric once for the whole run
  roce.fabric.plan:
    fail_on_error: false
    return_plan: true
  run_once: true
  register: fabric_plan

- name: Show this switch's BGP neighbours from the plan
  ansible.builtin.debug:
    var: fabric_plan.plan.devices[inventory_hostname].bgp.neighbors
"""

RETURN = r"""
report:
  description: Check summary lines, a table of violations or a one-line all-clear.
  returned: always
  type: list
  elements: str
plan:
  description:
    - V(summary) (device and link counts, errors, warnings), V(violations) (rule, severity,
      device, location, message, numbers, hint), V(devices) (intent per device name) and
      V(failures), the failure what-if (V(scenarios), V(verdict), V(budget), V(scope),
      V(cycles) - the content of C(fabric/failures.json), docs/fabric-and-checks.md).
  returned: when O(return_plan) is V(true), or V(auto) and a host deploys
  type: dict
plan_file:
  description:
    - The whole plan, written into Ansible's temporary directory of this run (removed when the
      run ends); M(roce.fabric.render) reads it (its O(roce.fabric.render#module:plan_file)).
  returned: success
  type: str
summary:
  description: The plan's summary (device and link counts, tiers, pairs, errors, warnings).
  returned: success
  type: dict
violations:
  description: The checks' findings (rule, severity, device, location, message, numbers, hint).
  returned: success
  type: list
  elements: dict
deploy_hosts:
  description: Hosts with C(roce_deploy) true; later plays end at once without them.
  returned: success
  type: list
  elements: str
"""
