# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The RDMA side of a host NIC: trust, CNP, ECN, default RoCE ToS, the RoCE v2 GID, IRQs.

Each knob lives in a different place per driver stack (host-nic.md §0 #1, §1.2, §1.4):

* mlx5 with MLNX_OFED/DOCA: sysfs ``ecn/roce_{rp,np}/enable/P``, ``ecn/roce_np/{cnp_dscp,
  cnp_802p_prio}`` (OFED en_sysfs.c), ``/sys/class/infiniband/DEV/tc/1/traffic_class`` (prints
  "Global tclass=N", OFED ib tc sysfs); ``qos/trust`` only where a build has it (mlnx_qos
  writes it "if present"), else trust follows the DCB APP table as on inbox.
* inbox mlx5: trust follows the DCB APP table; CNP DSCP/priority in debugfs
  ``/sys/kernel/debug/mlx5/BDF/cc_params/np_cnp_{dscp,prio}`` (kernel cong.c; 0600, blocked
  under kernel lockdown); ECN per priority is firmware nvconfig only (``ROCE_CC_PRIO_MASK_P1``),
  so it is reported, never written.
* Broadcom's bnxt_re: configfs ``/sys/kernel/config/bnxt_re/DEV/ports/1/cc/`` - the DEV group is
  made with mkdir first (make_group); values print as %#x; a write of ``apply`` commits them
  (bnxt_setupcc.sh). Upstream bnxt_re has no configfs, and ice/irdma no host CNP knob.
* every RDMA device: configfs ``rdma_cm/DEV/ports/1/default_roce_tos`` (kernel ABI
  configfs-rdma_cm; the DEV group must be made with mkdir first).

Reads go through the injected ``read(path)`` / ``listdir(path)`` so tests replay recorded trees.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.host import parse, stacks
from ansible_collections.roce.fabric.plugins.module_utils.host.changes import (
    Change, ListDir, Read, unsupported, write)

CONFIGFS = "/sys/kernel/config"
DEBUGFS = "/sys/kernel/debug"
ROCE_V2 = "RoCE v2"


def port_of(name: str, rdma: str, read: Read, listdir: ListDir) -> int:
    """The port of RDMA device ``rdma`` that netdev ``name`` is: the port whose GID table names
    it (ports/N/gid_attrs/ndevs/*, ib_core's per-GID netdev), else the netdev's dev_port + 1
    (the kernel's 0-based port index of a multi-port function, e.g. mlx4), else 1. Two-port
    devices must not get port 1 everywhere."""
    base = "/sys/class/infiniband/%s/ports" % rdma
    ports = sorted((p for p in (listdir(base) or []) if p.isdigit()), key=int)
    if len(ports) > 1:
        for port in ports:
            for entry in listdir("%s/%s/gid_attrs/ndevs" % (base, port)) or []:
                if (read("%s/%s/gid_attrs/ndevs/%s" % (base, port, entry)) or "").strip() == name:
                    return int(port)
        dev_port = (read("/sys/class/net/%s/dev_port" % name) or "").strip()
        if dev_port.isdigit() and str(int(dev_port) + 1) in ports:
            return int(dev_port) + 1
    return int(ports[0]) if len(ports) == 1 else 1


def gather(name: str, stack: str, rdma: Optional[str], pci: Optional[str], read: Read,
           listdir: ListDir, port: int = 1) -> Dict[str, Any]:
    """RDMA-side facts of interface ``name`` (``rdma``: its RDMA device or None, ``port`` the
    device's port that is this netdev)."""
    net = "/sys/class/net/%s" % name
    out: Dict[str, Any] = {
        "trust": None, "ecn": None, "cnp": None, "roce_tos": None, "traffic_class": None,
        "gids": [], "irqs": irqs(net, read, listdir), "port": port}
    if stack == "mlx5-ofed":
        out["trust"] = (read(net + "/qos/trust") or "").strip() or None    # None: no such file
        out["ecn"] = dict((side, dict((p, parse.parse_int(read("%s/ecn/roce_%s/enable/%d"
                                                               % (net, side, p))))
                                      for p in range(8)))
                          for side in ("rp", "np"))
        out["cnp"] = {"dscp": parse.parse_int(read(net + "/ecn/roce_np/cnp_dscp")),
                      "prio": parse.parse_int(read(net + "/ecn/roce_np/cnp_802p_prio"))}
    elif stack == "mlx5-inbox" and pci:
        cc = "%s/mlx5/%s/cc_params" % (DEBUGFS, pci)
        if read(cc + "/np_cnp_dscp") is not None:
            out["cnp"] = {"dscp": parse.parse_int(read(cc + "/np_cnp_dscp")),
                          "prio": parse.parse_int(read(cc + "/np_cnp_prio"))}
    elif stack == "bnxt-broadcom" and rdma:
        cc = "%s/bnxt_re/%s/ports/%d/cc" % (CONFIGFS, rdma, port)
        out["cc_group"] = listdir("%s/bnxt_re/%s" % (CONFIGFS, rdma)) is not None
        if read(cc + "/cnp_dscp") is not None:
            out["cnp"] = {"dscp": parse.parse_int(read(cc + "/cnp_dscp")),
                          "prio": parse.parse_int(read(cc + "/cnp_prio"))}
            out["ecn"] = {"enable": parse.parse_int(read(cc + "/ecn_enable"))}
    if rdma:
        if listdir(CONFIGFS + "/rdma_cm") is not None:
            out["roce_tos"] = parse.parse_int(read("%s/rdma_cm/%s/ports/%d/default_roce_tos"
                                                   % (CONFIGFS, rdma, port)))
            out["rdma_cm"] = True
        if stack == "mlx5-ofed":
            out["traffic_class"] = parse.parse_int(read("/sys/class/infiniband/%s/tc/%d/"
                                                        "traffic_class" % (rdma, port)))
        out["gids"] = gids(rdma, name, read, listdir, port)
    return out


def gids(rdma: str, name: str, read: Read, listdir: ListDir,
         port_number: int = 1) -> List[Tuple[int, str]]:
    """RoCE v2 / IPv4 GIDs of the port bound to ``name``: [(index, "a.b.c.d")] (the entries
    NCCL's GID auto-selection and show_gids look at, host-nic.md §3, §7)."""
    port = "/sys/class/infiniband/%s/ports/%d" % (rdma, port_number)
    found: List[Tuple[int, str]] = []
    for entry in sorted(listdir(port + "/gid_attrs/types") or [], key=_index):
        if (read("%s/gid_attrs/types/%s" % (port, entry)) or "").strip() != ROCE_V2:
            continue
        if (read("%s/gid_attrs/ndevs/%s" % (port, entry)) or "").strip() != name:
            continue
        address = ipv4_of_gid(read("%s/gids/%s" % (port, entry)))
        if address:
            found.append((int(entry), address))
    return found


def _index(entry: str) -> int:
    return int(entry) if entry.isdigit() else -1


def ipv4_of_gid(gid: Optional[str]) -> Optional[str]:
    """'0000:0000:0000:0000:0000:ffff:c612:4001' -> '198.18.64.1' (IPv4-mapped), else None."""
    words = (gid or "").strip().split(":")
    if len(words) != 8 or words[:6] != ["0000"] * 5 + ["ffff"]:
        return None
    value = int(words[6] + words[7], 16)
    return ".".join(str((value >> s) & 255) for s in (24, 16, 8, 0))


def irqs(net: str, read: Read, listdir: ListDir) -> Optional[Dict[int, List[int]]]:
    """{irq: [cpus]} of the NIC's PCI device (device/msi_irqs, any driver); None for a netdev
    without MSI vectors (veth)."""
    vectors = listdir(net + "/device/msi_irqs")
    if vectors is None:
        return None
    return dict((int(v), parse.parse_cpulist(read("/proc/irq/%s/smp_affinity_list" % v)))
                for v in vectors if v.isdigit())


def decide(want: Dict[str, Any], have: Dict[str, Any], stack: str, rdma: Optional[str],
           pci: Optional[str], facts: Dict[str, Any]) -> List[Change]:
    """Changes for trust, CNP, ECN, RoCE ToS, OFED traffic_class and IRQ affinity."""
    name = want["name"]
    net = "/sys/class/net/%s" % name
    out: List[Change] = []
    if want.get("dscp_prio") and stack == "mlx5-ofed" and facts["trust"] is not None and \
            "dscp" not in facts["trust"]:
        out.append(write("trust", facts["trust"], "dscp", net + "/qos/trust", "dscp"))
    out += _cnp(want, stack, rdma, pci, facts)
    out += _ecn(want, stack, rdma, facts)
    tos = want.get("roce_tos")
    if tos is not None:
        out += _roce_tos(tos, stack, rdma, facts)
    if want.get("irq_affinity", True):
        out += decide_irqs(name, facts["irqs"], have.get("local_cpu_list") or [])
    return out


def _cnp(want: Dict[str, Any], stack: str, rdma: Optional[str], pci: Optional[str],
         facts: Dict[str, Any]) -> List[Change]:
    dscp, prio = want.get("cnp_dscp"), want.get("cnp_priority")
    if dscp is None:
        return []
    desired = {"dscp": dscp, "prio": prio}
    cur = facts["cnp"]
    group = None
    if stack == "bnxt-broadcom" and rdma and cur is None and not facts.get("cc_group"):
        # the configfs group of the device does not exist until it is made (make_group)
        group, cur = "%s/bnxt_re/%s" % (CONFIGFS, rdma), {"dscp": None, "prio": None}
    if cur is None:
        reason = CNP_UNSUPPORTED.get(stack, "no CNP knob on a %s netdev" % stack)
        return [unsupported("cnp", None, desired,
                            stacks.on(stack, reason.format(debugfs=DEBUGFS, pci=pci)))]
    if stack == "mlx5-ofed":
        base = "/sys/class/net/%s/ecn/roce_np/" % want["name"]
        files, fmt = {"dscp": base + "cnp_dscp", "prio": base + "cnp_802p_prio"}, "%d"
    elif stack == "mlx5-inbox":
        # Writing np_cnp_prio forces cnp_prio_mode=0, i.e. the configured priority (cong.c).
        base = "%s/mlx5/%s/cc_params/" % (DEBUGFS, pci)
        files, fmt = {"dscp": base + "np_cnp_dscp", "prio": base + "np_cnp_prio"}, "%d"
    else:
        base = "%s/bnxt_re/%s/ports/%d/cc/" % (CONFIGFS, rdma, facts.get("port", 1))
        files, fmt = {"dscp": base + "cnp_dscp", "prio": base + "cnp_prio"}, "%#x"
    out: List[Change] = []
    for key, value in (("dscp", dscp), ("prio", prio)):
        if value is not None and cur.get(key) != value:
            out.append(write("cnp", cur, desired, files[key], fmt % value,
                             mkdir=group if not out else None))
    if out and stack == "bnxt-broadcom":
        out.append(write("cnp", cur, desired, base + "apply", "0x1"))
    return out


CNP_UNSUPPORTED = {
    "mlx5-inbox": "debugfs {debugfs}/mlx5/{pci}/cc_params is not readable (mount debugfs; "
                  "kernel lockdown blocks it) - or set nvconfig CNP_DSCP_P1 / CNP_802P_PRIO_P1",
    "bnxt-upstream": "upstream bnxt_re has no configfs: Broadcom's driver, or the NVM "
                     "defaults (niccli), set the CNP",
    "ice": "irdma has no host CNP knob (firmware and module defaults)",
}


def _ecn(want: Dict[str, Any], stack: str, rdma: Optional[str],
         facts: Dict[str, Any]) -> List[Change]:
    prios = want.get("ecn_priorities")
    if not prios:
        return []
    if stack == "mlx5-ofed":
        out: List[Change] = []
        for side in ("rp", "np"):
            for p in prios:
                if facts["ecn"][side].get(p) != 1:
                    out.append(write("ecn", facts["ecn"][side].get(p), 1,
                                     "/sys/class/net/%s/ecn/roce_%s/enable/%d"
                                     % (want["name"], side, p), 1))
        return out
    if stack == "bnxt-broadcom" and rdma and (facts["ecn"] is not None or
                                              not facts.get("cc_group")):
        current = (facts["ecn"] or {}).get("enable")
        if current == 1:
            return []
        group = "%s/bnxt_re/%s" % (CONFIGFS, rdma)
        base = group + "/ports/%d/cc/" % facts.get("port", 1)
        return [write("ecn", current, 1, base + "ecn_enable", "0x1",
                      mkdir=group if not facts.get("cc_group") else None),
                write("ecn", current, 1, base + "apply", "0x1")]
    reason = {"mlx5-inbox": "the inbox mlx5 driver has no ECN knob: set firmware nvconfig "
                            "ROCE_CC_PRIO_MASK_P1 (mlxconfig; 255 = all priorities)",
              "bnxt-upstream": "upstream bnxt_re has no configfs: ECN comes from the NVM "
                               "defaults (niccli) or Broadcom's driver",
              "ice": "irdma enables DCQCN/ECN by module parameter, not per priority"}
    default = "no RoCE ECN knob on a %s netdev" % stack
    return [unsupported("ecn", None, prios, stacks.on(stack, reason.get(stack, default)))]


def _roce_tos(tos: Any, stack: str, rdma: Optional[str],
              facts: Dict[str, Any]) -> List[Change]:
    if not rdma:
        return [unsupported("roce_tos", None, tos, stacks.on(stack, "no RDMA device behind the "
                                                                    "netdev"))]
    out: List[Change] = []
    if not facts.get("rdma_cm"):
        out.append(unsupported("roce_tos", None, tos, stacks.on(
            stack, "configfs rdma_cm is absent (load rdma_cm, mount configfs); NCCL_IB_TC "
                   "still marks NCCL")))
    elif facts["roce_tos"] != tos:
        group = "%s/rdma_cm/%s" % (CONFIGFS, rdma)
        out.append(write("roce_tos", facts["roce_tos"], tos,
                         group + "/ports/%d/default_roce_tos" % facts.get("port", 1), tos,
                         mkdir=group if facts["roce_tos"] is None else None))
    if stack == "mlx5-ofed" and facts["traffic_class"] != tos:
        out.append(write("traffic_class", facts["traffic_class"], tos,
                         "/sys/class/infiniband/%s/tc/%d/traffic_class"
                         % (rdma, facts.get("port", 1)), tos))
    return out


def decide_irqs(name: str, vectors: Optional[Dict[int, List[int]]],
                local_cpus: Sequence[int]) -> List[Change]:
    """Every NIC IRQ on a NIC-local CPU (host-nic.md §2.2). IRQs already inside the local set
    are left alone (mlx5 spreads them locally itself); strays go round-robin over it."""
    if vectors is None:
        return [unsupported("irq_affinity", None, "NIC-local CPUs",
                            "no PCI MSI vectors (virtual netdev)")]
    if not local_cpus:
        return []
    local = set(local_cpus)
    out: List[Change] = []
    for i, irq in enumerate(sorted(vectors)):
        if not vectors[irq] or not set(vectors[irq]) <= local:
            cpu = local_cpus[i % len(local_cpus)]
            out.append(write("irq_affinity", {irq: vectors[irq]}, {irq: [cpu]},
                             "/proc/irq/%d/smp_affinity_list" % irq, cpu))
    return out
