# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""eBGP routing as the plan renders it, and PFC deadlock (cyclic buffer dependency) analysis.

Routing: every leaf originates its host prefix; a router accepts a path unless its own ASN is
already on it (unless allowas-in) and installs all shortest AS paths (multipath). With the
RFC 7938 scheme (one ASN for all spines) a spine never accepts a path through another spine,
so a spine that loses its only link to a leaf has no route to it; with one ASN per spine it
re-routes through another leaf ("bounce", lossless-math.md §4.1).

Deadlock (§4.2): nodes are (switch, neighbour the traffic came from) for the lossless priority;
an edge (b, from a) -> (c, from b) exists when traffic that really arrives at b from a leaves
towards c. Traffic is followed from every leaf to every destination through the FIBs. A single
link failure is analysed in two states: converged, and the transient in which the two switches
on the failed link have already re-routed while every other switch still forwards on its old
FIB (the micro-loop window). Any strongly connected component is a cycle, printed as such.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

Fib = Dict[str, Set[str]]                    # router -> next hops towards one destination
Node = Tuple[str, Optional[str]]             # (router, came_from); None: from its own hosts
Edges = Dict[Node, Set[Node]]                # buffer dependencies

PATHS_KEPT = 8   # distinct AS-path sets kept per router; any loop-free one makes a route usable


class Topology:
    """Routers, their ASNs, adjacency with link multiplicity, and which routers own prefixes."""

    def __init__(self) -> None:
        self.asn: Dict[str, int] = {}
        # router -> {neighbour: number of parallel links up}
        self.adj: Dict[str, Dict[str, int]] = {}
        # routers that originate a prefix and source traffic (leaves)
        self.origins: List[str] = []
        self.allowas_in: Set[str] = set()

    def add_router(self, name: str, asn: int, origin: bool = False) -> None:
        self.asn[name] = asn
        self.adj.setdefault(name, {})
        if origin:
            self.origins.append(name)

    def add_link(self, a: str, b: str, count: int = 1) -> None:
        self.adj[a][b] = self.adj[a].get(b, 0) + count
        self.adj[b][a] = self.adj[b].get(a, 0) + count

    def without_link(self, a: str, b: str) -> "Topology":
        """Copy with one of the parallel a-b links removed."""
        topo = Topology()
        topo.asn, topo.origins, topo.allowas_in = self.asn, self.origins, self.allowas_in
        topo.adj = dict((n, dict(nb)) for n, nb in self.adj.items())
        for x, y in ((a, b), (b, a)):
            topo.adj[x][y] -= 1
            if not topo.adj[x][y]:
                del topo.adj[x][y]
        return topo


def bgp_fib(topo: Topology, dest: str) -> Fib:
    """{router: set of next hops} towards ``dest``'s prefix: shortest loop-free AS paths."""
    paths = {dest: [frozenset([topo.asn[dest]])]}
    fib = {}
    layer = [dest]
    while layer:
        offers: Dict[str, Dict[str, FrozenSet[int]]] = {}    # router: {neighbour: AS path}
        for n in layer:
            for m in topo.adj[n]:
                if m in paths:
                    continue
                own = topo.asn[m]
                for ps in paths[n]:
                    if own not in ps or m in topo.allowas_in:
                        offers.setdefault(m, {}).setdefault(n, ps)
        layer = []
        for m, by_nbr in offers.items():
            fib[m] = set(by_nbr)
            kept: List[FrozenSet[int]] = []
            for ps in by_nbr.values():
                adv = ps | frozenset([topo.asn[m]])
                if adv not in kept and len(kept) < PATHS_KEPT:
                    kept.append(adv)
            paths[m] = kept
            layer.append(m)
    return fib


def cbd_edges(fibs: Dict[str, Fib], origins: Iterable[str],
              edges: Optional[Edges] = None) -> Edges:
    """Add to ``edges`` ({node: set(nodes)}) the buffer dependencies of traffic from every origin
    to every destination. ``fibs``: {dest: {router: next hops}}; a node is (router, came_from),
    came_from None for traffic injected by the router's own hosts."""
    edges = {} if edges is None else edges
    for dest, fib in fibs.items():
        seen = set()
        stack: List[Node] = [(o, None) for o in origins if o != dest]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            router = node[0]
            if router == dest:
                continue      # delivered to the destination's hosts
            for nxt in fib.get(router, ()):
                succ = (nxt, router)
                if node[1] is not None:
                    edges.setdefault(node, set()).add(succ)
                stack.append(succ)
    return edges


def find_cycle(edges: Edges) -> Optional[List[Node]]:
    """A list of nodes forming a cycle in ``edges``, or None. Iterative Tarjan SCC."""
    index = {}
    low = {}
    on_stack = set()
    stack = []
    counter = [0]
    for root in list(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()), key=str)))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for succ in it:
                if succ == node:
                    return [node]
                if succ not in index:
                    index[succ] = low[succ] = counter[0]
                    counter[0] += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(edges.get(succ, ()), key=str))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    return _cycle_in(set(comp), edges)
    return None


def _cycle_in(component: Set[Node], edges: Edges) -> List[Node]:
    """Walk successors inside an SCC until a node repeats: that stretch is a cycle."""
    start = min(component, key=str)
    order = [start]
    pos = {start: 0}
    node = start
    while True:
        node = min((s for s in edges[node] if s in component), key=str)
        if node in pos:
            return order[pos[node]:]
        pos[node] = len(order)
        order.append(node)


def all_fibs(topo: Topology) -> Dict[str, Fib]:
    return dict((d, bgp_fib(topo, d)) for d in topo.origins)


def analyse(topo: Topology, failures: Iterable[Sequence[str]]) -> List[Dict[str, Any]]:
    """Deadlock analysis of ``topo`` and of each single-link failure in ``failures`` ((a, b)).

    Returns a list of findings {scenario, cycle, rerouted}; an empty list means acyclic."""
    findings = []
    base = all_fibs(topo)
    cycle = find_cycle(cbd_edges(base, topo.origins))
    if cycle:
        findings.append({"scenario": "no failure", "cycle": cycle})
    for failure in failures:
        a, b = failure[:2]
        label = failure[2] if len(failure) > 2 else "%s-%s" % (a, b)
        after_topo = topo.without_link(a, b)
        after = all_fibs(after_topo)
        transient = {}
        for dest in topo.origins:
            fib = dict((r, set(nh) & set(after_topo.adj[r])) for r, nh in base[dest].items())
            for r in (a, b):
                if r in after[dest]:
                    fib[r] = after[dest][r]
                else:
                    fib.pop(r, None)
            transient[dest] = fib
        edges = cbd_edges(after, topo.origins)
        cbd_edges(transient, topo.origins, edges)
        cycle = find_cycle(edges)
        if cycle:
            findings.append({"scenario": "link %s down" % label, "cycle": cycle})
    return findings


def describe_cycle(cycle: Sequence[Node], priority: Any,
                   port_of: Optional[Callable[[str, str], Optional[str]]] = None) -> str:
    """Readable cycle: 'spine1 (in from leaf2, prio 3) -> leaf2 (in from spine1, prio 3) -> ...';
    with ``port_of(router, neighbour)`` each hop names its ingress port too."""
    hops = []
    for router, frm in cycle:
        port = port_of(router, frm) if port_of and frm else None
        where = " on %s" % port if port else ""
        hops.append("%s (in from %s%s, prio %s)" % (router, frm or "hosts", where, priority))
    return " -> ".join(hops + [hops[0]])
