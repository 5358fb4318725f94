# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Read a host NIC's live state through the standard interfaces (sysfs, ethtool, dcb, ip).

``run(argv) -> (rc, stdout, stderr)`` and ``read(path) -> str or None`` are injected, so the
nic_facts / nic modules pass AnsibleModule.run_command and tests pass recorded output.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

from ansible_collections.roce.fabric.plugins.module_utils import nic, nic_rdma


def read_file(path):
    """Contents of ``path``, or None when it does not exist or cannot be read."""
    try:
        with open(path) as handle:
            return handle.read()
    except (IOError, OSError):
        return None


def list_dir(path):
    """Entries of directory ``path``, or None."""
    try:
        return os.listdir(path)
    except OSError:
        return None


def gather(name, run, read, listdir):
    """Facts of interface ``name``: driver stack, RDMA device, NUMA, channels, pause, DCB, MTU."""
    base = "/sys/class/net/%s" % name
    if read(base + "/mtu") is None:
        return None
    rc, out, _err = run(["ethtool", "-i", name])
    driver = nic.parse_ethtool_driver(out) if rc == 0 else {"driver": None}
    rc, out, err = run(["ethtool", "-l", name])
    channels = nic.parse_ethtool_channels(out) if rc == 0 else None
    rc, out, err = run(["ethtool", "-a", name])
    pause = nic.parse_ethtool_pause(out if rc == 0 else err or "not supported")
    rc, out, err = run(["dcb", "-j", "app", "show", "dev", name])
    dscp_prio = nic.parse_dcb_app(out if rc == 0 else err or "not supported")
    rc, out, err = run(["dcb", "pfc", "show", "dev", name])
    pfc = nic.parse_dcb_pfc(out if rc == 0 else err or "not supported")
    numa = (read(base + "/device/numa_node") or "").strip()
    local = read(base + "/device/local_cpulist")
    online = read("/sys/devices/system/cpu/online")
    rdma = sorted(listdir(base + "/device/infiniband") or [])
    ofed = read(base + "/qos/trust") is not None
    cpus = nic.parse_cpulist(local if local else online)
    stack = nic.driver_stack(driver.get("driver"), ofed)
    return {
        "name": name,
        "mtu_bytes": int(read(base + "/mtu").strip()),
        "driver": driver.get("driver"),
        "driver_stack": stack,
        "pci_address": driver.get("bus_info"),
        "rdma_device": rdma[0] if rdma else None,
        "numa_node": int(numa) if numa.lstrip("-").isdigit() else None,
        "local_cpus": len(cpus),
        "local_cpu_list": cpus,
        "channels": channels,
        "pause": pause,
        "dscp_prio": dscp_prio,
        "pfc": pfc,
        "rdma": nic_rdma.gather(name, stack, rdma[0] if rdma else None,
                                driver.get("bus_info"), read, listdir),
    }


def gather_addresses(name, run):
    """(addresses on ``name`` as 'ip/len', rules {table: from}, default routes {table: via})."""
    rc, out, _err = run(["ip", "-j", "addr", "show", "dev", name])
    addrs = []
    if rc == 0 and out.strip():
        for link in json.loads(out):
            for a in link.get("addr_info", []):
                if a.get("family") == "inet":
                    addrs.append("%s/%s" % (a["local"], a["prefixlen"]))
    return addrs


def gather_rules(run):
    rc, out, _err = run(["ip", "-j", "rule", "show"])
    rules = json.loads(out) if rc == 0 and out.strip() else []
    return [(r.get("src"), str(r.get("table")), r.get("priority")) for r in rules]


def gather_default_route(table, run):
    rc, out, _err = run(["ip", "-j", "route", "show", "table", str(table), "default"])
    routes = json.loads(out) if rc == 0 and out.strip() else []
    return [(r.get("gateway"), r.get("dev")) for r in routes]


def plan_interface(want, have, run):
    """Every decision for one interface: ``want`` is the nic module's interface entry (name,
    mtu_bytes, dscp_prio, pause_off, channels, address, gateway, route_table), ``have`` its
    gathered facts. Shared by the nic module and the roce-check command."""
    desired = {"name": want["name"], "mtu_bytes": want.get("mtu_bytes") or have["mtu_bytes"],
               "dscp_prio": dict((int(k), int(v)) for k, v in
                                 (want.get("dscp_prio") or {}).items()),
               "pause_off": want.get("pause_off", True),
               "pfc_priorities": want.get("pfc_priorities")}
    if have["channels"]:
        desired["channels"] = nic.channel_target(have["channels"], have["local_cpus"],
                                                 want.get("channels") or None)
    todo = nic.decide(desired, have)
    todo += nic_rdma.decide(want, have, have["driver_stack"], have["rdma_device"],
                            have["pci_address"], have["rdma"])
    if want.get("address") and want.get("gateway") and want.get("route_table") is not None:
        todo += routing_changes(want, run)
    for item in todo:
        item["interface"] = want["name"]
    return todo


