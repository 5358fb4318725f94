# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The NIC driver stacks, as data: how each is recognised, the order its vendor applies settings
in, and for every setting how it is set, whether it persists and what needs firmware
(host-nic.md §0-§1.6, host-audit.md). docs/hosts.md's per-stack table is generated from here.

Markers are what exists on that stack and nowhere else:

* MLNX_OFED / DOCA mlx5 creates ``/sys/class/net/IF/ecn/`` and ``/sys/class/infiniband/DEV/tc/1/
  traffic_class`` (its en_sysfs.c and ib tc sysfs); the inbox driver has neither. (OFED does not
  create ``qos/trust``: the marker an earlier version used, host-audit.md #2.)
* Broadcom's bnxt_re registers the configfs subsystem ``/sys/kernel/config/bnxt_re``; upstream
  bnxt_re has no configfs at all (host-audit.md #3).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, Iterable, List, Optional

OFED_MARKERS = ("/sys/class/net/{net}/ecn", "/sys/class/infiniband/{rdma}/tc/1/traffic_class")
BNXT_CONFIGFS = "/sys/kernel/config/bnxt_re"

# The order each vendor's own tooling applies settings in; what a stack lacks is simply absent.
# mlx5: mlnx_qos / NVIDIA's nic-configuration-operator (trust and DSCP map, ETS, PFC with the
# cable length, then the RDMA side); bnxt: bnxt_setupcc.sh (pause off, ETS before PFC - the
# driver refuses PFC until ETS is set -, APP entries incl. UDP 4791, then bnxt_re configfs);
# ice: firmware LLDP agent off first (ice_dcbnl_setapp/setets refuse while it manages DCB), then
# the DSCP map - its first entry switches the port to DSCP mode, which resets ETS to a 1:1
# priority-to-TC map with 100 % on TC0 (ice_dcb_nl.c ice_dcbnl_setapp) -, then ETS and PFC.
_NETDEV = ["mtu", "fw_lldp_agent", "dcbx", "global_pause"]
_RDMA = ["cnp", "ecn", "roce_tos", "traffic_class"]
# Broadcom's bnxt_re resets a CNP DSCP / priority committed while congestion control is off to 0
# (configfs.c apply_store -> bnxt_re_program_cc_params -> bnxt_re_program_cnp_dcb_values: "if
# (!is_cc_enabled(rdev))" clears alt_tos_dscp and alt_vlan_pcp), so ECN is enabled and applied
# before the CNP values, as bnxt_setupcc.sh does (cc ecn_enable, apply, then the CNP values).
_RDMA_BNXT = ["ecn", "cnp", "roce_tos", "traffic_class"]
_TAIL = ["irq_affinity", "channels", "address", "policy_rule", "policy_route"]
ORDER = {
    "mlx5-inbox": _NETDEV + ["dscp_prio", "ets", "pfc"] + _RDMA + _TAIL,
    "mlx5-ofed": _NETDEV + ["trust", "dscp_prio", "ets", "pfc"] + _RDMA + _TAIL,
    "bnxt-broadcom": _NETDEV + ["ets", "pfc", "dscp_prio", "roce_port_prio", "cc_group"] +
    _RDMA_BNXT + _TAIL,
    "bnxt-upstream": _NETDEV + ["ets", "pfc", "dscp_prio", "roce_port_prio"] + _RDMA + _TAIL,
    "ice": _NETDEV + ["dscp_prio", "ets", "pfc"] + _RDMA + _TAIL,
    "no-dcb": _NETDEV + ["dscp_prio", "ets", "pfc"] + _RDMA + _TAIL,
}

# A setting the driver takes only after another one: bnxt refuses PFC until ETS has been set over
# DCBNL (bnxt_dcb.c bnxt_hwrm_queue_pfc_cfg: ``if (!my_ets) return -EINVAL``).
DEPENDS = {"bnxt-broadcom": {"pfc": "ets"}, "bnxt-upstream": {"pfc": "ets"}}

# How a DSCP APP entry is given a new priority. "replace": `dcb app replace` (add the new entry,
# then delete the old one) - mlx5 overwrites the DSCP's priority in place and drops the old
# entry itself (en_dcbnl.c mlx5e_dcbnl_ieee_setapp). "delete-first": `dcb app del` of every entry
# of that DSCP, then `dcb app add` - ice refuses a second entry for a mapped DSCP ("already user
# mapped", ice_dcb_nl.c ice_dcbnl_setapp), and bnxt's delete clears the DSCP in the firmware
# table (bnxt_dcb.c bnxt_hwrm_queue_dscp2pri_cfg with add false: mask 0), so after a replace the
# firmware would hold no mapping for it although the kernel's table shows the new entry.
APP_REWRITE = {"mlx5-inbox": "replace", "mlx5-ofed": "replace", "bnxt-broadcom": "delete-first",
               "bnxt-upstream": "delete-first", "ice": "delete-first", "no-dcb": "replace"}

NAMES = {
    "mlx5-inbox": "NVIDIA ConnectX, inbox mlx5_core + mlx5_ib",
    "mlx5-ofed": "NVIDIA ConnectX, MLNX_OFED / DOCA-OFED",
    "bnxt-broadcom": "Broadcom Thor/Thor2, Broadcom's bnxt_en + bnxt_re",
    "bnxt-upstream": "Broadcom Thor/Thor2, upstream bnxt_en + bnxt_re",
    "ice": "Intel E810, ice + irdma",
    "no-dcb": "any netdev without DCB (veth, virtio)",
}

# (setting, how it is set, persists?, firmware / prerequisite) per stack, for the docs table.
_DCB = "DCBNL (`dcb`), runtime"
_MLX5_DCBX = ("host DCBX", "`dcb dcbx set dev <if> host ieee` when `dcb dcbx show` lacks `host` "
              "(firmware mode shows `cee ieee`: the ConnectX's willing LLDP agent applies the "
              "switch's PFC and ETS over the host's); refused, the task fails naming that "
              "(en_dcbnl.c mlx5e_dcbnl_setdcbx)", "runtime: the driver reads the firmware's mode "
              "at every load (mlx5e_dcbnl_initialize), the boot unit sets it again",
              "firmware with the DCBX capability; without it the port is always host")
TABLE = {
    "mlx5-inbox": [
        _MLX5_DCBX,
        ("trust DSCP + DSCP map", "`dcb app replace dscp-prio 0:0 ... 26:3 ... 48:6 ... 63:0`: all "
         "64 DSCPs (the driver's own map, priority = DSCP >> 3, puts 24-31 on 3), an entry the "
         "plan does not hold replaced in place (trust follows the first DSCP APP entry, "
         "en_dcbnl.c mlx5e_dcbnl_ieee_setapp)", _DCB,
         "a function without vport_group_manager refuses it (EOPNOTSUPP)"),
        ("ETS", "`dcb ets set prio-tc ... tc-tsa ... tc-bw ...`; the strict CNP TC reads back "
         "100 % (mlx5e_build_tc_tx_bw), so that is what is expected", _DCB, ""),
        ("PFC + headroom", "`dcb pfc set prio-pfc all:off 3:on delay <cable m>` (mlx5 sizes its "
         "buffers for that cable)", _DCB, "written only when it differs: it bounces the link; "
         "no cable term where the NIC reports delay 0 (no port buffers) or for cables >= 1000 m"),
        ("CNP DSCP / priority", "debugfs `mlx5/<bdf>/cc_params/np_cnp_{dscp,prio}`", "runtime",
         "debugfs mounted, no kernel lockdown; else nvconfig CNP_DSCP_P1 / CNP_802P_PRIO_P1"),
        ("ECN per priority", "cannot hold: not settable from the host", "nvconfig persists",
         "`mlxconfig set ROCE_CC_PRIO_MASK_P1=255` + reset"),
        ("RDMA-CM ToS", "configfs `rdma_cm/<dev>/ports/<port>/default_roce_tos` (group made "
         "first)", "runtime", "rdma_cm loaded, configfs mounted"),
    ],
    "mlx5-ofed": [
        _MLX5_DCBX,
        ("trust DSCP + DSCP map", "`qos/trust` when present, else as inbox; `dcb app replace`",
         _DCB, ""),
        ("ETS, PFC + headroom", "as inbox (`dcb ets`, strict TC read back at 100 %; `dcb pfc "
         "... delay <cable m>`)", _DCB, ""),
        ("ECN per priority", "`ecn/roce_{rp,np}/enable/<prio>` = 1", "runtime", ""),
        ("CNP DSCP / priority", "`ecn/roce_np/{cnp_dscp,cnp_802p_prio}`", "runtime", ""),
        ("ToS of every QP", "`/sys/class/infiniband/<dev>/tc/<port>/traffic_class` = 106 (also "
         "NCCL's, whatever NCCL_IB_TC says)", "runtime", ""),
        ("RDMA-CM ToS", "configfs `default_roce_tos`", "runtime", ""),
    ],
    "bnxt-broadcom": [
        ("host DCBX", "`dcb dcbx show` must say `host`: `lld-managed` (firmware DCBX agent) or "
         "plain `ieee` (a VF, or firmware LLDP without its DCBX agent) cannot hold any DCB "
         "setting and is reported with that reason", "NVM", "firmware LLDP agent off (niccli / "
         "bnxtnvm NVM option) or every DCBNL set fails with EINVAL"),
        ("ETS then PFC", "`dcb ets set` first (the driver refuses PFC before ETS; PFC is not "
         "tried when ETS failed), then `dcb pfc set`; unused TCs strict at 0 % "
         "(bnxt_ets_validate), compact TCs when the NIC has fewer than 8", _DCB,
         "at most pfc-cap lossless TCs"),
        ("DSCP map + RoCE port", "all 64 DSCPs: a DSCP with another entry is deleted first, then "
         "added (`dcb app del`, `dcb app add`: the delete clears the firmware's entry, "
         "bnxt_hwrm_queue_dscp2pri_cfg), then `dcb app replace dgram-port-prio 4791:3` (bnxt_re "
         "takes its priority mask from the UDP 4791 entry)", _DCB, ""),
        ("ECN, then CNP", "configfs `bnxt_re/<dev>` (mkdir first) `ports/<port>/cc/ecn_enable` + "
         "`apply` first, then `cc/{cnp_dscp,cnp_prio}` + `apply`: a CNP applied while "
         "congestion control is off is reset to 0 (configfs.c "
         "bnxt_re_program_cnp_dcb_values)", "runtime",
         "service-profile firmware refuses `cnp_prio` (EINVAL): the rest is applied, the task "
         "fails naming cnp with that reason"),
        ("RDMA-CM ToS", "configfs `default_roce_tos`", "runtime", ""),
    ],
    "bnxt-upstream": [
        ("host DCBX, ETS then PFC, DSCP map + RoCE port", "as Broadcom's driver", _DCB,
         "firmware LLDP agent off"),
        ("CNP, ECN", "cannot hold: upstream bnxt_re has no configfs", "NVM", "Broadcom's "
         "driver, or the NVM defaults (niccli)"),
    ],
    "ice": [
        ("firmware LLDP agent off", "`ethtool --set-priv-flags <if> fw-lldp-agent off` "
         "(`dcb dcbx` then shows `host` instead of `lld-managed`)",
         "persists: the agent is stopped with persist set (ice_ethtool.c ice_set_priv_flags: "
         "ice_aq_stop_lldp(..., persist=true)), across reboots until turned back on",
         "needed for DSCP (L3) QoS mode; it cannot be turned back on while DSCP mode is "
         "active"),
        ("DSCP map, then ETS and PFC", "all 64 DSCPs first, a mapped DSCP deleted before it is "
         "added again (`dcb app del`, `dcb app add`: ice_dcbnl_setapp refuses a DSCP already "
         "mapped; its first entry switches to DSCP mode and resets ETS to a 1:1 priority-to-TC map, which then cannot "
         "change), then `dcb ets` with that 1:1 map (contiguous TCs: a set like {0,3,6} "
         "collapses to one TC) and `dcb pfc`", _DCB, ""),
        ("CNP, ECN", "cannot hold: not settable per priority from the host", "-",
         "irdma module defaults"),
        ("RDMA-CM ToS", "configfs `default_roce_tos`", "runtime", ""),
    ],
}
COMMON = [
    ("MTU, global pause, channels, IRQ affinity", "`ip link`, `ethtool -A/-L`, "
     "`/proc/irq/N/smp_affinity_list`", "runtime", ""),
    ("/31, policy rule and route", "the host's network manager (networkd: `09-roce-<if>."
     "network`, or a drop-in to netplan's `10-netplan-*.network` that matches the NIC; "
     "NetworkManager, ifupdown) where one runs, and `ip` at once", "persists through the "
     "manager", ""),
    ("tools", "`dcb` (iproute2 >= 5.11), `ethtool` (>= 4.0), `ip`", "-", "a missing tool is "
     "named once (host, tool, package, version); what it carries is unsupported"),
]


# The tools gather and apply call, the package that ships them and the first version with every
# subcommand used: iproute2's dcb tool appeared in 5.11; rdma in 4.16; ethtool 4.0 already has
# -A/-L/--show-priv-flags/--set-priv-flags.
TOOLS = {"dcb": ("iproute2", "5.11"), "rdma": ("iproute2", "4.16"), "ethtool": ("ethtool", "4.0"),
         "ip": ("iproute2", "4.0")}
# What a missing tool takes with it.
NEEDS_TOOL = {"dcb": ("dscp_prio", "roce_port_prio", "ets", "pfc", "dcbx"),
              "ethtool": ("global_pause", "channels", "fw_lldp_agent")}


def missing_tool_line(host: str, tool: str) -> str:
    """The one line a missing tool gives: host, tool, package and minimum version."""
    package, version = TOOLS.get(tool, (tool, "?"))
    return "%s: %s not found - install %s >= %s (%s)" % (
        host, tool, package, version, ", ".join(NEEDS_TOOL.get(tool, ())) or "gathering")


def on(stack: str, reason: str) -> str:
    """The reason a stack cannot hold a setting: "unsupported on <stack>: <reason>"."""
    return "unsupported on %s: %s" % (stack, reason)


def detect(driver: Optional[str], exists: Callable[[str], bool], net: str,
           rdma: Optional[str]) -> str:
    """The stack of netdev ``net`` (its RDMA device ``rdma`` or None) with ``driver``;
    ``exists(path)`` says whether a path exists."""
    if driver == "mlx5_core":
        ofed = [m.format(net=net, rdma=rdma) for m in OFED_MARKERS if rdma or "{rdma}" not in m]
        return "mlx5-ofed" if any(exists(p) for p in ofed) else "mlx5-inbox"
    if driver == "bnxt_en":
        return "bnxt-broadcom" if exists(BNXT_CONFIGFS) else "bnxt-upstream"
    if driver == "ice":
        return "ice"
    return "no-dcb"


def ordered(stack: str, changes: Iterable[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """``changes`` in the order the stack's vendor applies them (stable within a setting)."""
    order = ORDER.get(stack, ORDER["no-dcb"])
    rank = dict((s, i) for i, s in enumerate(order))
    return sorted(changes, key=lambda c: rank.get(c["setting"], len(order)))


def doc_table() -> List[str]:
    """The Markdown per-stack table of docs/hosts.md."""
    lines = ["| stack | setting | how | persists | needs |", "|---|---|---|---|---|"]
    for stack in ("mlx5-inbox", "mlx5-ofed", "bnxt-broadcom", "bnxt-upstream", "ice"):
        for i, (setting, how, persists, needs) in enumerate(TABLE[stack]):
            lines.append("| %s | %s | %s | %s | %s |" % (
                "**%s** (%s)" % (stack, NAMES[stack]) if i == 0 else "", setting, how, persists,
                needs or "-"))
    for setting, how, persists, needs in COMMON:
        lines.append("| every stack | %s | %s | %s | %s |" % (setting, how, persists,
                                                              needs or "-"))
    return lines


DOC_SECTIONS = {"driver stacks": ("plugins/module_utils/host/stacks.py",
                                  lambda: "\n".join(doc_table()))}
