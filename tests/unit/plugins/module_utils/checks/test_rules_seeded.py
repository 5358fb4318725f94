"""Every rule of docs/fabric-and-checks.md: one seeded fault trips exactly that rule, at the
device and port it breaks; the bundled and generated clean fabrics trip nothing; the default
ECN marks satisfy both ECN rules on every catalog ASIC at every port count it can have."""
import os
import re

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.checks import run as checks
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.lossless import switch as lossless
from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))


def _fabric(hv):
    return hv["spine1"]["roce_fabric"]


def _ecn(hv, host, **marks):
    hv[host]["roce_lossless"]["ecn"] = marks


def _incast_bound(dev):
    """lossless-math.md §3.2, computed here from the plan's pool and alpha."""
    trig = dev["buffer"]["trigger"]
    n = sum(1 for p in dev["ports"] if p["lossless"])
    return trig["alpha"] * trig["shared_pool_bytes"] / (n * (1 + trig["alpha"]))


LEAVES = ("leaf1a", "leaf1b", "leaf2a", "leaf2b")

# rule -> (seed(groups, hv, clean_plan), {(device, location)} the rule must name, exactly).
SEEDS = {
    "ecn-before-pfc": (lambda g, hv, p: _ecn(hv, "leaf2a", kmin_bytes=600000,
                                             kmax_bytes=10 ** 9),
                       {("leaf2a", "Ethernet1/1")}),
    "xon-below-xoff": (lambda g, hv, p: hv["spine1"]["roce_lossless"].update(
        xon_offset_bytes=0), {("spine1", "lossless pool")}),
    "headroom-covers-flight": (lambda g, hv, p: hv["leaf1a"].update(
        roce_link_overrides={"Ethernet8": {"headroom_bytes": 20000}}),
        {("leaf1a", "Ethernet8")}),
    "buffer-budget": (lambda g, hv, p: hv["leaf2b"].update(
        roce_asic_overrides={"total_buffer_bytes": 5000000}), {("leaf2b", "buffer")}),
    "pfc-match": (lambda g, hv, p: hv["gpu4"].update(
        roce_nic_overrides={"5": {"qos": {"pfc_priorities": [3, 4]}}}),
        {("gpu4", "rdma5"), ("leaf2a", "Ethernet4/5<->gpu4:rdma5")}),
    # host ports in host order, two per cage: gpu1 and gpu2 take leaf1a's Ethernet0-12,
    # gpu3 rdma0 Ethernet16
    "lossless-class-match": (lambda g, hv, p: hv["gpu3"].update(
        roce_nic_overrides={"0": {"qos": {"roce_dscp": 24}}}),
        {("leaf1a", "Ethernet16<->gpu3:rdma0")}),
    # gpu3's NIC 0 also puts DSCP 24 on the lossless priority; its leaf port does not
    "lossless-only-roce": (lambda g, hv, p: hv["gpu3"].update(
        roce_nic_overrides={"0": {"qos": {"dscp_to_tc": {"24": 3}}}}),
        {("leaf1a", "Ethernet16<->gpu3:rdma0")}),
    "cnp-strict-lossy": (lambda g, hv, p: hv["leaf1b"].update(
        roce_qos={"cnp_scheduler": "dwrr"}), {("leaf1b", "qos")}),
    "mtu-chain": (lambda g, hv, p: hv["gpu1"].update(
        roce_nic_overrides={"0": {"mtu_bytes": 4000}}), {("gpu1", "rdma0")}),
    # the SONiC pair's uplinks at 5000 (both ends, one group line) under NICs at 9000: the
    # leaf-NIC links and both ends of each uplink agree, the climb does not (host ports
    # Ethernet0-60, uplinks Ethernet64-124)
    "mtu-path": (lambda g, hv, p: [hv[leaf].update(roce_uplink_overrides={"mtu_bytes": 5000})
                                   for leaf in ("leaf1a", "leaf1b")],
                 {("leaf1a", "16 uplink(s) Ethernet64 .. Ethernet124"),
                  ("leaf1b", "16 uplink(s) Ethernet64 .. Ethernet124")}),
    "pfc-watchdog": (lambda g, hv, p: hv["leaf1b"].update(
        roce_pfc_watchdog={"poll_ms": 500}), {("leaf1b", "pfc watchdog")}),
    # one cause (every leaf: 16 x 400G down, 8 x 400G up): one finding naming the four leaves
    "oversubscription": (lambda g, hv, p: _fabric(hv).update(links_per_leaf_spine=4),
                         {("leaf1a", "uplinks")}),
    "ecmp-width": (lambda g, hv, p: _fabric(hv).setdefault("routing", {}).update(
        maximum_paths=8), set((leaf, "router bgp") for leaf in LEAVES)),
    # two rail groups: rails cross the spines; only the SONiC pair lacks adaptive routing
    "ecmp-efficiency": (lambda g, hv, p: _fabric(hv).update(rail_group_leaves=2),
                        {("leaf1a", "uplinks"), ("leaf1b", "uplinks")}),
    # a SONiC leaf (EOS renders no hash fields: its default is the clean fabric's WARN)
    "hash-entropy": (lambda g, hv, p: hv["leaf1b"].update(
        roce_ecmp={"hash_fields": ["src_ip", "dst_ip", "l4_dst_port"]}),
        {("leaf1b", "ecmp hash")}),
    # EOS renders no seed: with leaf pair 2 on SONiC (ToR seed 0, Tomahawk 5 like the spines),
    # the EOS spines' unrendered default is not shown to differ from the leaves' 0
    "hash-polarization": (lambda g, hv, p: [hv[leaf].update(roce_platform="sonic")
                                            for leaf in ("leaf2a", "leaf2b")],
                          {("spine1", "ecmp seed default")}),
    "ecn-before-pfc-incast": (lambda g, hv, p: _ecn(
        hv, "spine2", kmin_bytes=int(_incast_bound(p["devices"]["spine2"])) + 1000,
        kmax_bytes=int(_incast_bound(p["devices"]["spine2"])) + 400000),
        {("spine2", "Ethernet1/1")}),
    # the example's leaves have 2 spines at 1:1: with spine1 down a leaf is at 2:1
    "failure-budget": (lambda g, hv, p: _fabric(hv).update(failure_budget={"spines": 1}),
                       {("spine1", "spines")}),
    # leaf pair 1's uplinks at 100 m (one group line) fall into the SN5600 table's 300 m row
    "headroom-waste": (lambda g, hv, p: [hv[leaf].update(roce_uplink_overrides={"cable_m": 100})
                                         for leaf in ("leaf1a", "leaf1b")],
                       {("leaf1a", "16 port(s) Ethernet64 .. Ethernet124"),
                        ("leaf1b", "16 port(s) Ethernet64 .. Ethernet124")}),
}


