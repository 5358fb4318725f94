"""Every check: silent on the clean example fabric, fires on a seeded fault (rule + place)."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan


def run(groups, hostvars):
    return plan.build_plan(groups, hostvars)


def found(result, rule, severity=None, device=None, location=None):
    return [v for v in result["violations"] if v["rule"] == rule
            and (severity is None or v["severity"] == severity)
            and (device is None or v["device"] == device)
            and (location is None or location in v["location"])]


def test_clean_example_has_no_findings(example, proven):
    """Only the two WARNs of EOS's unsourced default hash (conftest.unproven_defaults)."""
    result = run(*example)
    assert proven(result["violations"]) == []
    assert [(v["rule"], v["device"]) for v in result["violations"]] == [
        ("hash-entropy", "spine1"), ("hash-polarization", "leaf2a")]
    assert plan.format_report(result)[0].startswith("0 error(s), 2 warning(s): 2 spines, "
                                                    "4 leaves (2 pairs), 8 hosts, 64 NICs, "
                                                    "128 links")


def _fabric(hostvars):
    return hostvars["spine1"]["roce_fabric"]


def test_ecn_kmax_above_pause_point(example):
    groups, hv = example
    hv["leaf2a"]["roce_lossless"]["ecn"] = {"kmin_bytes": 600000, "kmax_bytes": 10 ** 9}
    result = run(groups, hv)
    hits = found(result, "ecn-before-pfc", "ERROR", "leaf2a", "Ethernet")
    assert hits and hits[0]["numbers"]["kmax_bytes"] == 10 ** 9
    assert hits[0]["numbers"]["pfc_trigger_bytes"] < 10 ** 9


def test_ecn_kmax_above_eighty_percent_warns(example):
    groups, hv = example
    trigger = run(groups, hv)["devices"]["leaf2a"]["buffer"]["trigger"]["trigger_one_pg_bytes"]
    hv["leaf2a"]["roce_lossless"]["ecn"] = {"kmin_bytes": 600000, "kmax_bytes": int(0.9 * trigger)}
    assert found(run(groups, hv), "ecn-before-pfc", "WARN", "leaf2a")


@pytest.mark.parametrize("offset,severity", [(0, "ERROR"), (10000, "WARN")])
def test_xon_hysteresis(example, offset, severity):
    groups, hv = example
    hv["spine1"]["roce_lossless"]["xon_offset_bytes"] = offset
    hits = found(run(groups, hv), "xon-below-xoff", severity, "spine1")
    assert hits and hits[0]["numbers"]["xon_bytes"] == \
        hits[0]["numbers"]["xoff_bytes"] - offset


def test_headroom_override_below_flight(example):
    groups, hv = example
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet8": {"headroom_bytes": 20000}}
    hits = found(run(groups, hv), "headroom-covers-flight", "ERROR", "leaf1a", "Ethernet8")
    assert len(hits) == 1
    assert hits[0]["numbers"]["headroom_bytes"] == 20000
    assert hits[0]["numbers"]["required_bytes"] > 20000


def test_a_pinned_headroom_is_what_the_switch_gets(example):
    """The check credits the pinned xoff only because the rendered profile carries it: its own
    profile (the other ports of that speed and cable keep theirs), the PG reserving it."""
    from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import config_db as sonic
    groups, hv = example
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet8": {"headroom_bytes": 400000}}
    result = run(groups, hv)
    assert not found(result, "headroom-covers-flight")
    dev = result["devices"]["leaf1a"]
    db = sonic.config_db(dev)
    pinned = db["BUFFER_PROFILE"][db["BUFFER_PG"]["Ethernet8|3"]["profile"]]
    other = db["BUFFER_PROFILE"][db["BUFFER_PG"]["Ethernet4|3"]["profile"]]
    assert pinned["xoff"] == "400000" and other["xoff"] != "400000"
    assert int(pinned["size"]) == int(pinned["xon"]) + 400000     # Spectrum reserves xon + xoff
    ports = dict((p["name"], p) for p in dev["ports"])
    assert ports["Ethernet8"]["lossless"]["headroom_configured_bytes"] == 400000


def test_headroom_follows_that_very_link(example, proven):
    # A longer cable on one port raises that port's headroom only.
    groups, hv = example
    hv["leaf2a"]["roce_link_overrides"] = {"Ethernet9/1": {"cable_m": 150}}   # first uplink
    result = run(groups, hv)
    ports = dict((p["name"], p) for p in result["devices"]["leaf2a"]["ports"])
    long_, short = ports["Ethernet9/1"]["lossless"], ports["Ethernet9/5"]["lossless"]
    assert long_["headroom"]["xoff_bytes"] > short["headroom"]["xoff_bytes"]
    assert proven(result["violations"]) == []


