#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Wait until a switch's BGP sessions and ECMP routes match the plan, or report what does not."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: switch_verify
short_description: Check a switch's live BGP sessions and ECMP width against the plan
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Reads FRR's C(show bgp ipv4 unicast summary json) through vtysh and the kernel's routes
    (C(ip -j route show)), and compares them with O(targets) from
    P(roce.fabric.verify_targets#filter). Retries while BGP converges.
  - Fails, with one row per mismatch, when the state does not match after the last attempt;
    O(fail=false) only reports.
options:
  targets:
    description: Output of the C(roce.fabric.verify_targets) filter for this switch.
    type: dict
    required: true
  sessions:
    description: V(established) - every planned neighbour up; V(configured) - bgpd knows every planned neighbour.
    type: str
    choices: [established, configured]
    default: established
  prefixes:
    description: V(all) - every remote host prefix at plan width; V(present) - only those announced so far.
    type: str
    choices: [all, present]
    default: all
  vtysh:
    description: Command that runs vtysh (a container exec prefix, vty socket arguments).
    type: list
    elements: str
    default: [vtysh]
  retries:
    description: Attempts before giving up.
    type: int
    default: 30
  delay_s:
    description: Seconds between attempts.
    type: float
    default: 1
  fail:
    description: Fail the task when the state does not match.
    type: bool
    default: true
attributes:
  check_mode:
    support: full
    description: Only reads.
  diff_mode:
    support: none
    description: Nothing to diff.
  platform:
    support: full
    platforms: posix
    description: Linux with FRR (SONiC, or FRR routers).
"""

EXAMPLES = r"""
- name: Wait for BGP and ECMP on a leaf
  roce.fabric.switch_verify:
    targets: "{{ inventory_hostname | roce.fabric.verify_targets(plan_result.plan) }}"
    vtysh: [docker, exec, -i, bgp, vtysh]
"""

RETURN = r"""
ok:
  description: Whether everything matched.
  returned: always
  type: bool
rows:
  description: One row per check - device, check (bgp or ecmp), item, expected, actual, ok.
  returned: always
  type: list
  elements: dict
summary:
  description: One line, for example "leaf1a - 2/2 BGP sessions Established, 4/4 host prefixes at plan ECMP width".
  returned: always
  type: str
attempts:
  description: How many attempts it took.
  returned: always
  type: int
"""

import json
import time

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.roce.fabric.plugins.module_utils.deploy import verify


def main():
    module = AnsibleModule(
        argument_spec=dict(
            targets=dict(type="dict", required=True),
            sessions=dict(type="str", default="established", choices=["established",
                                                                      "configured"]),
            prefixes=dict(type="str", default="all", choices=["all", "present"]),
            vtysh=dict(type="list", elements="str", default=["vtysh"]),
            retries=dict(type="int", default=30),
            delay_s=dict(type="float", default=1.0),
            fail=dict(type="bool", default=True),
        ),
        supports_check_mode=True,
    )
    p = module.params
    result = None
    attempt = 0
    for attempt in range(1, max(1, p["retries"]) + 1):
        rc, out, err = module.run_command(p["vtysh"] + ["-c",
                                                        "show bgp ipv4 unicast summary json"])
        summary = json.loads(out) if rc == 0 and out.strip() else {}
        rc2, out2, _err2 = module.run_command(["ip", "-j", "route", "show"])
        routes = json.loads(out2) if rc2 == 0 and out2.strip() else []
        result = verify.check(p["targets"], summary, routes, p["sessions"], p["prefixes"])
        if rc != 0:
            result["ok"] = False
            result["summary"] += "; vtysh failed: %s" % (err or out).strip()
        if result["ok"]:
            break
        if attempt < p["retries"]:
            time.sleep(p["delay_s"])
    result["attempts"] = attempt
    if not result["ok"] and p["fail"]:
        module.fail_json(msg="%s; not matching: %s" % (result["summary"], "; ".join(
            "%s %s expected %s, is %s" % (r["check"], r["item"], r["expected"], r["actual"])
            for r in result["failed"][:10])), **result)
    module.exit_json(changed=False, **result)


if __name__ == "__main__":
    main()