def _documented_rules():
    with open(os.path.join(ROOT, "docs", "fabric-and-checks.md")) as handle:
        text = handle.read()
    section = text.split("## 3. The checks")[1].split("## 4.")[0]
    return re.findall(r"^\| `([a-z-]+)` \| (?:ERROR|WARN)", section, re.M)


def test_documented_rules_are_the_checked_rules():
    assert sorted(_documented_rules()) == sorted(checks.RULE_IDS)
    # pfc-deadlock: test below; the BGP rules guard the plan itself (test_bgp.py)
    assert sorted(list(SEEDS) + ["pfc-deadlock", "bgp-timers", "bgp-route-limit",
                                 "bgp-aggregate"]) == \
        sorted(checks.RULE_IDS)


@pytest.mark.parametrize("rule", sorted(SEEDS))
def test_a_seeded_fault_trips_exactly_its_rule(example, rule, proven):
    """The clean example carries only the EOS default-hash WARNs (conftest.unproven_defaults);
    a seeded fault adds findings of its rule alone, at exactly its places."""
    groups, hv = example
    clean = plan.build_plan(groups, hv)
    assert proven(clean["violations"]) == []
    seed, where = SEEDS[rule]
    seed(groups, hv, clean)
    result = plan.build_plan(groups, hv)
    before = set((v["rule"], v["device"], v["location"]) for v in clean["violations"])
    new = [v for v in result["violations"]
           if (v["rule"], v["device"], v["location"]) not in before]
    assert set(v["rule"] for v in new) == {rule}, result["violations"][:3]
    assert set((v["device"], v["location"]) for v in new) == where


