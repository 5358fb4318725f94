# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Topology sizing: how many leaves, spines and super-spines a GPU count needs at radix k.

1 GPU = 1 NIC port at the switch port speed, 1:1 at every tier (lossless-math.md §6): a leaf
splits its k ports into k/2 down and k/2 up; two tiers reach k^2/2 GPUs, three tiers k^3/4.
With P planes every plane is its own Clos for N/P GPU ports, and the counts multiply by P.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict

from ansible_collections.roce.fabric.plugins.module_utils import errors


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def size_fabric(gpus: int, radix: int, planes: int = 1) -> Dict[str, Any]:
    """Switch counts and ECMP widths for ``gpus`` at ``radix`` ports per switch, over
    ``planes`` independent planes (totals; ``per_plane`` holds one plane's counts)."""
    p = errors.number("planes", planes, 1, 64, "planes", None, integer=True)
    total = errors.number("gpus", gpus, 1, 10 ** 7, "GPUs", None, integer=True)
    if total % p:
        raise errors.RoceInputError("gpus", total, "a multiple of the %d planes (every plane "
                                    "carries the same share of GPU ports)" % p)
    one = _size_plane(total // p, radix)
    if p == 1:
        return one
    out = dict(one, gpus=total, planes=p, per_plane=dict(one))
    for key in ("leaves", "spines", "superspines", "pods"):
        if key in one:
            out[key] = one[key] * p
    out["max_gpus"] = one["max_gpus"] * p
    return out


def _size_plane(gpus: int, radix: int) -> Dict[str, Any]:
    n = gpus
    k = errors.number("radix", radix, 4, 1024, "ports per switch", None, integer=True)
    if k % 2:
        raise errors.RoceInputError("radix", k, "an even number of ports (half down, half up)")
    half = k // 2
    leaves = _ceil(n, half)
    if n <= k * k // 2:
        return {"gpus": n, "radix": k, "tiers": 2, "leaves": leaves,
                "spines": _ceil(leaves * half, k), "superspines": 0,
                "ecmp_width": {"leaf": half}, "max_gpus": k * k // 2}
    if n > k ** 3 // 4:
        raise errors.RoceInputError(
            "gpus", n, "at most k^3/4 = %d GPUs at radix %d with three 1:1 tiers; use a larger "
            "radix or an oversubscribed top tier" % (k ** 3 // 4, k))
    pod = half * half
    pods = _ceil(n, pod)
    return {"gpus": n, "radix": k, "tiers": 3, "leaves": pods * half, "spines": pods * half,
            "pods": pods, "superspines": _ceil(pods * half * half, k),
            "ecmp_width": {"leaf": half, "spine": half}, "max_gpus": k ** 3 // 4}
