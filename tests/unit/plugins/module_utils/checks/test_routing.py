"""Deadlock golden shapes of lossless-math.md §4.2 on the routing the plan renders."""
from ansible_collections.roce.fabric.plugins.module_utils.checks import paths as routing


def clos(leaves, spines, mult=1, unique_spine_asn=False):
    topo = routing.Topology()
    for s in range(spines):
        topo.add_router("s%d" % s, 65100 + (s if unique_spine_asn else 0))
    for leaf in range(leaves):
        topo.add_router("l%d" % leaf, 65200 + leaf, origin=True)
        for s in range(spines):
            topo.add_link("l%d" % leaf, "s%d" % s, mult)
    return topo


def test_bgp_shortest_paths_in_clos():
    fib = routing.bgp_fib(clos(2, 2), "l0")
    assert fib["l1"] == {"s0", "s1"}          # leaf ECMPs over both spines
    assert fib["s0"] == {"l0"} and fib["s1"] == {"l0"}


def test_two_by_two_clos_is_acyclic():
    topo = clos(2, 2)
    assert routing.analyse(topo, []) == []


def test_shared_spine_asn_never_bounces():
    # RFC 7938: spine s0 rejects l1's path (it carries the spines' ASN), so no re-route.
    topo = clos(2, 2)
    failed = topo.without_link("s0", "l0")
    assert "s0" not in routing.bgp_fib(failed, "l0")
    assert routing.analyse(topo, [("s0", "l0")]) == []


def test_bounce_after_link_failure_is_a_cycle():
    # One ASN per spine: s0 loses its only link to l0 and re-routes through l1 (a bounce);
    # while l1 still forwards on its old FIB the packets return to s0: a cyclic dependency.
    topo = clos(2, 2, unique_spine_asn=True)
    assert routing.bgp_fib(topo.without_link("s0", "l0"), "l0")["s0"] == {"l1"}
    findings = routing.analyse(topo, [("s0", "l0")])
    assert len(findings) == 1
    assert findings[0]["scenario"] == "link s0-l0 down"
    cycle = findings[0]["cycle"]
    assert set(cycle) == {("s0", "l1"), ("l1", "s0")}
    text = routing.describe_cycle(cycle, 3)
    assert "s0 (in from l1, prio 3)" in text and "l1 (in from s0, prio 3)" in text


def test_parallel_links_absorb_a_single_failure():
    topo = clos(2, 2, mult=2, unique_spine_asn=True)
    assert routing.analyse(topo, [("s0", "l0")]) == []


def _ring(n):
    topo = routing.Topology()
    for i in range(n):
        topo.add_router("r%d" % i, 65000 + i, origin=True)
    for i in range(n):
        topo.add_link("r%d" % i, "r%d" % ((i + 1) % n))
    return topo


def test_ring_of_three_with_flows_around_the_ring_is_a_cycle():
    # §4.2 ring of 3 (HU16): each flow takes two hops clockwise.
    fibs = dict(("r%d" % d, dict(("r%d" % r, {"r%d" % ((r + 1) % 3)})
                                 for r in range(3) if r != d)) for d in range(3))
    cycle = routing.find_cycle(routing.cbd_edges(fibs, ["r0", "r1", "r2"]))
    assert sorted(cycle) == [("r0", "r2"), ("r1", "r0"), ("r2", "r1")]


def test_ring_with_shortest_path_bgp():
    # With shortest paths a 3-ring only uses direct links (no transit, no dependency); from 4
    # switches on, two-hop ECMP paths close the cycle.
    assert routing.analyse(_ring(3), []) == []
    findings = routing.analyse(_ring(4), [])
    assert len(findings[0]["cycle"]) == 4


def test_find_cycle_self_loop_and_dag():
    assert routing.find_cycle({("a", "b"): {("a", "b")}}) == [("a", "b")]
    assert routing.find_cycle({1: {2}, 2: {3}, 3: set()}) is None
