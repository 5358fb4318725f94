# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The pfc-deadlock rule: the routing topology of the plan, the homogeneity tests that allow a
representative sub-fabric (two and three tiers), and the cyclic-buffer-dependency analysis of
routing.py under every single-link failure (lossless-math.md §4)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric, Switch
from ansible_collections.roce.fabric.plugins.module_utils.records import Device, Finding
from ansible_collections.roce.fabric.plugins.module_utils.checks import paths as routing, registry
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import rule

REDUCED_LEAVES, REDUCED_SPINES = 4, 3
# Three tiers: pods per plane, leaves per pod, spines per pod, super-spines per group.
REDUCED3 = {"pods": 3, "leaves": 3, "spines": 3, "group": 3}


_v = registry.finding


def topology(fab: Fabric, devices: Dict[str, Device]) -> routing.Topology:
    """Routing topology of the plan: switches, ASNs, up links; leaves own host prefixes."""
    topo = routing.Topology()
    for sw in fab.all_switches():
        topo.add_router(sw.name, sw.asn, origin=sw.role == "leaf")
        if fab.settings["asn"]["allowas_in"]:
            topo.allowas_in.add(sw.name)
    for kind, a, b in fab.links:
        if kind == "fabric" and a.up and b.up:
            topo.add_link(a.switch, b.switch)
    return topo


def _scheme(asns_by_group: List[List[int]]) -> Optional[str]:
    """'shared' when each group has one ASN and groups differ, 'unique' when every switch has its
    own, else None. ``asns_by_group``: [[asn, ...] per group]."""
    flat = [a for group in asns_by_group for a in group]
    if len(set(flat)) == len(flat):
        return "unique"
    firsts = [group[0] for group in asns_by_group]
    if all(len(set(group)) == 1 for group in asns_by_group) and len(set(firsts)) == len(firsts):
        return "shared"
    return None


def homogeneous(fab: Fabric, topo: routing.Topology) -> Optional[Tuple[int, bool]]:
    """Two tiers, every plane alike: every leaf on every spine of its plane with the same
    multiplicity, spine ASNs per one scheme, leaf ASNs distinct and unused by spines: then all
    leaf-spine links are equivalent. Returns (multiplicity, shared) or None."""
    if fab.settings["asn"]["allowas_in"]:
        return None
    if len(set((len(p["spines"]), len(p["leaves"])) for p in fab.pods)) != 1:
        return None
    mults: Set[int] = set()
    schemes: Set[Optional[str]] = set()
    for pod in fab.pods:
        spines = [s.name for s in pod["spines"]]
        for leaf in pod["leaves"]:
            adj = topo.adj[leaf.name]
            if set(adj) != set(spines):
                return None
            mults.update(adj.values())
        spine_asns = [topo.asn[s] for s in spines]
        leaf_asns = [topo.asn[leaf.name] for leaf in pod["leaves"]]
        if len(set(leaf_asns)) != len(leaf_asns) or set(leaf_asns) & set(spine_asns):
            return None
        schemes.add("shared" if len(set(spine_asns)) == 1 else
                    "unique" if len(set(spine_asns)) == len(spine_asns) else None)
    if len(mults) != 1 or len(schemes) != 1 or None in schemes:
        return None
    return mults.pop(), schemes.pop() == "shared"


