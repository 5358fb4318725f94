# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A host NIC's live state through the standard interfaces (sysfs, ethtool, dcb, ip), the
changes it needs in its stack's vendor order, carrying them out, and reading every one back.

``run(argv) -> (rc, stdout, stderr)``, ``read(path) -> str or None`` and ``listdir(path)`` are
injected, so the nic_facts / nic modules and roce-check pass the real ones and tests pass
recorded hosts. A setting counts as applied only when reading it back gives the planned value:
``dcb app replace`` exits 0 even when the kernel refused the entries (iproute2 6.1-7.1,
host-audit.md #4), and a configfs store may be rejected by firmware.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.host import (
    netdev, parse, rdma as rdma_side, stacks)
from ansible_collections.roce.fabric.plugins.module_utils.host.changes import (
    Change, ListDir, Read, Run, change)


def read_file(path: str) -> Optional[str]:
    """Contents of ``path``, or None when it does not exist or cannot be read."""
    try:
        with open(path) as handle:
            return handle.read()
    except (IOError, OSError):
        return None


def list_dir(path: str) -> Optional[List[str]]:
    """Entries of directory ``path``, or None."""
    try:
        return os.listdir(path)
    except OSError:
        return None


def _output(run, argv):
    rc, out, err = run(argv)
    return out if rc == 0 else (err or "not supported")


def gather(name: str, run: Run, read: Read, listdir: ListDir) -> Optional[Dict[str, Any]]:
    """Facts of interface ``name``: driver stack, RDMA device, NUMA, channels, pause, DCB (APP
    table, ETS, PFC, DCBX mode), private flags, MTU and the RDMA side."""
    base = "/sys/class/net/%s" % name
    if read(base + "/mtu") is None:
        return None
    rc, out, _err = run(["ethtool", "-i", name])
    driver = parse.parse_ethtool_driver(out) if rc == 0 else {"driver": None}
    rc, out, err = run(["ethtool", "-l", name])
    channels = parse.parse_ethtool_channels(out) if rc == 0 else None
    rdma = sorted(listdir(base + "/device/infiniband") or [])
    rdma = rdma[0] if rdma else None

    def exists(path):
        return listdir(path) is not None or read(path) is not None
    stack = stacks.detect(driver.get("driver"), exists, name, rdma)
    numa = (read(base + "/device/numa_node") or "").strip()
    local = read(base + "/device/local_cpulist")
    cpus = parse.parse_cpulist(local if local else read("/sys/devices/system/cpu/online"))
    facts = {
        "name": name,
        "mtu_bytes": int(read(base + "/mtu").strip()),
        "driver": driver.get("driver"),
        "driver_version": driver.get("version"),
        "firmware": driver.get("firmware"),
        "driver_stack": stack,
        "pci_address": driver.get("bus_info"),
        "mac_address": (read(base + "/address") or "").strip() or None,
        "rdma_device": rdma,
        "numa_node": int(numa) if numa.lstrip("-").isdigit() else None,
        "local_cpus": len(cpus),
        "local_cpu_list": cpus,
        "channels": channels,
        "pause": parse.parse_ethtool_pause(_output(run, ["ethtool", "-a", name])),
        "dcb_app": parse.parse_dcb_app(_output(run, ["dcb", "-j", "app", "show", "dev", name])),
        "pfc": parse.parse_dcb_pfc(_output(run, ["dcb", "pfc", "show", "dev", name])),
        "ets": None, "dcbx": None, "priv_flags": None,
    }
    if facts["dcb_app"] is not None:
        facts["ets"] = parse.parse_dcb_ets(_output(run, ["dcb", "ets", "show", "dev", name]))
        facts["dcbx"] = parse.parse_dcb_dcbx(_output(run, ["dcb", "dcbx", "show", "dev", name]))
    if stack == "ice":
        facts["priv_flags"] = parse.parse_ethtool_priv_flags(
            _output(run, ["ethtool", "--show-priv-flags", name]))
    # roce_nics.<nic>.dscp_prio predates dcb_app; kept so playbooks reading it keep working
    facts["dscp_prio"] = (facts["dcb_app"] or {}).get("dscp_prio") \
        if facts["dcb_app"] is not None else None
    facts["rdma"] = rdma_side.gather(name, stack, rdma, driver.get("bus_info"), read, listdir)
    return facts


def gather_addresses(name: str, run: Run) -> List[str]:
    """Addresses on ``name`` as 'ip/len'."""
    rc, out, _err = run(["ip", "-j", "addr", "show", "dev", name])
    addrs = []
    if rc == 0 and out.strip():
        for link in json.loads(out):
            for a in link.get("addr_info", []):
                if a.get("family") == "inet":
                    addrs.append("%s/%s" % (a["local"], a["prefixlen"]))
    return addrs


def gather_rules(run: Run) -> List[Tuple[Any, str, Any]]:
    rc, out, _err = run(["ip", "-j", "rule", "show"])
    rules = json.loads(out) if rc == 0 and out.strip() else []
    return [(r.get("src"), str(r.get("table")), r.get("priority")) for r in rules]


def gather_default_route(table: Any, run: Run) -> List[Tuple[Any, Any]]:
    rc, out, _err = run(["ip", "-j", "route", "show", "table", str(table), "default"])
    routes = json.loads(out) if rc == 0 and out.strip() else []
    return [(r.get("gateway"), r.get("dev")) for r in routes]


