# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Topology sizing: how many leaves, spines and super-spines a GPU count needs at radix k.

1 GPU = 1 NIC port at the switch port speed, 1:1 at every tier (lossless-math.md §6): a leaf
splits its k ports into k/2 down and k/2 up; two tiers reach k^2/2 GPUs, three tiers k^3/4.
With P planes every plane is its own Clos for N/P GPU ports, and the counts multiply by P.
``tiers`` fixes the tier count (default: two up to k^2/2 GPUs per plane, three above).

``check_buildable`` says whether the fabric model (model/fabric.py, model/tiers.py) accepts
what the generator (generate.py) builds from such a sizing, and names the nearest GPU counts it
does accept when not.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, Optional

from ansible_collections.roce.fabric.plugins.module_utils import errors


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def size_fabric(gpus: int, radix: int, planes: int = 1,
                tiers: Optional[int] = None) -> Dict[str, Any]:
    """Switch counts and ECMP widths for ``gpus`` at ``radix`` ports per switch, over
    ``planes`` independent planes (totals; ``per_plane`` holds one plane's counts), in
    ``tiers`` tiers (2 or 3; None: the fewest that reach the count)."""
    p = errors.number("planes", planes, 1, 64, "planes", None, integer=True)
    total = errors.number("gpus", gpus, 1, 10 ** 7, "GPUs", None, integer=True)
    if tiers is not None and (isinstance(tiers, bool) or tiers not in (2, 3)):
        raise errors.RoceInputError("tiers", tiers, "2 (leaves and spines) or 3 (pods under "
                                    "super-spines), or unset for the fewest that fit")
    if total % p:
        raise errors.RoceInputError("gpus", total, "a multiple of the %d planes (every plane "
                                    "carries the same share of GPU ports)" % p)
    one = _size_plane(total // p, radix, tiers, p)
    if p == 1:
        return one
    out = dict(one, gpus=total, planes=p, per_plane=dict(one))
    for key in ("leaves", "spines", "superspines", "pods"):
        if key in one:
            out[key] = one[key] * p
    out["max_gpus"] = one["max_gpus"] * p
    return out


def _size_plane(gpus: int, radix: int, tiers: Optional[int] = None,
                planes: int = 1) -> Dict[str, Any]:
    n = gpus
    k = errors.number("radix", radix, 4, 1024, "ports per switch", None, integer=True)
    if k % 2:
        raise errors.RoceInputError("radix", k, "an even number of ports (half down, half up)")
    half = k // 2
    leaves = _ceil(n, half)
    if tiers == 2 and n > k * k // 2:
        raise errors.RoceInputError("gpus", n * planes, _two_tier_limit(n, k, planes))
    if tiers != 3 and n <= k * k // 2:
        return {"gpus": n, "radix": k, "tiers": 2, "leaves": leaves,
                "spines": _ceil(leaves * half, k), "superspines": 0,
                "ecmp_width": {"leaf": half}, "max_gpus": k * k // 2}
    if n > k ** 3 // 4:
        raise errors.RoceInputError(
            "gpus", n, "at most k^3/4 = %d GPUs at radix %d with three 1:1 tiers; use a larger "
            "radix (at least %d) or an oversubscribed top tier"
            % (k ** 3 // 4, k, _least_radix(n, 3)))
    pod = half * half
    pods = _ceil(n, pod)
    return {"gpus": n, "radix": k, "tiers": 3, "leaves": pods * half, "spines": pods * half,
            "pods": pods, "superspines": _ceil(pods * half * half, k),
            "ecmp_width": {"leaf": half, "spine": half}, "max_gpus": k ** 3 // 4}


def _least_radix(n: int, tiers: int) -> int:
    """The smallest even radix k whose ``tiers`` reach ``n`` GPUs: k^2/2 >= n, or k^3/4 >= n."""
    k = 4
    while (k * k // 2 if tiers == 2 else k ** 3 // 4) < n:
        k += 2
    return k


def _two_tier_limit(n: int, k: int, planes: int) -> str:
    per = " per plane (%d GPUs over %d planes)" % (n * planes, planes) if planes > 1 else ""
    return ("at most k^2/2 = %d GPUs%s with two 1:1 tiers at radix %d (%d leaves of %d down "
            "ports under %d spines), not %d: set tiers 3, a radix of at least %d, or more "
            "planes" % (k * k // 2, per, k, k, k // 2, k // 2, n, _least_radix(n, 2)))


# --- what the fabric model accepts ---------------------------------------------------------
# The generator builds leaves in pairs (pairs of consecutive leaves; model/fabric.py _pairs
# refuses a pair of one), gives a host's NICs of one plane to a rail group of
# min(NICs per plane, leaves) leaves (fabric.py _rail_layout: a divisor of both counts), and
# in three tiers wires spine j of every pod to super-spine group j (model/tiers.py: the
# super-spines a multiple of the spines per pod).

def _unit_fault(tiers: int, k: int, q: int, units: int) -> Optional[str]:
    """Why ``units`` leaves (two tiers) or pods (three) per plane at radix ``k`` with ``q``
    NICs per host and plane do not build, or None."""
    half = k // 2
    leaves = units if tiers == 2 else units * half
    if tiers == 3 and half % 2:
        return ("a pod holds radix/2 = %d leaves, an odd number, and leaves come in pairs "
                "(use a radix that is a multiple of 4)" % half)
    if leaves % 2:
        return "%d %s per plane, an odd number, and leaves come in pairs" % (
            leaves, "leaf" if leaves == 1 else "leaves")
    group = min(q, leaves)
    if leaves % group or q % group:
        return ("%d leaves per plane: a host's %d NICs per plane span a rail group of %d "
                "leaves, so the leaves must be %s" % (
                    leaves, q, group, "a multiple of %d" % q if leaves >= q
                    else "a divisor of %d" % q))
    supers = _ceil(units * half * half, k)
    if tiers == 3 and supers % half:
        return ("%d pod(s) per plane: their %d super-spines (%d spines x %d uplinks / %d ports) "
                "must be a multiple of the %d spines per pod (spine j of every pod wires to "
                "super-spine group j), so the pods must be even" % (
                    units, supers, units * half, half, k, half))
    return None


def check_buildable(gpus: int, radix: int, planes: int = 1, nics_per_host: int = 8,
                    tiers: Optional[int] = None) -> Dict[str, Any]:
    """size_fabric's sizing if the generator's fabric of it plans (whole leaf pairs, whole rail
    groups, super-spine groups), else RoceInputError naming the rule and the nearest GPU counts
    below and above that build at the same radix, planes, NICs and tiers."""
    size = size_fabric(gpus, radix, planes, tiers)
    one = size.get("per_plane", size)
    k, t, p = one["radix"], one["tiers"], size.get("planes", 1)
    if nics_per_host % p or gpus % nics_per_host:
        return size         # the callers refuse these with their own words
    q = nics_per_host // p
    cap = k // 2 if t == 2 else (k // 2) ** 2        # GPUs per plane of a leaf, of a pod
    unit = _ceil(one["gpus"], cap)
    fault = _unit_fault(t, k, q, unit)
    if fault is None:
        return size
    lo = 1 if t == 2 or tiers == 3 else k * k // 2 + 1      # the GPUs per plane of t tiers
    hi = k * k // 2 if t == 2 else k ** 3 // 4
    below = _nearest(t, k, q, range(unit - 1, 0, -1), lo, hi, -1)
    if below is None and t == 3 and tiers is None:     # unset tiers: two tiers below k^2/2
        below = _nearest(2, k, q, range(k, 0, -1), 1, k * k // 2, -1)
    above = _nearest(t, k, q, range(unit + 1, _ceil(hi, cap) + 1), lo, hi, 1)
    if above is None and t == 2 and tiers is None:
        above = _nearest(3, k, q, range(1, k + 1), k * k // 2 + 1, k ** 3 // 4, 1)
    below, above = [n * p if n is not None else None for n in (below, above)]
    near = ", ".join("%s %s" % (side, "none" if n is None else n)
                     for side, n in (("below", below), ("above", above)))
    raise errors.RoceInputError("gpus", gpus, "a count the fabric model builds: at radix %d "
                                "with %d tiers, %s; the nearest counts that build: %s" % (
                                    k, t, fault, near))


def _nearest(t: int, k: int, q: int, units: Iterable[int], lo: int, hi: int,
             way: int) -> Optional[int]:
    """The GPUs per plane (a multiple of ``q``, within [lo, hi]) of the first of ``units``
    (leaves or pods per plane) that builds at ``t`` tiers: the most of the unit (way -1, a
    count below) or the fewest (way 1, above)."""
    cap = k // 2 if t == 2 else (k // 2) ** 2
    for u in units:
        first, last = max((u - 1) * cap + 1, lo), min(u * cap, hi)
        n = last // q * q if way < 0 else _ceil(first, q) * q
        if first <= n <= last and _unit_fault(t, k, q, u) is None:
            return n
    return None