def homogeneous3(fab: Fabric, topo: routing.Topology) -> Optional[Dict[str, Any]]:
    """Three tiers, every plane alike: pods of equal size, every leaf on every spine of its pod
    with one multiplicity, spine j of every pod on exactly super-spine group j with one
    multiplicity, and per tier one ASN scheme (leaves unique; spines shared per pod or unique;
    super-spines shared or unique), no ASN in two tiers. Returns the shape or None."""
    if fab.settings["asn"]["allowas_in"]:
        return None
    n_sp, n_l = len(fab.pods[0]["spines"]), len(fab.pods[0]["leaves"])
    tops: Dict[int, List[str]] = {}       # plane: its super-spines
    for ss in fab.superspines:
        tops.setdefault(ss.plane, []).append(ss.name)
    m1: Set[int] = set()
    m2: Set[int] = set()
    sizes: Set[int] = set()
    pods_per_plane: Dict[int, int] = {}
    for pod in fab.pods:
        if len(pod["spines"]) != n_sp or len(pod["leaves"]) != n_l:
            return None
        pods_per_plane[pod["plane"]] = pods_per_plane.get(pod["plane"], 0) + 1
        names = set(sw.name for sw in pod["spines"])
        for leaf in pod["leaves"]:
            if set(topo.adj[leaf.name]) != names:
                return None
            m1.update(topo.adj[leaf.name].values())
        plane_tops = tops.get(pod["plane"], [])
        size = len(plane_tops) // n_sp
        sizes.add(size)
        for j, spine in enumerate(pod["spines"]):
            ups = dict((n, c) for n, c in topo.adj[spine.name].items() if n not in names and
                       fab.switches[n].role == "superspine")
            if set(ups) != set(plane_tops[j * size:(j + 1) * size]) or \
                    len(topo.adj[spine.name]) != len(ups) + n_l:
                return None
            m2.update(ups.values())
    if len(m1) != 1 or len(m2) != 1 or len(sizes) != 1 or len(set(pods_per_plane.values())) != 1:
        return None
    for plane, plane_tops in tops.items():
        pods = [pod for pod in fab.pods if pod["plane"] == plane]
        spine_scheme = _scheme([[topo.asn[sw.name] for sw in pod["spines"]] for pod in pods])
        top_scheme = _scheme([[topo.asn[n] for n in plane_tops]])
        top_scheme = "shared" if len(plane_tops) == 1 else top_scheme
        leaves = [topo.asn[sw.name] for pod in pods for sw in pod["leaves"]]
        spines = set(topo.asn[sw.name] for pod in pods for sw in pod["spines"])
        tops_asn = set(topo.asn[n] for n in plane_tops)
        if None in (spine_scheme, top_scheme) or len(set(leaves)) != len(leaves) or \
                set(leaves) & (spines | tops_asn) or spines & tops_asn:
            return None
    return {"pods": pods_per_plane[fab.pods[0]["plane"]], "leaves": n_l, "spines": n_sp,
            "group": sizes.pop(), "m1": m1.pop(), "m2": m2.pop(),
            "spine_shared": spine_scheme == "shared", "top_shared": top_scheme == "shared"}


def reduced_topology(fab: Fabric, topo: routing.Topology, n_leaves: int,
                     n_spines: int) -> routing.Topology:
    """The representative sub-fabric of a homogeneous two-tier fabric (see check_deadlock): the
    first leaves and spines of the first pod, real names and ASNs, all their links."""
    pod = fab.pods[0]
    return _sub_topology(topo, pod["spines"][:n_spines] + pod["leaves"][:n_leaves])


def _sub_topology(topo: routing.Topology, switches: Sequence[Switch]) -> routing.Topology:
    names = set(sw.name for sw in switches)
    out = routing.Topology()
    out.allowas_in = topo.allowas_in
    for sw in switches:
        out.add_router(sw.name, topo.asn[sw.name], origin=sw.role == "leaf")
    for sw in switches:
        for nbr, count in topo.adj[sw.name].items():
            if nbr in names and sw.name < nbr:
                out.add_link(sw.name, nbr, count)
    return out


def reduced_topology3(fab: Fabric, topo: routing.Topology,
                      shape: Dict[str, Any]) -> Tuple[routing.Topology, Dict[str, int]]:
    """The representative three-tier sub-fabric: up to REDUCED3 pods of one plane, leaves and
    spines per pod and super-spines per group, real names and ASNs."""
    n = dict((k, min(REDUCED3[k], shape[k])) for k in REDUCED3)
    plane = fab.pods[0]["plane"]
    pods = [pod for pod in fab.pods if pod["plane"] == plane][:n["pods"]]
    tops = [ss for ss in fab.superspines if ss.plane == plane]
    picked: List[Switch] = []
    for j in range(n["spines"]):
        picked += tops[j * shape["group"]:j * shape["group"] + n["group"]]
    for pod in pods:
        picked += pod["spines"][:n["spines"]] + pod["leaves"][:n["leaves"]]
    return _sub_topology(topo, picked), n


def _ports(fab: Fabric) -> Dict[Tuple[str, str], str]:
    """{(switch, neighbour): first port of switch facing neighbour} over up fabric links."""
    out: Dict[Tuple[str, str], str] = {}
    for kind, a, b in fab.links:
        if kind == "fabric" and a.up and b.up:
            out.setdefault((a.switch, b.switch), a.name)
            out.setdefault((b.switch, a.switch), b.name)
    return out


