#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Program a switch's routed Linux netdevs from its rendered config_db.json."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: sonic_netdev
short_description: Program a switch's routed Linux interfaces from its rendered config_db.json
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Does what SONiC's portmgrd and intfmgrd do with CONFIG_DB, for switches whose kernel is
    managed directly (FRR routers in the namespace lab, or a Linux/FRR box standing in for
    SONiC) - C(PORT) MTU and admin status, C(INTERFACE) and C(LOOPBACK_INTERFACE) addresses,
    and a dummy netdev per loopback.
  - Changes only what differs; global IPv4 addresses the plan does not have are removed from
    the planned ports. A planned port the box does not have fails the task before anything is
    changed, naming the ports.
  - On a real SONiC switch use the deploy role's C(sonic) backend instead (config apply-patch).
options:
  config_db:
    description: The rendered config_db.json content (only PORT, INTERFACE and LOOPBACK_INTERFACE are used).
    type: dict
    required: true
  loopback_device:
    description:
      - V(dummy) makes each C(LOOPBACK_INTERFACE) a dummy netdev, as SONiC does; V(lo) puts
        the loopback addresses on C(lo), for kernels built without the dummy driver.
    type: str
    choices: [dummy, lo]
    default: dummy
extends_documentation_fragment:
  - roce.fabric.setting_changes
attributes:
  platform:
    support: full
    platforms: posix
    description: Linux with iproute2.
"""

EXAMPLES = r"""
- name: Program the routed interfaces of a lab switch
  roce.fabric.sonic_netdev:
    config_db: "{{ lookup('ansible.builtin.file', 'intended/configs/leaf1a.json') | from_json }}"
"""

RETURN = r"""
changes:
  description: Each change, with the netdev, setting, before, after and command.
  returned: always
  type: list
  elements: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.roce.fabric.plugins.module_utils.deploy import netdev
from ansible_collections.roce.fabric.plugins.module_utils.host.changes import setting_diffs


def main():
    module = AnsibleModule(argument_spec=dict(
        config_db=dict(type="dict", required=True),
        loopback_device=dict(type="str", default="dummy", choices=["dummy", "lo"])),
        supports_check_mode=True)
    config_db = module.params["config_db"]
    runs = [module.run_command(["ip", "-j", kind, "show"]) for kind in ("link", "addr")]
    for rc, _out, err in runs:
        if rc != 0:
            module.fail_json(msg="ip -j failed: %s" % err)
    changes, missing = netdev.decide(netdev.intended(config_db,
                                                     module.params["loopback_device"]),
                                     netdev.live(runs[0][1], runs[1][1]))
    if missing:
        module.fail_json(msg="ports of the plan missing on this switch, nothing changed: %s"
                         % ", ".join(missing), changes=[])
    diffs = setting_diffs(changes, "netdev")
    for item in [] if module.check_mode else changes:
        rc, out, err = module.run_command(item["argv"])
        if rc != 0:
            module.fail_json(msg="%s failed: %s" % (" ".join(item["argv"]), (err or out).strip()),
                             changes=changes)
    result = dict(changed=bool(changes), changes=changes)
    if module._diff and diffs:
        result["diff"] = diffs
    module.exit_json(**result)


if __name__ == "__main__":
    main()
