"""Fabric model: derived wiring, addressing, ASNs, and clear errors on bad inventories."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.model import fabric
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError


def test_example_rail_optimized_wiring(example):
    fab = fabric.build_fabric(*example)
    hosts = dict(fab.hosts)
    # rail group of 4 leaves for 8 rails: NICs 0-1 on leaf1a, 2-3 leaf1b, 4-5 leaf2a, 6-7 leaf2b
    expected = ["leaf1a", "leaf1a", "leaf1b", "leaf1b", "leaf2a", "leaf2a", "leaf2b", "leaf2b"]
    assert [n.leaf for n in hosts["gpu1"]] == expected
    assert fab.pairs == [["leaf1a", "leaf1b"], ["leaf2a", "leaf2b"]]
    leaf = fab.switches["leaf1a"]
    assert sum(1 for p in leaf.ports.values() if p.peer_kind == "host") == 16
    assert sum(1 for p in leaf.ports.values() if p.peer_kind == "spine") == 16  # 1:1
    assert sum(1 for p in fab.switches["spine1"].ports.values()) == 32


def test_example_addressing_and_asns(example):
    fab = fabric.build_fabric(*example)
    assert fab.switches["spine1"].loopback == "198.18.0.0/32"
    assert fab.switches["spine2"].asn == 65100 == fab.switches["spine1"].asn
    assert [fab.switches[n].asn for n in ("leaf1a", "leaf1b", "leaf2a", "leaf2b")] == \
        [65101, 65102, 65103, 65104]
    kind, spine_port, leaf_port = next(link for link in fab.links if link[0] == "fabric")
    assert (spine_port.address, leaf_port.address) == ("198.18.8.0/31", "198.18.8.1/31")
    nic = dict(fab.hosts)["gpu1"][0]
    assert (nic.address, nic.gateway) == ("198.18.64.1/31", "198.18.64.0/31")


def test_one_link_override_changes_only_that_link(example):
    groups, hv = example
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet8": {"cable_m": 12,
                                                         "address": "198.19.0.0/31"}}
    fab = fabric.build_fabric(groups, hv)
    ports = fab.switches["leaf1a"].ports
    assert (ports["Ethernet8"].cable_m, ports["Ethernet8"].address) == (12, "198.19.0.0/31")
    assert ports["Ethernet16"].cable_m == 3
    nic = next(n for _host, nics in fab.hosts for n in nics
               if (n.leaf, n.leaf_port) == ("leaf1a", "Ethernet8"))
    assert (nic.cable_m, nic.address) == (12, "198.19.0.1/31")   # one link: both ends


def test_nic_override_rewires(example):
    groups, hv = example
    hv["gpu2"]["roce_nic_overrides"] = {0: {"leaf": "leaf2a", "port": "Ethernet40/1",
                                            "cable_m": 7}}
    fab = fabric.build_fabric(groups, hv)
    nic = dict(fab.hosts)["gpu2"][0]
    assert (nic.leaf, nic.leaf_port, nic.cable_m) == ("leaf2a", "Ethernet40/1", 7)


def test_classic_design_puts_all_nics_on_one_pair(small_clos):
    groups, hv = small_clos(pairs=2, hosts=4, nics=4)
    fab = fabric.build_fabric(groups, hv)
    hosts = dict(fab.hosts)
    assert set(n.leaf for n in hosts["gpu1"]) == {"leaf1a", "leaf1b"}
    assert set(n.leaf for n in hosts["gpu4"]) == {"leaf2a", "leaf2b"}


def _error(groups, hv):
    with pytest.raises(RoceInputError) as err:
        plan.build_plan(groups, hv)
    return err.value


def test_missing_asic(example):
    groups, hv = example
    del hv["leaf2a"]["roce_model"]
    err = _error(groups, hv)
    assert (err.host, err.field) == ("leaf2a", "roce_model")
    assert "7060x6-64pe" in str(err) and "roce_asic" in str(err)


def test_wrong_type(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"]["nics_per_host"] = "8"
    err = _error(groups, hv)
    assert err.field == "roce_fabric.nics_per_host" and "got a string" in str(err)


def test_unknown_fabric_key(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"]["qos"]["roce_dscpp"] = 26
    assert _error(groups, hv).field == "roce_fabric.qos.roce_dscpp"


def test_unknown_leaf_for_a_nic(example):
    groups, hv = example
    hv["gpu1"]["roce_nic_overrides"] = {3: {"leaf": "leaf9"}}
    err = _error(groups, hv)
    assert (err.host, err.field, err.value) == ("gpu1", "roce_nic_overrides.3.leaf", "leaf9")
    assert "leaf1a" in str(err)


def test_nic_on_non_existent_port(example):
    groups, hv = example
    hv["gpu1"]["roce_nic_overrides"] = {0: {"port": "Ethernet999"}}
    err = _error(groups, hv)
    assert (err.host, err.field) == ("gpu1", "roce_nic_overrides.0.port")
    assert "Ethernet0 .. Ethernet508 (sn5600, 2x400G)" in str(err)


def test_duplicate_link(example):
    groups, hv = example
    hv["gpu1"]["roce_nic_overrides"] = {1: {"port": "Ethernet0"}}   # NIC 0 is there already
    err = _error(groups, hv)
    assert err.host == "leaf1a" and "wired once" in str(err) and "gpu1" in str(err)


def test_duplicate_address(example):
    groups, hv = example
    hv["leaf2b"]["roce_loopback"] = "198.18.0.0/32"          # spine1's loopback
    err = _error(groups, hv)
    assert (err.host, err.field) == ("leaf2b", "roce_loopback") and "spine1" in str(err)


def test_overlapping_pools_collide(example):
    """No address is given by hand, but the loopback pool overlaps the link pool."""
    groups, hv = example
    hv["spine1"]["roce_fabric"]["addressing"]["loopbacks"] = "198.18.8.0/24"
    err = _error(groups, hv)
    assert (err.host, err.field, err.value) == ("spine1", "roce_fabric.addressing.fabric_p2p",
                                                "198.18.8.0/21")
    assert "apart from roce_fabric.addressing.loopbacks (198.18.8.0/24)" in str(err)


def test_malformed_address(example):
    groups, hv = example
    hv["leaf2b"]["roce_link_overrides"] = {"Ethernet1/1": {"address": "198.18.300.1/31"}}
    err = _error(groups, hv)
    assert err.field == "roce_link_overrides.Ethernet1/1.address"


def test_cable_length_missing_without_default(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"]["host_link"] = {"speed_gbps": 400, "cable_m": None,
                                                "media": "dac"}
    err = _error(groups, hv)
    assert err.field.endswith("cable_m") and "host_link" in str(err)


def test_link_override_on_unknown_port(example):
    groups, hv = example
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet9": {"cable_m": 5}}
    err = _error(groups, hv)
    assert (err.host, err.field) == ("leaf1a", "roce_link_overrides.Ethernet9")


def test_too_few_ports(example):
    groups, hv = example
    hv["spine2"]["roce_port_count"] = 16
    err = _error(groups, hv)
    assert (err.host, err.field) == ("spine2", "roce_port_count")


def test_leaf_in_two_pairs(example):
    groups, hv = example
    groups["leaf_pair2"] = ["leaf1b", "leaf2b"]
    err = _error(groups, hv)
    assert err.value == "leaf1b" and "one pair only" in str(err)


def test_asn_clash_across_tiers(small_clos):
    groups, hv = small_clos(asn={"spine_scheme": "unique"})   # spine2 65101 == leaf1a
    err = _error(groups, hv)
    assert (err.host, err.field, err.value) == ("leaf1a", "roce_asn", 65101)
