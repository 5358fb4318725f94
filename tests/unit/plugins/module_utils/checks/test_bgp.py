"""BGP timers, BFD and route limits: counted by hand on the bundled example, rendered on both
platforms, the two rules fire on a modified plan, the change classes call them hitless."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import RULES
from ansible_collections.roce.fabric.plugins.module_utils.plan import bgp_limits, build
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes as classes
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import changes as eos_changes
from ansible_collections.roce.fabric.plugins.module_utils.render.eos.cli import eos_config
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    changes as sonic_changes)
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic.frr import frr_bgpd

# By hand, inventories/example: 2 spines + 4 leaves = 6 loopbacks (/32); 8 hosts x 8 NICs = 64
# NICs, each on a leaf port with its own /31 (host_p2p), 64 host /31s. Fabric /31s are not
# announced. spine1 sends leaf1a at most one path per prefix of the fabric: 6 + 64 = 70 (leaf1a's
# own 1 + 16 included: a peer may send them back, EOS counts routes received). Limit:
# max(ceil(70 x 1.5) = 105, 70 + 1000) = 1070.
EXAMPLE_ROUTES = 6 + 8 * 8
EXAMPLE_LIMIT = 1070


def _devices(example):
    return build.build_intent(*example)


def test_leaf1a_learns_70_routes_from_spine1_and_allows_1070(example):
    _fab, devices = _devices(example)
    from_spine1 = [n for n in devices["leaf1a"]["bgp"]["neighbors"] if n["name"] == "spine1"]
    assert from_spine1 and all(n["routes"] == EXAMPLE_ROUTES for n in from_spine1)
    assert all(n["max_routes"] == EXAMPLE_LIMIT for n in from_spine1)


def test_margin_is_half_again_with_a_floor_of_1000():
    assert bgp_limits.route_limit(70) == 1070            # floor: 70 + 1000
    assert bgp_limits.route_limit(2001) == 3002          # ceil(3001.5)
    assert bgp_limits.route_limit(20000) == 30000


def test_both_renders_carry_timers_bfd_and_the_limit(example):
    _fab, devices = _devices(example)
    frr = frr_bgpd(devices["leaf1a"])                  # SONiC leaf: spine1 at 198.18.8.0
    for line in (" neighbor 198.18.8.0 timers 3 9", " neighbor 198.18.8.0 bfd",
                 "  neighbor 198.18.8.0 maximum-prefix 1070"):
        assert line in frr.splitlines(), line
    eos = eos_config(devices["leaf2a"]).splitlines()   # EOS leaf: spine1 at 198.18.8.64
    for line in ("   neighbor 198.18.8.64 timers 3 9", "   neighbor 198.18.8.64 bfd",
                 "   neighbor 198.18.8.64 maximum-routes 1070"):
        assert line in eos, line


def test_bfd_off_renders_no_bfd_line(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"].setdefault("routing", {})["bfd"] = False
    _fab, devices = build.build_intent(groups, hv)
    assert " bfd" not in frr_bgpd(devices["leaf1a"])
    assert " bfd\n" not in eos_config(devices["leaf2a"])


def test_clean_example_passes_both_rules(example):
    fab, devices = _devices(example)
    assert RULES["bgp-timers"].check(fab, devices) == []
    assert RULES["bgp-route-limit"].check(fab, devices) == []


@pytest.mark.parametrize("field,value", [("hold_s", 30), ("keepalive_s", 10), ("bfd", False)])
def test_timers_rule_names_both_ends_when_one_end_differs(example, field, value):
    fab, devices = _devices(example)
    devices["spine1"]["bgp"][field] = value
    hits = RULES["bgp-timers"].check(fab, devices)
    # spine1 has sessions to each of the 4 leaves, 8 links each (16 uplinks per leaf, 2 spines)
    assert len(hits) == 4 * 8 and all(v["severity"] == "ERROR" for v in hits)
    hit = [v for v in hits if "leaf1a" in v["message"]][0]
    assert "spine1:" in hit["message"] and "3/9/on" in hit["message"]
    assert hit["numbers"]["peer_" + field] == value or hit["numbers"][field] == value


def test_route_limit_rule_fires_below_the_count_and_not_at_it(example):
    fab, devices = _devices(example)
    nbr = devices["leaf1a"]["bgp"]["neighbors"][0]
    nbr["max_routes"] = EXAMPLE_ROUTES
    assert RULES["bgp-route-limit"].check(fab, devices) == []
    nbr["max_routes"] = EXAMPLE_ROUTES - 1
    hits = RULES["bgp-route-limit"].check(fab, devices)
    assert [(v["device"], v["location"], v["numbers"]) for v in hits] == [
        ("leaf1a", nbr["port"], {"routes": 70, "max_routes": 69})]


def test_hold_below_three_keepalives_is_refused(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"].setdefault("routing", {}).update(keepalive_s=3, hold_s=8)
    with pytest.raises(errors.RoceInputError) as exc:
        plan.build_plan(groups, hv)
    assert exc.value.field == "roce_fabric.routing.hold_s" and exc.value.value == 8
    assert "at least 3 x" in exc.value.allowed and "(9)" in exc.value.allowed


EOS = "router bgp 1\n   neighbor 1.1.1.1 remote-as 2\n   neighbor 1.1.1.1 %s\n"


@pytest.mark.parametrize("old,new,cls", [
    ("maximum-routes 1070", "maximum-routes 2000", classes.HITLESS),
    ("timers 3 9", "timers 5 15", classes.HITLESS),
    ("bfd", "timers 3 9", classes.HITLESS),
    ("bfd", "route-map X in", classes.TRAFFIC),
])
def test_session_parameters_change_hitless_on_both_platforms(old, new, cls):
    eos = eos_changes.eos_parts(EOS % old, EOS % new)
    assert [(p["part"], p["class"]) for p in eos] == [("router bgp", cls)]
    frr_old, frr_new = (EOS % old).replace("   ", " "), (EOS % new).replace("   ", " ")
    assert sonic_changes.frr_parts(frr_old, frr_new)[0]["class"] == cls


# ---------------------------------------------- routing.advertise aggregate (model/numbering.py)

def _aggregating(example, pool=None):
    groups, hv = example
    for host in hv.values():
        if "roce_fabric" in host:
            host["roce_fabric"].setdefault("routing", {})["advertise"] = "aggregate"
            if pool:
                host["roce_fabric"]["addressing"]["host_p2p"] = pool
    return groups, hv


def test_each_leaf_aggregates_its_host_31s_in_one_aligned_block(example):
    """By hand: 64 NICs over 4 leaves, 16 host /31s (32 addresses) per leaf: a /27 each, four
    of them side by side from the pool's start 198.18.64.0 (ipaddress, not the plan's code,
    checks that every /31 of a leaf is inside its block and the blocks are apart)."""
    import ipaddress
    _fab, devices = build.build_intent(*_aggregating(example))
    blocks = {}
    for name in ("leaf1a", "leaf1b", "leaf2a", "leaf2b"):
        block = ipaddress.ip_network(devices[name]["bgp"]["aggregate"])
        assert block.prefixlen == 27
        mine = [ipaddress.ip_interface(p["address"]).network for p in devices[name]["ports"]
                if p["peer_kind"] == "host"]
        assert len(mine) == 16 and all(n.subnet_of(block) for n in mine)
        blocks[name] = block
    assert sorted(blocks.values()) == list(ipaddress.ip_network("198.18.64.0/25").subnets(
        new_prefix=27))
    assert devices["spine1"]["bgp"]["aggregate"] is None


def test_aggregates_cut_every_neighbours_routes_to_loopbacks_and_blocks(example):
    """By hand: 6 loopbacks + 4 leaf aggregates = 10 routes per neighbour (was 70); limit
    max(ceil(15), 10 + 1000) = 1010. Both renders carry the aggregate, summary-only."""
    fab, devices = build.build_intent(*_aggregating(example))
    for dev in devices.values():
        for n in dev.get("bgp", {}).get("neighbors", []):
            assert (n["routes"], n["max_routes"]) == (10, 1010)
    frr = frr_bgpd(devices["leaf1a"]).splitlines()
    assert "  aggregate-address %s summary-only" % devices["leaf1a"]["bgp"]["aggregate"] in frr
    eos = eos_config(devices["leaf2a"]).splitlines()
    assert "   aggregate-address %s summary-only" % devices["leaf2a"]["bgp"]["aggregate"] in eos
    assert not [line for line in eos_config(devices["spine1"]).splitlines()
                if "aggregate-address" in line]
    assert RULES["bgp-route-limit"].check(fab, devices) == []
    assert RULES["bgp-aggregate"].check(fab, devices) == []


def test_aggregate_rule_fires_on_a_31_outside_its_block_and_on_overlapping_blocks(example):
    fab, devices = build.build_intent(*_aggregating(example))
    port = [p for p in devices["leaf1a"]["ports"] if p["peer_kind"] == "host"][0]
    port["address"] = "198.18.100.0/31"
    hits = RULES["bgp-aggregate"].check(fab, devices)
    assert [(v["device"], v["location"]) for v in hits] == [("leaf1a", port["name"])]
    assert "198.18.100.0/31 is outside the leaf's aggregate" in hits[0]["message"]
    fab, devices = build.build_intent(*_aggregating(example))
    devices["leaf1b"]["bgp"]["aggregate"] = devices["leaf1a"]["bgp"]["aggregate"]
    hits = RULES["bgp-aggregate"].check(fab, devices)
    assert len(hits) >= 1 and all(v["rule"] == "bgp-aggregate" for v in hits)
    assert any("overlaps" in v["message"] for v in hits)


def test_a_pool_too_small_for_the_leaf_blocks_is_refused_with_the_numbers(example):
    """By hand: 4 blocks of 32 addresses need 128; a /26 holds 64; the smallest fit is a /25."""
    with pytest.raises(errors.RoceInputError) as exc:
        plan.build_plan(*_aggregating(example, "198.18.64.0/26"))
    assert exc.value.field == "roce_fabric.addressing.host_p2p"
    assert ("/25 or shorter: the 64 host links in one aligned block per leaf (routing.advertise "
            "aggregate) need 128 addresses and a /26 holds 64") in exc.value.allowed
