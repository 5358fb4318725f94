# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Buffer rules over each switch's plan: headroom covers what is in flight, the carve fits, XON below
XOFF, and ECN marks before PFC pauses, also under incast (lossless-math.md §1-§3)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import operator
from typing import Dict, List, Optional, Set, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, EcnMarks, Finding)
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import (
    finding, rule, switches)
from ansible_collections.roce.fabric.plugins.module_utils.lossless import pause as thresholds

_v = finding
_MTU = operator.itemgetter("mtu_bytes")


@rule("ecn-before-pfc", "ERROR / WARN",
      "every lossless queue: 0 <= Kmin < Kmax < the PFC pause point, 0 < Pmax <= 1 (ERROR); "
      "Kmax above 0.8 x the pause point (WARN)")
def check_ecn_before_pfc(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for sw in switches(devices):
        trig = sw["buffer"]["trigger"]
        if trig is None:
            continue
        seen: Set[Tuple[int, int, float]] = set()
        seen_objects: Set[int] = set()     # ports of a class share one ECN object
        for port in sw["ports"]:
            ll = port["lossless"]
            if not ll or not ll["ecn"] or id(ll["ecn"]) in seen_objects:
                continue
            e = ll["ecn"]
            seen_objects.add(id(e))
            key = (e["kmin_bytes"], e["kmax_bytes"], e["pmax"])
            if key in seen:
                continue
            seen.add(key)
            limit = trig["trigger_one_pg_bytes"]
            nums = dict(kmin_bytes=e["kmin_bytes"], kmax_bytes=e["kmax_bytes"], pmax=e["pmax"],
                        pfc_trigger_bytes=limit)
            if not 0 <= e["kmin_bytes"] < e["kmax_bytes"] or not 0 < e["pmax"] <= 1:
                out.append(_v("ecn-before-pfc", "ERROR", sw["name"], port["name"],
                              "ECN Kmin %d B / Kmax %d B / Pmax %s out of order"
                              % (e["kmin_bytes"], e["kmax_bytes"], e["pmax"]),
                              "set 0 <= kmin_bytes < kmax_bytes and 0 < pmax <= 1", **nums))
            elif e["kmax_bytes"] >= limit:
                out.append(_v("ecn-before-pfc", "ERROR", sw["name"], port["name"],
                              "ECN Kmax %d B is at or above the PFC pause point %d B: PFC "
                              "pauses before ECN marks" % (e["kmax_bytes"], limit),
                              "lower roce_lossless.ecn.kmax_bytes to <= %d" % int(0.8 * limit),
                              **nums))
            elif e["kmax_bytes"] > 0.8 * limit:
                out.append(_v("ecn-before-pfc", "WARN", sw["name"], port["name"],
                              "ECN Kmax %d B is above 0.8 x the pause point %d B"
                              % (e["kmax_bytes"], limit),
                              "keep kmax_bytes <= %d" % int(0.8 * limit), **nums))
    return out


@rule("xon-below-xoff", "ERROR / WARN",
      "XON below XOFF (ERROR), hysteresis of at least 2 x MTU (WARN), for the pool and for "
      "each `ieee` headroom profile")
def check_xon_xoff(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for sw in switches(devices):
        trig = sw["buffer"]["trigger"]
        if trig is None:
            continue
        mtu = max(map(_MTU, sw["ports"]))
        for severity, msg in thresholds.check_xon(trig["xon_bytes"], trig["trigger_n_pgs_bytes"],
                                                  mtu):
            out.append(_v("xon-below-xoff", severity, sw["name"], "lossless pool", msg,
                          "set roce_lossless.xon_offset_bytes >= 2 x MTU = %d" % (2 * mtu),
                          xon_bytes=trig["xon_bytes"], xoff_bytes=trig["trigger_n_pgs_bytes"]))
        for port in sw["ports"]:
            hr = port["lossless"] and port["lossless"]["headroom"]
            if hr and hr["model"] == "ieee" and hr["xon_bytes"] >= hr["xoff_bytes"]:
                out.append(_v("xon-below-xoff", "ERROR", sw["name"], port["name"],
                              "headroom xon %d B >= xoff %d B"
                              % (hr["xon_bytes"], hr["xoff_bytes"]),
                              "check the port MTU", xon_bytes=hr["xon_bytes"],
                              xoff_bytes=hr["xoff_bytes"]))
    return out


@rule("headroom-covers-flight", "ERROR",
      "the headroom rendered on a port (a SKU table row, a computed or a pinned xoff) is at "
      "least what is in flight on **that** link (its speed, cable, MTU of both ends), by "
      "the switch's formula")
def check_headroom(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for sw in switches(devices):
        for port in sw["ports"]:
            ll = port["lossless"]
            if not ll:
                continue
            need, have = ll["headroom_required_bytes"], ll["headroom_configured_bytes"]
            if have < need:
                out.append(_v("headroom-covers-flight", "ERROR", sw["name"], port["name"],
                              "headroom %d B < %d B in flight on this %dG, %g m link to %s"
                              % (have, need, port["speed_gbps"], port["cable_m"], port["peer"]),
                              "remove the headroom override or raise it to >= %d B" % need,
                              headroom_bytes=have, required_bytes=need,
                              cable_m=port["cable_m"], speed_gbps=port["speed_gbps"]))
    return out


@rule("buffer-budget", "ERROR",
      "in the vendor's accounting (docs/lossless-math.md §0: NVIDIA PG headroom, lossy "
      "pipeline reservations, management and mirror; Broadcom PG minimums, shared headroom "
      "pool, lossy reservations) everything carved off the buffer leaves a shared pool > 0 "
      "and a pause point above 2 x MTU, else the finding names the switch and by how many "
      "bytes the buffer is overdrawn; a shared headroom pool holds sum(xoff) / "
      "over_subscribe_ratio")
def check_buffer_budget(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for sw in switches(devices):
        b = sw["buffer"]
        if b["shared_headroom_pool_bytes"] < b["shared_headroom_pool_required_bytes"]:
            out.append(_v("buffer-budget", "ERROR", sw["name"], "shared headroom pool",
                          "shared headroom pool %d B < sum(xoff) / over_subscribe_ratio = %d B"
                          % (b["shared_headroom_pool_bytes"],
                             b["shared_headroom_pool_required_bytes"]),
                          "raise roce_asic_overrides.shared_headroom_pool_bytes or "
                          "roce_lossless.over_subscribe_ratio",
                          shared_headroom_pool_bytes=b["shared_headroom_pool_bytes"],
                          required_bytes=b["shared_headroom_pool_required_bytes"]))
        if b["budget_error"]:
            out.append(_v("buffer-budget", "ERROR", sw["name"], "buffer", b["budget_error"],
                          "shorten cables, fewer lossless PGs, or a larger over_subscribe_ratio",
                          total_buffer_bytes=b["total_buffer_bytes"],
                          headroom_bytes=b["reserved_headroom_bytes"],
                          shared_headroom_pool_bytes=b["shared_headroom_pool_bytes"],
                          shared_pool_bytes=b["shared_pool_bytes"],
                          overdrawn_bytes=1 - b["shared_pool_bytes"]))
    return out


@rule("ecn-before-pfc-incast", "ERROR",
      "ECN starts marking before PFC pauses under incast (DCQCN's worst case, "
      "lossless-math.md §3.1-3.2): Kmin < alpha B_s / (n (1 + alpha P_l)) with n the "
      "switch's lossless ports and P_l its lossless priorities (static threshold: T / n). "
      "Default Kmin is clamped to 0.8 x that bound; the device document shows both pause "
      "points next to Kmin/Kmax")
def check_ecn_incast(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """ECN starts marking before PFC pauses under incast: Kmin below the pause point an ingress
    PG reaches when every lossless queue of the switch holds Kmin (LM §3.1-3.2, DCQCN §5)."""
    out: List[Finding] = []
    for sw in switches(devices):
        trig = sw["buffer"]["trigger"]
        if trig is None:
            continue
        bound = trig["incast_pause_bytes"]
        worst: Optional[Tuple[str, EcnMarks]] = None      # (port, its ECN marks)
        for port in sw["ports"]:
            ll = port["lossless"]
            if ll and ll["ecn"] and (worst is None or ll["ecn"]["kmin_bytes"] >
                                     worst[1]["kmin_bytes"]):
                worst = (port["name"], ll["ecn"])
        if worst is None or worst[1]["kmin_bytes"] < bound:
            continue
        kmin = worst[1]["kmin_bytes"]
        out.append(_v("ecn-before-pfc-incast", "ERROR", sw["name"], worst[0],
                      "ECN Kmin %d B >= %d B: with all %d lossless ports congested a PG pauses "
                      "before any queue marks" % (kmin, bound, trig["incast_fanout_ports"]),
                      "lower roce_lossless.ecn.kmin_bytes to <= %d" % int(0.8 * bound),
                      kmin_bytes=kmin, incast_pause_bytes=bound,
                      fanout_ports=trig["incast_fanout_ports"]))
    return out
