# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""NCCL's variables for a host, from its plan and its live RDMA devices, as /etc/nccl.conf and
as an environment file: NCCL reads /etc/nccl.conf inside the job's own mount namespace and the
environment wins over the file (misc/param.cc), so a containerized job sees neither unless the
file is mounted or the variables are passed (`--env-file`, a ConfigMap) - and NCCL_IB_TC's
default 0 is the lossy class (host-audit.md #5).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from typing import Any, Dict, List, Optional, Tuple

KEYS = ("NCCL_IB_TC", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_IB_QPS_PER_CONNECTION",
        "NCCL_CROSS_NIC", "NCCL_IB_ADAPTIVE_ROUTING", "NCCL_SOCKET_IFNAME")
MIN_NCCL_GID_AUTO = "2.21.5"     # NCCL commit ab2b89c4: GID index default -1 (auto) from here
KERNEL_NAMES = re.compile(r"^(mlx5|bnxt_re|irdma)_?\d+$")     # names the kernel numbers


def socket_ifname(planned: Optional[str], host: Optional[Dict[str, Any]],
                  nics: List[str]) -> Tuple[Optional[str], Optional[str]]:
    """(NCCL_SOCKET_IFNAME, note). The plan's name only where the host has an interface it
    names (NCCL takes the value as a name prefix unless it starts with '='; bootstrap fails with
    "no socket interface found" otherwise); with none planned, the interface of the host's
    default route; else unset, so NCCL picks one itself. Never a RoCE NIC of the plan (NCCL's
    bootstrap is TCP, not the lossless class). Without host facts the plan's value stays."""
    if host is None:
        return planned, None
    names = [n for n in (host.get("interfaces") or []) if n != "lo"]
    if planned:
        exact = planned.startswith("=")
        prefix = planned.lstrip("=")
        if any((n == prefix) if exact else n.startswith(prefix) for n in names):
            return planned, None
        return None, ("NCCL_SOCKET_IFNAME not set: the plan names %s, which this host lacks "
                      "(%s); NCCL picks the bootstrap interface" % (planned, ", ".join(names)))
    default = host.get("default_route_interface")
    if default and default not in nics and (not names or default in names):
        return default, None
    return None, "NCCL_SOCKET_IFNAME not set: no default-route interface; NCCL picks one"


def settings(host_plan: Dict[str, Any], facts: Dict[str, Any],
             host: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Any], List[str]]:
    """(settings, notes). NCCL_IB_HCA as exact ``=dev:port`` names of the planned NICs (the
    port of a two-port device that is the NIC, rdma.port_of); NCCL_SOCKET_IFNAME as
    socket_ifname; NCCL_IB_GID_INDEX pinned only when every NIC has its planned address as a
    RoCE v2 GID at the same index (host-nic.md §3); notes say why a variable was left to NCCL,
    and what a reader must know (minimum NCCL, device names the kernel may renumber). ``host``:
    {"default_route_interface", "interfaces"} of this host (nic_facts' roce_host)."""
    out = dict((k, v) for k, v in host_plan["nccl"].items() if k in KEYS)
    notes = []
    out["NCCL_SOCKET_IFNAME"], note = socket_ifname(
        out.get("NCCL_SOCKET_IFNAME"), host, [n["name"] for n in host_plan["nics"]])
    if note:
        notes.append(note)
    nics = host_plan["nics"]
    missing = [n["name"] for n in nics if not (facts.get(n["name"]) or {}).get("rdma_device")]
    if missing:
        out["NCCL_IB_HCA"] = None
        notes.append("NCCL_IB_HCA not set: no RDMA device behind %s" % ", ".join(missing))
    else:
        devices = [facts[n["name"]]["rdma_device"] for n in nics]
        ports = [facts[n["name"]].get("rdma_port") or 1 for n in nics]
        out["NCCL_IB_HCA"] = "=" + ",".join("%s:%d" % (d, p) for d, p in zip(devices, ports))
        numbered = [d for d in devices if KERNEL_NAMES.match(d)]
        if numbered:
            notes.append("NCCL_IB_HCA names kernel-numbered devices (%s), which can change "
                         "order across boots: enable rdma-core's persistent naming (udev "
                         "NAME_FALLBACK/NAME_PCI) so the names stay; the boot-time re-apply "
                         "rewrites this file from the live devices" % ", ".join(numbered))
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
                     "addresses are not RoCE v2 GIDs at one common index; needs NCCL >= %s "
                     "(older NCCL uses index 0, a link-local RoCE v1 GID that does not route)"
                     % MIN_NCCL_GID_AUTO)
    if out.get("NCCL_CROSS_NIC") == 0:
        notes.append("NCCL_CROSS_NIC=0: the planes are separate fabrics, a ring may not cross "
                     "from one plane's NIC to another's")
    return out, notes


def _lines(host_plan: Dict[str, Any], facts: Dict[str, Any],
           host: Optional[Dict[str, Any]] = None) -> Tuple[List[str], List[str]]:
    values, notes = settings(host_plan, facts, host)
    head = ["# roce.fabric: %s - rendered from the plan, do not edit" % host_plan["name"],
            "# RoCE on DSCP %d (ToS %s = DSCP << 2 | ECT(0)); NCCL_IB_TC's default 0 is lossy."
            % (host_plan["nics"][0]["qos"]["roce_dscp"], values["NCCL_IB_TC"])]
    head += ["# " + note for note in notes]
    return head, ["%s=%s" % (k, values[k]) for k in KEYS if values.get(k) is not None]


def conf_text(host_plan: Dict[str, Any], facts: Optional[Dict[str, Any]] = None,
              host: Optional[Dict[str, Any]] = None) -> str:
    """/etc/nccl.conf (KEY=value, NCCL's misc/param.cc format)."""
    head, body = _lines(host_plan, facts or {}, host)
    return "\n".join(head + body) + "\n"


def env_text(host_plan: Dict[str, Any], facts: Optional[Dict[str, Any]] = None,
             host: Optional[Dict[str, Any]] = None) -> str:
    """The same variables as an environment file for containers (`docker run --env-file`, a
    Kubernetes ConfigMap's data, systemd EnvironmentFile=): KEY=value lines, # comments."""
    head, body = _lines(host_plan, facts or {}, host)
    head.append("# for containers: docker run --env-file <this file>, or mount /etc/nccl.conf")
    return "\n".join(head + body) + "\n"
