"""What a Cumulus deploy changes in NVUE's tree and what it refuses (deploy/cumulus/ownership.py).

The applied config is tests/unit/fixtures/cumulus/applied-base.json (a switch with foreign
objects: the management port and VRF, a storage bond with its BGP peer and policy, services, a
global ECN profile, FEC on swp1); the rendered document is leaf1a of the example fabric with
leaf pair 1 switched to Cumulus. Expected trees are written by hand or built by the small
helpers below (a deep overlay and NVUE's PATCH merge), never by the module under test.
"""
import copy
import json
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import ownership
from ansible_collections.roce.fabric.plugins.module_utils.render.cumulus import nvue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))
FIXTURE = os.path.join(ROOT, "tests", "unit", "fixtures", "cumulus", "applied-base.json")

NBR = ("vrf", "default", "router", "bgp", "neighbor")
STORAGE_PEER = NBR + ("192.0.2.67",)
DRAIN = ("router", "bgp", "graceful-shutdown")

# Every foreign object of the fixture: the deploy neither sets nor unsets anything at, above
# or below these paths.
FOREIGN = [
    ("interface", "eth0"), ("interface", "bond1"), ("interface", "swp63"), ("interface", "swp64"),
    ("qos", "mapping", "STORAGE-MAP"), ("qos", "congestion-control", "default-global"),
    ("router", "policy", "prefix-list", "STORAGE-OUT"), ("router", "policy", "route-map", "STORAGE-OUT"),
    STORAGE_PEER, ("service", "ntp"), ("service", "snmp-server"), ("vrf", "mgmt"),
    ("interface", "swp1", "link", "fec"), ("system", "hostname"),
]


# -- independent helpers ----------------------------------------------------------------------

def at(tree, path):
    for key in path:
        if not isinstance(tree, dict) or key not in tree:
            return None
        tree = tree[key]
    return tree


def leaves(tree, path=()):
    out = []
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            out += leaves(value, path + (key,))
        else:
            out.append((path + (key,), value))
    return out


def overlay(base, top):
    """``base`` with every leaf of ``top`` written over it (a deployed switch)."""
    out = copy.deepcopy(base)
    for path, value in leaves(top):
        node = out
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        node[path[-1]] = copy.deepcopy(value)
    return out


def apply_patch(tree, patch):
    """NVUE's PATCH merge: a value sets, null removes the node."""
    out = copy.deepcopy(tree)

    def walk(node, body):
        for key, value in body.items():
            if value is None:
                node.pop(key, None)
            elif isinstance(value, dict) and value and isinstance(node.get(key), dict):
                walk(node[key], value)
            elif isinstance(value, dict) and value:
                node[key] = {}
                walk(node[key], value)
            elif value == {} and isinstance(node.get(key), dict):
                pass
            else:
                node[key] = copy.deepcopy(value)
    walk(out, patch)
    return out


def related(a, b):
    """One path is the other or lies below it."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def assert_consistent(change):
    """The patch is exactly the sets and the unsets (null), and no path is both set and unset."""
    patch_leaves = leaves(change.patch)
    assert sorted(p for p, v in patch_leaves if v is None) == sorted(change.unsets)
    assert sorted((p, json.dumps(v)) for p, v in patch_leaves if v is not None) == sorted(
        (p, json.dumps(v)) for p, v in change.sets)
    for unset in change.unsets:
        for path, _value in change.sets:
            assert not related(unset, path), (unset, path)
    for i, a in enumerate(change.unsets):
        for b in change.unsets[i + 1:]:
            assert not related(a, b), (a, b)


# -- fixtures ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rendered_text(cumulus_example):
    return nvue.nvue_yaml(cumulus_example["devices"]["leaf1a"])


@pytest.fixture
def rendered(rendered_text):
    return ownership.plan_tree(rendered_text)


@pytest.fixture
def base():
    with open(FIXTURE) as handle:
        return json.load(handle)


@pytest.fixture
def deployed(base, rendered):
    """The switch after a first deploy: the fixture with the plan's leaves written over it."""
    return overlay(base, rendered)


# -- the rendered tree ------------------------------------------------------------------------

def test_plan_tree_merges_the_set_operations():
    text = ("- set:\n    interface:\n      swp1:\n        type: swp\n"
            "- set:\n    interface:\n      swp1:\n        link:\n          mtu: 9214\n"
            "    router:\n      bgp:\n        enable: 'on'\n")
    assert ownership.plan_tree(text) == {"interface": {"swp1": {"type": "swp", "link": {"mtu": 9214}}},
                                         "router": {"bgp": {"enable": "on"}}}
    assert ownership.plan_tree("") == {}


