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
