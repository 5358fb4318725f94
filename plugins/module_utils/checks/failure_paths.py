# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Routing under a failure scenario of the what-if sweep (checks/failures.py): which leaf pairs
BGP still connects, the cyclic buffer dependencies of the surviving and transient routes, and
how far a pause spreads (failures-nvue-scale.md A.2; lossless-math.md §4).

The routes are the plan's eBGP (checks/paths.py): shortest loop-free AS paths, so the ASN plan
decides which detours exist - with one ASN per spine tier a spine never accepts a path through
another spine (valley-free), with one ASN per spine it does (a bounce). A homogeneous fabric is
analysed on deadlock.py's representative sub-fabric: the failed switches are relabelled onto it
by order of first appearance per pod, position and super-spine group, which is an automorphism
of the fabric (every leaf on every spine of its pod, spine j of every pod on super-spine group
j, one ASN scheme per tier), so the figures hold for the real scenario. Planes are separate
fabrics: each plane's part of a scenario is analysed on its own. A fabric without the symmetry
is analysed whole up to FULL_LIMIT switches.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.checks import deadlock
from ansible_collections.roce.fabric.plugins.module_utils.checks import paths as routing
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import Device

FULL_LIMIT = 256      # switches: an asymmetric fabric is analysed whole up to this size
Link = Tuple[str, str]          # (upper switch, lower switch) of one failed fabric link


