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
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

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


def write_value(path: str, value: str, mkdir: Optional[str] = None) -> None:
    """One sysfs/configfs/debugfs store (``mkdir`` first: a configfs group is made, not
    written). Raises IOError/OSError with the kernel's errno: the driver's refusal."""
    if mkdir and not os.path.isdir(mkdir):
        os.mkdir(mkdir)
    with open(path, "w") as handle:
        handle.write(value)


def interface_by_mac(mac: str, read: Read, listdir: ListDir) -> Optional[str]:
    """The netdev whose ``/sys/class/net/*/address`` is ``mac`` (any case), or None: a NIC
    renamed across a reboot (a .link file or net.ifnames changed) keeps its MAC, not its name.
    Only one netdev is taken: a VLAN or bond carrying the same MAC has no ``device`` link, so
    the physical function's netdev (``device`` present) wins."""
    want = mac.strip().lower()
    found = [n for n in sorted(listdir("/sys/class/net") or [])
             if (read("/sys/class/net/%s/address" % n) or "").strip().lower() == want]
    physical = [n for n in found if listdir("/sys/class/net/%s/device" % n) is not None]
    chosen = physical or found
    return chosen[0] if chosen else None


MISSING = 127          # what a shell, subprocess wrappers and the modules' run give a lost tool


def _output(run: Run, argv: List[str], missing: Set[str]) -> Optional[str]:
    if argv[0] in missing:
        return None
    rc, out, err = run(argv)
    if rc == MISSING:
        missing.add(argv[0])
        return None
    return out if rc == 0 else (err or "not supported")


def _uevent(read: Read, base: str) -> Dict[str, Optional[str]]:
    """DRIVER= and PCI_SLOT_NAME= of the netdev's device (sysfs uevent): the driver and PCI
    address when ethtool -i cannot tell."""
    fields: Dict[str, str] = {}
    for line in (read(base + "/device/uevent") or "").splitlines():
        key, _sep, value = line.partition("=")
        fields[key.strip()] = value.strip()
    return {"driver": fields.get("DRIVER") or None, "version": None, "firmware": None,
            "bus_info": fields.get("PCI_SLOT_NAME") or None}


def tool_runner(run_command: Callable[[List[str]], Tuple[int, str, str]],
                find_tool: Callable[[str], Optional[str]]) -> Run:
    """The ``run`` the gatherers take, over a module's run_command and tool lookup: a missing
    tool answers like a shell would (MISSING, "<tool>: command not found"), so gathering names
    it once instead of failing on "Error executing command." (AnsibleModule.run_command); each
    tool is looked up once."""
    paths: Dict[str, Optional[str]] = {}

    def run(argv: List[str]) -> Tuple[int, str, str]:
        if argv[0] not in paths:
            paths[argv[0]] = find_tool(argv[0])
        if not paths[argv[0]]:
            return MISSING, "", "%s: command not found" % argv[0]
        return run_command(argv)
    return run


def gather(name: str, run: Run, read: Read, listdir: ListDir) -> Optional[Dict[str, Any]]:
    """Facts of interface ``name``: driver stack, RDMA device and port, NUMA, channels, pause,
    DCB (APP table, ETS, PFC, DCBX mode), private flags, MTU and the RDMA side. A tool that is
    missing (exit 127) or prints something unexpected leaves its facts None and is listed in
    ``missing_tools``; gathering never raises on tool output."""
    base = "/sys/class/net/%s" % name
    mtu = (read(base + "/mtu") or "").strip()
    if not mtu:
        return None
    missing: Set[str] = set()
    out = _output(run, ["ethtool", "-i", name], missing)
    driver = parse.parse_ethtool_driver(out) if out is not None else {}
    if not driver.get("driver"):
        driver = _uevent(read, base)
    out = _output(run, ["ethtool", "-l", name], missing)
    channels = parse.parse_ethtool_channels(out) if out is not None else None
    if channels is not None and not (channels["max"] or channels["current"]):
        channels = None
    devices = sorted(listdir(base + "/device/infiniband") or [])
    rdma = devices[0] if devices else None
    port = rdma_side.port_of(name, rdma, read, listdir) if rdma else None

    def exists(path: str) -> bool:
        return listdir(path) is not None or read(path) is not None
    stack = stacks.detect(driver.get("driver"), exists, name, rdma)
    numa = (read(base + "/device/numa_node") or "").strip()
    local = read(base + "/device/local_cpulist")
    cpus = parse.parse_cpulist(local if local else read("/sys/devices/system/cpu/online"))
    facts: Dict[str, Any] = {
        "name": name,
        "mtu_bytes": int(mtu) if mtu.isdigit() else None,
        "driver": driver.get("driver"),
        "driver_version": driver.get("version"),
        "firmware": driver.get("firmware"),
        "driver_stack": stack,
        "pci_address": driver.get("bus_info"),
        "mac_address": (read(base + "/address") or "").strip() or None,
        "rdma_device": rdma,
        "rdma_port": port,
        "numa_node": int(numa) if numa.lstrip("-").isdigit() else None,
        "local_cpus": len(cpus),
        "local_cpu_list": cpus,
        "channels": channels,
        "pause": parse.parse_ethtool_pause(_output(run, ["ethtool", "-a", name], missing)),
        "dcb_app": parse.parse_dcb_app(_output(run, ["dcb", "-j", "app", "show", "dev", name],
                                               missing)),
        "pfc": None, "ets": None, "dcbx": None, "priv_flags": None,
    }
    if facts["dcb_app"] is not None:
        facts["pfc"] = parse.parse_dcb_pfc(_output(run, ["dcb", "pfc", "show", "dev", name],
                                                   missing))
        facts["ets"] = parse.parse_dcb_ets(_output(run, ["dcb", "ets", "show", "dev", name],
                                                   missing))
        facts["dcbx"] = parse.parse_dcb_dcbx(_output(run, ["dcb", "dcbx", "show", "dev", name],
                                                     missing))
    if stack == "ice":
        facts["priv_flags"] = parse.parse_ethtool_priv_flags(
            _output(run, ["ethtool", "--show-priv-flags", name], missing) or "")
    facts["missing_tools"] = sorted(missing)
    # roce_nics.<nic>.dscp_prio predates dcb_app; kept so playbooks reading it keep working
    facts["dscp_prio"] = (facts["dcb_app"] or {}).get("dscp_prio") \
        if facts["dcb_app"] is not None else None
    facts["rdma"] = rdma_side.gather(name, stack, rdma, driver.get("bus_info"), read, listdir,
                                     port or 1)
    return facts


