# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""When a lossless PG pauses: the XOFF trigger from buffer depth, and XON hysteresis.

The rule of thumb "pause when a lossless queue reaches 60-70 % of the buffer" only holds for one
congested PG. Under a dynamic threshold (Choudhury-Hahne, LM §2.1) a PG may take shared buffer
while q < alpha * (B_s - used); with N congested PGs each stops at alpha / (1 + N alpha) * B_s.
A static fraction X with one PG therefore means alpha = X / (1 - X) (LM §2.2).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors

# SAI/SONiC dynamic_th is log2(alpha); -8 means alpha 0 and 7 means infinity (LM §2.1, SAI-ALPHA),
# so the finite, usable exponents are -7..6.
DYNAMIC_TH_RANGE = (-7, 6)
# EOS "platform trident mmu" thresholds are alpha enums 1/128 ... 1/2, 1, 2, 4, 8 (eos-and-avd.md).
EOS_ALPHA_EXPONENTS = tuple(range(-7, 4))
DEFAULT_TRIGGER_FRACTION = 2.0 / 3   # alpha 2, dynamic_th 1: inside the 60-70 % rule (LM §2.2)
MODES = ("dynamic", "static")


def alpha_from_fraction(fraction: float, host: Optional[str] = None) -> float:
    """alpha such that one congested PG pauses at ``fraction`` of the shared pool: X / (1 - X)
    (0 < X <= 0.99: the schema's roce_lossless.trigger_fraction)."""
    return fraction / (1.0 - fraction)


def pause_fraction(alpha: float, congested_pgs: int = 1) -> float:
    """Share of the shared pool at which each of ``congested_pgs`` saturated PGs pauses."""
    return alpha / (1.0 + congested_pgs * alpha)


def dynamic_th(alpha: float) -> int:
    """Nearest SONiC/SAI dynamic_th exponent (log2 alpha, rounded in log space, clamped)."""
    lo, hi = DYNAMIC_TH_RANGE
    return int(min(hi, max(lo, round(math.log(alpha, 2)))))


def eos_threshold(alpha: float) -> str:
    """Nearest EOS MMU threshold enum for ``alpha`` ("1/8", "1", "2", ...)."""
    exp = min(EOS_ALPHA_EXPONENTS, key=lambda e: (abs(e - math.log(alpha, 2)), e))
    return "1/%d" % 2 ** -exp if exp < 0 else str(2 ** exp)


def xoff_trigger(shared_pool_bytes: int, fraction: float = DEFAULT_TRIGGER_FRACTION,
                 mode: str = "dynamic", congested_pgs: int = 1, mtu_bytes: int = 9216,
                 host: Optional[str] = None) -> Dict[str, Any]:
    """Where a lossless PG pauses, from the shared pool size and the target fill ``fraction``.

    ``dynamic``: alpha = X/(1-X) rounded to a power of two (what SONiC and EOS can express); the
    pause point is reported for one and for ``congested_pgs`` PGs. ``static``: a fixed byte
    threshold X * B_s that does not shrink with the number of congested PGs.
    XON follows the hysteresis rule of LM §1.4: resume 2 x MTU below the (worst-case) pause point.
    """
    # The pool is what the carve left: a derived number, so it is judged here (an overdrawn
    # buffer leaves none); the rest passed the input gate or the filter's guard.
    pool = errors.number("shared_pool_bytes", shared_pool_bytes, 1, 64 * 2 ** 30, "bytes", host,
                         integer=True)
    n, mtu = congested_pgs, mtu_bytes
    target_alpha = alpha_from_fraction(fraction, host)
    result: Dict[str, Any] = {"mode": mode, "requested_fraction": fraction,
                              "shared_pool_bytes": pool, "congested_pgs": n}
    if mode == "dynamic":
        exp = dynamic_th(target_alpha)
        alpha = 2.0 ** exp
        one = pause_fraction(alpha, 1)
        many = pause_fraction(alpha, n)
        result.update({
            "alpha": alpha, "dynamic_th": exp, "eos_threshold": eos_threshold(alpha),
            "fraction_one_pg": one, "fraction_n_pgs": many,
            "trigger_one_pg_bytes": int(one * pool), "trigger_n_pgs_bytes": int(many * pool),
        })
    else:
        trigger = int(fraction * pool)
        result.update({
            "static_th_bytes": trigger, "fraction_one_pg": fraction, "fraction_n_pgs": fraction,
            "trigger_one_pg_bytes": trigger, "trigger_n_pgs_bytes": trigger,
        })
    hysteresis = 2 * mtu
    worst = result["trigger_n_pgs_bytes"]
    if worst <= hysteresis:
        raise errors.RoceInputError(
            "shared_pool_bytes", pool,
            "too small: with %d congested PGs each pauses at %d B, which leaves no room for the "
            "2 x MTU = %d B XON hysteresis; give the lossless pool more buffer"
            % (n, worst, hysteresis), host)
    result["xon_offset_bytes"] = hysteresis
    result["xon_bytes"] = worst - hysteresis
    return result


def check_xon(xon_bytes: int, xoff_trigger_bytes: int,
              mtu_bytes: int = 9216) -> List[Tuple[str, str]]:
    """Findings for an XON threshold against its pause point (LM §1.4, §3.5 #3).

    Returns a list of (severity, message); empty when the pair is sound."""
    findings = []
    if not 0 <= xon_bytes < xoff_trigger_bytes:
        findings.append(("ERROR", "xon %d B must be >= 0 and below the XOFF trigger %d B"
                         % (xon_bytes, xoff_trigger_bytes)))
    elif xoff_trigger_bytes - xon_bytes < 2 * mtu_bytes:
        findings.append(("WARN", "hysteresis %d B is below 2 x MTU = %d B (DCQCN guidance); "
                         "XON/XOFF may flap" % (xoff_trigger_bytes - xon_bytes, 2 * mtu_bytes)))
    return findings


def dcqcn_static_pfc_threshold(buffer_bytes: float, ports: int, flight_bytes: float,
                               priorities: int = 8) -> float:
    """DCQCN §5 static PFC threshold: (B - 8 n t_flight) / (8 n) per port and priority."""
    return (buffer_bytes - priorities * ports * flight_bytes) / float(priorities * ports)


def kmin_worst_case_max(alpha: float, shared_pool_bytes: float, fanout_ports: int,
                        lossless_queues_per_port: int = 1) -> float:
    """Largest Kmin that still marks before any PG pauses when one ingress fans out to
    ``fanout_ports`` egress queues (LM §3.2): alpha B_s / (n (1 + alpha P_l))."""
    return alpha * shared_pool_bytes / (fanout_ports * (1.0 + alpha * lossless_queues_per_port))


def incast_kmin_bound(trigger: Dict[str, Any], fanout_ports: int,
                      lossless_queues_per_port: int = 1) -> float:
    """The ECN-under-incast bound of a switch's XOFF ``trigger``: the largest Kmin at which an
    ingress PG fed by ``fanout_ports`` egress queues, every lossless queue of the switch sitting
    at Kmin, has not yet paused (LM §3.1-3.2). Dynamic threshold: alpha B_s / (n (1 + alpha
    P_l)); static threshold: the PG pauses at T whatever the pool holds, so T / n."""
    n = max(1, fanout_ports)
    if trigger["mode"] == "dynamic":
        return kmin_worst_case_max(trigger["alpha"], trigger["shared_pool_bytes"], n,
                                   lossless_queues_per_port)
    return trigger["static_th_bytes"] / float(n)
