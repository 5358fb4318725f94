# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The failure what-if sweep: for one and two failures of each class - fabric link, leaf,
spine, super-spine, pod, plane - what the fabric keeps (failures-nvue-scale.md A.2).

Capacity is exact and linear: a failure only lowers the uplink Gb/s of the switches next to it,
so the worst leaf after it is the worse of the fabric's worst before it and the worst of those
neighbours; the worst two-failure scenario of an orbit (two links of one leaf, two spines of one
pod, ...) is found per switch from its two largest uplinks. Every single switch, pod and plane
is a scenario of its own; links and two-failure orbits are listed by their worst member with the
number of scenarios they stand for. Routing (reachability, deadlock, pause radius) comes from
failure_paths.py, on the representative sub-fabric where the fabric's symmetry makes every
member of an orbit equivalent. Everything is read from the plan's device intents: what the
rendered configs carry.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.checks import ecmp
from ansible_collections.roce.fabric.plugins.module_utils.checks import failure_paths
from ansible_collections.roce.fabric.plugins.module_utils.lossless import pause
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, HostIntent, SwitchIntent)

# "mixed": an upper switch and a link of another one under the same lower switch (k = 2)
CLASSES = ("link", "leaf", "spine", "superspine", "pod", "plane", "mixed")
MAX_K = {"link": 2, "leaf": 2, "spine": 2, "superspine": 2, "pod": 1, "plane": 1, "mixed": 2}
EPS = 1e-9                   # ratios are compared with this slack (float sums of Gb/s)
Scenario = Dict[str, Any]


class SwitchCapacity:
    """One switch's capacity as its intent renders it: down and up Gb/s and links by peer."""
    __slots__ = ("name", "role", "plane", "pod", "down_g", "down_n", "up", "up_g", "up_n",
                 "ports")

    def __init__(self, dev: Dict[str, Any], below: str, above: Optional[str]) -> None:
        self.name, self.role, self.plane, self.pod = (dev["name"], dev["role"], dev["plane"],
                                                      dev["pod"])
        self.down_g = self.down_n = self.up_g = self.up_n = 0
        self.up: Dict[str, List[int]] = {}             # upper switch: its links' Gb/s
        self.ports: Dict[str, str] = {}                # upper switch: first port facing it
        for p in dev["ports"]:
            if not p["up"]:
                continue
            if p["peer_kind"] == below:
                self.down_g += p["speed_gbps"]
                self.down_n += 1
            elif p["peer_kind"] == above:
                self.up.setdefault(p["peer"], []).append(p["speed_gbps"])
                self.ports.setdefault(p["peer"], "%s:%s - %s:%s" % (
                    dev["name"], p["name"], p["peer"], p["peer_port"]))
                self.up_g += p["speed_gbps"]
                self.up_n += 1

    def ratio(self, lost_g: int = 0) -> float:
        left = self.up_g - lost_g
        return self.down_g / float(left) if left > 0 else float("inf")


