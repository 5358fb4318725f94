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
    C(ethtool), iproute2 C(dcb) and C(ip)) and applies only the settings that differ, in the
    order the driver stack's vendor applies them. A PFC or trust write can bounce an mlx5 link,
    so nothing is written when it already matches.
  - Settings are MTU, the firmware LLDP agent (ice, turned off; that persists in the NIC) and
    DCBX mode (a ConnectX in firmware DCBX mode is switched to host mode before ETS and PFC, else
    its LLDP agent applies the switch's PFC and ETS over the host's; bnxt without host mode is
    reported with the reason), global pause off,
    DSCP to priority (DCB APP table, which also switches mlx5 to DSCP trust; C(qos/trust) where
    a driver has it), on bnxt the RoCE UDP port 4791 APP entry, ETS (CNP class strict, RoCE and
    default weighted; compact TCs on NICs with fewer than 8), PFC on the plan's priorities only
    (on mlx5 with the cable length its headroom is sized for), CNP DSCP and priority, ECN on the
    lossless priorities, the default RoCE ToS of RDMA-CM (configfs) and the OFED global
    C(traffic_class), IRQ affinity to NIC-local CPUs, channels, the /31 address and per-NIC
    policy routing - written into the host's network manager (systemd-networkd,
    NetworkManager, ifupdown) where one runs, so it keeps them.
  - Stacks (M(roce.fabric.nic_facts) reports them) are recognised by markers that exist only
    there - inbox mlx5, MLNX_OFED/DOCA mlx5 (C(ecn/) sysfs or C(tc/1/traffic_class)), Broadcom's
    bnxt (C(bnxt_re) configfs) and upstream bnxt, ice, no DCB. What a stack cannot take from the
    host (inbox mlx5 ECN, upstream bnxt CNP) is reported with what to do instead.
  - Every change is tried, in the stack's order, even when an earlier one is refused (only a
    setting the driver takes after another, bnxt's PFC after ETS, is skipped when that one
    failed; on Broadcom's bnxt_re ECN is enabled and applied before the CNP values, which it
    resets to 0 when applied with congestion control off); then every setting is read back.
    A setting counts as applied only when the read-back gives the planned value; the task then
    fails naming every setting not as planned - interface, setting, planned and read values
    and the driver's reason (C(dcb app replace) exits 0 even when the kernel refused the
    entries).
  - A missing C(dcb), C(rdma) or C(ethtool) is reported once, naming host, tool, package and
    minimum version; the settings it carries are unsupported.
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
      dscp_default_prio:
        description:
          - Priority of every DSCP not in O(interfaces[].dscp_prio). Given, the NIC's DSCP table
            is written for all 64 DSCPs and any other entry is removed, so no DSCP but the
            planned ones reaches a lossless priority (the drivers' own trust-DSCP map puts
            DSCP 24-31 on priority 3) and a re-planned DSCP leaves no stale entry.
          - Omitted, only the entries of O(interfaces[].dscp_prio) are written (older plans).
        type: int
        choices: [0, 1, 2, 3, 4, 5, 6, 7]
      pause_off:
        description: Turn global 802.3x pause off (it fights PFC).
        type: bool
        default: true
      pfc_priorities:
        description: Priorities with PFC; every other priority gets PFC off.
        type: list
        elements: int
      cable_m:
        description: Cable length to the leaf; mlx5 sizes the PFC headroom for it (its default is 7 m).
        type: float
      ets:
        description:
          - "ETS of the host's egress: V({roce_priority: 3, cnp_priority: 6, roce_bw: 50,
            default_bw: 50}); the CNP class strict."
        type: dict
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
  network_manager:
    description:
      - Where the /31, rule and route are kept across reboots - V(auto) detects a running
        systemd-networkd or NetworkManager, else ifupdown's C(/etc/network/interfaces); V(none)
        leaves it to the boot-time re-apply unit.
    type: str
    choices: [auto, networkd, networkmanager, ifupdown, none]
    default: auto
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
        cable_m: 3
        ets: {roce_priority: 3, cnp_priority: 6, roce_bw: 50, default_bw: 50}
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
network_manager:
  description: The network manager the addresses and routes were written into (or none).
  returned: always
  type: str
missing_tools:
  description:
    - One line per tool gathering needed and did not find - host, tool, package and minimum
      version.
  returned: always
  type: list
  elements: str
refused:
  description:
    - On failure, every setting not as planned after all independent settings were applied,
      with the driver's reason.
  returned: failure
  type: list
  elements: str
