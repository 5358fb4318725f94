"""The failure what-if sweep (checks/failures.py, failure_orbits.py, failure_budget.py) on small
fabrics whose figures are worked out by hand here, and the ECMP row of
failures-nvue-scale.md A.2 (one leaf, 8 spines x 4 links, 32 flows)."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan


def _rows(p, cls, k=None):
    return [r for r in p["failures"]["scenarios"] if r["class"] == cls and
            (k is None or r["k"] == k)]


def _orbit(p, cls, k, words):
    got = [r for r in _rows(p, cls, k) if words in r["orbit"]]
    assert len(got) == 1, [r["orbit"] for r in _rows(p, cls, k)]
    return got[0]


# failures-nvue-scale.md A.2: spines failed -> surviving uplinks, oversubscription, E[max
# flows on a link], ECMP efficiency (32 equal flows, 1:1 design)
REFERENCE = {0: (32, 1.000, 3.533, 0.283), 1: (28, 1.143, 3.730, 0.306),
             2: (24, 1.333, 3.988, 0.334)}


def test_the_reference_ecmp_row_one_leaf_eight_spines_four_links(small_clos):
    # a leaf pair, 32 hosts x 2 NICs (32 host ports of 400G per leaf), 8 spines x 4 links of
    # 400G: 1:1; one QP per connection, so 32 flows per leaf
    p = plan.build_plan(*small_clos(spines=8, pairs=1, hosts=32, nics=2,
                                    links_per_leaf_spine=4,
                                    ecmp={"qps_per_connection": 1}))
    assert p["summary"]["errors"] == 0, p["violations"]
    rows = {0: _rows(p, "none")[0], 1: _rows(p, "spine", 1)[0],
            2: _orbit(p, "spine", 2, "of one plane")}
    for k, (width, over, emax, eff) in REFERENCE.items():
        e = rows[k]["ecmp"]["leaf"]
        assert (e["width"], e["flows"]) == (width, 32), k
        assert rows[k]["oversubscription"] == pytest.approx(over, abs=0.0005), k
        assert e["expected_max_load"] == pytest.approx(emax, abs=0.0005), k
        assert e["efficiency"] == pytest.approx(eff, abs=0.0005), k


def test_link_orbits_count_every_pair_of_links_once(small_clos):
    # 4 leaves x 2 spines x 2 links = 16 links. Two links of one leaf to two spines: 2 x 2 per
    # leaf = 16; two parallel links of one pair: 1 per leaf and spine = 8; two leaves' links
    # to one spine: (8^2 - 4 x 2^2) / 2 = 24 per spine = 48; the rest of C(16, 2) = 120: 48
    p = plan.build_plan(*small_clos(spines=2, pairs=2, hosts=4, nics=2,
                                    links_per_leaf_spine=2))
    got = dict((r["orbit"], r["equivalent"]) for r in _rows(p, "link", 2))
    assert got == {"leaf-spine, same lower switch, two upper switches": 16,
                   "leaf-spine, two parallel links of one pair": 8,
                   "leaf-spine, two lower switches, one upper switch": 48,
                   "leaf-spine, two lower switches, two upper switches": 48}
    assert sum(got.values()) == 16 * 15 // 2
    assert _rows(p, "link", 1)[0]["equivalent"] == 16


def test_spine_losses_by_hand(small_clos):
    # each leaf: 2 host ports x 400G = 800G down; 2 spines x 2 links x 400G = 1,600G up
    p = plan.build_plan(*small_clos(spines=2, pairs=2, hosts=4, nics=2,
                                    links_per_leaf_spine=2))
    assert p["summary"]["errors"] == 0, p["violations"]
    base = _rows(p, "none")[0]
    assert base["oversubscription"] == pytest.approx(0.5)
    one = _rows(p, "spine", 1)
    assert [r["failed"] for r in one] == [["spine1"], ["spine2"]]
    for r in one:                          # 800 / 800
        assert r["oversubscription"] == pytest.approx(1.0)
        assert r["ecmp"]["leaf"]["width"] == 2
        assert r["routing"] == {"unreachable_pairs": 0, "deadlock": False,
                                "pause_radius_hops": 2}
    both = _orbit(p, "spine", 2, "of one plane")
    # no uplink left: every ordered pair of the 4 leaves is cut off, 4 x 3 = 12
    assert both["oversubscription"] is None and both["routing"]["unreachable_pairs"] == 12
    v = p["failures"]["verdict"]["classes"]["spine"]
    assert (v["tolerated_lossless"], v["tolerated_at_ratio"]) == (1, 1)
    # a spine down and a link to the other spine: 800 / (1,600 - 800 - 400) = 2:1, one uplink
    # left; it stands for every (spine, link of the other spine) pair: 16 links x 1
    mixed = _rows(p, "mixed", 2)
    assert len(mixed) == 1 and mixed[0]["oversubscription"] == pytest.approx(2.0)
    assert mixed[0]["ecmp"]["leaf"]["width"] == 1 and mixed[0]["equivalent"] == 16
    assert mixed[0]["failed"][0] in ("spine1", "spine2") and " - " in mixed[0]["failed"][1]
    # N+k at 1:1: 800G over 800G per spine = 1 spine, N+1 = 2, N+2 = 3; each leaf has 2
    assert p["failures"]["verdict"]["n_plus_k"]["spines"] == {
        "have": 2, "n": 1, "n_plus_1": 2, "n_plus_2": 3, "switch": "leaf1a", "ratio": 1.0}


def _budget_plan(small_clos, spines):
    # each leaf: 2 host ports x 400G = 800G; one 400G link to each spine
    return plan.build_plan(*small_clos(spines=spines, pairs=1, hosts=2, nics=2,
                                       links_per_leaf_spine=1,
                                       failure_budget={"spines": 1}))


def test_budget_of_one_spine_fails_on_two_spines_and_passes_on_four(small_clos):
    two = _budget_plan(small_clos, 2)          # 800 / 400 = 2:1 with a spine down
    found = [v for v in two["violations"] if v["rule"] == "failure-budget"]
    assert len(found) == 1 and found[0]["severity"] == "ERROR"
    assert "leaf1a at 2:1 (limit 1:1)" in found[0]["message"], found[0]["message"]
    assert found[0]["numbers"]["tolerated"] == 0
    assert "N+1 needs 3 spines per leaf" in found[0]["hint"], found[0]["hint"]
    four = _budget_plan(small_clos, 4)         # 800 / 1,200 with a spine down
    assert not [v for v in four["violations"] if v["rule"] == "failure-budget"]
    assert four["summary"]["errors"] == 0, four["violations"]
    one = _rows(four, "spine", 1)[0]
    assert one["oversubscription"] == pytest.approx(800 / 1200.0, abs=0.001)
    assert four["failures"]["verdict"]["classes"]["spine"]["tolerated_at_ratio"] == 2


def test_no_budget_no_finding_but_the_sweep_is_in_the_plan(example):
    p = plan.build_plan(*example)
    assert not [v for v in p["violations"] if v["rule"] == "failure-budget"]
    # the example: 2 spines of 8 links each per leaf; a spine down leaves a leaf at 2:1
    assert [r["oversubscription"] for r in _rows(p, "spine", 1)] == [2.0, 2.0]
    assert len(_rows(p, "leaf", 1)) == 4


def test_a_pair_of_leaves_cuts_off_the_hosts_wired_only_to_it(small_clos):
    p = plan.build_plan(*small_clos(spines=2, pairs=2, hosts=4, nics=2))
    nics = dict((name, set(n["leaf"] for n in d["nics"])) for name, d in p["devices"].items()
                if d["kind"] == "host")
    pair = _orbit(p, "leaf", 2, "both leaves of a pair")
    alone = [h for h, leaves in nics.items() if leaves <= set(pair["failed"])]
    assert alone and pair["hosts_isolated"] == len(alone)
    assert p["failures"]["verdict"]["classes"]["leaf"]["tolerated_lossless"] == 1
    for r in _rows(p, "leaf", 1):           # one leaf of a pair: every host keeps a NIC
        assert r["hosts_isolated"] == 0 and r["hosts_degraded"] > 0


def test_valley_free_asns_keep_every_scenario_acyclic_unique_ones_bounce(small_clos):
    shared = plan.build_plan(*small_clos(spines=3, pairs=2, hosts=4, nics=2))
    assert all(not r["routing"]["deadlock"] for r in shared["failures"]["scenarios"])
    # one ASN per spine: a spine that lost its link to a leaf reaches it through another leaf
    # (a bounce); the pfc-deadlock rule (paths.analyse) and the sweep (failure_paths) agree
    unique = plan.build_plan(*small_clos(spines=3, pairs=2, hosts=4, nics=2,
                                         asn={"spine_scheme": "unique", "leaf_first": 65201}))
    rule = [v for v in unique["violations"] if v["rule"] == "pfc-deadlock"]
    link = _rows(unique, "link", 1)[0]
    assert rule and link["routing"]["deadlock"] and link["routing"]["pause_radius_hops"] is None
    assert unique["failures"]["cycles"]
    assert not _rows(unique, "spine", 1)[0]["routing"]["deadlock"]


def test_three_tiers_and_planes_from_the_generator():
    from ansible_collections.roce.fabric.plugins.module_utils.design import generate
    groups, hostvars = generate.clos(16384, 64, 2, platforms="alternate")[:2]
    p = plan.build_plan(groups, hostvars)
    got = p["failures"]
    assert got["scope"].startswith("representative three-tier")
    spines = [d for d in p["devices"].values() if d["kind"] == "switch" and d["role"] == "spine"]
    one = _rows(p, "spine", 1)
    assert len(one) == len(spines)          # every spine is a scenario of its own
    for r in one:                           # 32 uplinks of 400G, one link per spine: 32/31
        assert r["oversubscription"] == pytest.approx(32 / 31.0, abs=0.001)
    tops = _rows(p, "superspine", 1)
    assert tops and all(r["oversubscription_spine"] > 1 for r in tops)
    assert len(_rows(p, "plane", 1)) == 2 and len(_rows(p, "pod", 1)) >= 2
    base = _rows(p, "none")[0]
    assert base["routing"]["pause_radius_hops"] == 4       # leaf-spine-super-spine-spine-leaf


def test_the_published_bounce_deadlock_needs_both_parallel_links_down(small_clos):
    # Hu et al. HotNets'16 / Tagger: one ASN per spine; 2 links per leaf-spine pair absorb a
    # single failure (pfc-deadlock passes). With both of leaf1a's links to spine1 down, spine1
    # accepts leaf1a's prefix through leaf1b (its path carries no spine1 ASN) and sends it down
    # to leaf1b, which - still on its old FIB in the transient - sends it back up to spine1:
    # spine1's ingress from leaf1b waits on leaf1b's ingress from spine1 and back.
    p = plan.build_plan(*small_clos(spines=2, pairs=1, hosts=2, nics=2, links_per_leaf_spine=2,
                                    asn={"spine_scheme": "unique", "leaf_first": 65201}))
    assert p["summary"]["errors"] == 0, p["violations"]
    assert all(not r["routing"]["deadlock"] for r in _rows(p, "link", 1))
    both = _orbit(p, "link", 2, "two parallel links of one pair")
    assert both["routing"]["deadlock"] and both["routing"]["pause_radius_hops"] is None
    assert sorted(map(tuple, both["routing"]["cycle"])) == [("leaf1b", "spine1"),
                                                            ("spine1", "leaf1b")]
    assert [c["orbit"] for c in p["failures"]["cycles"]] == [both["orbit"]]
    link = p["failures"]["verdict"]["classes"]["link"]
    assert link["tolerated_lossless"] == 1 and "deadlock" in link["broken_lossless"]["why"]


def test_the_examples_spine_scenarios_agree_with_its_cabling_plan():
    # Read back from the rendered golden report, not the plan: for each spine of
    # fabric/failures.json, the worst leaf of fabric/cabling.csv after that spine's cables go
    import csv
    import json
    import os
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "golden", "example",
                        "fabric")
    with open(os.path.join(root, "cabling.csv")) as handle:
        cables = [row for row in csv.DictReader(handle) if row["state"] == "up"]
    with open(os.path.join(root, "failures.json")) as handle:
        rows = json.load(handle)["scenarios"]
    leaves = set(c["device"] for c in cables if c["device"].startswith("leaf"))
    spines = set(c["peer"] for c in cables if c["peer"].startswith("spine"))  # one row a cable
    hosts = dict((leaf, sum(int(c["speed_gbps"]) for c in cables if c["device"] == leaf and
                            c["peer"].startswith("gpu"))) for leaf in leaves)

    def up(leaf, without):
        return sum(int(c["speed_gbps"]) for c in cables if c["device"] == leaf and
                   c["peer"] in spines and c["peer"] != without)
    spine_rows = [r for r in rows if r["class"] == "spine" and r["k"] == 1]
    assert sorted(r["failed"][0] for r in spine_rows) == sorted(spines)
    for r in spine_rows:
        worst = max(hosts[leaf] / float(up(leaf, r["failed"][0])) for leaf in leaves)
        assert r["oversubscription"] == pytest.approx(worst, abs=0.0005), r["failed"]
