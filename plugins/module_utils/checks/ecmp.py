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
from typing import Any, Dict, List, Optional, Set, Tuple, Union, cast

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import platforms
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import Device, Finding
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import (
    finding, rule, switches)
from ansible_collections.roce.fabric.plugins.module_utils.checks.tiers import tier_links

EFFICIENCY_WARN = 0.8   # §5.2: recommend adaptive routing or more QPs below this
# E[max] sums P(max >= k) until the tail is negligible: P(max >= k) falls off
# super-exponentially, and summing to k = N in exact arithmetic costs minutes at 128 x 32.
TAIL = Fraction(1, 10 ** 15)
# balls_into_bins by (flows, links, exact)
_CACHE: Dict[Tuple[int, int, bool], Dict[str, Any]] = {}
PROVES_EFFICIENCY = (
    "where same-rail traffic crosses a switch's uplinks (a rail on several leaves, or a pod "
    "sharing a rail with another pod) and no adaptive routing is **rendered**: exact "
    "balls-into-bins of NICs x QPs flows on the uplinks, efficiency (N/M)/E[max] < 0.8. A leaf "
    "that holds all of its rails' NICs (one rail group) sends next to nothing up: NCCL keeps "
    "collectives on their rail and PXN moves cross-rail data over NVLink")

_v = finding


def _binomials(n: int) -> List[List[int]]:
    rows = [[1]]
    for i in range(1, n + 1):
        prev = rows[-1]
        rows.append([1] + [prev[j - 1] + prev[j] for j in range(1, i)] + [1])
    return rows


def _ways_max_at_most(n: int, m: int, k: int, binom: List[List[int]]) -> int:
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


def _p_max_at_most_float(n: int, m: int, k: int) -> float:
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