def test_a_seeded_bounce_trips_exactly_the_deadlock_rule(small_clos):
    """Unique spine ASNs with single links: losing spine1-leaf1a bounces traffic through
    leaf1b (leaf1b's uplinks: Ethernet8 to spine1, after its host ports Ethernet0 and 4)."""
    groups, hv = small_clos(asn={"spine_scheme": "unique", "leaf_first": 65201})
    result = plan.build_plan(groups, hv)
    assert set(v["rule"] for v in result["violations"]) == {"pfc-deadlock"}
    assert [(v["device"], v["location"]) for v in result["violations"]] == \
        [("leaf1b", "Ethernet8")]


# --- clean fabrics ---------------------------------------------------------------------------
@pytest.mark.parametrize("inventory", ["example/hosts.yml", "cluster-1024/hosts.yml",
                                       "multi-pod/hosts.yml"])
def test_bundled_inventories_are_clean(inventory_data, inventory, proven):
    result = plan.build_plan(*inventory_data(os.path.join(ROOT, "inventories", inventory)))
    assert result["summary"]["errors"] == 0 and proven(result["violations"]) == [], \
        result["violations"][:3]


@pytest.mark.parametrize("gpus,radix,planes,mix", [
    (1024, 64, 1, "mixed"),          # two tiers: SONiC spines, EOS leaves
    (4096, 64, 1, "mixed"),          # three tiers: SONiC super-spines, EOS pods
    (2048, 64, 2, "mixed"),          # two planes
    (512, 32, 1, "eos"),             # one platform
])
def test_generated_inventories_are_clean(gpus, radix, planes, mix, proven):
    groups, hv = generate.clos(gpus, radix, planes, platforms=mix)[:2]
    result = plan.build_plan(groups, hv)
    assert result["summary"]["errors"] == 0 and proven(result["violations"]) == [], \
        result["violations"][:3]


# --- ECN defaults on every ASIC and port count ------------------------------------------------
def _port_counts(asic):
    """1 .. every port the ASIC can have at a speed: its lanes over the lanes a port needs."""
    for speed in asic.value("port_speeds_gbps"):
        lanes_per_port = max(1, -(-speed // asic.value("serdes_lane_gbps")))
        most = asic.value("serdes_lanes") // lanes_per_port
        for n in sorted(set([1, 2, most // 4, most // 2, most - 1, most]) - {0}):
            yield speed, n


CASES = [(name, speed, n, model) for name in sorted(catalog.ASICS)
         if catalog.ASICS[name]["family"].value in ("strata", "spectrum")
         for model in (("ieee", "sonic-nvidia") if name.startswith("spectrum") else ("ieee",))
         for speed, n in _port_counts(catalog.asic_profile(name))]


def test_every_asic_declares_its_lanes():
    for name, facts in catalog.ASICS.items():
        assert facts["serdes_lanes"].value and facts["switching_capacity_gbps"].value, name


# Spectrum-1 at 127-128 ports: SONiC's buffer_pool_mellanox.lua takes a lossy and a management
# PG (19 KiB each), egress_lossy_profile (9 KiB) and mirror headroom (10 KiB) per port besides
# its headroom, which leaves 0.5-1.2 MB of the 13.9 MB for 127 PGs: less than the 2 x MTU
# hysteresis each, refused. No SN2700 has that many ports (sonic-buildimage @086b03bd70
# device/mellanox/x86_64-mlnx_msn2700-r0/platform.json: 32 ports, 2x50G at most: 64).
SN2700_PORTS = 64


@pytest.mark.parametrize("asic,speed,ports,model", CASES)
def test_default_ecn_marks_before_both_pause_points(asic, speed, ports, model):
    profile = catalog.asic_profile(asic)
    args = ([{"name": "p%d" % i, "speed_gbps": speed, "cable_m": 30} for i in range(ports)],
            {"model": model, "trigger_fraction": 0.65})
    if asic == "spectrum1" and ports > SN2700_PORTS and speed <= 25:
        with pytest.raises(errors.RoceInputError, match="too small: with %d congested PGs"
                           % ports):
            lossless.switch_lossless(profile, *args)
        return
    result = lossless.switch_lossless(profile, *args)
    trig = result["trigger"]
    bound = trig["alpha"] * trig["shared_pool_bytes"] / (ports * (1 + trig["alpha"]))
    for port in result["ports"]:
        marks = port["ecn"]
        assert marks["kmin_bytes"] < bound                           # incast (§3.2)
        assert marks["kmax_bytes"] < trig["trigger_one_pg_bytes"]     # one PG (§3.5 #2)
        assert 0 < marks["kmin_bytes"] < marks["kmax_bytes"]