class Sweep:
    """The sweep over one plan: ``scenarios()`` lists them, ``verdict()`` judges the classes."""

    def __init__(self, fab: Fabric, devices: Dict[str, Device]) -> None:
        self.fab = fab
        self.tiers = fab.tiers
        self.qps = int(fab.settings["ecmp"]["qps_per_connection"])
        self.ar = bool(fab.settings["ecmp"].get("adaptive_routing"))
        self.leaves: Dict[str, SwitchCapacity] = {}
        self.spines: Dict[str, SwitchCapacity] = {}          # with uplinks: three tiers only
        self.lower: Dict[str, List[str]] = {}     # upper switch: the switches below it
        self.hosts: Dict[str, List[Tuple[str, int]]] = {}    # leaf: (host, NIC Gb/s)
        self.nics: Dict[str, Tuple[int, int]] = {}            # host: (NICs, Gb/s)
        self.margin: Dict[str, Dict[str, Any]] = {}           # switch: overloaded buffer
        healthy: List[Dict[str, Any]] = []
        for dev in devices.values():
            if dev["kind"] == "host":
                nics = cast(HostIntent, dev)["nics"]
                for nic in nics:
                    self.hosts.setdefault(nic["leaf"], []).append((dev["name"],
                                                                   nic["speed_gbps"]))
                self.nics[dev["name"]] = (len(nics), sum(n["speed_gbps"] for n in nics))
                continue
            role = cast(SwitchIntent, dev)["role"]
            plain = cast(Dict[str, Any], dev)
            if role == "leaf":
                sw = self.leaves[dev["name"]] = SwitchCapacity(plain, "host", "spine")
            elif role == "spine" and self.tiers == 3:
                sw = self.spines[dev["name"]] = SwitchCapacity(plain, "leaf", "superspine")
            else:
                sw = None
            if sw is not None:
                for upper in sw.up:
                    self.lower.setdefault(upper, []).append(sw.name)
            one, many = _buffer(plain, role)
            if one is not None:
                healthy.append(one)
            if many is not None:
                self.margin[dev["name"]] = many
        self.healthy_buffer = min(healthy, key=lambda b: b["margin_kmin_bytes"]) \
            if healthy else None
        # per leaf: the three worst overloaded buffers of it and the spines it sends through
        # (a scenario takes out at most two of them)
        self.leaf_margin: Dict[str, List[Dict[str, Any]]] = {}
        for leaf in self.leaves.values():
            got = [self.margin[n] for n in [leaf.name] + list(leaf.up) if n in self.margin]
            self.leaf_margin[leaf.name] = sorted(got, key=lambda b: b["margin_kmin_bytes"])[:3]
        self.routing = failure_paths.Routing(fab, devices)
        self.base_leaf = _worst(self.leaves.values())
        self.base_spine = _worst(self.spines.values())
        self.width_leaf = min([s.up_n for s in self.leaves.values()] or [0])
        self.width_spine = min([s.up_n for s in self.spines.values()] or [0])
        self._routes: Dict[Tuple[Any, ...], Optional[Dict[str, Any]]] = {}
        # the three worst leaves before any failure: the worst survivor of up to two dead
        self.top_leaves = sorted(self.leaves.values(), key=lambda sw: -sw.ratio())[:3]

    # -- one scenario -------------------------------------------------------------------------

    def row(self, cls: str, k: int, orbit: str, failed: List[str], equivalent: int,
            lost: Dict[str, Tuple[int, int]], lost_spine: Dict[str, Tuple[int, int]],
            dead_leaves: Sequence[str], routes: Optional[Dict[str, Any]]) -> Scenario:
        """A scenario's figures from what it takes away: ``lost`` {leaf: (Gb/s, links)} of leaf
        uplinks, ``lost_spine`` the same for three-tier spines, ``dead_leaves`` the leaves that
        go down with their hosts' NICs."""
        dead = set(dead_leaves)
        ratio, worst = self._survivor(dead)
        width, narrow = self.width_leaf, None
        for name, (gbps, links) in lost.items():
            if name in dead:
                continue
            sw = self.leaves[name]
            r = sw.ratio(gbps)
            if r > ratio + EPS:
                ratio, worst = r, name
            if sw.up_n - links < width:
                width, narrow = sw.up_n - links, name
        s_ratio, s_worst = self.base_spine
        s_width = self.width_spine
        for name, (gbps, links) in lost_spine.items():
            sw = self.spines[name]
            r = sw.ratio(gbps)
            if r > s_ratio + EPS:
                s_ratio, s_worst = r, name
            s_width = min(s_width, sw.up_n - links)
        row: Scenario = {
            "class": cls, "k": k, "orbit": orbit, "failed": failed, "equivalent": equivalent,
            "oversubscription": _round(ratio) if worst else None, "worst_leaf": worst,
            "ecmp": {"leaf": self._ecmp(narrow or worst, width, self.width_leaf)},
        }
        if self.tiers == 3:
            row["oversubscription_spine"] = _round(s_ratio)
            row["worst_spine"] = s_worst
            row["ecmp"]["spine"] = {"width": s_width, "planned": self.width_spine}
        row.update(self.hosts_lost(dead))
        overloaded = [n for n, (g, _l) in lost.items() if n not in dead and
                      self.leaves[n].ratio(g) > 1 + EPS]
        row["buffer"] = self._buffer(overloaded if ratio > 1 + EPS else [], set(failed))
        row["routing"] = None if routes is None else dict(
            (key, routes[key]) for key in ("unreachable_pairs", "pause_radius_hops"))
        if routes is not None:
            row["routing"]["deadlock"] = routes["cycle"] is not None
            if routes["cycle"]:      # (switch, neighbour it came from) of the analysed topology
                row["routing"]["cycle"] = [list(n) for n in routes["cycle"]]
        return row

    def _survivor(self, dead: set) -> Tuple[float, Optional[str]]:
        """The worst leaf before the failure that is still up."""
        if not dead or self.base_leaf[1] not in dead:
            return self.base_leaf
        pool = [sw for sw in self.top_leaves if sw.name not in dead] if len(dead) < 3 else []
        return _worst(pool or [sw for sw in self.leaves.values() if sw.name not in dead])

    def _ecmp(self, leaf: Optional[str], width: int, planned: int) -> Dict[str, Any]:
        out: Dict[str, Any] = {"width": width, "planned": planned,
                               "adaptive_routing": self.ar}
        sw = self.leaves.get(leaf or "")
        flows = sw.down_n * self.qps if sw else 0
        if sw and width >= 1 and 1 <= flows <= 4096 and width <= 4096:
            bins = ecmp.balls_into_bins(flows, width, exact=False)
            out.update({"flows": flows, "expected_max_load": round(bins["expected_max_load"], 3),
                        "efficiency": round(bins["efficiency"], 3)})
        return out

    def hosts_lost(self, dead: set) -> Dict[str, Any]:
        lost: Dict[str, List[int]] = {}             # host: [NICs lost, Gb/s lost]
        for leaf in dead:
            for host, gbps in self.hosts.get(leaf, ()):
                got = lost.setdefault(host, [0, 0])
                got[0] += 1
                got[1] += gbps
        isolated = sum(1 for h, (n, _g) in lost.items() if n >= self.nics[h][0])
        return {"hosts_degraded": len(lost), "hosts_isolated": isolated,
                "host_gbps_lost": sum(g for _n, g in lost.values())}

    def _buffer(self, overloaded: Sequence[str], gone: set) -> Optional[Dict[str, Any]]:
        """ECN against the pause point: with no leaf over 1:1 the fabric's own worst (one
        congested PG); else every host port of an overloaded leaf and every leaf-facing port
        of its spines congest at once (all-to-all at line rate), and the worst of them."""
        worst = None
        for leaf in overloaded:
            got = next((b for b in self.leaf_margin.get(leaf, ()) if b["switch"] not in gone),
                       None)
            if got and (worst is None or got["margin_kmin_bytes"] < worst["margin_kmin_bytes"]):
                worst = got
        return worst or self.healthy_buffer

    def route(self, cls: str, k: int, orbit: str, nodes: Sequence[str] = (),
              links: Sequence[Tuple[str, str]] = (),
              pods: Sequence[int] = ()) -> Optional[Dict[str, Any]]:
        """failure_paths' figures, once per orbit: in a symmetric fabric every member is
        equivalent, elsewhere the orbit's worst member (the one named) is analysed."""
        key: Tuple[Any, ...] = (cls, k, orbit) if self.routing.homo else \
            (cls, k, tuple(nodes), tuple(links), tuple(pods))
        if key not in self._routes:
            self._routes[key] = self.routing.analyse(nodes, links, pods)
        return self._routes[key]


