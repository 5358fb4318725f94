#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Report RoCE-relevant facts of host NICs."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: nic_facts
short_description: Report RoCE-relevant facts of host NICs
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Per interface, through sysfs, C(ethtool) and iproute2 C(dcb) only, reports the driver, its
    version and firmware, and the driver stack - V(mlx5-ofed) (MLNX_OFED/DOCA, recognised by its
    C(ecn/) sysfs or C(tc/1/traffic_class)), V(mlx5-inbox), V(bnxt-broadcom) (Broadcom's
    driver, C(bnxt_re) configfs), V(bnxt-upstream), V(ice) or V(no-dcb) - the RDMA device, PCI
    and MAC address, NUMA node and NIC-local CPU count, channels (maximum and current), global
    pause, the DCB APP table (DSCP map, UDP port entries), ETS, PFC with its delay, the DCBX
    mode, ice's private flags and the MTU.
  - What the NIC cannot report (a veth has no DCB and no pause) is returned as V(null); a tool
    that is missing or prints something unexpected leaves its facts V(null) and is named in
    C(missing_tools), never failing the module.
options:
  interfaces:
    description: Interfaces to report; all but C(lo) when omitted.
    type: list
    elements: str
  counters_priorities:
    description:
      - Also report each interface's lossless-path counters under C(counters) - per-priority
        pause frames and discards for these priorities (C(ethtool -S)), and the RDMA port's
        DCQCN and loss counters (C(hw_counters)). Empty list, the default, reports none.
    type: list
    elements: int
    default: []
attributes:
  check_mode:
    support: full
    description: Read-only.
  diff_mode:
    support: none
    description: Read-only.
  facts:
    support: full
    description: Sets C(ansible_facts.roce_nics).
  platform:
    support: full
    platforms: posix
    description: Linux hosts with ethtool and iproute2.
"""

EXAMPLES = r"""
- name: Gather NIC facts
  roce.fabric.nic_facts:
    interfaces: [rdma0, rdma1]

- name: Show the driver stack of rdma0
  ansible.builtin.debug:
    var: ansible_facts.roce_nics.rdma0.driver_stack
"""

RETURN = r"""
ansible_facts:
  description: Facts.
  returned: always
  type: dict
  contains:
    roce_nics:
      description: Interface name to its facts (also C(rdma_port), the RDMA device's port that
        is this netdev, and C(missing_tools), tools gathering needed and did not find).
      type: dict
    roce_host:
      description: This host's C(default_route_interface) (main table) and C(interfaces).
      type: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.roce.fabric.plugins.module_utils.host import live


def main():
    module = AnsibleModule(argument_spec=dict(
        interfaces=dict(type="list", elements="str"),
        counters_priorities=dict(type="list", elements="int", default=[])),
        supports_check_mode=True)
    names = module.params["interfaces"] or sorted(
        n for n in (live.list_dir("/sys/class/net") or []) if n != "lo")
    run = live.tool_runner(module.run_command, module.get_bin_path)

    facts = {}
    for name in names:
        found = live.gather(name, run, live.read_file, live.list_dir)
        if found is None:
            module.fail_json(msg="interface %s does not exist on this host" % name)
        if module.params["counters_priorities"]:
            found["counters"] = live.counters(name, module.params["counters_priorities"],
                                              found["rdma_device"], run, live.read_file,
                                              live.list_dir, found["rdma_port"] or 1)
        facts[name] = found
    host = {"default_route_interface": live.default_route_interface(run),
            "interfaces": sorted(live.list_dir("/sys/class/net") or [])}
    module.exit_json(changed=False, ansible_facts={"roce_nics": facts, "roce_host": host})


if __name__ == "__main__":
    main()