"""

import os
import platform

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.roce.fabric.plugins.module_utils.host import live, netmgr, stacks
from ansible_collections.roce.fabric.plugins.module_utils.host.changes import (
    change, setting_diffs)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            interfaces=dict(type="list", elements="dict", required=True, options=dict(
                name=dict(type="str", required=True),
                mtu_bytes=dict(type="int"),
                dscp_prio=dict(type="dict"),
                dscp_default_prio=dict(type="int", choices=list(range(8))),
                pause_off=dict(type="bool", default=True),
                pfc_priorities=dict(type="list", elements="int"),
                cable_m=dict(type="float"),
                ets=dict(type="dict"),
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
            network_manager=dict(type="str", default="auto",
                                 choices=["auto", "networkd", "networkmanager", "ifupdown",
                                          "none"]),
        ),
        supports_check_mode=True,
    )

    run = live.tool_runner(module.run_command, module.get_bin_path)

    wants = module.params["interfaces"]
    manager = module.params["network_manager"]
    if manager == "auto":
        names = netmgr.running_processes()
        manager = netmgr.detect(os.path.exists, lambda name: name[:15] in names)
    # Decide everything first: a required setting the NIC cannot take fails the host before
    # anything is written.
    plans, missing = [], set()
    for want in wants:
        have = live.gather(want["name"], run, live.read_file, live.list_dir)
        if have is None:
            module.fail_json(msg="interface %s from the plan does not exist on this host (%s)"
                             % (want["name"], ", ".join(sorted(live.list_dir("/sys/class/net")
                                                               or []))))
        missing.update(have.get("missing_tools") or ())
        plans.extend(live.plan_interface(want, have, run))
    host = platform.node()
    tool_lines = [stacks.missing_tool_line(host, t) for t in sorted(missing)]
    for line in tool_lines:
        module.warn(line)
    plans = _manager_files(manager, wants) + plans
    changes = [i for i in plans if not i["unsupported"]]
    unsupported = [i for i in plans if i["unsupported"]]
    blocking = [u for u in unsupported if u["setting"] in module.params["required_settings"]]
    if blocking:
        reasons = tool_lines + ["%s %s (%s)" % (u["interface"], u["setting"], u["unsupported"])
                                for u in blocking if not _tool_reason(u)]
        module.fail_json(msg="required settings unsupported, nothing changed: %s"
                         % "; ".join(reasons), changes=[], unsupported=unsupported,
                         network_manager=manager, missing_tools=tool_lines)
    diffs = setting_diffs(changes, "interface")
    if changes and not module.check_mode:
        # Every change in the vendor's order; a refusal is recorded and the rest carry on
        # (stacks.DEPENDS names the few a driver needs in sequence).
        errors = live.apply_all(changes, run, carry_out=lambda item: (
            _write_file(item) if item["setting"] == "network_config" else live.apply(item, run)))
        lines = ["%s %s: %s" % (k[0], k[1], "; ".join(v)) for k, v in sorted(errors.items())
                 if k[1] == "network_config"]
        if any(i["setting"] == "network_config" for i in changes):
            for argv in netmgr.reload_commands(manager, [w["name"] for w in wants]):
                rc, out, err = run(argv)
                if rc != 0:
                    lines.append("%s failed: %s" % (" ".join(argv), (err or out).strip()))
        readback = live.read_back_items(wants, run, live.read_file, live.list_dir)
        lines += live.not_as_planned(errors, readback)
        if lines:
            module.fail_json(msg="not as planned after every independent setting was applied: "
                             "%s" % "; ".join(lines), changes=changes, unsupported=unsupported,
                             refused=lines, network_manager=manager, missing_tools=tool_lines)
    result = dict(changed=bool(changes), changes=changes, unsupported=unsupported,
                  network_manager=manager, missing_tools=tool_lines)
    if module._diff and diffs:
        result["diff"] = diffs
    module.exit_json(**result)


def _tool_reason(item):
    return "tool is missing" in (item["unsupported"] or "")


def _manager_files(manager, wants):
    """The network manager's files of every interface with an address, as changes; a file an
    earlier version wrote where networkd now ignores it (shadowed) is removed."""
    out = []
    for want in wants:
        if not (want.get("address") and want.get("gateway") and
                want.get("route_table") is not None):
            continue
        nic = dict(want, mtu_bytes=want.get("mtu_bytes") or 9000)
        netplan = None
        if manager == "networkd":
            mac = (live.read_file("/sys/class/net/%s/address" % want["name"]) or "").strip()
            netplan = netmgr.netplan_file(want["name"], mac or None, live.read_file,
                                          live.list_dir)
        wanted = netmgr.files(manager, nic, netplan)
        legacy = netmgr.LEGACY_NETWORKD_FILE % want["name"]
        if manager == "networkd" and legacy not in wanted and \
                live.read_file(legacy) is not None:
            wanted[legacy] = None
        for path, text in sorted(wanted.items()):
            current = live.read_file(path)
            if current != text:
                item = change("network_config", path if current is not None else None,
                              path if text is not None else None, None)
                item.update(interface=want["name"], write={"path": path, "value": text,
                                                           "mkdir": None})
                out.append(item)
    return out


def _write_file(item):
    path = item["write"]["path"]
    try:
        if item["write"]["value"] is None:
            os.remove(path)
            return None
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w") as handle:
            handle.write(item["write"]["value"])
        os.chmod(path + ".tmp", 0o600 if path.endswith(".nmconnection") else 0o644)
        os.replace(path + ".tmp", path)
    except (IOError, OSError) as exc:
        return "writing %s failed: %s" % (path, exc)
    return None


if __name__ == "__main__":
    main()