def test_buffer_budget(example):
    groups, hv = example
    carve = run(groups, hv)["devices"]["leaf2b"]["buffer"]["carve"]
    hv["leaf2b"]["roce_asic_overrides"] = {"total_buffer_bytes": 5000000}
    hits = found(run(groups, hv), "buffer-budget", "ERROR", "leaf2b")
    assert hits and hits[0]["numbers"]["shared_pool_bytes"] <= 0
    # it says by how much: headroom pool + PG minimums + lossy reservations - 5 MB (and 1 B, a
    # pool must hold something)
    assert hits[0]["numbers"]["overdrawn_bytes"] == sum(item[1] for item in carve) - 5000000 + 1


def test_shared_headroom_pool_too_small(example):
    # Tomahawk 5 draws xoff from its shared headroom pool: 32 ports x ~214 KB > 3 MB.
    groups, hv = example
    hv["leaf2a"]["roce_asic_overrides"] = {"shared_headroom_pool_bytes": 3000000}
    hits = found(run(groups, hv), "buffer-budget", "ERROR", "leaf2a", "shared headroom pool")
    assert hits and hits[0]["numbers"]["required_bytes"] > 3000000


def test_pfc_priorities_differ_across_a_link(example):
    groups, hv = example
    hv["leaf1b"]["roce_qos"] = {"pfc_priorities": [3, 4]}
    result = run(groups, hv)
    assert found(result, "pfc-match", "ERROR", "spine1", "leaf1b")     # fabric links
    assert found(result, "pfc-match", "ERROR", "leaf1b", "gpu")        # host links
    assert found(result, "pfc-match", "ERROR", "leaf1b", "qos")        # PFC beyond the lossless
    assert not found(result, "lossless-class-match")


def test_host_marks_roce_on_another_dscp(example):
    groups, hv = example
    hv["gpu3"]["roce_nic_overrides"] = {0: {"qos": {"roce_dscp": 24}}}
    hits = found(run(groups, hv), "lossless-class-match", "ERROR", "leaf1a", "gpu3:rdma0")
    assert hits and hits[0]["numbers"]["remote"][1] == 24


def test_switch_maps_roce_dscp_to_lossy_tc(example):
    groups, hv = example
    hv["spine2"]["roce_qos"] = {"dscp_to_tc": {26: 1}}
    assert found(run(groups, hv), "lossless-class-match", "ERROR", "spine2", "qos")


def test_cnp_not_strict(example):
    groups, hv = example
    hv["spine1"]["roce_qos"] = {"cnp_scheduler": "dwrr"}
    hits = found(run(groups, hv), "cnp-strict-lossy", "ERROR", "spine1")
    assert hits and hits[0]["numbers"]["cnp_tc"] == 6


def test_cnp_on_lossless_class(example):
    groups, hv = example
    for name in ("spine1", "spine2", "leaf1a", "leaf1b", "leaf2a", "leaf2b"):
        hv[name]["roce_qos"] = {"cnp_dscp": 26}
    assert found(run(groups, hv), "cnp-strict-lossy", "ERROR", "leaf1a")


def test_mtu_chain_host_above_leaf(example):
    groups, hv = example
    hv["leaf2b"]["roce_mtu"] = 8000          # gpu8's NIC 7 (rail 7) sits on leaf2b
    hits = found(run(groups, hv), "mtu-chain", "ERROR", "gpu8", "rdma7")
    assert hits and hits[0]["numbers"] == {"nic_mtu": 9000, "leaf_mtu": 8000}


def test_mtu_differs_between_tiers(example):
    groups, hv = example
    hv["spine2"]["roce_mtu"] = 9000
    hits = found(run(groups, hv), "mtu-chain", "ERROR", "spine2")
    assert hits and hits[0]["numbers"] == {"local": 9000, "remote": 9214}


def test_pfc_watchdog_poll_longer_than_detection(example):
    groups, hv = example
    hv["leaf2b"]["roce_pfc_watchdog"] = {"poll_ms": 500}
    hits = found(run(groups, hv), "pfc-watchdog", "ERROR", "leaf2b")
    assert hits and hits[0]["numbers"]["poll_ms"] == 500