class _PortsOf(dict):
    """_ports(fab) looked up on demand, for the representative sub-fabric whose findings name a
    handful of ports: a switch's ports are in the order its links were laid, so its first port
    to the neighbour with both ends up is the first such link (no index of every link)."""

    def __init__(self, fab: Fabric) -> None:
        super().__init__()
        self.fab = fab

    def __missing__(self, key: Tuple[str, str]) -> str:
        a, b = key
        sw, other = self.fab.switches.get(a), self.fab.switches.get(b)
        if sw is None or other is None:
            raise KeyError(key)
        for p in sw.ports.values():     # a wired fabric port names its peer's port
            if p.peer == b and p.peer_kind != "host" and p.up and \
                    other.ports[cast(str, p.peer_port)].up:
                self[key] = p.name
                return p.name
        raise KeyError(key)

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default


@rule("pfc-deadlock", "ERROR",
      "no cyclic buffer dependency, with no failure and under every single fabric link "
      "failure; the finding names the failed link's ports and prints the cycle through real "
      "devices and ingress ports")
def check_deadlock(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """No cyclic buffer dependency, with the routing the plan renders, with no failure and
    under every single fabric link failure (the bounce paths of lossless-math.md §4.1(a)).

    Symmetry: in a homogeneous fabric every link of a tier is equivalent under permutations of
    leaves, spines, pods and super-spine groups, and a cycle through one failed link involves a
    bounded number of other switches per tier. The analysis therefore runs on a representative
    sub-fabric of real switches - two tiers: the first min(4, leaves) leaves and min(3, spines)
    spines; three tiers: up to 3 pods of 3 leaves and 3 spines under groups of 3 super-spines -
    failing its first link per tier (planes are separate fabrics of the same shape); a finding
    there names real devices and ports and holds for every equivalent link. Otherwise every
    distinct adjacency of the full fabric is failed in turn."""
    priority = ",".join(str(p) for p in fab.settings["qos"]["lossless_priorities"])
    topo = topology(fab, devices)
    homo = homogeneous(fab, topo) if fab.tiers == 2 else homogeneous3(fab, topo)
    ports = _PortsOf(fab) if homo else _ports(fab)
    if homo and fab.tiers == 2:
        mult = cast("Tuple[int, bool]", homo)[0]      # two tiers: (multiplicity, shared)
        n_leaves = min(REDUCED_LEAVES, len(fab.pods[0]["leaves"]))
        n_spines = min(REDUCED_SPINES, len(fab.pods[0]["spines"]))
        work = reduced_topology(fab, topo, n_leaves, n_spines)
        pod = fab.pods[0]
        pairs = [(pod["spines"][0].name, pod["leaves"][0].name)]
        scope = ("representative sub-fabric (%d leaves, %d spines, %d link(s) per pair; the "
                 "same holds for every leaf-spine link)" % (n_leaves, n_spines, mult))
    elif homo:
        shape = cast("Dict[str, Any]", homo)        # three tiers: homogeneous3's shape
        work, n = reduced_topology3(fab, topo, shape)
        pod = fab.pods[0]
        spine = pod["spines"][0]
        top = next(nbr for nbr in sorted(topo.adj[spine.name])
                   if fab.switches[nbr].role == "superspine")
        pairs = [(spine.name, pod["leaves"][0].name), (top, spine.name)]
        scope = ("representative three-tier sub-fabric (%d pods of %d leaves and %d spines, "
                 "super-spine groups of %d; %d/%d link(s) per leaf-spine/spine-super-spine pair;"
                 " the same holds for every link of a tier)"
                 % (n["pods"], n["leaves"], n["spines"], n["group"], shape["m1"], shape["m2"]))
    else:
        work = topo
        pairs = sorted(set((a.switch, b.switch) for kind, a, b in fab.links
                           if kind == "fabric" and a.up and b.up))
        scope = "full fabric"
    failures = [(a, b, "%s:%s - %s:%s" % (a, ports[(a, b)], b, ports[(b, a)]))
                for a, b in pairs]
    out: List[Finding] = []
    for finding in routing.analyse(work, failures):
        cycle = routing.describe_cycle(finding["cycle"], priority,
                                       lambda router, frm: ports.get((router, frm)))
        first = finding["cycle"][0]
        out.append(_v("pfc-deadlock", "ERROR", first[0],
                      ports.get((first[0], first[1]), finding["scenario"]),
                      "cyclic buffer dependency (%s, %s): %s"
                      % (finding["scenario"], scope, cycle),
                      "keep routing valley-free: one ASN per tier (RFC 7938; per pod for "
                      "three-tier spines), no allowas-in, or more parallel links",
                      cycle=[list(n) for n in finding["cycle"]], scenario=finding["scenario"]))
    return out
