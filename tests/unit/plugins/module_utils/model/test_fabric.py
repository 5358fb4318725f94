"""Fabric model: derived wiring, addressing, ASNs, and clear errors on bad inventories."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.model import fabric
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError
from lab_ports import lab_port_map


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
    assert "Ethernet0, Ethernet4 .. Ethernet508 (128 ports, sn5600, 2x400G)" in str(err)


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
    hv["spine2"].pop("roce_model")
    hv["spine2"].update(roce_asic="tomahawk5", roce_port_map=lab_port_map("eos", 16))
    err = _error(groups, hv)
    assert (err.host, err.field) == ("spine2", "spines")      # the spine tier is too small
    assert "spine2 has 16 (roce_port_map of 16 ports)" in str(err)


def test_leaf_in_two_pairs(example):
    groups, hv = example
    groups["leaf_pair2"] = ["leaf1b", "leaf2b"]
    err = _error(groups, hv)
    assert err.value == "leaf1b" and "one pair only" in str(err)


def test_asn_clash_across_tiers(small_clos):
    groups, hv = small_clos(asn={"spine_scheme": "unique"})   # spine2 65101 == leaf1a
    err = _error(groups, hv)
    assert (err.host, err.field, err.value) == ("leaf1a", "roce_asn", 65101)


# -- messages that list what is valid (issue 22) -------------------------------------------------

def _more_hosts(groups, hv, count):
    """The example with ``count`` GPU hosts (gpu9 ... copy gpu1's variables)."""
    for i in range(9, count + 1):
        name = "gpu%d" % i
        hv[name] = dict(hv["gpu1"])
        for group in ("gpu_hosts", "all"):
            if group in groups and name not in groups[group]:
                groups[group].append(name)
    return groups, hv


def test_a_link_override_on_an_unwired_port_lists_the_wired_ports_and_their_step(example):
    """Ethernet9 lies inside 'Ethernet0 .. Ethernet508': the message lists the wired runs with
    their first two names (the step of 4) and the model's ports, not a range holding it."""
    groups, hv = example
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet9": {"cable_m": 5}}
    err = _error(groups, hv)
    assert (err.host, err.field) == ("leaf1a", "roce_link_overrides.Ethernet9")
    assert err.allowed == ("a port leaf1a has wired: Ethernet0, Ethernet4 .. Ethernet60 (16 to "
                           "hosts), Ethernet64, Ethernet68 .. Ethernet124 (16 to spines); the "
                           "switch's ports: Ethernet0, Ethernet4 .. Ethernet508 (128 ports, "
                           "sn5600, 2x400G)")
    assert "\n" not in str(err)


def test_too_few_spine_ports_say_how_many_spines_the_1_to_1_rule_needs(example):
    """32 hosts x 8 NICs on 4 leaves = 64 host ports per leaf; one 128-port spine cannot take
    the 256 uplinks: the message names the spines, the ports 1:1 needs and the count to use."""
    groups, hv = _more_hosts(*example, count=32)
    groups["spines"] = ["spine1"]
    for name in ("roce_switches", "all"):
        if "spine2" in groups.get(name, []):
            groups[name].remove("spine2")
    hv.pop("spine2")
    err = _error(groups, hv)
    assert (err.host, err.field, err.value) == ("spine1", "spines", 1)
    assert "the 1:1 rule needs one uplink per host port: 4 leaves with 256 host ports = 256 " \
        "spine ports, 256 on each of 1 spine, and spine1 has 128" in err.allowed
    assert "use at least 2 spines (2, 4, 8 or 16 split each leaf's host ports evenly)" in \
        err.allowed
    assert "at least 129 ports" not in str(err)


def test_parallel_links_beyond_the_spine_ports_say_which_number_fits(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"]["links_per_leaf_spine"] = 40
    err = _error(groups, hv)
    assert (err.field, err.value) == ("spines", 2)
    assert "lower roce_fabric.links_per_leaf_spine to 32 or less" in err.allowed


def test_three_spines_for_sixteen_host_ports_are_not_accepted_silently(example):
    """16 host ports over 3 spines: 1:1 rounds up to 6 links per spine, 18 uplinks. The plan
    still builds, with one WARN for the four leaves naming the counts that split evenly."""
    groups, hv = example
    for name in ("spines", "roce_switches", "all"):
        if name in groups:
            groups[name].append("spine3")
    hv["spine3"] = dict(hv["spine2"])
    result = plan.build_plan(groups, hv)
    hits = [v for v in result["violations"] if v["rule"] == "oversubscription"]
    assert [(v["severity"], v["device"]) for v in hits] == [("WARN", "leaf1a")]
    assert hits[0]["message"] == ("4 leaves (leaf1a, leaf1b, leaf2a, leaf2b): 16 host ports "
                                  "over 3 spines: 1:1 takes 6 links per spine = 18 uplinks, 2 "
                                  "more than the host ports")
    assert hits[0]["hint"] == ("use a spine count that divides 16 (2, 4, 8, 16), or set "
                               "roce_fabric.links_per_leaf_spine: 6 to keep 18 uplinks")
    hv["spine1"]["roce_fabric"]["links_per_leaf_spine"] = 6       # chosen: no warning
    assert not [v for v in plan.build_plan(groups, hv)["violations"]
                if v["rule"] == "oversubscription"]