def default_route_interface(run: Run) -> Optional[str]:
    """The interface of the main table's default route (what NCCL's bootstrap should use when
    the plan names none), or None."""
    try:
        rc, out, _err = run(["ip", "-j", "route", "show", "default"])
        routes = json.loads(out) if rc == 0 and out.strip() else []
    except ValueError:
        return None
    devs = [r.get("dev") for r in routes if isinstance(r, dict) and r.get("dev")]
    return devs[0] if devs else None


def _json(run: Run, argv: List[str]) -> List[Dict[str, Any]]:
    """`ip -j ...` output as a list; [] when the command fails or prints no JSON."""
    try:
        rc, out, _err = run(argv)
        data = json.loads(out) if rc == 0 and out.strip() else []
    except ValueError:
        return []
    return [d for d in data if isinstance(d, dict)] if isinstance(data, list) else []


def gather_addresses(name: str, run: Run) -> List[str]:
    """Addresses on ``name`` as 'ip/len'."""
    addrs = []
    for link in _json(run, ["ip", "-j", "addr", "show", "dev", name]):
        for a in link.get("addr_info", []):
            if a.get("family") == "inet":
                addrs.append("%s/%s" % (a["local"], a["prefixlen"]))
    return addrs


def gather_rules(run: Run) -> List[Tuple[Any, str, Any]]:
    return [(r.get("src"), str(r.get("table")), r.get("priority"))
            for r in _json(run, ["ip", "-j", "rule", "show"])]


def gather_default_route(table: Any, run: Run) -> List[Tuple[Any, Any]]:
    return [(r.get("gateway"), r.get("dev"))
            for r in _json(run, ["ip", "-j", "route", "show", "table", str(table), "default"])]


def dscp_target(want: Dict[str, Any]) -> Dict[int, int]:
    """The DSCP table the NIC must hold: the plan's entries, and with ``dscp_default_prio`` every
    other DSCP at that priority (all 64: the driver's own trust-DSCP map, priority = DSCP >> 3 on
    mlx5, would put DSCP 24-31 on the lossless priority 3)."""
    table = dict((int(k), int(v)) for k, v in (want.get("dscp_prio") or {}).items())
    default = want.get("dscp_default_prio")
    if default is None:
        return table
    return dict((d, table.get(d, int(default))) for d in range(64))


