# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Rollout waves: the order a multi-switch deploy changes the fabric's switches in, as batches
(waves) whose switches are drained, changed and verified together, one wave after the other.

The rules every wave keeps (``check`` proves them on any list of waves, ``waves`` builds the
fewest it can greedily within them):

- **pair**: never both leaves of a leaf pair in one wave. A host whose NICs of a plane span
  whole pairs (classic design: its pair; rail groups of an even number of leaves, which the
  model lays out pair by pair) keeps a NIC up in that plane while a leaf is out; with one NIC
  per plane the plane rule below is what keeps the host reachable.
- **uplinks**: for every switch below the wave, at most max(1, floor(u/4)) of its u uplink
  switches (a leaf's spines, a spine's super-spines, counted over up links) are in one wave, so
  each keeps three quarters of its uplink capacity (all but one when u < 8). With u = 1 the
  one uplink may go: a fat-tree spine with one super-spine is cut off above while that one is
  out (rollout.md: "keeps at least 0 of its 1"), and its pod reaches the others through its
  other spines, which the tier-share rule keeps up.
  With ``roce_fabric.failure_budget.spines`` (``.superspines``) set, at most that many of a
  leaf's spines (a spine's super-spines) are in one wave: the failures the plan's what-if proved
  each survives losslessly (rule failure-budget), the budget being what the waves may take out.
- **tier share**: at most max(1, floor(n/4)) of a plane's n spines (or super-spines) are in one
  wave. This adds to the brief of issue 29: in a fat-tree whose spines each have one
  super-spine (u = 1), the uplinks rule alone would let every super-spine of a plane go at once
  and leave no path between its pods; this keeps three quarters of each tier's capacity.
- **plane**: a wave holds switches of one plane only, and the waves finish one plane before the
  next starts. Planes are independent fabrics (NIC i of every host is on plane i mod planes):
  a bad change is found in one plane while every host keeps its NICs of the other planes on
  fabrics nobody touched, the strongest stagger there is; it costs waves (times the planes).
- **tier**: a wave holds switches of one tier only, top down in each plane: super-spines,
  spines, then leaves. Each upper-tier wave takes at most a quarter of anyone's uplinks (the
  rules above) and no host port, so a change that turns out bad costs capacity, not
  reachability, and its verify (BGP sessions, the ECMP width to every remote prefix) shows it
  before the change reaches the leaves, where a bad config takes host ports down with it. A
  leaf's verify also needs the tiers above it in their final state to show the planned width.

GPU hosts are not in the waves: their NIC and host settings do not change what the switches
forward, and site.yml rolls them in their own plays after the switches (docs/hosts.md). The
waves are computed from the plan alone (roles, planes, pairs, up uplinks), in time linear in
switches and links: each switch is tried against at most a handful of waves (a lower switch
fills at most u/max(1, floor(u/4)) < 8 waves of one tier), each try reads its lower neighbours.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List, Optional, Sequence, Set, Tuple, TypedDict, cast

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Finding, Plan, SwitchIntent)

TIERS = ("superspine", "spine", "leaf")      # the roll's order inside a plane (docstring)
UPLINK = {"leaf": "spine", "spine": "superspine"}
SHARE = 4          # at most a quarter of anyone's uplink switches, or of a tier, out at once
RULES = {
    "pair": "never both leaves of a leaf pair in one wave",
    "uplinks": "at most max(1, floor(u/4)) of a switch's u uplink switches in one wave, and "
               "at most roce_fabric.failure_budget.spines (a leaf's) or .superspines (a "
               "spine's) when set",
    "tier_share": "at most max(1, floor(n/4)) of a plane's n spines or super-spines in one "
                  "wave",
    "plane": "one plane per wave; a plane's waves finish before the next plane's start",
    "tier": "one tier per wave; in each plane super-spines, then spines, then leaves",
    "hosts": "GPU hosts are in no wave: they roll in their own plays after the switches",
}

# one wave's facts beside its switch names (rollout.json "wave_info")
WaveInfo = TypedDict("WaveInfo", {
    "wave": int, "plane": int, "tier": str, "switches": int, "why": str, "stays_up": str})


