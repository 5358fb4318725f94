# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The netdev side of a RoCE NIC, per driver stack: MTU, firmware LLDP agent, DCBX mode, global
pause, the DCB APP table (DSCP map, and on bnxt the RoCE UDP port), ETS, PFC with the cable the
headroom is sized for, channels (host-nic.md §1.1-§1.5, host-audit.md #3, #9, #10).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.host.changes import (
    Change, change, unsupported)

ROCE_UDP_PORT = 4791      # RoCEv2 (IBTA annex A17)
TCS = 8


def channel_target(channels: Dict[str, Any], numa_local_cpus: Sequence[int],
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


def ets_target(ets: Dict[str, Any], ets_cap: Optional[int]) -> Dict[str, Dict[int, Any]]:
    """{"prio_tc", "tc_tsa", "tc_bw"} (8 entries each) for the plan's ``ets`` (roce_priority,
    cnp_priority, roce_bw, default_bw): the CNP class strict, RoCE and everything else weighted
    as the switches schedule them (host-nic.md §1.1). With as many TCs as priorities each class
    keeps its priority's number; a NIC with fewer (ets-cap, Thor2: 3) gets TC0 default, TC1
    RoCE, TC2 CNP, as Broadcom's bnxt_setupcc.sh maps them."""
    roce, cnp = ets["roce_priority"], ets["cnp_priority"]
    if ets_cap is not None and ets_cap <= max(roce, cnp):
        tc_roce, tc_cnp = 1, 2
    else:
        tc_roce, tc_cnp = roce, cnp
    prio_tc = dict((p, tc_roce if p == roce else tc_cnp if p == cnp else 0) for p in range(TCS))
    tc_tsa = dict((t, "strict" if t == tc_cnp else "ets") for t in range(TCS))
    tc_bw = dict((t, 0) for t in range(TCS))
    tc_bw[tc_roce], tc_bw[0] = ets["roce_bw"], ets["default_bw"]
    return {"prio_tc": prio_tc, "tc_tsa": tc_tsa, "tc_bw": tc_bw}


def _map_args(mapping):
    return ["%d:%s" % (k, mapping[k]) for k in sorted(mapping)]


def decide(desired: Dict[str, Any], current: Dict[str, Any], stack: str) -> List[Change]:
    """Netdev-side changes of one NIC (the caller orders them by stacks.ordered)."""
    name = desired["name"]
    out = []
    if current["mtu_bytes"] != desired["mtu_bytes"]:
        out.append(change("mtu", current["mtu_bytes"], desired["mtu_bytes"],
                          ["ip", "link", "set", "dev", name, "mtu", str(desired["mtu_bytes"])]))
    flags = current.get("priv_flags") or {}
    if stack == "ice" and flags.get("fw-lldp-agent"):
        # DSCP (L3) QoS and every DCBNL set need the host as DCBX owner (host-nic.md §1.5).
        out.append(change("fw_lldp_agent", "on", "off", ["ethtool", "--set-priv-flags", name,
                                                         "fw-lldp-agent", "off"]))
    blocked = None
    if stack.startswith("bnxt") and "lld-managed" in (current.get("dcbx") or ()):
        blocked = ("the firmware LLDP agent owns DCB (dcb dcbx: lld-managed), so every DCBNL "
                   "set fails on bnxt: turn the agent off in NVM (niccli / bnxtnvm) and reset")
        out.append(unsupported("dcbx", "lld-managed", "host", blocked))
    if desired.get("pause_off"):
        pause = current["pause"]
        if pause is None:
            out.append(unsupported("global_pause", None, "off", "the netdev has no pause "
                                   "frames (ethtool -a: not supported)"))
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


def _dcb(desired, current, stack, blocked):
    name = desired["name"]
    app, ets, pfc = current.get("dcb_app"), current.get("ets"), current.get("pfc")
    want_dscp = desired.get("dscp_prio") or {}
    want_pfc = desired.get("pfc_priorities")
    out = []
    if app is None or blocked:
        reason = blocked or "the netdev has no DCB (DCBNL)"
        for setting, want in (("dscp_prio", want_dscp), ("pfc", want_pfc),
                              ("ets", desired.get("ets"))):
            if want:
                out.append(unsupported(setting, None, want, reason))
        return out
    if want_dscp and any(app["dscp_prio"].get(d) != p for d, p in want_dscp.items()):
        out.append(change("dscp_prio", app["dscp_prio"], want_dscp,
                          ["dcb", "app", "replace", "dev", name, "dscp-prio"] +
                          _map_args(want_dscp)))
    if stack.startswith("bnxt") and desired.get("ets"):
        # bnxt_re derives the RoCE priority mask from the UDP 4791 APP entry (bnxt_setupcc.sh).
        port = {ROCE_UDP_PORT: desired["ets"]["roce_priority"]}
        if app["dgram_port_prio"].get(ROCE_UDP_PORT) != port[ROCE_UDP_PORT]:
            out.append(change("roce_port_prio", app["dgram_port_prio"], port,
                              ["dcb", "app", "replace", "dev", name, "dgram-port-prio"] +
                              _map_args(port)))
    if desired.get("ets") and ets is not None:
        target = ets_target(desired["ets"], ets.get("ets_cap"))
        have = dict((k, ets.get(k, {})) for k in target)
        if have != target:
            out.append(change("ets", have, target,
                              ["dcb", "ets", "set", "dev", name, "prio-tc"] +
                              _map_args(target["prio_tc"]) + ["tc-tsa"] +
                              _map_args(target["tc_tsa"]) + ["tc-bw"] +
                              _map_args(target["tc_bw"])))
    elif desired.get("ets"):
        out.append(unsupported("ets", None, desired["ets"], "dcb ets show fails on this netdev"))
    out += decide_pfc(name, want_pfc, pfc, desired.get("cable_m") if stack.startswith("mlx5")
                      else None)
    return out


def decide_pfc(name: str, want: Iterable[int], pfc: Optional[Dict[str, Any]],
               cable_m: Optional[float] = None) -> List[Change]:
    """PFC on exactly the plan's priorities; on mlx5 also the cable length its PFC headroom is
    sized for (``delay``, metres; the driver's default is 7 m - en_dcbnl.c). Written only when
    either differs: a PFC write bounces an mlx5 link (host-nic.md §0 #5)."""
    if want is None:
        return []
    want = sorted(want)
    if pfc is None:
        return [unsupported("pfc", None, want, "the netdev has no DCB (DCBNL)")]
    delay = int(-(-cable_m // 1)) if cable_m else None
    if sorted(pfc["enabled"]) == want and (delay is None or pfc.get("delay") == delay):
        return []
    argv = ["dcb", "pfc", "set", "dev", name, "prio-pfc", "all:off"] + ["%d:on" % p for p in want]
    current = {"enabled": pfc["enabled"]}
    desired = {"enabled": want}
    if delay is not None:
        argv += ["delay", str(delay)]
        current["delay"], desired["delay"] = pfc.get("delay"), delay
    return [change("pfc", current, desired, argv)]