def test_the_rendered_leaf_is_what_the_example_plans(rendered):
    port = rendered["interface"]["swp1s0"]
    assert port["type"] == "swp"
    assert port["description"] == "gpu1:rdma0"
    assert port["ip"]["address"] == {"198.18.64.0/31": {}}
    assert port["link"]["mtu"] == 9214 and port["link"]["speed"] == "400G"
    assert rendered["interface"]["swp1"]["link"]["breakout"] == {"2x": {}}
    assert rendered["interface"]["lo"] == {"type": "loopback", "ip": {"address": {"198.18.0.2/32": {}}}}
    assert rendered["router"]["bgp"] == {"autonomous-system": 65101, "router-id": "198.18.0.2",
                                         "enable": "on"}
    assert sorted(at(rendered, NBR)) == sorted("198.18.8.%d" % i for i in range(0, 32, 2))
    assert "graceful-shutdown" not in rendered["router"]["bgp"]
    assert "roce" not in rendered["qos"]


# -- first deploy -----------------------------------------------------------------------------

def test_first_deploy_keeps_every_foreign_object(base, rendered):
    change = ownership.change(base, rendered)
    assert_consistent(change)
    assert change.unsets == []
    assert change.refusals == []
    for foreign in FOREIGN:
        assert at(base, foreign) is not None, foreign
        assert not [p for p, _v in change.sets if related(p, foreign)], foreign
        assert not [p for p in change.unsets if related(p, foreign)], foreign
    merged = ownership.merged(base, change.patch)
    for foreign in FOREIGN:
        assert at(merged, foreign) == at(base, foreign), foreign


def test_first_deploy_patch_carries_only_the_leaves_that_differ(base, rendered):
    patch = ownership.change(base, rendered).patch
    assert patch["router"]["bgp"] == {"autonomous-system": 65101, "router-id": "198.18.0.2"}
    assert patch["interface"]["swp1"] == {"link": {"breakout": {"2x": {}}}}    # type swp is there
    assert patch["interface"]["lo"] == {"ip": {"address": {"198.18.0.2/32": {}}}}
    assert "enable" not in patch["vrf"]["default"]["router"]["bgp"]
    assert "mgmt" not in patch["vrf"]
    assert None not in [v for _p, v in leaves(patch)]


def test_merged_carries_the_rendered_leaves_and_nothing_else_changes(base, rendered):
    merged = ownership.merged(base, ownership.change(base, rendered).patch)
    for path, value in leaves(rendered):
        assert at(merged, path) == value, path
    assert merged == overlay(base, rendered)
    assert merged["interface"]["swp1"] == {"type": "swp", "link": {"fec": "rs", "breakout": {"2x": {}}}}
    assert merged["vrf"]["mgmt"] == {}


def test_a_second_change_on_the_merged_tree_is_empty(base, rendered, deployed):
    merged = ownership.merged(base, ownership.change(base, rendered).patch)
    for applied in (merged, deployed):
        change = ownership.change(applied, rendered)
        assert change.patch == {}
        assert (change.sets, change.unsets, change.refusals) == ([], [], [])


# -- REPLACED nodes ---------------------------------------------------------------------------

def test_a_foreign_address_and_link_pause_on_a_plan_port_are_removed(base, rendered):
    base["interface"]["swp1s0"] = {
        "type": "swp", "link": {"fec": "rs", "mtu": 9214},
        "ip": {"address": {"198.18.64.0/31": {}, "203.0.113.1/24": {}}},
        "qos": {"link-pause": {"profile": "my-pause"}}}
    change = ownership.change(base, rendered)
    assert_consistent(change)
    assert change.unsets == [("interface", "swp1s0", "ip", "address", "203.0.113.1/24"),
                             ("interface", "swp1s0", "qos", "link-pause")]
    assert change.patch["interface"]["swp1s0"]["ip"] == {"address": {"203.0.113.1/24": None}}
    assert change.patch["interface"]["swp1s0"]["qos"]["link-pause"] is None
    assert change.refusals == []
    merged = ownership.merged(base, change.patch)
    assert merged["interface"]["swp1s0"]["ip"]["address"] == {"198.18.64.0/31": {}}
    assert "link-pause" not in merged["interface"]["swp1s0"]["qos"]
    assert merged["interface"]["swp1s0"]["link"]["fec"] == "rs"         # its own setting: kept


