"""MTU along the whole path: each platform's port MTU maximum (from the vendor's own data), the
refusal above it naming host, field, value and maximum, the downlink override applied at the
leaf's end, the mtu-path rule naming the hops and numbers, and the rendered `mtu` lines.

The example fabric: SONiC SN5600 leaf pair 1 (host ports Ethernet0-60, uplinks Ethernet64-124),
EOS 7060X6-64PE leaf pair 2 and spines; NICs at 9000."""
import os
import re

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.hardware import platforms
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as render_eos

import shared_data

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
SONIC_PORT_YANG = os.path.join(os.path.dirname(ROOT), "shared", "sonic-yang", "sonic-port.yang")
# Arista AVD's p2p_uplinks_mtu default, rendered on every EOS hardware platform
# (aristanetworks/avd @3cac535c python-avd/pyavd/_eos_designs/schema/schema_fragments/
# p2p_uplinks_mtu.schema.yml line 20, "default: 9214")
AVD_EOS_MTU = 9214
HOST_MTU = 9000         # the example's roce_fabric.mtu.host


def _sonic_yang_port_mtu_max():
    """The top of PORT mtu's range in SONiC's own YANG model (../shared/sonic-yang)."""
    shared_data.need(SONIC_PORT_YANG, "SONiC's YANG models are read from ../shared/sonic-yang")
    with open(SONIC_PORT_YANG) as handle:
        text = handle.read()
    match = re.search(r"leaf mtu \{.*?range (\d+)\.\.(\d+);", text, re.S)
    return int(match.group(2))


def test_platform_maxima_are_the_vendors():
    assert platforms.EOS.mtu_max_bytes == AVD_EOS_MTU
    assert platforms.SONIC.mtu_max_bytes == _sonic_yang_port_mtu_max()
    assert "avd" in platforms.EOS.mtu_source and "sonic-port.yang" in platforms.SONIC.mtu_source


def test_default_switch_mtu_is_one_every_platform_takes(small_clos):
    """No roce_fabric.mtu given: every switch port at 9214 (EOS's maximum, within SONiC's), NICs
    at 9000."""
    groups, hv = small_clos()
    p = plan.build_plan(groups, hv)
    for dev in p["devices"].values():
        if dev["kind"] == "switch":
            assert set(port["mtu_bytes"] for port in dev["ports"]) == {AVD_EOS_MTU}
        else:
            assert set(nic["mtu_bytes"] for nic in dev["nics"]) == {HOST_MTU}


@pytest.mark.parametrize("host,var,value,field", [
    ("leaf2a", "roce_mtu", 9216, "roce_mtu"),
    ("leaf2a", "roce_link_overrides", {"Ethernet1/1": {"mtu_bytes": 9215}},
     "roce_link_overrides.Ethernet1/1.mtu_bytes"),
    ("leaf2a", "roce_downlink_overrides", {"mtu_bytes": 9216},
     "roce_downlink_overrides.mtu_bytes"),
    # a SONiC leaf's uplinks at 9216 (its own maximum): the EOS spines' end refuses
    ("leaf1a", "roce_uplink_overrides", {"mtu_bytes": 9216}, "roce_uplink_overrides.mtu_bytes"),
])
def test_above_the_eos_maximum_is_refused(example, host, var, value, field):
    groups, hv = example
    hv[host][var] = value
    with pytest.raises(errors.RoceInputError) as exc:
        plan.build_plan(groups, hv)
    err = exc.value
    assert (err.host, err.field) == (host, field)
    assert err.value in (9215, 9216)
    assert "at most %d on " % AVD_EOS_MTU in err.allowed and "EOS" in err.allowed