def routing_changes(desired, run):
    """Address, policy rule and per-NIC default route (host-nic.md §4), as argv changes."""
    name, table = desired["name"], desired["route_table"]
    addr, gateway = desired["address"], desired["gateway"]
    src = addr.split("/")[0]
    out = []
    if addr not in gather_addresses(name, run):
        out.append(nic.change("address", None, addr,
                              ["ip", "addr", "replace", addr, "dev", name]))
    if (src, str(table), 1000 + table) not in gather_rules(run):
        out.append(nic.change("policy_rule", None, "from %s table %d" % (src, table),
                              ["ip", "rule", "add", "from", src, "table", str(table),
                               "priority", str(1000 + table)]))
    if (gateway, name) not in gather_default_route(table, run):
        out.append(nic.change("policy_route", None, "default via %s table %d" % (gateway, table),
                              ["ip", "route", "replace", "default", "via", gateway, "dev", name,
                               "table", str(table)]))
    return out


def apply(item, run, makedirs=os.mkdir):
    """Carry out one change: its argv, or its sysfs/configfs write. Returns an error or None."""
    if item["argv"]:
        rc, out, err = run(item["argv"])
        if rc != 0 and item["setting"] == "global_pause":
            # ethtool -A can exit non-zero when only autoneg is unsupported although rx/tx
            # were applied (host-nic.md §1.3): judge by what ethtool -a reads back.
            pause = nic.parse_ethtool_pause(run(["ethtool", "-a", item["interface"]])[1])
            rc = 0 if pause and not pause.get("rx") and not pause.get("tx") else rc
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


def nccl_settings(host_plan, facts):
    """NCCL variables that depend on the live RDMA devices (host-nic.md §3): NCCL_IB_HCA as
    exact ``=dev:port`` names of the planned NICs, and NCCL_IB_GID_INDEX pinned only when every
    NIC has its planned address as a RoCE v2 GID at the same index. Returns (settings, notes):
    notes say why a variable was left to NCCL's own choice."""
    out = dict(host_plan["nccl"])
    notes = []
    nics = host_plan["nics"]
    missing = [n["name"] for n in nics if not (facts.get(n["name"]) or {}).get("rdma_device")]
    if missing:
        out["NCCL_IB_HCA"] = None
        notes.append("NCCL_IB_HCA not set: no RDMA device behind %s" % ", ".join(missing))
    else:
        out["NCCL_IB_HCA"] = "=" + ",".join("%s:1" % facts[n["name"]]["rdma_device"]
                                            for n in nics)
    indexes = set()
    for n in nics:
        gids = (facts.get(n["name"]) or {}).get("rdma", {}).get("gids") or []
        planned = n["address"].split("/")[0]
        indexes.add(next((int(i) for i, addr in gids if addr == planned), None))
    if len(indexes) == 1 and None not in indexes:
        out["NCCL_IB_GID_INDEX"] = indexes.pop()
    else:
        out["NCCL_IB_GID_INDEX"] = None
        notes.append("NCCL_IB_GID_INDEX left to NCCL's RoCE v2 auto-selection: the planned "
                     "addresses are not RoCE v2 GIDs at one common index")
    return out, notes


# Lossless-path counters a RoCE NIC exposes (host-nic.md §7): per-priority pause frames from
# ethtool -S (mlx5 names), DCQCN and loss counters from the RDMA port's hw_counters.
ETHTOOL_COUNTERS = ("rx_prio{p}_pause", "tx_prio{p}_pause", "rx_prio{p}_discards",
                    "rx_discards_phy", "tx_pause_storm_error_events")
HW_COUNTERS = ("np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
               "out_of_sequence", "packet_seq_err", "local_ack_timeout_err")


def parse_ethtool_stats(text):
    """`ethtool -S IF` -> {name: int}."""
    out = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and value.strip().isdigit():
            out[key.strip()] = int(value)
    return out


def counters(name, priorities, rdma, run, read, listdir):
    """{counter: value} of the lossless path of ``name``; empty when the NIC reports none."""
    rc, out, _err = run(["ethtool", "-S", name])
    stats = parse_ethtool_stats(out) if rc == 0 else {}
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
                found[key] = nic.parse_int(read("%s/%s" % (base, key)))
    return found