def test_oversubscription(example):
    groups, hv = example
    _fabric(hv)["links_per_leaf_spine"] = 4        # 16 x 400G down, 8 x 400G up
    hits = found(run(groups, hv), "oversubscription", "ERROR", "leaf1a")
    assert hits and hits[0]["numbers"]["ratio"] == 2.0
    # one finding for the one cause, naming every leaf, with the number that meets 1:1
    assert len(found(run(groups, hv), "oversubscription")) == 1
    assert hits[0]["numbers"]["devices"] == ["leaf1a", "leaf1b", "leaf2a", "leaf2b"]
    assert hits[0]["message"].startswith("4 leaves (leaf1a, leaf1b, leaf2a, leaf2b): ")
    assert hits[0]["hint"].startswith("set roce_fabric.links_per_leaf_spine: 8 (8 links x 2 "
                                      "spines x 400G = 6400 G up for 6400 G down)")


def test_ecmp_width_above_maximum_paths(example):
    groups, hv = example
    _fabric(hv)["routing"] = {"maximum_paths": 8}
    hits = found(run(groups, hv), "ecmp-width", "ERROR", "leaf1a")
    assert hits and hits[0]["numbers"] == {"width": 16, "maximum_paths": 8}


def test_ecmp_efficiency_without_adaptive_routing(example):
    """Two rail groups of two leaves: rail r sits on two leaves, so same-rail traffic crosses
    the spines. The SONiC pair renders no adaptive routing although the fabric asks for it
    (warned); the EOS pair renders DLB (silent)."""
    groups, hv = example
    _fabric(hv)["rail_group_leaves"] = 2
    result = run(groups, hv)
    hits = found(result, "ecmp-efficiency", "WARN", "leaf1a")
    # 4 hosts x 4 NICs = 16 NICs x 4 QPs = 64 flows on 16 uplinks (exact balls-into-bins)
    assert hits and (hits[0]["numbers"]["flows"], hits[0]["numbers"]["links"]) == (64, 16)
    assert hits[0]["numbers"]["efficiency"] < 0.8
    assert "requested, but sonic renders none" in hits[0]["message"]
    assert not found(result, "ecmp-efficiency", device="leaf2a")
    _fabric(hv)["ecmp"]["adaptive_routing"] = False
    assert found(run(groups, hv), "ecmp-efficiency", "WARN", "leaf2a")


def test_one_rail_group_keeps_rail_traffic_off_the_uplinks(example):
    """The example is one rail group: every rail's NICs sit on one leaf, so its uplinks carry
    no same-rail traffic and need no adaptive routing."""
    groups, hv = example
    _fabric(hv)["ecmp"]["adaptive_routing"] = False
    assert not found(run(groups, hv), "ecmp-efficiency")


def test_hash_without_udp_source_port(example):
    groups, hv = example
    hv["leaf1a"]["roce_ecmp"] = {"hash_fields": ["src_ip", "dst_ip"]}
    assert found(run(groups, hv), "hash-entropy", "ERROR", "leaf1a")


def test_same_seed_on_both_tiers(example):
    """EOS renders no seed (no primary source for `ip load-sharing trident <seed>`): the EOS
    spines and the EOS leaf pair (both Tomahawk 5) keep one default, whatever seeds the plan
    asks, and the warning names both tiers; the requested seed is listed as not rendered."""
    groups, hv = example
    _fabric(hv)["ecmp"]["seeds"] = {"leaf": 4, "spine": 5}
    result = run(groups, hv)
    hits = found(result, "hash-polarization", "WARN", "leaf2a", "ecmp seed default")
    assert hits and hits[0]["numbers"]["roles"] == ["leaf", "spine"]
    assert "spine1" in hits[0]["message"]
    spine = result["devices"]["spine1"]["ecmp"]["rendered"]
    assert spine["seed"] is None and spine["hash_fields"] == [] and spine["default_hash"]
    assert any(note.startswith("hash seed 5: not rendered") for note in spine["not_rendered"])


def test_sonic_seed_comes_from_the_switch_type(example):
    """SONiC has no seed in CONFIG_DB: the rendered seed is its type's (ToRRouter 0), whatever
    the plan asks, and the device doc says the requested one is not rendered."""
    groups, hv = example
    dev = run(groups, hv)["devices"]["leaf1a"]
    assert dev["ecmp"]["rendered"]["seed"] == 0
    assert "switch.json.j2" in dev["ecmp"]["rendered"]["seed_source"]
    assert any("hash seed 1" in note for note in dev["ecmp"]["rendered"]["not_rendered"])


def _incast_bound(dev):
    """LM §3.2, computed here: alpha B_s / (n (1 + alpha P_l)) over the switch's lossless
    ports."""
    trig = dev["buffer"]["trigger"]
    n = sum(1 for p in dev["ports"] if p["lossless"])
    p_l = len(dev["qos"]["lossless_priorities"])
    return trig["alpha"] * trig["shared_pool_bytes"] / (n * (1 + trig["alpha"] * p_l))