def test_the_fabric_tier_default_is_refused_on_eos(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"]["mtu"]["spine"] = 9216
    with pytest.raises(errors.RoceInputError) as exc:
        plan.build_plan(groups, hv)
    assert (exc.value.field, exc.value.value) == ("roce_fabric.mtu.spine", 9216)
    assert str(exc.value).startswith("host spine1: roce_fabric.mtu.spine = 9216 is not valid: "
                                     "at most 9214 on spine1")


def test_sonic_takes_its_own_maximum(example):
    """9216 on the SONiC pair's host ports (the EOS spines are not on those links)."""
    groups, hv = example
    hv["leaf1a"]["roce_downlink_overrides"] = {"mtu_bytes": _sonic_yang_port_mtu_max()}
    p = plan.build_plan(groups, hv)
    ports = p["devices"]["leaf1a"]["ports"]
    assert set(x["mtu_bytes"] for x in ports if x["peer_kind"] == "host") == {9216}
    assert set(x["mtu_bytes"] for x in ports if x["peer_kind"] == "spine") == {AVD_EOS_MTU}


def test_downlink_mtu_override_sets_the_leaf_end(example):
    """It used to be dropped: the leaf's host ports take it, the NICs keep theirs, and a leaf
    end below its NICs trips mtu-chain on every NIC of that leaf."""
    groups, hv = example
    hv["leaf1a"]["roce_downlink_overrides"] = {"mtu_bytes": 8000}
    p = plan.build_plan(groups, hv)
    ports = p["devices"]["leaf1a"]["ports"]
    assert set(x["mtu_bytes"] for x in ports if x["peer_kind"] == "host") == {8000}
    assert set(x["mtu_bytes"] for x in ports if x["peer_kind"] == "spine") == {AVD_EOS_MTU}
    nics = [n for d in p["devices"].values() if d["kind"] == "host" for n in d["nics"]]
    assert set(n["mtu_bytes"] for n in nics) == {HOST_MTU}
    chain = [v for v in p["violations"] if v["rule"] == "mtu-chain"]
    leaf_ports = sum(1 for x in ports if x["peer_kind"] == "host")
    assert len(chain) == leaf_ports and all("leaf1a" in v["message"] for v in chain)
    assert chain[0]["numbers"] == {"nic_mtu": HOST_MTU, "leaf_mtu": 8000}


def test_downlink_override_a_port_override_wins(example):
    groups, hv = example
    hv["leaf1a"]["roce_downlink_overrides"] = {"mtu_bytes": 8000}
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet0": {"mtu_bytes": 9100}}
    ports = dict((x["name"], x) for x in plan.build_plan(groups, hv)["devices"]["leaf1a"]["ports"])
    assert ports["Ethernet0"]["mtu_bytes"] == 9100 and ports["Ethernet4"]["mtu_bytes"] == 8000


def test_uplinks_below_the_host_mtu_fail_the_path(example):
    """The issue's case: uplinks at 5000 under NICs at 9000 (both ends of each uplink agree, so
    mtu-chain is silent): mtu-path names each leaf's hops, their peers and the numbers."""
    groups, hv = example
    for leaf in ("leaf1a", "leaf1b"):
        hv[leaf]["roce_uplink_overrides"] = {"mtu_bytes": 5000}
    p = plan.build_plan(groups, hv)
    bad = [v for v in p["violations"] if v["rule"] == "mtu-path"]
    assert [v["device"] for v in bad] == ["leaf1a", "leaf1b"]
    assert not [v for v in p["violations"] if v["rule"] == "mtu-chain"]
    hit = bad[0]
    assert hit["severity"] == "ERROR"
    assert hit["location"] == "16 uplink(s) Ethernet64 .. Ethernet124"
    assert hit["numbers"] == {"hop_mtu": 5000, "host_mtu": HOST_MTU, "overhead_bytes": 0,
                              "hops": 16, "nic": "gpu1:rdma0"}
    assert "Ethernet64 (to spine1:" in hit["message"] and "Ethernet124 (to spine2:" in hit["message"]


def test_uplinks_at_the_host_mtu_pass(example, proven):
    """A routed hop needs the host's IP MTU and no more (+0 B)."""
    groups, hv = example
    for leaf in ("leaf1a", "leaf1b"):
        hv[leaf]["roce_uplink_overrides"] = {"mtu_bytes": HOST_MTU}
    assert proven(plan.build_plan(groups, hv)["violations"]) == []
    for leaf in ("leaf1a", "leaf1b"):
        hv[leaf]["roce_uplink_overrides"] = {"mtu_bytes": HOST_MTU - 1}
    bad = [v for v in plan.build_plan(groups, hv)["violations"] if v["rule"] == "mtu-path"]
    assert [v["numbers"]["hop_mtu"] for v in bad] == [HOST_MTU - 1] * 2


def test_the_super_spine_hop_carries_the_pods_nics():
    """Three tiers: spine-super-spine links at 8000 (both ends) under NICs at 9000 fail at every
    spine, the leaf-spine hops (9214) do not."""
    groups, hv = generate.clos(16, 4, nics_per_host=2)[:2]
    for name in groups["spines"]:
        hv[name]["roce_uplink_overrides"] = {"mtu_bytes": 8000}
    p = plan.build_plan(groups, hv)
    bad = [v for v in p["violations"] if v["rule"] == "mtu-path"]
    assert sorted(v["device"] for v in bad) == sorted(groups["spines"])
    assert all(v["numbers"]["hop_mtu"] == 8000 and v["numbers"]["host_mtu"] == HOST_MTU
               for v in bad)


def test_rendered_eos_mtu_lines_are_the_plan_within_the_maximum(example):
    groups, hv = example
    p = plan.build_plan(groups, hv)
    for name in ("spine1", "leaf2a"):
        dev = p["devices"][name]
        lines = [int(x.split()[1]) for x in render_eos.eos_config(dev).splitlines()
                 if x.strip().startswith("mtu ")]
        assert lines == [port["mtu_bytes"] for port in dev["ports"]]
        assert max(lines) <= AVD_EOS_MTU