def balls_into_bins(flows: int, links: int, exact: Optional[bool] = None) -> Dict[str, Any]:
    """Figures for ``flows`` elephant flows on ``links`` ECMP links: exact rational arithmetic
    up to 64 x 64 (or as ``exact`` says), double precision (error far below 1e-6) above that.
    The failure sweep asks for double precision: it needs dozens of (flows, links) pairs, and
    an exact 64 x 16 costs about 0.3 s."""
    n = errors.number("flows", flows, 1, 4096, "", None, integer=True)
    m = errors.number("links", links, 1, 4096, "", None, integer=True)
    exact = n * m <= 4096 if exact is None else exact
    key = (n, m, exact)
    if key in _CACHE:
        return _CACHE[key]
    if exact:
        total = m ** n
        binom = _binomials(n)

        def at_most(k: int) -> Union[Fraction, float]:
            return Fraction(_ways_max_at_most(n, m, k, binom), total)
    else:
        def at_most(k: int) -> Union[Fraction, float]:
            return _p_max_at_most_float(n, m, k)
    # E[max] = sum over j >= 1 of P(max >= j) = sum of (1 - P(max <= j - 1)).
    k = -(-n // m)                 # the max load is at least ceil(N/M)
    expected: Union[Fraction, float] = k - 1
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


def _rail_crossing(fab: Fabric) -> Set[str]:
    """Switches whose uplinks carry same-rail traffic: a leaf hosting a rail that other leaves
    host too, a three-tier spine whose pod shares a rail with another pod. NCCL keeps a
    collective on its rail (PXN moves cross-rail data over NVLink first), so a leaf that holds
    all of its rails' NICs sends next to nothing up (lossless-math.md §6, rail-optimized)."""
    leaves_of: Dict[Tuple[int, int], Set[str]] = {}     # (plane, rail): leaves
    for _host, nics in fab.hosts:
        for nic in nics:
            leaves_of.setdefault((fab.switches[nic.leaf].plane, nic.rail), set()).add(nic.leaf)
    crossing: Set[str] = set()
    pods_of: Dict[Tuple[int, int], Set[Optional[int]]] = {}
    for (plane, rail), leaves in leaves_of.items():
        pods_of[(plane, rail)] = set(fab.switches[leaf].pod for leaf in leaves)
        if len(leaves) > 1:
            crossing.update(leaves)
    for sw in fab.spines:
        if any(len(pods) > 1 and sw.pod in pods for pods in pods_of.values()):
            crossing.add(sw.name)
    return crossing


@rule("ecmp-width", "ERROR", "BGP `maximum-paths` >= the leaf's uplink count")
def check_width(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for dev in switches(devices):
        bgp = dev["bgp"]
        if bgp["ecmp_width"] > bgp["maximum_paths"]:
            out.append(_v("ecmp-width", "ERROR", dev["name"], "router bgp",
                          "ECMP width %d exceeds maximum-paths %d"
                          % (bgp["ecmp_width"], bgp["maximum_paths"]),
                          "raise roce_fabric.routing.maximum_paths to >= %d" % bgp["ecmp_width"],
                          width=bgp["ecmp_width"], maximum_paths=bgp["maximum_paths"]))
    return out


@rule("ecmp-efficiency", "WARN",
      PROVES_EFFICIENCY)
def check_efficiency(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    crossing = _rail_crossing(fab)
    for dev in switches(devices):
        e = dev["ecmp"]
        if e["rendered"]["adaptive_routing"] or dev["name"] not in crossing:
            continue
        down, up = tier_links(dev)
        if not down or len(up) < 2:
            continue
        figures = balls_into_bins(len(down) * e["qps_per_connection"], len(up))
        if figures["efficiency"] < EFFICIENCY_WARN:
            asked = " (requested, but %s renders none)" % dev["platform"] \
                if e["adaptive_routing"] else ""
            out.append(_v("ecmp-efficiency", "WARN", dev["name"], "uplinks",
                          "same-rail traffic hashed without adaptive routing%s: %d flows on %d "
                          "uplinks, E[max load] %.3f, efficiency %.3f < %.1f"
                          % (asked, figures["flows"], figures["links"],
                             figures["expected_max_load"], figures["efficiency"],
                             EFFICIENCY_WARN),
                          "a platform that renders DLB/adaptive routing here, a rail layout "
                          "that keeps each rail on one leaf, or more QPs per connection",
                          **figures))
    return out


@rule("hash-entropy", "ERROR / WARN",
      "the **rendered** ECMP hash includes the UDP source port, RoCEv2's only per-QP entropy "
      "(ERROR); a platform that renders no hash fields (EOS: no sourced `ip load-sharing` "
      "keywords) hashes on defaults no source shows, which is not credited (WARN, once per "
      "platform, naming its switches)")
def check_entropy(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    defaults: Dict[str, List[str]] = {}          # platform -> switches on its default hash
    for dev in switches(devices):
        rendered = dev["ecmp"]["rendered"]
        if rendered.get("default_hash"):
            defaults.setdefault(dev["platform"], []).append(dev["name"])
        elif "l4_src_port" not in rendered["hash_fields"]:
            out.append(_v("hash-entropy", "ERROR", dev["name"], "ecmp hash",
                          "the rendered hash fields %s leave out the UDP source port, RoCEv2's "
                          "only per-QP entropy" % rendered["hash_fields"],
                          "add l4_src_port to roce_ecmp.hash_fields",
                          fields=rendered["hash_fields"]))
    for platform, names in sorted(defaults.items()):      # names in plan order: top tier first
        out.append(_v("hash-entropy", "WARN", names[0], "ecmp hash",
                      "%d %s switch(es) (%s) render no ECMP hash fields and hash on the "
                      "platform's defaults, which no source here shows to include the UDP "
                      "source port, RoCEv2's only per-QP entropy"
                      % (len(names), platforms.PLATFORMS[platform].title, _some(names)),
                      "confirm on the switches that their default ECMP hash includes the UDP "
                      "source port", switches=len(names)))
    return out


@rule("hash-polarization", "WARN",
      "no two tiers of one ASIC family hash with the same **rendered** seed; a tier whose "
      "platform renders no seed (EOS) keeps a default no source shows, so it is not shown to "
      "differ from any other tier of its family; names a switch of each tier")
def check_polarization(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """Tiers of one ASIC family hashing with one seed polarize (lossless-math.md §5.1)."""
    # family: {seed (None: the platform's unrendered default): {role: switch}}
    tiers: Dict[Optional[str], Dict[Optional[int], Dict[str, str]]] = {}
    for dev in switches(devices):
        seeds = tiers.setdefault(dev["asic_family"], {})
        seeds.setdefault(dev["ecmp"]["rendered"]["seed"], {}).setdefault(dev["role"],
                                                                         dev["name"])
    out: List[Finding] = []
    for family in sorted(tiers, key=str):
        seeds = tiers[family]
        unknown = seeds.pop(None, {})
        known = cast(Dict[int, Dict[str, str]], seeds)      # the None key is gone
        for seed, roles in sorted(known.items()):
            if len(roles) < 2:
                continue
            named = sorted(roles.items())
            out.append(_v("hash-polarization", "WARN", named[1][1], "ecmp seed %d" % seed,
                          "%s hash with the same seed %d on %s ASICs: flows polarize across "
                          "tiers" % (" and ".join("%ss (e.g. %s)" % item for item in named),
                                     seed, family),
                          "give each tier its own seed (SONiC derives it from the switch "
                          "type)", seed=seed, roles=sorted(roles)))
        others = dict((role, name) for roles in known.values() for role, name in roles.items()
                      if role not in unknown)
        if unknown and len(unknown) + len(others) >= 2:
            named = sorted(unknown.items())
            versus = ("between them" if not others else "from the seed of the %s" % " and the "
                      .join("%ss (e.g. %s)" % item for item in sorted(others.items())))
            out.append(_v("hash-polarization", "WARN", named[0][1], "ecmp seed default",
                          "%s render no hash seed: they keep their platform's default, which no "
                          "source here shows to differ %s on %s ASICs, so flows may polarize "
                          "across tiers"
                          % (" and ".join("%ss (e.g. %s)" % item for item in named), versus,
                             family),
                          "confirm on the switches that the tiers hash with different seeds",
                          roles=sorted(set(unknown) | set(others))))
    return out


def _some(names: List[str], shown: int = 3) -> str:
    return ", ".join(names[:shown]) + (" and %d more" % (len(names) - shown)
                                       if len(names) > shown else "")