def test_qos_roce_on_the_switch_is_unset(deployed, rendered):
    deployed["qos"]["roce"] = {"enable": "on", "mode": "lossless"}
    change = ownership.change(deployed, rendered)
    assert_consistent(change)
    assert change.unsets == [("qos", "roce")]
    assert change.sets == []
    assert change.patch == {"qos": {"roce": None}}


def test_a_foreign_rf_profile_and_a_foreign_neighbour_option_on_a_plan_neighbour_are_removed(
        deployed, rendered):
    deployed["qos"]["pfc"]["RF-PFC-OLD"] = {"cable-length": 100}
    deployed["vrf"]["default"]["router"]["bgp"]["neighbor"]["198.18.8.0"]["password"] = "x"
    change = ownership.change(deployed, rendered)
    assert_consistent(change)
    assert change.unsets == [("qos", "pfc", "RF-PFC-OLD"), NBR + ("198.18.8.0", "password")]
    assert change.sets == []


# -- the previous record ----------------------------------------------------------------------

def test_a_neighbour_and_a_port_the_previous_record_had_are_unset_foreign_ones_kept(
        base, rendered):
    previous = copy.deepcopy(rendered)
    previous["vrf"]["default"]["router"]["bgp"]["neighbor"]["198.18.8.32"] = {
        "remote-as": 65100, "type": "numbered", "description": "spine3:Ethernet1/1"}
    previous["interface"]["swp17s0"] = {"type": "swp", "link": {"mtu": 9214},
                                        "ip": {"address": {"198.18.8.33/31": {}}}}
    applied = overlay(base, previous)
    applied["vrf"]["default"]["router"]["bgp"]["neighbor"]["192.0.2.99"] = {"remote-as": 65501}
    change = ownership.change(applied, rendered, previous)
    assert_consistent(change)
    assert change.unsets == [("interface", "swp17s0"), NBR + ("198.18.8.32",)]
    assert change.sets == []
    assert change.refusals == []
    merged = ownership.merged(applied, change.patch)
    assert at(merged, STORAGE_PEER) == at(base, STORAGE_PEER)
    assert at(merged, NBR + ("192.0.2.99",)) == {"remote-as": 65501}
    expected = overlay(base, rendered)
    expected["vrf"]["default"]["router"]["bgp"]["neighbor"]["192.0.2.99"] = {"remote-as": 65501}
    assert merged == expected


def test_without_a_previous_record_an_unplanned_neighbour_is_foreign(deployed, rendered):
    deployed["vrf"]["default"]["router"]["bgp"]["neighbor"]["198.18.8.32"] = {"remote-as": 65100}
    change = ownership.change(deployed, rendered)
    assert change.patch == {} and change.refusals == []


def _drop_all_neighbours(rendered, applied):
    new = copy.deepcopy(rendered)
    del new["vrf"]["default"]["router"]["bgp"]["neighbor"]
    return new, [NBR + (peer,) for peer in sorted(at(rendered, NBR))], STORAGE_PEER


def _drop_adaptive_routing(rendered, applied):
    new = copy.deepcopy(rendered)
    del new["interface"]["swp9s0"]["router"]          # the port no longer runs adaptive routing
    applied["interface"]["swp9s0"]["router"]["ospf"] = {"area": "0.0.0.0"}   # the operator's
    return new, [("interface", "swp9s0", "router", "adaptive-routing")], (
        "interface", "swp9s0", "router", "ospf")


@pytest.mark.parametrize("edit", [_drop_all_neighbours, _drop_adaptive_routing])
def test_a_previous_record_removal_keeps_foreign_siblings(deployed, rendered, edit):
    new, expected_unsets, foreign = edit(rendered, deployed)
    kept = copy.deepcopy(at(deployed, foreign))
    change = ownership.change(deployed, new, rendered)
    assert at(ownership.merged(deployed, change.patch), foreign) == kept
    assert sorted(change.unsets) == sorted(expected_unsets)


# -- the drain --------------------------------------------------------------------------------

def test_drain_adds_graceful_shutdown(deployed, rendered):
    change = ownership.change(deployed, rendered, drain=True)
    assert_consistent(change)
    assert change.sets == [(DRAIN, "on")]
    assert change.unsets == []
    assert change.patch == {"router": {"bgp": {"graceful-shutdown": "on"}}}
    deployed["router"]["bgp"]["graceful-shutdown"] = "on"
    assert ownership.change(deployed, rendered, drain=True).patch == {}