class Routing:
    """The routing model of the sweep: the topology it analyses and how a failure maps onto
    it. ``scope`` says which (the figures' provenance); ``work`` is None when the fabric is
    neither symmetric nor small enough (``scope`` then says why)."""

    def __init__(self, fab: Fabric, devices: Dict[str, Device]) -> None:
        self.fab = fab
        topo = deadlock.topology(fab, devices)
        two = deadlock.homogeneous(fab, topo) if fab.tiers == 2 else None
        three = deadlock.homogeneous3(fab, topo) if fab.tiers == 3 else None
        self.homo = bool(two or three)
        self.where: Dict[str, Tuple[Any, ...]] = {}    # switch: its place in the fabric
        self.plane_of: Dict[str, int] = {}
        self.work: Optional[routing.Topology] = None
        self.sub: Dict[str, Any] = {}
        for p, pod in enumerate(fab.pods):
            for j, sw in enumerate(pod["spines"]):
                self.where[sw.name] = ("spine", p, j)
            for i, sw in enumerate(pod["leaves"]):
                self.where[sw.name] = ("leaf", p, i)
        for sw in fab.all_switches():
            self.plane_of[sw.name] = sw.plane
        if two:
            n_l = min(deadlock.REDUCED_LEAVES, len(fab.pods[0]["leaves"]))
            n_s = min(deadlock.REDUCED_SPINES, len(fab.pods[0]["spines"]))
            self.work = deadlock.reduced_topology(fab, topo, n_l, n_s)
            self.scope = ("representative sub-fabric (%d leaves, %d spines of one plane; the "
                          "same holds for every equivalent scenario)" % (n_l, n_s))
            self.sub = {"leaves": [s.name for s in fab.pods[0]["leaves"][:n_l]],
                        "spines": [s.name for s in fab.pods[0]["spines"][:n_s]]}
        elif three:
            shape = three
            self.work, n = deadlock.reduced_topology3(fab, topo, shape)
            self._index_tops(shape["group"])
            self.scope = ("representative three-tier sub-fabric (%d pods of %d leaves and %d "
                          "spines, super-spine groups of %d; the same holds for every "
                          "equivalent scenario)" % (n["pods"], n["leaves"], n["spines"],
                                                    n["group"]))
            plane = fab.pods[0]["plane"]
            pods = [p for p, pod in enumerate(fab.pods) if pod["plane"] == plane]
            self.sub = {"pods": pods[:n["pods"]], "leaves": n["leaves"], "spines": n["spines"],
                        "group": n["group"], "size": shape["group"], "plane": plane}
        elif len(topo.asn) <= FULL_LIMIT:
            self.work = topo
            self.scope = "full fabric (%d switches)" % len(topo.asn)
        else:
            self.scope = ("not analysed: the fabric is not symmetric (deadlock.py's homogeneity "
                          "test) and has %d switches (whole-fabric analysis up to %d)"
                          % (len(topo.asn), FULL_LIMIT))
        self._base: Dict[str, routing.Fib] = {}

    def _index_tops(self, size: int) -> None:
        seen: Dict[int, int] = {}
        for ss in self.fab.superspines:
            i = seen.get(ss.plane, 0)
            seen[ss.plane] = i + 1
            self.where[ss.name] = ("superspine", ss.plane, i // size, i % size)

    def analyse(self, nodes: Sequence[str] = (), links: Sequence[Link] = (),
                pods: Sequence[int] = ()) -> Optional[Dict[str, Any]]:
        """Routing figures of failing ``nodes`` (switch names), ``links`` ((a, b) pairs, one
        entry per failed parallel link) and whole ``pods`` (three tiers: indices into
        fab.pods), or None when the fabric is not analysed. A whole plane is no input: the
        other planes route as before (the no-failure figures)."""
        if self.work is None:
            return None
        if not self.homo:
            dead = list(nodes) + [sw.name for p in pods for sw in
                                  self.fab.pods[p]["spines"] + self.fab.pods[p]["leaves"]]
            return _figures(self.work, self._fibs(), dead, list(links))
        planes: Dict[int, Tuple[List[str], List[Link], List[int]]] = {}
        for n in nodes:
            planes.setdefault(self.plane_of[n], ([], [], []))[0].append(n)
        for a, b in links:
            planes.setdefault(self.plane_of[a], ([], [], []))[1].append((a, b))
        for p in pods:
            planes.setdefault(self.fab.pods[p]["plane"], ([], [], []))[2].append(p)
        out: Optional[Dict[str, Any]] = None
        for plane_nodes, plane_links, plane_pods in list(planes.values()) or [([], [], [])]:
            names = _Relabel(self)
            dead = [name for p in plane_pods for name in names.pod(p)]
            dead += [names.map(n) for n in plane_nodes]
            got = _figures(self.work, self._fibs(), dead,
                           [(names.map(a), names.map(b)) for a, b in plane_links])
            out = got if out is None else _worse(out, got)
        return out

    def _fibs(self) -> Dict[str, routing.Fib]:
        if not self._base and self.work is not None:
            self._base = routing.all_fibs(self.work)
        return self._base


class _Relabel:
    """Maps switches of one plane onto the representative sub-fabric, by order of first
    appearance: the n-th distinct pod, spine position, leaf of a pod and super-spine of a group
    a scenario names become the sub-fabric's n-th. Spine position j and super-spine group j are
    one label (spine j of every pod uplinks to group j)."""

    def __init__(self, routes: Routing) -> None:
        self.r = routes
        self.pods: Dict[int, int] = {}
        self.spines: Dict[int, int] = {}
        self.leaves: Dict[Any, int] = {}
        self.tops: Dict[Tuple[int, int], int] = {}

    @staticmethod
    def _label(table: Dict[Any, int], key: Any, scope: Any = None) -> int:
        if key not in table:
            table[key] = sum(1 for k in table if scope is None or k[0] == scope)
        return table[key]

    def map(self, name: str) -> str:
        where, fab, sub = self.r.where[name], self.r.fab, self.r.sub
        if fab.tiers == 2:
            role, _pod, idx = where
            r = self._label(self.spines if role == "spine" else self.leaves, idx)
            return sub["spines" if role == "spine" else "leaves"][r]
        if where[0] == "superspine":
            _role, _plane, group, member = where
            g = self._label(self.spines, group)
            i = self._label(self.tops, (g, member), g)
            plane_tops = [ss for ss in fab.superspines if ss.plane == sub["plane"]]
            return plane_tops[g * sub["size"] + i].name
        role, pod, idx = where
        p = self._label(self.pods, pod)
        sub_pod = fab.pods[sub["pods"][p]]
        if role == "spine":
            return sub_pod["spines"][self._label(self.spines, idx)].name
        return sub_pod["leaves"][self._label(self.leaves, (p, idx), p)].name

    def pod(self, pod: int) -> List[str]:
        """Every switch of the sub-fabric's pod that ``pod`` (three tiers) maps onto."""
        sub = self.r.sub
        sub_pod = self.r.fab.pods[sub["pods"][self._label(self.pods, pod)]]
        return [sw.name for sw in sub_pod["spines"][:sub["spines"]] +
                sub_pod["leaves"][:sub["leaves"]]]


def _without(topo: routing.Topology, nodes: Sequence[str],
             links: Sequence[Link]) -> routing.Topology:
    out = routing.Topology()
    out.asn, out.allowas_in = topo.asn, topo.allowas_in
    dead = set(nodes)
    out.origins = [o for o in topo.origins if o not in dead]
    out.adj = dict((n, dict((m, c) for m, c in nb.items() if m not in dead))
                   for n, nb in topo.adj.items() if n not in dead)
    for a, b in links:
        for x, y in ((a, b), (b, a)):
            if x in out.adj and y in out.adj[x]:
                out.adj[x][y] -= 1
                if not out.adj[x][y]:
                    del out.adj[x][y]
    return out


def _figures(topo: routing.Topology, base: Dict[str, routing.Fib], nodes: List[str],
             links: List[Link]) -> Dict[str, Any]:
    """Converged routes after the failure, the transient in which the switches next to it have
    re-routed and every other still forwards on its old FIB (paths.analyse's two states)."""
    after = _without(topo, nodes, links)
    fibs = routing.all_fibs(after)
    touched: Set[str] = set(a for link in links for a in link)
    for n in nodes:
        touched.update(topo.adj.get(n, {}))
    transient: Dict[str, routing.Fib] = {}
    for dest in after.origins:
        fib = dict((r, set(nh) & set(after.adj[r])) for r, nh in base[dest].items()
                   if r in after.adj)
        for r in touched:
            if r in fibs[dest]:
                fib[r] = fibs[dest][r]
            else:
                fib.pop(r, None)
        transient[dest] = fib
    unreachable = sum(1 for d in after.origins for s in after.origins
                      if s != d and s not in fibs[d])
    edges = routing.cbd_edges(fibs, after.origins)
    routing.cbd_edges(transient, after.origins, edges)
    cycle = routing.find_cycle(edges)
    return {"pairs": len(after.origins) * (len(after.origins) - 1),
            "unreachable_pairs": unreachable, "cycle": cycle,
            "pause_radius_hops": None if cycle else pause_radius(edges, after.origins)}


def pause_radius(edges: routing.Edges, leaves: Sequence[str]) -> int:
    """Switch-to-switch links a pause crosses upstream from a congested host port, at most.

    A host port of leaf d that stops draining fills d's ingress PGs (d, from x): x's port to d
    is paused (1 hop); x's ingress PGs whose traffic leaves towards d fill next - the nodes
    with an edge into (d, x) - and so on. With the dependency graph acyclic, the radius is 1 +
    the longest edge chain ending at a node of a leaf (failures-nvue-scale.md A.5: "all switch
    ports along the path to the traffic source")."""
    preds: Dict[routing.Node, List[routing.Node]] = {}
    indeg: Dict[routing.Node, int] = {}
    for node, succs in edges.items():
        indeg.setdefault(node, 0)
        for s in succs:
            preds.setdefault(s, []).append(node)
            indeg[s] = indeg.get(s, 0) + 1
    longest = dict((n, 0) for n in indeg)
    ready = [n for n, d in indeg.items() if d == 0]
    while ready:                        # Kahn's order: every predecessor before its successor
        node = ready.pop()
        for s in edges.get(node, ()):
            longest[s] = max(longest[s], longest[node] + 1)
            indeg[s] -= 1
            if not indeg[s]:
                ready.append(s)
    ends = set(leaves)
    into = [d for (router, _frm), d in longest.items() if router in ends]
    return 1 + max(into) if into else 0       # no traffic between leaves: nothing to pause


def _worse(a: Dict[str, Any], b: Dict[str, Any]) -> Dict[str, Any]:
    """Two planes' figures of one scenario: counts add up, the worse cycle and radius count."""
    radius = None if a["cycle"] or b["cycle"] else max(a["pause_radius_hops"],
                                                       b["pause_radius_hops"])
    return {"pairs": a["pairs"] + b["pairs"],
            "unreachable_pairs": a["unreachable_pairs"] + b["unreachable_pairs"],
            "cycle": a["cycle"] or b["cycle"], "pause_radius_hops": radius}
