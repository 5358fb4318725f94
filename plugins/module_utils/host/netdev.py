# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The netdev side of a RoCE NIC, per driver stack: MTU, firmware LLDP agent, DCBX mode, global
pause, the DCB APP table (DSCP map, and on bnxt the RoCE UDP port), ETS, PFC with the cable the
headroom is sized for, channels (host-nic.md §1.1-§1.5, host-audit.md #3, #9, #10).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.host import stacks
from ansible_collections.roce.fabric.plugins.module_utils.host.changes import (
    Change, change, unsupported)

ROCE_UDP_PORT = 4791      # RoCEv2 (IBTA annex A17)
TCS = 8
MLX5_MAX_CABLE_M = 1000   # en_dcbnl.c MLX5E_MAX_CABLE_LENGTH: setpfc ignores a longer delay


def channel_target(channels: Dict[str, Any], numa_local_cpus: int,
                   override: Optional[int] = None) -> Tuple[str, Optional[int]]:
    """Channels to set: min(driver maximum, NIC-local cores), or the override.

    Drivers cap channels at their maximum (mlx5: ~completion EQs / online CPUs), so the folk
    advice of 2-4x the cores cannot be applied (host-nic.md §0 #6, §2.3). Returns
    (kind, count): kind "combined" where the driver has combined channels, else "rxtx"."""
    maxima = channels["max"]
    if maxima.get("combined"):
        kind, limit = "combined", maxima["combined"]
    else:
        rxtx = [x for x in (maxima.get("rx"), maxima.get("tx")) if x]
        kind, limit = "rxtx", (min(rxtx) if rxtx else None)
    if limit is None:
        return kind, None
    want = override if override is not None else max(1, numa_local_cpus)
    return kind, min(limit, want)


def ets_target(ets: Dict[str, Any], ets_cap: Optional[int],
               stack: str = "no-dcb") -> Tuple[Dict[str, Dict[int, Any]],
                                               Dict[str, Dict[int, Any]]]:
    """(what to write, what the driver then reports) for the plan's ``ets`` (roce_priority,
    cnp_priority, roce_bw, default_bw), each {"prio_tc", "tc_tsa", "tc_bw"} with 8 entries: the
    CNP class strict, RoCE and everything else weighted as the switches schedule them
    (host-nic.md §1.1). With as many TCs as priorities each class keeps its priority's number; a
    NIC with fewer (ets-cap, Thor2: 3) gets TC0 default, TC1 RoCE, TC2 CNP, as Broadcom's
    bnxt_setupcc.sh maps them. Per driver:

    * mlx5 stores and reports a strict TC at 100 % (en_dcbnl.c mlx5e_build_tc_tx_bw gives
      MLX5E_MAX_BW_ALLOC to TSA_STRICT; mlx5e_dcbnl_ieee_getets reads the firmware's value
      back), so the read-back expects 100 on the CNP TC; the unused TCs stay ETS at 0 %, which
      mlx5 groups apart and reports as 0 (mlx5e_build_tc_group, getets "Report 0% ets tc").
    * bnxt refuses a TSA other than strict on a TC above max_tc (bnxt_dcb.c bnxt_ets_validate:
      ``(tc_tx_bw || tc_tsa) && i > max_tc``) and, before the 2025 fix b74c2a2e, an ETS TC at 0 %
      when the weights sum to 100 ("starving a TC"): every unused TC is written strict at 0 %
      (TSA_STRICT is 0), and bnxt reports exactly what it stored (getets copies bp->ieee_ets).
    * ice in DSCP mode keeps the 1:1 priority-to-TC map its switch to DSCP mode set and ignores
      a new one (ice_dcb_nl.c ice_dcbnl_setets: "in DSCP mode up->tc mapping cannot change"); a
      non-contiguous TC set such as {0,3,6} collapses to one TC (ice_dcb_lib.c
      ice_dcb_get_num_tc), so the map is written 1:1 and the weights of the contiguous TCs sum
      to 100 (ice_dcb_bwchk)."""
    roce, cnp = ets["roce_priority"], ets["cnp_priority"]
    if stack == "ice":
        tc_roce, tc_cnp = roce, cnp
        prio_tc = dict((p, p if ets_cap is None or p < ets_cap else 0) for p in range(TCS))
    else:
        if ets_cap is not None and ets_cap <= max(roce, cnp):
            tc_roce, tc_cnp = 1, 2
        else:
            tc_roce, tc_cnp = roce, cnp
        prio_tc = dict((p, tc_roce if p == roce else tc_cnp if p == cnp else 0)
                       for p in range(TCS))
    used = (0, tc_roce)
    if stack.startswith("bnxt"):
        tc_tsa = dict((t, "ets" if t in used else "strict") for t in range(TCS))
    else:
        tc_tsa = dict((t, "strict" if t == tc_cnp else "ets") for t in range(TCS))
    tc_bw = dict((t, 0) for t in range(TCS))
    tc_bw[tc_roce], tc_bw[0] = ets["roce_bw"], ets["default_bw"]
    write: Dict[str, Dict[int, Any]] = {"prio_tc": prio_tc, "tc_tsa": tc_tsa, "tc_bw": tc_bw}
    expect: Dict[str, Dict[int, Any]] = {"prio_tc": dict(prio_tc), "tc_tsa": dict(tc_tsa),
                                         "tc_bw": dict(tc_bw)}
    if stack.startswith("mlx5"):
        expect["tc_bw"][tc_cnp] = 100
    return write, expect


def _map_args(mapping: Mapping[int, Any]) -> List[str]:
    return ["%d:%s" % (k, mapping[k]) for k in sorted(mapping)]


def decide(desired: Dict[str, Any], current: Dict[str, Any], stack: str) -> List[Change]:
    """Netdev-side changes of one NIC (the caller orders them by stacks.ordered)."""
    name = desired["name"]
    out: List[Change] = []
    if current["mtu_bytes"] != desired["mtu_bytes"]:
        out.append(change("mtu", current["mtu_bytes"], desired["mtu_bytes"],
                          ["ip", "link", "set", "dev", name, "mtu", str(desired["mtu_bytes"])]))
    flags = current.get("priv_flags") or {}
    if stack == "ice" and flags.get("fw-lldp-agent"):
        # DSCP (L3) QoS and every DCBNL set need the host as DCBX owner (host-nic.md §1.5).
        out.append(change("fw_lldp_agent", "on", "off", ["ethtool", "--set-priv-flags", name,
                                                         "fw-lldp-agent", "off"]))
    blocked = dcbx_blocked(stack, current.get("dcbx"), flags)
    if blocked:
        out.append(unsupported("dcbx", " ".join(sorted(current.get("dcbx") or ())), "host",
                               blocked))
    out += dcbx_host(name, stack, current.get("dcbx"))
    if desired.get("pause_off"):
        pause = current["pause"]
        if "ethtool" in (current.get("missing_tools") or ()):
            out.append(unsupported("global_pause", None, "off", "the ethtool tool is missing "
                                   "(%s >= %s)" % stacks.TOOLS["ethtool"]))
        elif pause is None:
            out.append(unsupported("global_pause", None, "off", stacks.on(
                stack, "the netdev has no pause frames (ethtool -a: not supported)")))
        elif pause.get("rx") or pause.get("tx") or pause.get("autoneg"):
            out.append(change("global_pause", pause, "off",
                              ["ethtool", "-A", name, "autoneg", "off", "rx", "off", "tx",
                               "off"]))
    out += _dcb(desired, current, stack, blocked)
    kind, count = desired.get("channels") or (None, None)
    if count is not None:
        cur = current["channels"]["current"]
        if kind == "combined" and cur.get("combined") != count:
            out.append(change("channels", cur, count,
                              ["ethtool", "-L", name, "combined", str(count)]))
        elif kind == "rxtx" and (cur.get("rx") != count or cur.get("tx") != count):
            out.append(change("channels", cur, count,
                              ["ethtool", "-L", name, "rx", str(count), "tx", str(count)]))
    return out


def dcbx_blocked(stack: str, dcbx: Optional[Iterable[str]],
                 priv_flags: Dict[str, bool]) -> Optional[str]:
    """Why every DCBNL set will fail on this netdev, named by the DCBX mode, or None.

    bnxt takes DCBNL sets only in host IEEE mode (bnxt_dcb.c bnxt_dcbnl_ieee_setets / setpfc /
    setapp: EINVAL without DCB_CAP_DCBX_HOST). bnxt_dcb_init grants host mode only to a PF whose
    firmware runs no LLDP agent; firmware with its DCBX agent reports lld-managed, and a VF or
    firmware running LLDP without the DCBX agent reports plain ieee - bnxt_dcbnl_setdcbx refuses
    host mode in both cases. ice refuses sets while lld-managed (ice_dcb_nl.c ice_dcbnl_setets,
    ice_dcbnl_setapp) unless the firmware LLDP agent is being turned off first."""
    flags = set(dcbx or ())
    if stack.startswith("bnxt") and dcbx is not None and "host" not in flags:
        if "lld-managed" in flags:
            why = ("the firmware DCBX agent owns DCB (dcb dcbx: lld-managed), so bnxt refuses "
                   "every DCBNL set with EINVAL: turn the firmware LLDP/DCBX agent off in NVM "
                   "(niccli / bnxtnvm) and reset")
        else:
            why = ("dcb dcbx reports '%s' without host: a VF, or firmware running its LLDP agent "
                   "without the DCBX agent (bnxt_dcb_init), so bnxt refuses every DCBNL set "
                   "with EINVAL: set DCB on the PF, or turn the firmware LLDP agent off in NVM "
                   "(niccli / bnxtnvm) and reset" % " ".join(sorted(flags)))
        return stacks.on(stack, why)
    if stack == "ice" and "lld-managed" in flags and not priv_flags.get("fw-lldp-agent"):
        return stacks.on(stack, "the firmware DCBX agent manages DCB (dcb dcbx: lld-managed) "
                                "and the fw-lldp-agent private flag is not there to turn off")
    return None


# What firmware DCBX mode costs on mlx5: the ConnectX's own agent, willing, applies the switch's
# LLDP PFC and ETS over the host's (en_dcbnl.c mlx5e_dcbnl_set_dcbx_mode sets willing_admin in
# any mode but host), so a PFC the host wrote is overwritten and each rewrite bounces the link.
MLX5_FIRMWARE_DCBX = ("firmware DCBX (dcb dcbx: %s): the ConnectX's LLDP agent applies the "
                      "switch's PFC and ETS over the host's")


def dcbx_host(name: str, stack: str, dcbx: Optional[Iterable[str]]) -> List[Change]:
    """mlx5 in firmware DCBX mode switched to host mode, before any ETS or PFC write.

    mlx5e_dcbnl_initialize reads the firmware's DCBX mode at every driver load and reports
    ``host`` only in host mode (DCB_CAP_DCBX_HOST; firmware mode shows ``cee ieee``);
    mlx5e_dcbnl_setdcbx with HOST|IEEE calls mlx5e_dcbnl_switch_to_host_mode, which sets the
    port's DCBX version_admin to host, turning the firmware agent off for DCB. It refuses
    lld-managed and any mode without host (returns 1: `dcb` exits 1 "Error when attempting to
    set attribute"), and a firmware without the dcbx capability is always in host mode."""
    if not stack.startswith("mlx5") or dcbx is None or "host" in dcbx:
        return []
    current = MLX5_FIRMWARE_DCBX % " ".join(sorted(dcbx))
    return [change("dcbx", current, "host", ["dcb", "dcbx", "set", "dev", name, "host",
                                             "ieee"])]


def _dcb(desired: Dict[str, Any], current: Dict[str, Any], stack: str,
         blocked: Optional[str]) -> List[Change]:
    name = desired["name"]
    app, ets, pfc = current.get("dcb_app"), current.get("ets"), current.get("pfc")
    want_dscp = desired.get("dscp_prio") or {}
    want_pfc = desired.get("pfc_priorities")
    out: List[Change] = []
    if "dcb" in (current.get("missing_tools") or ()):
        blocked = "the dcb tool is missing (%s >= %s)" % stacks.TOOLS["dcb"]
    if app is None or blocked:
        reason = blocked or stacks.on(stack, "the netdev has no DCB (DCBNL)")
        port = {ROCE_UDP_PORT: desired["ets"]["roce_priority"]} \
            if stack.startswith("bnxt") and desired.get("ets") else None
        for setting, want in (("dscp_prio", want_dscp), ("pfc", want_pfc),
                              ("ets", desired.get("ets")), ("roce_port_prio", port)):
            if want:
                out.append(unsupported(setting, None, want, reason))
        return out
    if want_dscp:
        out += dscp_changes(name, app, want_dscp, bool(desired.get("dscp_full")), stack)
    if stack.startswith("bnxt") and desired.get("ets"):
        # bnxt hands the UDP 4791 APP entry to its firmware (bnxt_dcb.c bnxt_dcbnl_ieee_setapp ->
        # bnxt_hwrm_set_dcbx_app), where bnxt_re takes the RoCE priority from (bnxt_setupcc.sh).
        port = {ROCE_UDP_PORT: desired["ets"]["roce_priority"]}
        if app["dgram_port_prio"].get(ROCE_UDP_PORT) != port[ROCE_UDP_PORT]:
            out.append(change("roce_port_prio", app["dgram_port_prio"], port,
                              ["dcb", "app", "replace", "dev", name, "dgram-port-prio"] +
                              _map_args(port)))
    prio_tc = None
    if desired.get("ets") and ets is not None:
        write, expect = ets_target(desired["ets"], ets.get("ets_cap"), stack)
        prio_tc = write["prio_tc"]
        have = dict((k, ets.get(k, {})) for k in expect)
        if have != expect:
            item = change("ets", have, expect,
                          ["dcb", "ets", "set", "dev", name, "prio-tc"] +
                          _map_args(write["prio_tc"]) + ["tc-tsa"] +
                          _map_args(write["tc_tsa"]) + ["tc-bw"] +
                          _map_args(write["tc_bw"]))
            out.append(item)
    elif desired.get("ets"):
        out.append(unsupported("ets", None, desired["ets"],
                               stacks.on(stack, "dcb ets show fails on this netdev")))
    out += decide_pfc(name, want_pfc, pfc, desired.get("cable_m") if stack.startswith("mlx5")
                      else None, stack, prio_tc)
    return out


def dscp_view(table: Mapping[int, int]) -> str:
    """A DSCP table as people read it: a full one (64 entries) as its exceptions and the
    priority of the rest, '{26: 3, 48: 6, others: 0}'; a partial one entry by entry."""
    if len(table) < 64:
        return str(dict(sorted(table.items())))
    prios = list(table.values())
    rest = max(sorted(set(prios)), key=prios.count)
    shown = ["%d: %d" % (d, p) for d, p in sorted(table.items()) if p != rest]
    return "{%s}" % ", ".join(shown + ["others: %d" % rest])


def dscp_changes(name: str, app: Dict[str, Any], want: Dict[int, int], full: bool,
                 stack: str) -> List[Change]:
    """The DSCP APP table made exactly ``want``: a DSCP with another priority, or (``full``: the
    plan gives all 64) any entry the plan does not hold, is rewritten, so a re-plan from DSCP 24
    to 26 leaves no 24 -> 3 behind. One change, carried out as the stack needs
    (stacks.APP_REWRITE): ``dcb app replace``, or ``del`` of every entry of the rewritten DSCPs
    and then ``add``."""
    entries = [tuple(e) for e in app.get("dscp_prio_entries") or sorted(app["dscp_prio"].items())]
    have = set(entries)
    rewrite = set(d for d, p in entries if (d in want and want[d] != p) or
                  (full and d not in want))
    missing = set(d for d, p in want.items() if (d, p) not in have)
    if not rewrite and not missing:
        return []
    current, desired = dscp_view(app["dscp_prio"]), dscp_view(want)
    base = ["dcb", "app"]
    if stacks.APP_REWRITE.get(stack, "replace") == "replace":
        give = dict((d, want[d]) for d in sorted(rewrite | missing) if d in want)
        item = change("dscp_prio", current, desired, base + ["replace", "dev", name,
                                                             "dscp-prio"] + _map_args(give))
        stale = sorted(e for e in entries if e[0] not in want)
        if stale:                      # only an entry for a DSCP the plan leaves out (compact)
            item["also"] = [base + ["del", "dev", name, "dscp-prio"] +
                            ["%d:%d" % e for e in stale]]
        return [item]
    drop = sorted(e for e in entries if e[0] in rewrite)
    give = dict((d, want[d]) for d in sorted((rewrite | missing) & set(want)))
    argvs = []
    if drop:
        argvs.append(base + ["del", "dev", name, "dscp-prio"] + ["%d:%d" % e for e in drop])
    if give:
        argvs.append(base + ["add", "dev", name, "dscp-prio"] + _map_args(give))
    item = change("dscp_prio", current, desired, argvs[0])
    item["also"] = argvs[1:]
    return [item]


def decide_pfc(name: str, want: Optional[Iterable[int]], pfc: Optional[Dict[str, Any]],
               cable_m: Optional[float] = None, stack: str = "no-dcb",
               prio_tc: Optional[Dict[int, int]] = None) -> List[Change]:
    """PFC on exactly the plan's priorities; on mlx5 also the cable length its PFC headroom is
    sized for (``delay``, metres). Written only when either differs: a PFC write bounces an mlx5
    link (host-nic.md §0 #5).

    mlx5 reports ``delay`` only where it manages port buffers (en_dcbnl.c
    mlx5e_dcbnl_ieee_getpfc: MLX5_BUFFER_SUPPORTED; default MLX5E_DEFAULT_CABLE_LEN, 7 m) and
    takes a new one only below MLX5E_MAX_CABLE_LENGTH (1000 m, mlx5e_dcbnl_ieee_setpfc): a NIC
    reporting 0, or a longer cable, keeps PFC without the cable term. bnxt refuses more lossless
    TCs than pfc-cap (its max_lltc: bnxt_hwrm_queue_pfc_cfg ``lltc_count > max_lltc``)."""
    if want is None:
        return []
    want = sorted(want)
    if pfc is None:
        return [unsupported("pfc", None, want, stacks.on(stack, "the netdev has no DCB "
                                                                "(DCBNL)"))]
    if stack.startswith("bnxt") and prio_tc and pfc.get("pfc_cap") is not None:
        lossless_tcs = set(prio_tc.get(p, 0) for p in want)
        if len(lossless_tcs) > pfc["pfc_cap"]:
            return [unsupported("pfc", pfc["enabled"], want, stacks.on(
                stack, "%d lossless TCs, the NIC has %d (pfc-cap, bnxt max_lltc)"
                % (len(lossless_tcs), pfc["pfc_cap"])))]
    delay = int(-(-cable_m // 1)) if cable_m else None
    if delay is not None and (not pfc.get("delay") or delay >= MLX5_MAX_CABLE_M):
        delay = None
    if sorted(pfc["enabled"]) == want and (delay is None or pfc.get("delay") == delay):
        return []
    argv = ["dcb", "pfc", "set", "dev", name, "prio-pfc", "all:off"] + ["%d:on" % p for p in want]
    current: Dict[str, Any] = {"enabled": pfc["enabled"]}
    desired: Dict[str, Any] = {"enabled": want}
    if delay is not None:
        argv += ["delay", str(delay)]
        current["delay"], desired["delay"] = pfc.get("delay"), delay
    return [change("pfc", current, desired, argv)]
