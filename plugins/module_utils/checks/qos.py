# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""QoS rules (lossless-math.md §3.5): PFC on exactly the lossless class, one lossless class on
both ends of every link, only the planned DSCPs on it, CNP strict and lossy, the PFC watchdog
on."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, Iterator, List, Optional, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.plan import qos as plan_qos
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, Finding, HostIntent, QosIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.checks.links import link_ends
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import (
    finding, rule, switches)

SONIC_WD_DETECTION_MS = (100, 5000)   # SONiC YANG PFC_WD detection_time range (sonic.md §2)

_v = finding


def _qos_of(dev: Device) -> List[Tuple[str, QosIntent]]:
    """(where, QoS intent) of a device: the switch's, or each NIC's of a host."""
    if dev["kind"] == "switch":
        return [("qos", cast(SwitchIntent, dev)["qos"])]
    return [(n["name"], n["qos"]) for n in cast(HostIntent, dev)["nics"]]


def _differing_links(fab: Fabric, devices: Dict[str, Device]
                     ) -> Iterator[Tuple[SwitchIntent, str, Device, QosIntent, QosIntent]]:
    """(device a, where, device b, QoS a, QoS b) for links whose ends have their own QoS intent.
    Where every device and NIC shares one QoS intent (no override anywhere), no link can."""
    if not _several_qos(devices):
        return
    for dev_a, pa, dev_b, b, kind in link_ends(fab, devices):
        qa = dev_a["qos"]
        qb = b["qos"] if kind == "host" else cast(SwitchIntent, dev_b)["qos"]
        if qa is qb:         # both ends share one QoS intent (no override on either)
            continue
        yield dev_a, "%s<->%s:%s" % (pa, dev_b["name"], b["name"] if kind == "host" else b), \
            dev_b, qa, qb


def _several_qos(devices: Dict[str, Device]) -> bool:
    """Whether the devices and NICs hold more than one QoS intent object."""
    first: Optional[QosIntent] = None
    for dev in devices.values():
        for _where, q in _qos_of(dev):
            if first is None:
                first = q
            elif q is not first:
                return True
    return False


@rule("pfc-match", "ERROR",
      "on each device PFC is on exactly the lossless priorities (the ones with headroom), and "
      "PFC priorities are equal on both ends of every link, switch-switch and leaf-NIC")
