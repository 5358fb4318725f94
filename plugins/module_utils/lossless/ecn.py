# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""ECN (WRED marking) thresholds per lossless queue: mark well before PFC pauses.

A queue threshold K is a fixed queuing delay K / C, so holding marking delay constant across
speeds means K grows with the link rate (LM §3.4). Anchored at NVIDIA's 150 KB / 1.5 MB for
100 G, scaled linearly; then clamped under the PFC trigger so ECN always fires first (LM §3.5 #2).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Mapping, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors

KMIN_BYTES_PER_GBPS = 1500    # LM §3.4: 150 KB at 100 G (CL-ROCE default), 1 KB = 1000 B
KMAX_OVER_KMIN = 10           # LM §3.4: NVIDIA's 1:10 ratio (150 KB : 1.5 MB)
PMAX = 0.2                    # LM §3.4: HPCC-sim default marking probability at Kmax
CLAMP_FRACTION = 0.8          # LM §3.5 #2: Kmax <= 0.8 x the PFC trigger point
OVERRIDE_KEYS = ("kmin_bytes", "kmax_bytes", "pmax")


def ecn_thresholds(speed_gbps: int, xoff_trigger_bytes: int, mtu_bytes: int = 9216,
                   overrides: Optional[Mapping[str, Any]] = None, host: Optional[str] = None,
                   queue: Optional[str] = None, incast_bound_bytes: Optional[float] = None,
                   strict: bool = True) -> Dict[str, Any]:
    """Kmin/Kmax/Pmax for one lossless queue of a ``speed_gbps`` port whose PG pauses at
    ``xoff_trigger_bytes`` (one congested PG) and, under incast, once every queue feeding it
    holds ``incast_bound_bytes`` (thresholds.incast_kmin_bound).

    Defaults are scaled by speed and clamped so that Kmax <= 0.8 x trigger,
    Kmin <= 0.8 x the incast bound and Kmax - Kmin >= 2 x MTU. ``overrides`` (kmin_bytes,
    kmax_bytes, pmax) are taken as given; Kmax above 0.8 x trigger or a gap under 2 x MTU is a
    warning. With ``strict`` (a lone queue: the filter) they must keep Kmin < Kmax < trigger or
    raise; without it (the plan) the fabric-wide checks judge them beside every other port
    (ecn-before-pfc, ecn-before-pfc-incast). Pmax is carried in whole percent, at least 1 %, as
    both platforms take it (WRED_PROFILE green_drop_probability, EOS drop-probability).
    """
    where = "%s." % queue if queue else ""
    # Types and ranges passed the input gate or the filter's guard (schema roce_lossless.ecn);
    # what depends on this queue's pause points is judged here.
    speed, trigger, mtu = speed_gbps, xoff_trigger_bytes, mtu_bytes
    given = overrides or {}
    ceiling = int(CLAMP_FRACTION * trigger)
    gap = 2 * mtu
    kmin, kmax, clamped, warnings = _defaults(speed, trigger, mtu, incast_bound_bytes, host)
    pmax = given.get("pmax", PMAX)
    kmin, kmax = given.get("kmin_bytes", kmin), given.get("kmax_bytes", kmax)
    if strict:
        _check_order(given, kmin, kmax, trigger, ceiling, where, host)
    if given:
        if kmax > ceiling:
            warnings.append("Kmax %d B is above 0.8 x PFC trigger = %d B" % (kmax, ceiling))
        if kmax - kmin < gap:
            warnings.append("Kmax - Kmin = %d B is below 2 x MTU = %d B" % (kmax - kmin, gap))
    percent = max(1, int(round(pmax * 100)))
    return {
        "kmin_bytes": int(kmin),
        "kmax_bytes": int(kmax),
        "pmax": percent / 100.0,
        "pmax_percent": percent,
        "xoff_trigger_bytes": trigger,
        "clamped": clamped,
        "overridden": sorted(given),
        "warnings": warnings,
    }


def _defaults(speed: int, trigger: int, mtu: int, incast_bound_bytes: Optional[float],
              host: Optional[str]) -> Tuple[int, int, bool, List[str]]:
    """(Kmin, Kmax, clamped, warnings): the speed-scaled marks, clamped under the pause points."""
    ceiling = int(CLAMP_FRACTION * trigger)
    gap = 2 * mtu
    warnings = []
    kmin = int(KMIN_BYTES_PER_GBPS * speed)
    kmax = KMAX_OVER_KMIN * kmin
    clamped = kmax > ceiling
    if clamped:
        kmax = ceiling
        kmin = min(kmin, kmax - gap)
        warnings.append("Kmax clamped to 0.8 x PFC trigger = %d B (scaled default was %d B)"
                        % (kmax, KMAX_OVER_KMIN * int(KMIN_BYTES_PER_GBPS * speed)))
    if incast_bound_bytes is not None and kmin > CLAMP_FRACTION * incast_bound_bytes:
        kmin = int(CLAMP_FRACTION * incast_bound_bytes)
        clamped = True
        warnings.append("Kmin clamped to 0.8 x the incast pause point %d B"
                        % incast_bound_bytes)
    if kmin <= 0 or kmax - kmin < gap:
        raise errors.RoceInputError(
            "xoff_trigger_bytes", trigger,
            "too small for ECN before PFC: Kmax <= 0.8 x %d B, Kmin <= 0.8 x the incast pause "
            "point %s B and Kmax - Kmin >= 2 x MTU = %d B leave no Kmin > 0; give the lossless "
            "pool more buffer" % (trigger, "-" if incast_bound_bytes is None else
                                  int(incast_bound_bytes), gap), host)
    return kmin, kmax, clamped, warnings


def _check_order(given: Mapping[str, Any], kmin: int, kmax: int, trigger: int, ceiling: int,
                 where: str, host: Optional[str]) -> None:
    """A lone queue's overrides must mark before it pauses: 0 < Kmin < Kmax < trigger."""
    if "kmin_bytes" in given:
        errors.number(where + "roce_ecn.kmin_bytes", given["kmin_bytes"], 0, trigger,
                      "bytes", host, integer=True, lo_open=True)
    if "kmax_bytes" in given:
        errors.number(
            where + "roce_ecn.kmax_bytes", given["kmax_bytes"], 0, trigger - 1,
            "bytes: ECN must mark before PFC pauses at %d B (recommended <= %d B)"
            % (trigger, ceiling), host, integer=True, lo_open=True)
    if kmin >= kmax:
        raise errors.RoceInputError(
            where + "roce_ecn.kmin_bytes", kmin, "below Kmax = %d B" % kmax, host)