def plan_interface(want: Dict[str, Any], have: Dict[str, Any], run: Run) -> List[Change]:
    """Every decision for one interface, in its stack's vendor order: ``want`` is the nic
    module's interface entry, ``have`` its gathered facts. Shared by the nic module and
    roce-check."""
    desired = {"name": want["name"], "mtu_bytes": want.get("mtu_bytes") or have["mtu_bytes"],
               "dscp_prio": dscp_target(want),
               "dscp_full": want.get("dscp_default_prio") is not None,
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
        if item["setting"] in stacks.DEPENDS.get(stack, {}):
            item["after"] = stacks.DEPENDS[stack][item["setting"]]
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


def apply(item: Change, run: Run, write: Optional[Callable[..., Any]] = None) -> Optional[str]:
    """Carry out one change: its argv, or its sysfs/configfs write. Returns the error - the
    tool's message or the store's errno, i.e. the driver's reason - or None."""
    if item["argv"]:
        # a change may need more than one command (a DSCP rewrite: del, then add); they run in
        # order and the first failure stops it
        for argv in [item["argv"]] + list(item.get("also") or ()):
            rc, out, err = run(argv)
            if rc != 0 and item["setting"] == "global_pause":
                # ethtool -A can exit non-zero when only autoneg is unsupported although rx/tx
                # were applied (host-nic.md §1.3): the read-back judges it.
                rc = 0
            if rc != 0:
                return "%s failed: %s" % (" ".join(argv), (err or out).strip())
        return None
    target = item["write"]
    try:
        (write or write_value)(target["path"], target["value"], target.get("mkdir"))
    except (IOError, OSError) as exc:
        return "writing %s to %s failed: %s" % (target["value"], target["path"], exc)
    return None


def apply_all(todo: Iterable[Change], run: Run,
              write: Optional[Callable[..., Any]] = None,
              carry_out: Optional[Callable[[Change], Optional[str]]] = None
              ) -> Dict[Tuple[Optional[str], str], List[str]]:
    """Every change, in the given (vendor) order, whatever another one did: a refused setting
    never abandons the rest. A change that needs an earlier setting (``after``: bnxt refuses PFC
    until ETS is set, bnxt_dcb.c bnxt_hwrm_queue_pfc_cfg) is skipped, with that reason, when the
    earlier one failed. Returns {(interface, setting): [errors]}."""
    errors: Dict[Tuple[Optional[str], str], List[str]] = {}
    for item in todo:
        if item["unsupported"]:
            continue
        key = (item.get("interface"), item["setting"])
        first = item.get("after")
        if first and (key[0], first) in errors:
            errors.setdefault(key, []).append("not attempted: %s failed first and the driver "
                                              "needs it" % first)
            continue
        error = carry_out(item) if carry_out else apply(item, run, write)
        if error:
            errors.setdefault(key, []).append(error)
    return errors


def read_back_items(wants: Iterable[Dict[str, Any]], run: Run, read: Read,
                    listdir: ListDir) -> List[Dict[str, Any]]:
    """After the changes: every planned interface gathered and decided again; whatever still
    differs was refused or ignored, whatever any tool said. One entry per setting:
    {interface, setting, desired, current}; an interface that vanished has setting None."""
    out = []
    for want in wants:
        have = gather(want["name"], run, read, listdir)
        if have is None:
            out.append({"interface": want["name"], "setting": None, "desired": None,
                        "current": None})
            continue
        seen = set()
        for item in plan_interface(want, have, run):
            if not item["unsupported"] and item["setting"] not in seen:
                seen.add(item["setting"])
                out.append({"interface": want["name"], "setting": item["setting"],
                            "desired": item["desired"], "current": item["current"]})
    return out


def read_back(wants: Iterable[Dict[str, Any]], run: Run, read: Read,
              listdir: ListDir) -> List[str]:
    """read_back_items as lines: 'rdma0 dscp_prio: planned {26: 3, 48: 6}, read back {}'.
    Empty when everything reads back as planned."""
    return [describe(i) for i in read_back_items(wants, run, read, listdir)]


def describe(item: Dict[str, Any], errors: Optional[List[str]] = None) -> str:
    """One line for a setting that is not as planned, with the driver's reason if one came."""
    if item["setting"] is None:
        return "%s: the interface is gone" % item["interface"]
    line = "%s %s: planned %s, read back %s" % (item["interface"], item["setting"],
                                                item["desired"], item["current"])
    return line + (" (%s)" % "; ".join(errors) if errors else "")


def not_as_planned(errors: Dict[Tuple[Optional[str], str], List[str]],
                   readback: Iterable[Dict[str, Any]]) -> List[str]:
    """Every setting that reads back other than planned, one line each, with the driver's
    reason where its write was refused. A write that failed but reads back as planned (ethtool
    -A on a NIC without pause autoneg) is not a failure: the read-back is the judge."""
    return [describe(item, errors.get((item["interface"], item["setting"])))
            for item in readback]


# Lossless-path counters a RoCE NIC exposes (host-nic.md §7): per-priority pause frames from
# ethtool -S (mlx5 names), DCQCN and loss counters from the RDMA port's hw_counters.
ETHTOOL_COUNTERS = ("rx_prio{p}_pause", "tx_prio{p}_pause", "rx_prio{p}_discards",
                    "rx_discards_phy", "tx_pause_storm_error_events")
HW_COUNTERS = ("np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
               "out_of_sequence", "packet_seq_err", "local_ack_timeout_err")


def counters(name: str, priorities: Iterable[int], rdma: Optional[str], run: Run, read: Read,
             listdir: ListDir, port: int = 1) -> Dict[str, Any]:
    """{counter: value} of the lossless path of ``name``; empty when the NIC reports none."""
    rc, out, _err = run(["ethtool", "-S", name])
    stats = parse.parse_ethtool_stats(out) if rc == 0 else {}
    found: Dict[str, Any] = {}
    for pattern in ETHTOOL_COUNTERS:
        for p in (priorities if "{p}" in pattern else [None]):
            key = pattern.format(p=p)
            if key in stats:
                found[key] = stats[key]
    if rdma:
        base = "/sys/class/infiniband/%s/ports/%d/hw_counters" % (rdma, port)
        present = set(listdir(base) or [])
        for key in HW_COUNTERS:
            if key in present:
                found[key] = parse.parse_int(read("%s/%s" % (base, key)))
    return found