def test_ecn_kmin_above_the_incast_pause_point(example):
    groups, hv = example
    bound = _incast_bound(run(groups, hv)["devices"]["spine1"])
    hv["spine1"]["roce_lossless"]["ecn"] = {"kmin_bytes": int(bound) + 1000,
                                            "kmax_bytes": int(bound) + 200000}
    hits = found(run(groups, hv), "ecn-before-pfc-incast", "ERROR", "spine1", "Ethernet1/1")
    assert hits and hits[0]["numbers"]["incast_pause_bytes"] == int(bound)
    hv["spine1"]["roce_lossless"]["ecn"]["kmin_bytes"] = int(bound) // 2
    assert not found(run(groups, hv), "ecn-before-pfc-incast")


def test_default_kmin_is_clamped_under_the_incast_pause_point(example):
    """32 ports of 400G at 1.5 KB/Gb/s would start marking at 600 KB; on a small buffer the
    default Kmin comes down to 0.8 x the incast bound instead."""
    groups, hv = example
    hv["spine2"]["roce_asic_overrides"] = {"total_buffer_bytes": 40000000}
    result = run(groups, hv)
    dev = result["devices"]["spine2"]
    kmin = dev["ports"][0]["lossless"]["ecn"]["kmin_bytes"]
    assert kmin < 600000 and kmin == int(0.8 * int(_incast_bound(dev)))
    assert not found(result, "ecn-before-pfc-incast")


def test_deadlock_unique_spine_asns_single_links(small_clos):
    groups, hv = small_clos(asn={"spine_scheme": "unique", "leaf_first": 65201})
    result = run(groups, hv)
    hits = found(result, "pfc-deadlock", "ERROR")
    assert hits, result["violations"]
    # Real devices and ports: spine1's first port meets leaf1a's first uplink (after its two
    # host ports, Ethernet0 and Ethernet4: two 400G ports per cage).
    assert hits[0]["device"] in ("spine1", "spine2", "leaf1a", "leaf1b")
    assert hits[0]["location"].startswith("Ethernet")
    assert "link spine1:Ethernet0 - leaf1a:Ethernet8 down" in hits[0]["message"]
    assert "representative sub-fabric (2 leaves, 2 spines" in hits[0]["message"]
    assert "in from spine" in hits[0]["message"] and " on Ethernet" in hits[0]["message"]


def test_deadlock_free_with_shared_spine_asn(small_clos):
    groups, hv = small_clos()
    assert run(groups, hv)["violations"] == []


def test_deadlock_on_irregular_fabric_uses_full_analysis(small_clos):
    groups, hv = small_clos(asn={"spine_scheme": "unique", "leaf_first": 65201},
                            links_per_leaf_spine=2)
    # Two parallel links absorb any single failure ...
    assert not found(run(groups, hv), "pfc-deadlock")
    # ... unless one of them is already down: then that pair hangs on one link.
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet8": {"state": "down"}}   # 1st to spine1
    hits = found(run(groups, hv), "pfc-deadlock", "ERROR")
    assert hits and "full fabric" in hits[0]["message"]
    # the pair's remaining link: leaf1a's second uplink to spine1, spine1's second port
    assert "link spine1:Ethernet4 - leaf1a:Ethernet12 down" in hits[0]["message"]


def test_every_rule_id_is_known_and_documented():
    from ansible_collections.roce.fabric.plugins.module_utils.checks import run as checks
    import os
    doc = open(os.path.join(os.path.dirname(checks.__file__), "..", "..", "..", "docs",
                            "fabric-and-checks.md")).read()
    for rule in checks.RULE_IDS:
        assert "`%s`" % rule in doc, rule


@pytest.mark.parametrize("down", [None, "Ethernet8", "Ethernet12"])
def test_deadlock_port_names_on_demand_equal_the_link_index(small_clos, down):
    """The representative sub-fabric names ports on demand (deadlock._PortsOf) instead of
    indexing every fabric link (deadlock._ports): both give every (switch, neighbour) pair the
    same first port with both ends up, and neither names a pair without one."""
    from ansible_collections.roce.fabric.plugins.module_utils.checks import deadlock
    from ansible_collections.roce.fabric.plugins.module_utils.model import fabric
    groups, hv = small_clos(links_per_leaf_spine=2)
    if down:
        hv["leaf1a"]["roce_link_overrides"] = {down: {"state": "down"}}
    fab = fabric.build_fabric(groups, hv)
    index, lazy = deadlock._ports(fab), deadlock._PortsOf(fab)
    assert index and all(lazy[key] == name for key, name in index.items())
    pairs = [(a, b) for a in fab.switches for b in fab.switches if a != b]
    assert [k for k in pairs if lazy.get(k) is not None] == [k for k in pairs if k in index]