def check_pfc_match(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for dev_a, where, dev_b, qa, qb in _differing_links(fab, devices):
        if qa["pfc_priorities"] != qb["pfc_priorities"]:
            out.append(_v("pfc-match", "ERROR", dev_a["name"], where,
                          "PFC priorities %s here, %s on %s"
                          % (qa["pfc_priorities"], qb["pfc_priorities"], dev_b["name"]),
                          "use the same roce_qos.pfc_priorities on both ends",
                          local=qa["pfc_priorities"], remote=qb["pfc_priorities"]))
    for dev in devices.values():
        for where, q in _qos_of(dev):
            lossless = q["lossless_priorities"]
            if q["pfc_priorities"] != lossless:
                out.append(_v("pfc-match", "ERROR", dev["name"], where,
                              "PFC on priorities %s, but the lossless priorities (with "
                              "headroom) are %s" % (q["pfc_priorities"], lossless),
                              "enable PFC on exactly the lossless priorities",
                              pfc=q["pfc_priorities"], lossless=lossless))
    return out


@rule("lossless-class-match", "ERROR",
      "RoCE DSCP -> TC, lossless priorities and trust equal on both ends of every link; on "
      "each device the RoCE TC is the lossless class and carries ECN")
def check_lossless_class(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for dev_a, where, dev_b, qa, qb in _differing_links(fab, devices):
        la, lb = _class_of(qa), _class_of(qb)
        if la != lb:
            out.append(_v("lossless-class-match", "ERROR", dev_a["name"], where,
                          "lossless class differs: here priorities %s, RoCE DSCP %d -> TC %d, "
                          "trust %s; on %s %s, DSCP %d -> TC %d, trust %s"
                          % (la + (dev_b["name"],) + lb),
                          "render both ends from one roce_qos plan",
                          local=list(la), remote=list(lb)))
    for dev in devices.values():
        for where, q in _qos_of(dev):
            lossless = q["lossless_priorities"]
            if not ([q["roce_tc"]] == lossless
                    and (dev["kind"] == "host" or q["ecn_queues"] == lossless)):
                out.append(_v("lossless-class-match", "ERROR", dev["name"], where,
                              "RoCE DSCP %d -> TC %d, lossless %s, ECN queues %s differ"
                              % (q["roce_dscp"], q["roce_tc"], lossless, q["ecn_queues"]),
                              "map the RoCE DSCP to the one lossless TC with ECN on it",
                              roce_tc=q["roce_tc"], lossless=lossless, ecn=q["ecn_queues"]))
    return out


def _maps_of(dev: Device) -> List[Tuple[str, QosIntent, Dict[int, int], int]]:
    """(where, QoS intent, DSCP map, the class of every DSCP not in it) of a device as its
    config carries them: the switch's map (renderers write plan/qos.py dscp_map: all 64), each
    NIC's DSCP table (the nic module writes all 64)."""
    if dev["kind"] == "switch":
        q = cast(SwitchIntent, dev)["qos"]
        return [("qos", q, q["dscp_to_tc"], q["dscp_default_tc"])]
    return [(n["name"], n["qos"], n["dscp_prio"], n["dscp_default_prio"])
            for n in cast(HostIntent, dev)["nics"]]


def _lossless_dscps(q: QosIntent, table: Dict[int, int], default: int) -> List[int]:
    """The DSCPs a map with its default class puts on a lossless or PFC-enabled priority."""
    paused = set(q["lossless_priorities"]) | set(q["pfc_priorities"])
    return [d for d in plan_qos.DSCPS if table.get(d, default) in paused]


@rule("lossless-only-roce", "ERROR",
      "only the planned DSCPs reach a lossless class: every switch's and NIC's DSCP map is "
      "written for all 64 DSCPs (none left to the platform's or driver's default map, which "
      "puts DSCP 24-31 on priority 3) and puts on a lossless or PFC priority only RoCE's DSCP "
      "and those the inventory maps there; both ends of every link agree on them")
def check_lossless_only_roce(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    seen: Dict[Tuple[int, int, int], List[int]] = {}    # maps shared by many devices: once
    for dev in devices.values():
        for where, q, table, default in _maps_of(dev):
            key = (id(q), id(table), default)
            if key not in seen:
                seen[key] = _lossless_dscps(q, table, default)
            stray = [d for d in seen[key] if d not in q["lossless_dscps"]]
            if stray:
                out.append(_v("lossless-only-roce", "ERROR", dev["name"], where,
                              "DSCP %s reach lossless priorities %s; the plan puts only %s there"
                              % (_dscps(stray), sorted(set(q["lossless_priorities"]) |
                                                       set(q["pfc_priorities"])),
                                 _dscps(q["lossless_dscps"])),
                              "map every other DSCP to a lossy class (roce_qos.dscp_to_tc)",
                              stray=stray, planned=q["lossless_dscps"]))
    for dev_a, where, _dev_b, qa, qb in _differing_links(fab, devices):
        if _class_of(qa) != _class_of(qb):
            continue        # another RoCE class at the other end: lossless-class-match's
        if qa["lossless_dscps"] != qb["lossless_dscps"]:
            out.append(_v("lossless-only-roce", "ERROR", dev_a["name"], where,
                          "lossless DSCPs %s here, %s at the other end: a DSCP lossless on one "
                          "end only is paused into a lossy queue (or dropped under pause)"
                          % (_dscps(qa["lossless_dscps"]), _dscps(qb["lossless_dscps"])),
                          "map the same DSCPs to the lossless class on both ends "
                          "(roce_qos.dscp_to_tc, roce_nic_overrides.<i>.qos)",
                          local=qa["lossless_dscps"], remote=qb["lossless_dscps"]))
    return out


def _class_of(q: QosIntent) -> Tuple[List[int], int, int, str]:
    return q["lossless_priorities"], q["roce_dscp"], q["roce_tc"], q["trust"]


def _dscps(values: List[int]) -> str:
    return ", ".join(str(d) for d in values) or "none"


@rule("cnp-strict-lossy", "ERROR",
      "the CNP class is strict priority, without PFC and without ECN marking")
def check_cnp(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for dev in devices.values():
        for where, q in _qos_of(dev):
            cnp = q["cnp_tc"]
            if cnp in q["pfc_priorities"] or cnp in q["ecn_queues"] or \
                    q["cnp_scheduler"] != "strict":
                out.append(_v("cnp-strict-lossy", "ERROR", dev["name"], where,
                              "CNP DSCP %d -> TC %d must be strict (is %s), without PFC (%s) and "
                              "without ECN (%s)" % (q["cnp_dscp"], cnp, q["cnp_scheduler"],
                                                    q["pfc_priorities"], q["ecn_queues"]),
                              "CNP on its own strict, lossy, unmarked queue (e.g. DSCP 48 -> TC 6)",
                              cnp_tc=cnp))
    return out


@rule("pfc-watchdog", "ERROR",
      "watchdog on, poll <= detection and <= restoration, detection within SONiC's "
      "100-5000 ms")
def check_pfc_watchdog(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for sw in switches(devices):
        wd = sw["pfc_watchdog"]
        lo, hi = SONIC_WD_DETECTION_MS
        bad = None
        if not wd["enabled"]:
            bad = "PFC watchdog disabled on lossless queues %s" % sw["qos"]["pfc_priorities"]
        elif not wd["poll_ms"] <= min(wd["detection_ms"], wd["restoration_ms"]):
            bad = "poll %d ms must be <= detection %d ms and restoration %d ms" % (
                wd["poll_ms"], wd["detection_ms"], wd["restoration_ms"])
        elif not lo <= wd["detection_ms"] <= hi:
            bad = "detection %d ms outside %d..%d ms" % (wd["detection_ms"], lo, hi)
        if bad:
            timers = dict((k, wd[k]) for k in ("poll_ms", "detection_ms", "restoration_ms"))
            out.append(_v("pfc-watchdog", "ERROR", sw["name"], "pfc watchdog", bad,
                          "enable it with poll 100-200 ms, detection 200 ms, restoration "
                          "200-400 ms", **timers))
    return out