def test_a_leftover_graceful_shutdown_is_unset_without_the_drain(deployed, rendered):
    deployed["router"]["bgp"]["graceful-shutdown"] = "on"
    change = ownership.change(deployed, rendered)
    assert_consistent(change)
    assert change.unsets == [DRAIN]
    assert change.sets == []
    assert change.patch == {"router": {"bgp": {"graceful-shutdown": None}}}


# -- refusals ---------------------------------------------------------------------------------

def _bond(applied):
    applied["interface"]["bond2"] = {"type": "bond", "bond": {"member": {"swp9s0": {}}}}


def _vrf(applied):
    applied["interface"]["swp9s0"] = {"type": "swp", "ip": {"vrf": "BLUE"}}
    applied["vrf"]["BLUE"] = {}


def _bridge(applied):
    applied["interface"]["swp9s0"] = {"type": "swp", "bridge": {"domain": {"br_default": {}}}}
    applied["bridge"] = {"domain": {"br_default": {}}}


def _unnumbered(applied):
    applied["vrf"]["BLUE"] = {"router": {"bgp": {"enable": "on", "neighbor": {
        "swp9s0": {"type": "unnumbered", "remote-as": "external"}}}}}


def _drain_map(applied):
    applied["vrf"]["default"]["router"]["bgp"]["neighbor"]["192.0.2.67"]["address-family"][
        "ipv4-unicast"]["policy"]["inbound"] = {"route-map": "RF-DRAIN-IN"}


def _relay(applied):
    applied["service"]["dhcp-relay"] = {"default": {"interface": {"swp9s0": {}}}}


@pytest.mark.parametrize("edit, refusal", [
    (_bond, "interface bond2 is a bond with plan port swp9s0 as member (a LAG on a port the "
            "plan routes)"),
    (_vrf, "plan port swp9s0 is in VRF BLUE"),
    (_bridge, "plan port swp9s0 is a bridge port (bridge domain br_default)"),
    (_unnumbered, "vrf BLUE has a BGP session on plan port swp9s0 (unnumbered)"),
    (_drain_map, "vrf.default.router.bgp.neighbor.192.0.2.67.address-family.ipv4-unicast.policy."
                 "inbound.route-map = RF-DRAIN-IN uses a plan object (RF-*): the plan rewrites it"),
    (_relay, "service.dhcp-relay.default.interface.swp9s0 = {} uses interface swp9s0, which this "
             "deploy changes"),
], ids=["bond", "vrf", "bridge", "unnumbered", "rf-reference", "port-changes"])
def test_a_shared_object_is_refused(base, rendered, edit, refusal):
    edit(base)
    change = ownership.change(base, rendered)
    assert refusal in change.refusals
    assert_consistent(change)


def test_a_foreign_setting_naming_an_unchanged_plan_port_is_not_refused(deployed, rendered):
    _relay(deployed)
    change = ownership.change(deployed, rendered)
    assert change.refusals == [] and change.patch == {}
    deployed["interface"]["swp9s0"]["description"] = "moved"          # now the port changes
    assert ownership.change(deployed, rendered).refusals == [
        "service.dhcp-relay.default.interface.swp9s0 = {} uses interface swp9s0, which this "
        "deploy changes"]


def test_a_foreign_value_naming_an_address_the_deploy_removes_is_refused(base, rendered):
    previous = copy.deepcopy(rendered)
    previous["interface"]["lo"]["ip"]["address"] = {"198.18.0.99/32": {}}     # the old loopback
    applied = overlay(base, previous)
    assert ownership.change(applied, rendered, previous).refusals == []
    peer = applied["vrf"]["default"]["router"]["bgp"]["neighbor"]["192.0.2.67"]
    peer["update-source"] = "198.18.0.99"
    change = ownership.change(applied, rendered, previous)
    assert_consistent(change)
    assert change.unsets == [("interface", "lo", "ip", "address", "198.18.0.99/32")]
    assert change.refusals == ["vrf.default.router.bgp.neighbor.192.0.2.67.update-source = "
                               "198.18.0.99 uses address 198.18.0.99, which this deploy removes"]


def test_the_fixture_alone_is_not_refused_and_refusals_do_not_change_the_patch(base, rendered):
    plain = ownership.change(copy.deepcopy(base), rendered)
    assert plain.refusals == []
    _bond(base)
    refused = ownership.change(base, rendered)
    assert refused.refusals and refused.patch == plain.patch


# -- restore ----------------------------------------------------------------------------------