def _worst(sws: Any) -> Tuple[float, Optional[str]]:
    ratio, name = 0.0, None
    for sw in sws:
        r = sw.ratio()
        if name is None or r > ratio + EPS:
            ratio, name = r, sw.name
    return ratio, name


def _round(ratio: float) -> Optional[float]:
    return None if math.isinf(ratio) else round(ratio, 3)


Figures = Optional[Dict[str, Any]]


def _buffer(dev: Dict[str, Any], role: str) -> Tuple[Figures, Figures]:
    """(one congested PG, every downward lossless port congested) ECN-against-pause figures
    of one switch: the pause point of dynamic-threshold PGs, alpha / (1 + N alpha) x B_s
    (lossless-math.md §2.1), against the largest Kmin and Kmax of its lossless queues."""
    trig = dev["buffer"]["trigger"]
    marks = [p["lossless"]["ecn"] for p in dev["ports"]
             if p["up"] and p["lossless"] and p["lossless"]["ecn"]]
    if trig is None or not marks:
        return None, None
    below = {"leaf": "host", "spine": "leaf", "superspine": "spine"}[role]
    congested = sum(1 for p in dev["ports"] if p["up"] and p["lossless"] and
                    p["peer_kind"] == below) or 1
    kmin = max(m["kmin_bytes"] for m in marks)
    kmax = max(m["kmax_bytes"] for m in marks)

    def figures(n: int) -> Dict[str, Any]:
        if trig["mode"] == "dynamic":
            at = int(pause.pause_fraction(trig["alpha"], n) * trig["shared_pool_bytes"])
        else:
            at = int(trig["static_th_bytes"])
        return {"switch": dev["name"], "congested_pgs": n, "pause_bytes": at,
                "kmin_bytes": kmin, "kmax_bytes": kmax, "ecn_first": kmin < at,
                "margin_kmin_bytes": at - kmin, "margin_kmax_bytes": at - kmax}
    return figures(1), figures(congested)
