# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The scenarios of the failure sweep (checks/failures.py), class by class.

Every spine, super-spine, leaf, pod and plane fails alone in a scenario of its own. Links, and
two failures of a class, are enumerated as orbits (failures-nvue-scale.md A.2: "enumerate
orbits, not combinations"): two links of one leaf to two spines, two parallel links of one
pair, two leaves' links to one spine, two disjoint links; two spines of one pod or of two pods;
two super-spines of one group or two; both leaves of a pair or two of different pairs. Each
orbit is listed by its worst member for capacity (from each switch's two largest uplinks) with
the number of scenarios it stands for (``equivalent``). Of the mixes of classes, one orbit per
tier: an upper switch and a link to another upper switch under one lower switch ("mixed").
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.checks.failures import (
    Scenario, Sweep, SwitchCapacity)

Lost = Dict[str, Tuple[int, int]]          # lower switch: (uplink Gb/s lost, links lost)


def scenarios(s: Sweep) -> List[Scenario]:
    """Every scenario of the sweep, in class order; the first is the fabric without failure."""
    out = [s.row("none", 0, "no failure", [], 1, {}, {}, [], s.route("none", 0, "none"))]
    out += _link_rows(s, s.leaves, "leaf-spine", spine_tier=False)
    if s.tiers == 3:
        out += _link_rows(s, s.spines, "spine-super-spine", spine_tier=True)
    out += _leaf_rows(s)
    out += _upper_rows(s, "spine", s.leaves, spine_tier=False)
    if s.tiers == 3:
        out += _upper_rows(s, "superspine", s.spines, spine_tier=True)
        out += _pod_rows(s)
    out += _plane_rows(s)
    out += _mixed_rows(s, "spine", s.leaves, spine_tier=False)
    if s.tiers == 3:
        out += _mixed_rows(s, "superspine", s.spines, spine_tier=True)
    return out


def _row(s: Sweep, cls: str, k: int, orbit: str, failed: List[str], equivalent: int,
         lost: Lost, spine_tier: bool, dead: Sequence[str] = (),
         route: Optional[Dict[str, object]] = None) -> Scenario:
    leaf_lost, spine_lost = ({}, lost) if spine_tier else (lost, {})
    return s.row(cls, k, orbit, failed, equivalent, leaf_lost, spine_lost, dead, route)


def _pairs_of(counts: Sequence[int]) -> int:
    """Pairs of links on two different members, from the links per member."""
    total = sum(counts)
    return (total * total - sum(c * c for c in counts)) // 2


# -- links ---------------------------------------------------------------------------------

def _link_rows(s: Sweep, lowers: Dict[str, SwitchCapacity], tier: str, spine_tier: bool) -> List[Scenario]:
    if not lowers:
        return []
    total = sum(sw.up_n for sw in lowers.values())
    # k = 1: each switch loses its largest uplink; the worst of them
    one = max(lowers.values(), key=lambda sw: sw.ratio(max(max(g) for g in sw.up.values()))
              if sw.up else 0.0)
    if not one.up:
        return []
    up1 = max(one.up, key=lambda u: max(one.up[u]))
    g1 = max(one.up[up1])
    out = [_row(s, "link", 1, tier, [one.ports[up1]], total, {one.name: (g1, 1)}, spine_tier,
                route=s.route("link", 1, tier, links=[(up1, one.name)]))]
    # k = 2, two links of one switch to two upper switches
    best: Optional[Tuple[float, SwitchCapacity, List[str]]] = None
    for sw in lowers.values():
        if len(sw.up) >= 2:
            ups = sorted(sw.up, key=lambda u: -max(sw.up[u]))[:2]
            r = sw.ratio(sum(max(sw.up[u]) for u in ups))
            if best is None or r > best[0]:
                best = (r, sw, ups)
    if best:
        _r, sw, ups = best
        out.append(_row(s, "link", 2, tier + ", same lower switch, two upper switches",
                        [sw.ports[u] for u in ups],
                        sum(_pairs_of([len(g) for g in low.up.values()])
                            for low in lowers.values()),
                        {sw.name: (sum(max(sw.up[u]) for u in ups), 2)}, spine_tier,
                        route=s.route("link", 2, tier + " same",
                                      links=[(u, sw.name) for u in ups])))
    # two parallel links of one pair
    par = [(sw, u) for sw in lowers.values() for u, g in sw.up.items() if len(g) >= 2]
    if par:
        sw, u = max(par, key=lambda p: p[0].ratio(sum(sorted(p[0].up[p[1]])[-2:])))
        out.append(_row(s, "link", 2, tier + ", two parallel links of one pair",
                        [sw.ports[u] + " (2 of %d)" % len(sw.up[u])],
                        sum(len(g) * (len(g) - 1) // 2 for low in lowers.values()
                            for g in low.up.values()),
                        {sw.name: (sum(sorted(sw.up[u])[-2:]), 2)}, spine_tier,
                        route=s.route("link", 2, tier + " parallel",
                                      links=[(u, sw.name), (u, sw.name)])))
    out += _two_lowers(s, lowers, tier, spine_tier, one, up1, g1, total)
    return out


def _two_lowers(s: Sweep, lowers: Dict[str, SwitchCapacity], tier: str, spine_tier: bool, one: SwitchCapacity,
                up1: str, g1: int, total: int) -> List[Scenario]:
    """Two links of two lower switches: to one upper switch, and to two."""
    out: List[Scenario] = []
    same = [lowers[n] for n in s.lower.get(up1, []) if n != one.name and n in lowers]
    per_upper: Dict[str, List[int]] = {}
    for low in lowers.values():
        for u, g in low.up.items():
            per_upper.setdefault(u, []).append(len(g))
    shared = sum(_pairs_of(c) for c in per_upper.values())
    if same:
        other = max(same, key=lambda sw: sw.ratio(max(sw.up[up1])))
        out.append(_row(s, "link", 2, tier + ", two lower switches, one upper switch",
                        [one.ports[up1], other.ports[up1]], shared,
                        {one.name: (g1, 1), other.name: (max(other.up[up1]), 1)}, spine_tier,
                        route=s.route("link", 2, tier + " shared upper",
                                      links=[(up1, one.name), (up1, other.name)])))
    apart = next(((low, u) for low in lowers.values() if low.name != one.name
                  for u in low.up if u != up1), None)
    if apart:
        low, u = apart
        same_pairs = sum(_pairs_of([len(g) for g in sw.up.values()]) + sum(
            len(g) * (len(g) - 1) // 2 for g in sw.up.values()) for sw in lowers.values())
        out.append(_row(s, "link", 2, tier + ", two lower switches, two upper switches",
                        [one.ports[up1], low.ports[u]],
                        total * (total - 1) // 2 - same_pairs - shared,
                        {one.name: (g1, 1), low.name: (max(low.up[u]), 1)}, spine_tier,
                        route=s.route("link", 2, tier + " apart",
                                      links=[(up1, one.name), (u, low.name)])))
    return out


# -- switches ------------------------------------------------------------------------------

def _lost_below(s: Sweep, lowers: Dict[str, SwitchCapacity], uppers: Sequence[str]) -> Lost:
    lost: Lost = {}
    for upper in uppers:
        for name in s.lower.get(upper, []):
            low = lowers.get(name)
            if low is not None and upper in low.up:
                g, n = lost.get(name, (0, 0))
                lost[name] = (g + sum(low.up[upper]), n + len(low.up[upper]))
    return lost


def _upper_rows(s: Sweep, role: str, lowers: Dict[str, SwitchCapacity],
                spine_tier: bool) -> List[Scenario]:
    """Each spine (super-spine) alone, then two of one pod (group) and two of different ones."""
    names = [n for n, low in s.lower.items() if any(n in lowers[x].up for x in low
                                                    if x in lowers)]
    if not names:
        return []
    out = [_row(s, role, 1, "each " + role, [n], 1, _lost_below(s, lowers, [n]), spine_tier,
                route=s.route(role, 1, "each", nodes=[n])) for n in names]
    field = "oversubscription_spine" if spine_tier else "oversubscription"
    worst = max(out, key=lambda r: r[field] or float("inf"))["failed"][0]
    group = _group_of(s, role, lowers)
    best: Optional[Tuple[float, List[str]]] = None
    for low in lowers.values():
        ups = sorted(low.up, key=lambda u: -sum(low.up[u]))[:2]
        if len(ups) == 2:
            r = low.ratio(sum(sum(low.up[u]) for u in ups))
            if best is None or r > best[0]:
                best = (r, ups)
    members: Dict[object, int] = {}
    for n in names:
        members[group[n]] = members.get(group[n], 0) + 1
    within = sum(c * (c - 1) // 2 for c in members.values())
    word = "pod" if role == "spine" and s.tiers == 3 else "group" if role == "superspine" \
        else "plane"
    if best:
        out.append(_row(s, role, 2, "two %ss of one %s" % (role, word), best[1], within,
                        _lost_below(s, lowers, best[1]), spine_tier,
                        route=s.route(role, 2, "same", nodes=best[1])))
    other = [n for n in names if group[n] != group[worst]]
    if other:
        pick = [worst, other[0]]
        out.append(_row(s, role, 2, "two %ss of two %ss" % (role, word), pick,
                        len(names) * (len(names) - 1) // 2 - within,
                        _lost_below(s, lowers, pick), spine_tier,
                        route=s.route(role, 2, "apart", nodes=pick)))
    return out


def _group_of(s: Sweep, role: str, lowers: Dict[str, SwitchCapacity]) -> Dict[str, object]:
    """What two failures of a role share to be "of one": a spine's pod (three tiers) or plane
    (two), a super-spine's group - the spines it serves."""
    out: Dict[str, object] = {}
    for n, below in s.lower.items():
        if role == "superspine":
            out[n] = tuple(sorted(below))
        else:
            first = lowers.get(below[0]) if below else None
            out[n] = (first.pod, first.plane) if first else None
    return out


def _leaf_rows(s: Sweep) -> List[Scenario]:
    out = [_row(s, "leaf", 1, "each leaf", [name], 1, {}, False, dead=[name],
                route=s.route("leaf", 1, "each", nodes=[name])) for name in s.leaves]
    pairs = [p for p in s.fab.pairs if len(p) == 2]
    if pairs:
        pair = max(pairs, key=lambda p: s.hosts_lost(set(p))["hosts_isolated"])
        out.append(_row(s, "leaf", 2, "both leaves of a pair", list(pair), len(pairs), {},
                        False, dead=pair, route=s.route("leaf", 2, "pair", nodes=pair)))
    if len(pairs) >= 2:
        pick = [pairs[0][0], pairs[1][0]]
        n = len(s.leaves)
        out.append(_row(s, "leaf", 2, "two leaves of two pairs", pick,
                        n * (n - 1) // 2 - len(pairs), {}, False, dead=pick,
                        route=s.route("leaf", 2, "apart", nodes=pick)))
    return out


def _pod_rows(s: Sweep) -> List[Scenario]:
    out = []
    for p, pod in enumerate(s.fab.pods):
        leaves = [sw.name for sw in pod["leaves"]]
        out.append(_row(s, "pod", 1, "each pod", [pod["name"]], 1, {}, False, dead=leaves,
                        route=s.route("pod", 1, "each", pods=[p])))
    return out


def _plane_rows(s: Sweep) -> List[Scenario]:
    out = []
    base = s.route("none", 0, "none")       # the other planes route as before
    for plane in sorted(set(pod["plane"] for pod in s.fab.pods)):
        leaves = [sw.name for pod in s.fab.pods if pod["plane"] == plane
                  for sw in pod["leaves"]]
        name = "plane%d" % plane if s.fab.planes > 1 else "the whole fabric (one plane)"
        out.append(_row(s, "plane", 1, "each plane", [name], 1, {}, False, dead=leaves,
                        route=base))
    return out


def _mixed_rows(s: Sweep, role: str, lowers: Dict[str, SwitchCapacity], spine_tier: bool) -> List[Scenario]:
    """An upper switch down (maintenance, a crash) and, under it, one lower switch's link to
    another upper switch: the worst lower switch loses its largest upper switch and its largest
    other link. Stands for every (upper switch, link not on it) pair."""
    best: Optional[Tuple[float, SwitchCapacity, str, str]] = None
    for low in lowers.values():
        if len(low.up) < 2:
            continue
        top = max(low.up, key=lambda u: sum(low.up[u]))
        other = max((u for u in low.up if u != top), key=lambda u: max(low.up[u]))
        r = low.ratio(sum(low.up[top]) + max(low.up[other]))
        if best is None or r > best[0]:
            best = (r, low, top, other)
    if best is None:
        return []
    _r, low, top, other = best
    lost = _lost_below(s, lowers, [top])
    g, n = lost[low.name]
    lost[low.name] = (g + max(low.up[other]), n + 1)
    links = sum(sw.up_n for sw in lowers.values())
    uppers = len(set(u for sw in lowers.values() for u in sw.up))
    return [_row(s, "mixed", 2, "a %s and a link to another %s" % (role, role),
                 [top, low.ports[other]], links * (uppers - 1), lost, spine_tier,
                 route=s.route("mixed", 2, role, nodes=[top], links=[(other, low.name)]))]