def test_restore_returns_every_owned_node_and_leaves_foreign_changes(deployed, rendered):
    before = deployed
    new = copy.deepcopy(rendered)
    new["interface"]["swp1s0"]["description"] = "gpu1:rdma9"
    new["interface"]["swp1s0"]["link"]["mtu"] = 4200
    new["qos"]["pfc"]["RF-PFC-3M"]["cable-length"] = 5
    del new["vrf"]["default"]["router"]["bgp"]["neighbor"]["198.18.8.30"]
    change = ownership.change(before, new, rendered, drain=True)
    assert change.refusals == []
    now = apply_patch(before, change.patch)
    # what happened on the switch meanwhile, not the deploy's
    now["service"]["ntp"]["mgmt"]["server"]["time2.example.org"] = {}
    now["interface"]["swp1s0"]["link"]["fec"] = "rs"
    now["interface"]["swp63"]["link"]["mtu"] = 1500
    owned = ownership.owned_paths(now, new, rendered)
    patch = ownership.restore(now, before, owned)
    assert patch == {
        "interface": {"swp1s0": {"description": "gpu1:rdma0", "link": {"mtu": 9214}}},
        "qos": {"pfc": {"RF-PFC-3M": {"cable-length": 3}}},
        "router": {"bgp": {"graceful-shutdown": None}},
        "vrf": {"default": {"router": {"bgp": {"neighbor": {
            "198.18.8.30": before["vrf"]["default"]["router"]["bgp"]["neighbor"]["198.18.8.30"]}}}}},
    }
    expected = copy.deepcopy(before)
    expected["service"]["ntp"]["mgmt"]["server"]["time2.example.org"] = {}
    expected["interface"]["swp1s0"]["link"]["fec"] = "rs"
    expected["interface"]["swp63"]["link"]["mtu"] = 1500
    assert apply_patch(now, patch) == expected
    assert ownership.merged(now, patch) == expected
    assert ownership.restore(before, before, owned) == {}


def test_restore_after_a_first_deploy_returns_the_owned_nodes(base, rendered, deployed):
    now = copy.deepcopy(deployed)
    now["service"]["ntp"]["mgmt"]["server"]["time2.example.org"] = {}
    owned = ownership.owned_paths(now, rendered)
    restored = apply_patch(now, ownership.restore(now, base, owned))
    for path in owned:
        assert at(restored, path) == at(base, path), path
    assert restored["router"]["bgp"] == base["router"]["bgp"]
    assert restored["interface"]["lo"] == base["interface"]["lo"]
    assert restored["interface"]["swp1"] == base["interface"]["swp1"]
    assert restored["service"]["ntp"]["mgmt"]["server"] == {"time1.example.org": {}, "time2.example.org": {}}
    for foreign in FOREIGN:
        if foreign != ("service", "ntp"):        # changed on the switch meanwhile: above
            assert at(restored, foreign) == at(base, foreign), foreign


def test_restore_after_a_first_deploy_removes_the_interfaces_it_made(base, rendered, deployed):
    owned = ownership.owned_paths(deployed, rendered)
    restored = apply_patch(deployed, ownership.restore(deployed, base, owned))
    assert sorted(restored["interface"]) == sorted(base["interface"])


# -- another port's QoS map on a lossless priority (NVUE's defaults: QoS _index.md) -------------

def test_classification_follows_nvues_default_maps_under_a_profiles_own_entries():
    assert ownership.classified({}) == dict((sp, "PCP %d by NVUE's default map" % sp)
                                            for sp in range(1, 8)) | {0: "its port-default-sp"}
    l3 = ownership.classified({"trust": "l3", "dscp": {"26": {"switch-priority": 0}}})
    assert l3[3] == "DSCP 24 by NVUE's default map" and l3[0] == "its port-default-sp"
    assert ownership.classified({"trust": "port", "port-default-sp": 5}) == {
        5: "its port-default-sp"}
    remapped = ownership.classified({"trust": "l2", "pcp": {"3": {"switch-priority": 0}}})
    assert 3 not in remapped


def test_a_foreign_map_on_the_lossless_priority_is_refused(rendered, base):
    applied = copy.deepcopy(base)
    applied["qos"]["mapping"]["STORAGE-MAP"] = {"trust": "both",
                                                "pcp": {"3": {"switch-priority": 0}}}
    change = ownership.change(applied, rendered)
    assert change.refusals == [
        "interface bond1 classifies with qos mapping STORAGE-MAP (trust both), which puts DSCP "
        "24 by NVUE's default map on lossless switch priority 3: other traffic would be paused "
        "with RoCE"]
