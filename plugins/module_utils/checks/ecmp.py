# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""How well hashing spreads a few elephant flows over ECMP links: exact balls-into-bins.

N equal flows hashed uniformly and independently onto M equal links (lossless-math.md §5.2). A
collective step ends when the busiest link drains, so the figure of merit is the expected
maximum load and efficiency = (N/M) / E[max]. Computed with exact integers.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from fractions import Fraction

from ansible_collections.roce.fabric.plugins.module_utils import errors

EFFICIENCY_WARN = 0.8   # §5.2: recommend adaptive routing or more QPs below this
# E[max] sums P(max >= k) until the tail is negligible: P(max >= k) falls off
# super-exponentially, and summing to k = N in exact arithmetic costs minutes at 128 x 32.
TAIL = Fraction(1, 10 ** 15)
_CACHE = {}


def _binomials(n):
    rows = [[1]]
    for i in range(1, n + 1):
        prev = rows[-1]
        rows.append([1] + [prev[j - 1] + prev[j] for j in range(1, i)] + [1])
    return rows


def _ways_max_at_most(n, m, k, binom):
    """Number of maps of n labelled flows onto m links with no link above k flows."""
    ways = [1] + [0] * n            # ways[t]: t flows placed on the links so far
    for _bin in range(m):
        nxt = [0] * (n + 1)
        for placed in range(n + 1):
            if not ways[placed]:
                continue
            for j in range(0, min(k, n - placed) + 1):
                nxt[placed + j] += ways[placed] * binom[placed + j][j]
        ways = nxt
    return ways[n]


def _p_max_at_most_float(n, m, k):
    """P(max load <= k) in floating point: bins filled one at a time, each taking j of the
    remaining t flows with binomial probability (t choose j) (1/b)^j (1 - 1/b)^(t - j)."""
    from math import exp, log
    prob = [0.0] * (n + 1)
    prob[n] = 1.0                  # prob[t]: t flows still to place, all bins so far <= k
    for b in range(m, 1, -1):
        p = 1.0 / b
        ratio = p / (1.0 - p)
        log_q = log(1.0 - p)
        nxt = [0.0] * (n + 1)
        for t in range(n + 1):
            weight = prob[t]
            if weight < 1e-300:
                continue
            term = exp(t * log_q)  # j = 0
            for j in range(0, min(k, t) + 1):
                nxt[t - j] += weight * term
                term *= ratio * (t - j) / (j + 1.0)
        prob = nxt
    return sum(prob[t] for t in range(min(k, n) + 1))  # the last bin takes what is left


def balls_into_bins(flows, links):
    """Figures for ``flows`` elephant flows on ``links`` ECMP links: exact rational arithmetic
    up to 64 x 64, double precision (error far below 1e-6) above that."""
    n = errors.number("flows", flows, 1, 4096, "", None, integer=True)
    m = errors.number("links", links, 1, 4096, "", None, integer=True)
    key = (n, m)
    if key in _CACHE:
        return _CACHE[key]
    exact = n * m <= 4096
    if exact:
        total = m ** n
        binom = _binomials(n)

        def at_most(k):
            return Fraction(_ways_max_at_most(n, m, k, binom), total)
    else:
        def at_most(k):
            return _p_max_at_most_float(n, m, k)
    # E[max] = sum over j >= 1 of P(max >= j) = sum of (1 - P(max <= j - 1)).
    k = -(-n // m)                 # the max load is at least ceil(N/M)
    expected = k - 1
    below = at_most(k - 1) if k > 1 else 0
    while 1 - below > (TAIL if exact else 1e-12):
        expected += 1 - below
        below = at_most(k)
        k += 1
    no_collision = Fraction(1)
    for i in range(n):
        no_collision *= Fraction(max(m - i, 0), m)
    idle = m * (1 - 1.0 / m) ** n
    mean_max = float(expected)
    result = {
        "flows": n, "links": m, "expected_max_load": mean_max,
        "efficiency": (n / float(m)) / mean_max,
        "p_no_collision": float(no_collision),
        "expected_idle_links": idle,
        "fraction_links_used": 1 - idle / m,
        "exact": exact,
    }
    _CACHE[key] = result
    return result
