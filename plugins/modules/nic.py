#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Apply the plan's RoCE settings to host NICs, changing only what differs."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: nic
short_description: Apply RoCE NIC settings from the roce.fabric plan, changing only what differs
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Reads each interface's live state through the standard kernel interfaces (sysfs,
    C(ethtool), iproute2 C(dcb) and C(ip)) and applies only the settings that differ. A PFC or
    trust write can bounce an mlx5 link, so nothing is written when it already matches.
  - Settings are MTU, DSCP to priority (DCB APP table, which also switches inbox mlx5 to DSCP
    trust; the OFED C(qos/trust) file where it exists), PFC on the plan's priorities only, global
    pause off, CNP DSCP and priority, ECN on the lossless priorities, the default RoCE ToS of
    RDMA-CM (configfs) and the OFED global C(traffic_class), IRQ affinity to NIC-local CPUs,
    channels (the driver's maximum capped at the NIC-local cores, or an override), the /31
    address, and per-NIC policy routing (rule from the address to its own table, default route
    via the leaf).
  - Where each knob lives depends on the driver stack (inbox mlx5, MLNX_OFED mlx5, bnxt, ice,
    no DCB); M(roce.fabric.nic_facts) reports the stack. Inbox mlx5 has no ECN knob (firmware
    nvconfig only) and is reported, never written.
  - A setting the NIC cannot take (a veth has no DCB and no pause) is reported per setting with
    the reason, and fails the task only when listed in O(required_settings).
  - Commands are argv lists; nothing is passed through a shell.
options:
  interfaces:
    description: Desired state per interface, normally the plan's NICs for this host.
    type: list
    elements: dict
    required: true
    suboptions:
      name:
        description: Interface name.
        type: str
        required: true
      mtu_bytes:
        description: MTU.
        type: int
      dscp_prio:
        description: "DSCP to priority map, for example V({26: 3, 48: 6})."
        type: dict
      pause_off:
        description: Turn global 802.3x pause off (it fights PFC).
        type: bool
        default: true
      pfc_priorities:
        description: Priorities with PFC; every other priority gets PFC off.
        type: list
        elements: int
      cnp_dscp:
        description: DSCP of the CNPs this NIC sends as notification point.
        type: int
      cnp_priority:
        description: Priority of the CNPs this NIC sends.
        type: int
      ecn_priorities:
        description: Priorities with RoCE ECN (DCQCN reaction and notification point) enabled.
        type: list
        elements: int
      roce_tos:
        description:
          - ToS byte of RoCE traffic (DSCP << 2 | ECT(0), for example V(106)) for RDMA-CM's
            C(default_roce_tos) and the OFED global C(traffic_class). NCCL does not use
            RDMA-CM; it is marked through C(NCCL_IB_TC) by the host role.
        type: int
      irq_affinity:
        description: Move the NIC's IRQs that sit outside its NUMA-local CPUs onto them.
        type: bool
        default: true
      channels:
        description: Channel count; V(0) means the driver maximum capped at the NIC-local cores.
        type: int
        default: 0
      address:
        description: Address with prefix length, for example V(198.18.64.1/31).
        type: str
      gateway:
        description: The leaf's address on the link.
        type: str
      route_table:
        description: Policy routing table of this NIC.
        type: int
  required_settings:
    description: Settings whose being unsupported fails the task.
    type: list
    elements: str
    default: [mtu, address, policy_rule, policy_route]
extends_documentation_fragment:
  - roce.fabric.setting_changes
attributes:
  platform:
    support: full
    platforms: posix
    description: Linux hosts with iproute2 and ethtool.
"""

EXAMPLES = r"""
- name: Apply this host's NIC settings from the plan
  roce.fabric.nic:
    interfaces:
      - name: rdma0
        mtu_bytes: 9000
        dscp_prio: {26: 3, 48: 6}
        pfc_priorities: [3]
        cnp_dscp: 48
        cnp_priority: 6
        ecn_priorities: [3]
        roce_tos: 106
        address: 198.18.64.1/31
        gateway: 198.18.64.0
        route_table: 100
"""

RETURN = r"""
changes:
  description: Settings changed (or that would change in check mode), per interface.
  returned: always
  type: list
  elements: dict
unsupported:
  description: Settings the NIC cannot take, with the reason.
  returned: always
  type: list
  elements: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.roce.fabric.plugins.module_utils import nic, nic_host


def main():
    module = AnsibleModule(
        argument_spec=dict(
            interfaces=dict(type="list", elements="dict", required=True, options=dict(
                name=dict(type="str", required=True),
                mtu_bytes=dict(type="int"),
                dscp_prio=dict(type="dict"),
                pause_off=dict(type="bool", default=True),
                pfc_priorities=dict(type="list", elements="int"),
                cnp_dscp=dict(type="int"),
                cnp_priority=dict(type="int"),
                ecn_priorities=dict(type="list", elements="int"),
                roce_tos=dict(type="int"),
                irq_affinity=dict(type="bool", default=True),
                channels=dict(type="int", default=0),
                address=dict(type="str"),
                gateway=dict(type="str"),
                route_table=dict(type="int"),
            )),
            required_settings=dict(type="list", elements="str",
                                   default=["mtu", "address", "policy_rule", "policy_route"]),
        ),
        supports_check_mode=True,
    )

    def run(argv):
        return module.run_command(argv)

    # Decide everything first: a required setting the NIC cannot take fails the host before
    # anything is written.
    plans = []
    for want in module.params["interfaces"]:
        name = want["name"]
        have = nic_host.gather(name, run, nic_host.read_file, nic_host.list_dir)
        if have is None:
            module.fail_json(msg="interface %s from the plan does not exist on this host (%s)"
                             % (name, ", ".join(sorted(nic_host.list_dir("/sys/class/net") or []))))
        todo = nic_host.plan_interface(want, have, run)
        plans.extend(todo)
    changes = [i for i in plans if not i["unsupported"]]
    unsupported = [i for i in plans if i["unsupported"]]
    blocking = [u for u in unsupported if u["setting"] in module.params["required_settings"]]
    if blocking:
        module.fail_json(msg="required settings unsupported, nothing changed: %s" % "; ".join(
            "%s %s (%s)" % (u["interface"], u["setting"], u["unsupported"]) for u in blocking),
            changes=[], unsupported=unsupported)
    diffs = nic.setting_diffs(changes, "interface")
    for item in [] if module.check_mode else changes:
        error = nic_host.apply(item, run)
        if error:
            module.fail_json(msg="%s %s: %s" % (item["interface"], item["setting"], error),
                             changes=changes, unsupported=unsupported)
    result = dict(changed=bool(changes), changes=changes, unsupported=unsupported)
    if module._diff and diffs:
        result["diff"] = diffs
    module.exit_json(**result)


if __name__ == "__main__":
    main()