class _View:
    """What the rules read of the plan: per switch its tier, plane, pair partner and up uplink
    switches, and per upper switch the switches below it."""

    def __init__(self, plan: Plan) -> None:
        self.role: Dict[str, str] = {}
        self.plane: Dict[str, int] = {}
        self.up: Dict[str, Set[str]] = {}        # switch -> its uplink switches (up links)
        self.down: Dict[str, List[str]] = {}     # upper switch -> switches below it
        self.partner: Dict[str, str] = {}
        self.hosts: Set[str] = set()
        for name, dev in plan["devices"].items():
            if dev["kind"] != "switch":
                self.hosts.add(name)
                continue
            sw = cast(SwitchIntent, dev)
            self.role[name], self.plane[name] = sw["role"], sw.get("plane") or 0
            above = UPLINK.get(sw["role"])
            self.up[name] = set(p["peer"] for p in sw["ports"]
                                if p["up"] and p["peer_kind"] == above)
            self.down.setdefault(name, [])
        for name, ups in self.up.items():
            for upper in ups:
                self.down.setdefault(upper, []).append(name)
        for a, b in plan["summary"]["pairs"]:
            self.partner[a], self.partner[b] = b, a
        # the failure budget the plan proved (rule failure-budget): a wave takes out at most
        # that many of a switch's uplink switches (docs/fabric-and-checks.md, Failure what-if)
        budget = (plan.get("failures") or {}).get("budget") or {}
        self.budget = {"spine": int(budget.get("spines") or 0),
                       "superspine": int(budget.get("superspines") or 0)}
        self.sizes: Dict[Tuple[int, str], int] = {}     # (plane, tier) -> its switches
        for name, role in self.role.items():
            key = (self.plane[name], role)
            self.sizes[key] = self.sizes.get(key, 0) + 1

    def cap(self, name: str) -> int:
        """How many of ``name``'s uplink switches may be in one wave: a quarter, and no more
        than the failure budget of their tier when one is set."""
        quarter = max(1, len(self.up[name]) // SHARE)
        budget = self.budget.get(UPLINK.get(self.role[name], ""), 0)
        return min(quarter, budget) if budget else quarter


def _pair_order(plan: Plan) -> Dict[str, int]:
    """Each leaf's place in the leaf pairs (pair by pair, a before b): leaves are tried in this
    order, so the a leaves fill the first wave and their partners the second."""
    return dict((leaf, 2 * i + j) for i, pair in enumerate(plan["summary"]["pairs"])
                for j, leaf in enumerate(pair))


def _fits(view: _View, name: str, counts: Dict[str, int], members: Set[str]) -> bool:
    partner = view.partner.get(name)
    if partner is not None and partner in members:
        return False
    for lower in view.down[name]:
        if counts.get(lower, 0) >= view.cap(lower):
            return False
    return True


def _tier_waves(view: _View, names: List[str], limit: Optional[int]) -> List[List[str]]:
    """First fit: each switch joins the first wave it fits in (pair, uplinks, tier share)."""
    waves: List[List[str]] = []
    counts: List[Dict[str, int]] = []        # per wave: switch below -> its uplinks in it
    members: List[Set[str]] = []
    for name in names:
        for w, wave in enumerate(waves):
            if (limit is None or len(wave) < limit) and _fits(view, name, counts[w], members[w]):
                break
        else:
            w = len(waves)
            waves.append([])
            counts.append({})
            members.append(set())
        waves[w].append(name)
        members[w].add(name)
        for lower in view.down[name]:
            counts[w][lower] = counts[w].get(lower, 0) + 1
    return waves


def waves(plan: Plan) -> List[Tuple[int, str, List[str]]]:
    """[(plane, tier, [switch names])]: the waves in roll order (module docstring)."""
    view = _View(plan)
    order = _pair_order(plan)
    sizes = view.sizes
    by_tier: Dict[Tuple[int, str], List[str]] = {}
    for name in sorted(view.role, key=lambda n: (order.get(n, -1), n)):
        by_tier.setdefault((view.plane[name], view.role[name]), []).append(name)
    out = []
    for plane in sorted(set(view.plane.values())):
        for tier in TIERS:
            names = by_tier.get((plane, tier), [])
            limit = None if tier == "leaf" else max(1, sizes.get((plane, tier), 0) // SHARE)
            out += [(plane, tier, wave) for wave in _tier_waves(view, names, limit)]
    return out


def _plural(tier: str) -> str:
    return {"superspine": "super-spines", "spine": "spines", "leaf": "leaves"}[tier]


def describe(plan: Plan, computed: Sequence[Tuple[int, str, List[str]]]) -> List[WaveInfo]:
    """Per wave: plane, tier, size, why it is that size and what stays up while it is out."""
    view = _View(plan)
    sizes = view.sizes
    runs: Dict[Tuple[int, str], int] = {}
    for plane, tier, _names in computed:
        runs[(plane, tier)] = runs.get((plane, tier), 0) + 1
    out: List[WaveInfo] = []
    seen: Dict[Tuple[int, str], int] = {}
    for w, (plane, tier, names) in enumerate(computed, 1):
        key = (plane, tier)
        seen[key] = seen.get(key, 0) + 1
        head = "%s of plane %d, wave %d of %d" % (_plural(tier), plane, seen[key], runs[key])
        if tier == "leaf":
            why = head + ": one leaf of each pair (pair rule)"
            stays = "the partner leaf of each of the wave's %d leaves" % len(names)
        else:
            why = head + ": at most %d (a quarter of the plane's %d, and of each lower " \
                "switch's uplinks)" % (max(1, sizes[key] // SHARE), sizes[key])
            stays = _stays_up(view, names, sizes[key], tier)
        if len(set(view.plane.values())) > 1:
            stays += "; the other planes untouched"
        out.append({"wave": w, "plane": plane, "tier": tier, "switches": len(names),
                    "why": why, "stays_up": stays})
    return out


def _stays_up(view: _View, names: Sequence[str], tier_size: int, tier: str) -> str:
    """'24 of the plane's 32 spines; every leaf keeps at least 24 of its 32 spines'."""
    counts: Dict[str, int] = {}
    for name in names:
        for lower in view.down[name]:
            counts[lower] = counts.get(lower, 0) + 1
    text = "%d of the plane's %d %s" % (tier_size - len(names), tier_size, _plural(tier))
    if not counts:
        return text
    worst = min(counts, key=lambda n: ((len(view.up[n]) - counts[n]) / len(view.up[n]), n))
    u = len(view.up[worst])
    return text + "; every %s below keeps at least %d of its %d (fewest: %s)" % (
        view.role[worst], u - counts[worst], u, worst)


def check(plan: Plan, given: Sequence[Sequence[str]]) -> List[Finding]:
    """Every breach of the rules (module docstring) by the waves ``given``, in roll order: one
    finding each, naming the switch, the wave and the numbers. Also: every switch of the plan
    in exactly one wave, no GPU host and no unknown name."""
    view = _View(plan)
    found: List[Finding] = []
    seen: Dict[str, int] = {}
    order = _Order()
    for w, wave in enumerate(given, 1):
        known = _members(view, wave, w, seen, found)
        found += _one_plane_and_tier(view, known, w)
        found += _pairs_apart(view, known, w)
        found += _uplinks(view, known, w)
        found += _tier_share(view, known, w)
        found += order.step(view, known, w)
    missing = sorted(name for name in view.role if name not in seen)
    if missing:
        found.append(_finding("rollout-coverage", missing[0], "-", "%d switch(es) of the plan "
                              "in no wave: %s" % (len(missing), _few(missing)),
                              "add them to a wave", missing=len(missing)))
    return found


def _finding(rule: str, device: str, where: str, message: str, hint: str,
             **numbers: object) -> Finding:
    return errors.finding(rule, "ERROR", device, where, message, hint, **numbers)


def _few(names: Sequence[str], shown: int = 4) -> str:
    head = ", ".join(names[:shown])
    return head if len(names) <= shown else "%s and %d more" % (head, len(names) - shown)


def _members(view: _View, wave: Sequence[str], w: int, seen: Dict[str, int],
             found: List[Finding]) -> List[str]:
    """The wave's switches of the plan, each once; a finding for anything else."""
    known = []
    where = "wave %d" % w
    for name in wave:
        if name in view.hosts:
            found.append(_finding("rollout-coverage", name, where, "a GPU host in a wave",
                                  "leave hosts out: they roll in their own plays", wave=w))
        elif name not in view.role:
            found.append(_finding("rollout-coverage", name, where, "not a switch of the plan",
                                  "use the plan's switch names", wave=w))
        elif name in seen:
            found.append(_finding("rollout-coverage", name, where, "also in wave %d"
                                  % seen[name], "put each switch in one wave", wave=w,
                                  first_wave=seen[name]))
        else:
            seen[name] = w
            known.append(name)
    return known


def _one_plane_and_tier(view: _View, known: Sequence[str], w: int) -> List[Finding]:
    out = []
    planes = sorted(set(view.plane[n] for n in known))
    tiers = sorted(set(view.role[n] for n in known), key=TIERS.index)
    if len(planes) > 1:
        out.append(_finding("rollout-plane", known[0], "wave %d" % w, "switches of planes %s "
                            "in one wave" % ", ".join(map(str, planes)),
                            "one plane per wave", wave=w, planes=planes))
    if len(tiers) > 1:
        out.append(_finding("rollout-tier", known[0], "wave %d" % w, "%s in one wave"
                            % " and ".join(_plural(t) for t in tiers),
                            "one tier per wave", wave=w, tiers=tiers))
    return out


def _pairs_apart(view: _View, known: Sequence[str], w: int) -> List[Finding]:
    members = set(known)
    return [_finding("rollout-pair", name, "wave %d" % w, "both leaves of pair %s+%s in one "
                     "wave" % (name, view.partner[name]), "put %s in another wave"
                     % view.partner[name], wave=w, pair=[name, view.partner[name]])
            for name in known
            if view.partner.get(name) in members and name < view.partner[name]]


def _uplinks(view: _View, known: Sequence[str], w: int) -> List[Finding]:
    ups: Dict[str, List[str]] = {}
    for name in known:
        for lower in view.down[name]:
            ups.setdefault(lower, []).append(name)
    out = []
    for lower in sorted(ups):
        u, cap, taken = len(view.up[lower]), view.cap(lower), ups[lower]
        if len(taken) > cap:
            out.append(_finding(
                "rollout-uplinks", lower, "wave %d" % w, "%d of its %d uplink switches in one "
                "wave (%s): at most %d, max(1, floor(%d/4))%s"
                % (len(taken), u, _few(taken), cap, u,
                   " within the failure budget" if cap < max(1, u // SHARE) else ""),
                "move %d of them to another wave" % (len(taken) - cap), wave=w, uplinks=u,
                in_wave=len(taken), allowed=cap, switches=taken))
    return out


def _tier_share(view: _View, known: Sequence[str], w: int) -> List[Finding]:
    sizes = view.sizes
    counts: Dict[Tuple[int, str], int] = {}
    for name in known:
        key = (view.plane[name], view.role[name])
        counts[key] = counts.get(key, 0) + 1
    out = []
    for (plane, tier), n in sorted(counts.items()):
        total = sizes[(plane, tier)]
        cap = max(1, total // SHARE)
        if tier != "leaf" and n > cap:
            out.append(_finding("rollout-tier-share", known[0], "wave %d" % w,
                                "%d of plane %d's %d %s in one wave: at most %d, max(1, "
                                "floor(%d/4))" % (n, plane, total, _plural(tier), cap, total),
                                "split the wave", wave=w, in_wave=n, tier_size=total,
                                allowed=cap))
    return out


class _Order:
    """Plane after plane, each top down (super-spines, spines, leaves)."""

    def __init__(self) -> None:
        self.current: Optional[int] = None
        self.done: Set[int] = set()
        self.rank: Dict[int, int] = {}

    def step(self, view: _View, known: Sequence[str], w: int) -> List[Finding]:
        out = []
        for plane in sorted(set(view.plane[n] for n in known)):
            if plane != self.current:
                if plane in self.done:
                    out.append(_finding("rollout-plane", known[0], "wave %d" % w, "plane %d "
                                        "again after plane %s" % (plane, self.current),
                                        "finish a plane before the next", wave=w, plane=plane))
                if self.current is not None:
                    self.done.add(self.current)
                self.current = plane
            ranks = [TIERS.index(view.role[n]) for n in known if view.plane[n] == plane]
            last = self.rank.get(plane, 0)
            if min(ranks) < last:
                out.append(_finding("rollout-tier", known[0], "wave %d" % w, "%s after %s in "
                                    "plane %d" % (_plural(TIERS[min(ranks)]), _plural(TIERS[last]),
                                                  plane),
                                    "roll super-spines, then spines, then leaves", wave=w))
            self.rank[plane] = max(last, *ranks)
        return out
