"""roce_uplink_overrides / roce_downlink_overrides: one line for every link of a switch towards
the tier above or below, both ends, a port's own override wins, conflicts name both ends."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan


def _cables(result, name, peer_kind):
    return sorted({p["cable_m"] for p in result["devices"][name]["ports"]
                   if p["peer_kind"] == peer_kind})


def test_a_pairs_uplink_line_equals_every_port_override_on_both_ends(example):
    groups, hostvars = example
    per_port = plan.build_plan(groups, hostvars)
    uplinks = dict((leaf, [p["name"] for p in per_port["devices"][leaf]["ports"]
                           if p["peer_kind"] == "spine"]) for leaf in ("leaf2a", "leaf2b"))
    one_line = {h: dict(v) for h, v in hostvars.items()}
    for leaf, ports in uplinks.items():
        hostvars[leaf]["roce_link_overrides"] = dict((p, {"cable_m": 100}) for p in ports)
        one_line[leaf]["roce_uplink_overrides"] = {"cable_m": 100}
    a, b = plan.build_plan(groups, hostvars), plan.build_plan(groups, one_line)
    assert a["devices"] == b["devices"]
    assert _cables(b, "leaf2a", "spine") == [100] and _cables(b, "leaf2a", "host") == [3]
    assert _cables(b, "spine1", "leaf") == [30, 100]       # the spines' side follows


def test_a_ports_own_override_wins_and_downlinks_reach_the_other_tier(example):
    groups, hostvars = example
    hostvars["spine1"]["roce_downlink_overrides"] = {"cable_m": 50}
    result = plan.build_plan(groups, hostvars)
    first = next(p for p in result["devices"]["spine1"]["ports"] if p["peer"] == "leaf1a")
    assert _cables(result, "spine1", "leaf") == [50]
    assert _cables(result, "spine2", "leaf") == [30]
    hostvars["spine1"]["roce_link_overrides"] = {first["name"]: {"cable_m": 20}}
    result = plan.build_plan(groups, hostvars)
    assert _cables(result, "spine1", "leaf") == [20, 50]
    peer = next(p for p in result["devices"]["leaf1a"]["ports"]
                if p["name"] == first["peer_port"])
    assert peer["cable_m"] == 20


def test_two_ends_that_disagree_are_one_line_naming_both(example):
    groups, hostvars = example
    hostvars["leaf2a"]["roce_uplink_overrides"] = {"cable_m": 100}
    hostvars["spine1"]["roce_downlink_overrides"] = {"cable_m": 30}
    with pytest.raises(errors.RoceInputError) as exc:
        plan.build_plan(groups, hostvars)
    text = str(exc.value)
    assert "roce_downlink_overrides.cable_m" in text or "roce_uplink_overrides.cable_m" in text
    assert "leaf2a" in text and "spine1" in text and "\n" not in text


def test_the_gate_refuses_a_key_that_is_not_a_link_property(example):
    groups, hostvars = example
    hostvars["leaf2a"]["roce_uplink_overrides"] = {"headroom_bytes": 1000}
    with pytest.raises(errors.RoceInputError) as exc:
        plan.build_plan(groups, hostvars)
    assert "roce_uplink_overrides" in str(exc.value)