def plan_interface(want: Dict[str, Any], have: Dict[str, Any], run: Run) -> List[Change]:
    """Every decision for one interface, in its stack's vendor order: ``want`` is the nic
    module's interface entry, ``have`` its gathered facts. Shared by the nic module and
    roce-check."""
    desired = {"name": want["name"], "mtu_bytes": want.get("mtu_bytes") or have["mtu_bytes"],
               "dscp_prio": dict((int(k), int(v)) for k, v in
                                 (want.get("dscp_prio") or {}).items()),
               "pause_off": want.get("pause_off", True),
               "pfc_priorities": want.get("pfc_priorities"),
               "ets": want.get("ets"), "cable_m": want.get("cable_m")}
    if have["channels"]:
        desired["channels"] = netdev.channel_target(have["channels"], have["local_cpus"],
                                                    want.get("channels") or None)
    stack = have["driver_stack"]
    todo = netdev.decide(desired, have, stack)
    todo += rdma_side.decide(want, have, stack, have["rdma_device"], have["pci_address"],
                             have["rdma"])
    if want.get("address") and want.get("gateway") and want.get("route_table") is not None:
        todo += routing_changes(want, run)
    for item in todo:
        item["interface"] = want["name"]
    return stacks.ordered(stack, todo)


def routing_changes(desired: Dict[str, Any], run: Run) -> List[Change]:
    """Address, policy rule and per-NIC default route (host-nic.md §4), as argv changes."""
    name, table = desired["name"], desired["route_table"]
    addr, gateway = desired["address"], desired["gateway"]
    src = addr.split("/")[0]
    out = []
    if addr not in gather_addresses(name, run):
        out.append(change("address", None, addr, ["ip", "addr", "replace", addr, "dev", name]))
    if (src, str(table), 1000 + table) not in gather_rules(run):
        out.append(change("policy_rule", None, "from %s table %d" % (src, table),
                          ["ip", "rule", "add", "from", src, "table", str(table),
                           "priority", str(1000 + table)]))
    if (gateway, name) not in gather_default_route(table, run):
        out.append(change("policy_route", None, "default via %s table %d" % (gateway, table),
                          ["ip", "route", "replace", "default", "via", gateway, "dev", name,
                           "table", str(table)]))
    return out


def apply(item: Change, run: Run,
          makedirs: Callable[[str], Any] = os.mkdir) -> Optional[str]:
    """Carry out one change: its argv, or its sysfs/configfs write. Returns an error or None."""
    if item["argv"]:
        rc, out, err = run(item["argv"])
        if rc != 0 and item["setting"] == "global_pause":
            # ethtool -A can exit non-zero when only autoneg is unsupported although rx/tx
            # were applied (host-nic.md §1.3): the read-back judges it.
            rc = 0
        return None if rc == 0 else "%s failed: %s" % (" ".join(item["argv"]),
                                                       (err or out).strip())
    target = item["write"]
    try:
        if target["mkdir"] and not os.path.isdir(target["mkdir"]):
            makedirs(target["mkdir"])
        with open(target["path"], "w") as handle:
            handle.write(target["value"])
    except (IOError, OSError) as exc:
        return "writing %s to %s failed: %s" % (target["value"], target["path"], exc)
    return None


def read_back(wants: Iterable[Dict[str, Any]], run: Run, read: Read,
              listdir: ListDir) -> List[str]:
    """After the changes: every planned interface gathered and decided again. Whatever still
    differs was refused, whatever any tool said: one line per setting with the planned and the
    read-back value. Empty when everything reads back as planned."""
    failures = []
    for want in wants:
        have = gather(want["name"], run, read, listdir)
        if have is None:
            failures.append("%s: the interface is gone" % want["name"])
            continue
        for item in plan_interface(want, have, run):
            if not item["unsupported"]:
                failures.append("%s %s: planned %s, read back %s" % (
                    want["name"], item["setting"], item["desired"], item["current"]))
    return failures


# Lossless-path counters a RoCE NIC exposes (host-nic.md §7): per-priority pause frames from
# ethtool -S (mlx5 names), DCQCN and loss counters from the RDMA port's hw_counters.
ETHTOOL_COUNTERS = ("rx_prio{p}_pause", "tx_prio{p}_pause", "rx_prio{p}_discards",
                    "rx_discards_phy", "tx_pause_storm_error_events")
HW_COUNTERS = ("np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
               "out_of_sequence", "packet_seq_err", "local_ack_timeout_err")


def counters(name: str, priorities: Iterable[int], rdma: Optional[str], run: Run, read: Read,
             listdir: ListDir) -> Dict[str, Any]:
    """{counter: value} of the lossless path of ``name``; empty when the NIC reports none."""
    rc, out, _err = run(["ethtool", "-S", name])
    stats = parse.parse_ethtool_stats(out) if rc == 0 else {}
    found = {}
    for pattern in ETHTOOL_COUNTERS:
        for p in (priorities if "{p}" in pattern else [None]):
            key = pattern.format(p=p)
            if key in stats:
                found[key] = stats[key]
    if rdma:
        base = "/sys/class/infiniband/%s/ports/1/hw_counters" % rdma
        present = set(listdir(base) or [])
        for key in HW_COUNTERS:
            if key in present:
                found[key] = parse.parse_int(read("%s/%s" % (base, key)))
    return found
