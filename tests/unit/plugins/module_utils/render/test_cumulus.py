"""Cumulus Linux (NVUE) as the third platform, read off the rendered startup.yaml with PyYAML (not
the collection's reader): the example fabric with its SONiC leaf pair switched to
``roce_platform: cumulus`` plans as the example does (no finding but EOS's unproven hash
defaults) and renders PFC on the RoCE priority only, ECN on its class with the plan's
thresholds (Kmin below Kmax below the pause point), DSCP 26 on the RoCE priority under trust
l3, every port at the plan's MTU, a PFC profile per real cable length, and BGP; what NVUE
cannot carry is refused at the gate, naming the host, the field and why; the change classes of
NVUE's documented side effects. Golden values from the references: Kmin 1.5 KB per Gb/s (600,000
B at 400G) and Kmax 10 x Kmin (docs/lossless-math.md §3), NVUE's lossless pool alpha 1 (one PG
pauses at half the pool: Cumulus Linux 5.14 QoS page, qos_infra.conf ALPHA_1)."""
import math
import os

import pytest
import yaml

from ansible_collections.roce.fabric.plugins.module_utils import errors, pipeline
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.inputs import validate
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs
from ansible_collections.roce.fabric.plugins.module_utils.render.cumulus import changes, nvue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))


@pytest.fixture(scope="module")
def example(cumulus_example):
    return cumulus_example, outputs.render_all(cumulus_example)


def _doc(files, name):
    (op,) = yaml.safe_load(files["configs/%s.yaml" % name])
    return op["set"]


def test_the_example_on_cumulus_plans_as_the_example(example, proven):
    plan, _files = example
    assert proven(plan["violations"]) == []
    assert [d["platform"] for n, d in sorted(plan["devices"].items())
            if n.startswith("leaf1")] == ["cumulus", "cumulus"]


def test_pfc_on_the_roce_priority_only_with_a_profile_per_real_cable(example):
    plan, files = example
    for name in ("leaf1a", "leaf1b"):
        tree, dev = _doc(files, name), plan["devices"][name]
        pfc = tree["qos"]["pfc"]
        assert all(set(p["switch-priority"]) == {"3"} for p in pfc.values())
        assert all(p["tx"] == p["rx"] == "enable" for p in pfc.values())
        for port in dev["ports"]:
            profile = tree["interface"][port["name"]]["qos"]["pfc"]["profile"]
            assert pfc[profile]["cable-length"] == math.ceil(port["cable_m"])
        # NVUE sizes xoff/xon itself: none rendered
        nvue_own = {"xoff-threshold", "xon-threshold", "port-buffer"}
        assert not [p for p in pfc.values() if nvue_own & set(p)]
        assert "link-pause" not in tree["qos"] and "roce" not in tree["qos"]


def test_ecn_on_the_roce_class_with_the_plans_thresholds_below_the_pause_point(example):
    plan, files = example
    tree, dev = _doc(files, "leaf1a"), plan["devices"]["leaf1a"]
    pause = dev["buffer"]["trigger"]["trigger_one_pg_bytes"]
    for port in dev["ports"]:
        name = tree["interface"][port["name"]]["qos"]["congestion-control"]["profile"]
        classes = tree["qos"]["congestion-control"][name]["traffic-class"]
        assert classes["0"] == {"ecn": "disable"}        # NVUE's default marks TC 0
        marks = classes["3"]
        assert marks["ecn"] == "enable" and marks["red"] == "disable"
        # 400G: Kmin 1.5 KB per Gb/s, Kmax 10 x Kmin, Pmax 20 % (docs/lossless-math.md §3)
        assert (marks["min-threshold"], marks["max-threshold"], marks["probability"]) == (
            600000, 6000000, 20)
        assert marks["min-threshold"] < marks["max-threshold"] < pause
    # NVUE's lossless pool, half the shared pool, pauses one PG at half its size (alpha 1)
    assert pause == dev["buffer"]["shared_pool_bytes"] * 50 // 100 // 2


def test_dscp_26_on_the_roce_priority_trust_l3_cnp_strict_and_every_port_at_the_mtu(example):
    plan, files = example
    tree, dev = _doc(files, "leaf1a"), plan["devices"]["leaf1a"]
    mapping = tree["qos"]["mapping"]["default-global"]
    assert mapping["trust"] == "l3" and len(mapping["dscp"]) == 64
    assert mapping["dscp"]["26"] == {"switch-priority": 3}
    assert mapping["dscp"]["48"] == {"switch-priority": 6}
    assert [d for d, v in mapping["dscp"].items() if v["switch-priority"] == 3] == ["26"]
    # the priorities the plan does not use go to best effort: another port's own QoS map that
    # puts traffic there never reaches a strict class
    queues = tree["qos"]["egress-queue-mapping"]["default-global"]["switch-priority"]
    assert dict((sp, v["traffic-class"]) for sp, v in queues.items()) == {
        "0": 0, "1": 0, "2": 0, "3": 3, "4": 0, "5": 0, "6": 6, "7": 0}
    sched = tree["qos"]["egress-scheduler"]["default-global"]["traffic-class"]
    assert sched["6"] == {"mode": "strict"}
    assert sched["3"] == sched["0"] == {"mode": "dwrr", "bw-percent": 50}
    assert sum(c.get("bw-percent", 0) for c in sched.values()) <= 100
    swps = dict((n, i) for n, i in tree["interface"].items() if "s" in n[3:])
    assert sorted(swps) == sorted(p["name"] for p in dev["ports"])
    assert set(i["link"]["mtu"] for i in swps.values()) == {9214}
    assert set(i["link"]["speed"] for i in swps.values()) == {"400G"}
    cages = set(p["name"][:p["name"].index("s", 3)] for p in dev["ports"])    # swp1s0 -> swp1
    assert all(tree["interface"][c]["link"]["breakout"] == {"2x": {}} for c in cages)


def test_bgp_as_the_plan_has_it(example):
    plan, files = example
    tree, dev = _doc(files, "leaf1a"), plan["devices"]["leaf1a"]
    bgp = dev["bgp"]
    assert tree["router"]["bgp"] == {"autonomous-system": bgp["asn"],
                                     "router-id": bgp["router_id"], "enable": "on"}
    vrf = tree["vrf"]["default"]["router"]["bgp"]
    assert sorted(vrf["neighbor"]) == sorted(n["address"] for n in bgp["neighbors"])
    for n in bgp["neighbors"]:
        peer = vrf["neighbor"][n["address"]]
        assert peer["remote-as"] == n["asn"] and peer["type"] == "numbered"
        assert peer["timers"] == {"keepalive": bgp["keepalive_s"], "hold": bgp["hold_s"]}
        af = peer["address-family"]["ipv4-unicast"]
        assert af["policy"]["inbound"]["route-map"] == "RF-DRAIN-IN"
        assert af["prefix-limits"]["inbound"]["maximum"] == n["max_routes"]
    assert vrf["path-selection"]["multipath"]["aspath-ignore"] == "on"
    assert vrf["address-family"]["ipv4-unicast"]["multipaths"]["ebgp"] == bgp["maximum_paths"]
    gshut = tree["router"]["policy"]["community-list"]["RF-GSHUT"]["rule"]["5"]
    assert gshut["community"] == {"65535:0": {}}          # RFC 8326 GRACEFUL_SHUTDOWN


def test_adaptive_routing_on_the_400g_uplinks_only(example):
    plan, files = example
    tree, dev = _doc(files, "leaf1a"), plan["devices"]["leaf1a"]
    assert tree["router"]["adaptive-routing"] == {"enable": "on"}
    for port in dev["ports"]:
        ar = tree["interface"][port["name"]].get("router")
        assert (ar is not None) == (port["peer_kind"] != "host"), port["name"]


def test_no_adaptive_routing_on_800g_fabric_ports():
    groups, hostvars = generate.clos(256, 64, 1, platforms="cumulus")[:2]
    for hv in hostvars.values():
        hv.setdefault("roce_fabric", None)
    fabric = next(hv["roce_fabric"] for hv in hostvars.values() if hv.get("roce_fabric"))
    fabric["fabric_link"] = dict(fabric.get("fabric_link") or {}, speed_gbps=800)
    fabric["host_link"] = dict(fabric.get("host_link") or {}, speed_gbps=800)
    fabric["ecmp"] = dict(fabric.get("ecmp") or {}, adaptive_routing=True)
    plan = pipeline.build_plan(groups, dict((h, dict((k, v) for k, v in hv.items() if v))
                                            for h, hv in hostvars.items()))
    leaf = next(d for d in plan["devices"].values() if d["kind"] == "switch")
    rendered = leaf["ecmp"]["rendered"]
    assert rendered["adaptive_routing"] is False
    assert any("800G fabric ports" in note for note in rendered["not_rendered"])
    tree = yaml.safe_load(nvue.nvue_yaml(leaf))[0]["set"]
    assert "adaptive-routing" not in tree["router"]


@pytest.mark.parametrize("leaf_vars, field, words", [
    ("roce_lossless:\n  trigger_mode: static\n", "roce_lossless.trigger_mode",
     "NVUE's lossless pool has a dynamic threshold"),
    ("roce_lossless:\n  xon_offset_bytes: 20000\n", "roce_lossless.xon_offset_bytes",
     "NVUE sizes xon itself"),
    ("roce_link_overrides:\n  swp1s0: {headroom_bytes: 262144}\n",
     "roce_link_overrides.swp1s0.headroom_bytes", "NVUE sizes each port's headroom"),
    ("roce_lossless:\n  sonic: {buffer_model: dynamic}\n", "roce_lossless.sonic",
     "configures SONiC's buffer manager"),
    ("roce_pfc_watchdog: {poll_ms: 50}\n", "roce_pfc_watchdog.poll_ms", "100 to 5000 on Cumulus"),
    ("roce_pfc_watchdog: {action: alert}\n", "roce_pfc_watchdog.action", "Cumulus Linux has: drop"),
    ("roce_model: 7060x6-64pe\n", "roce_platform", "a platform the Arista 7060X6-64PE runs: "
     "sonic, eos"),
])
def test_what_nvue_cannot_carry_is_refused_at_the_gate(tmp_path, inventory_data,
                                                       cumulus_inventory, leaf_vars, field,
                                                       words):
    # the pair's roce_lossless is replaced, so a refused key is the only one given
    path = cumulus_inventory(tmp_path, lambda t: t.split("roce_lossless:")[0], leaf_vars)
    with pytest.raises((errors.RoceInputError, validate.RoceInputErrors)) as err:
        pipeline.build_plan(*inventory_data(str(path)))
    text = str(err.value)
    assert "leaf1a" in text and field in text and words in text, text


def _platform(name):
    """An edit of leaf_pair1.yml: its platform ``name`` instead of cumulus."""
    def edit(text):
        return text.replace("roce_platform: cumulus", "roce_platform: " + name)
    return edit


def test_the_pool_share_moves_the_pause_point_and_is_refused_on_sonic(tmp_path, inventory_data,
                                                                      cumulus_inventory):
    path = cumulus_inventory(tmp_path, None, "  nvue: {lossless_pool_percent: 70}\n")
    plan = pipeline.build_plan(*inventory_data(str(path)))
    buf = plan["devices"]["leaf1a"]["buffer"]
    assert buf["trigger"]["trigger_one_pg_bytes"] == buf["shared_pool_bytes"] * 70 // 100 // 2
    tree = yaml.safe_load(nvue.nvue_yaml(plan["devices"]["leaf1a"]))[0]["set"]
    assert tree["qos"]["traffic-pool"]["default-lossless"]["memory-percent"] == 70
    assert tree["qos"]["traffic-pool"]["default-lossy"]["memory-percent"] == 30
    sonic = cumulus_inventory(tmp_path / "s", _platform("sonic"),
                              "  nvue: {lossless_pool_percent: 70}\n")
    with pytest.raises(errors.RoceInputError) as err:
        pipeline.build_plan(*inventory_data(str(sonic)))
    assert "roce_lossless.nvue" in str(err.value) and "NVUE buffer pools" in str(err.value)


def test_a_mistyped_platform_is_refused_with_did_you_mean(tmp_path, inventory_data,
                                                          cumulus_inventory):
    path = cumulus_inventory(tmp_path, _platform("cumuls"))
    with pytest.raises(validate.RoceInputErrors) as err:
        pipeline.build_plan(*inventory_data(str(path)))
    assert "roce_platform = 'cumuls' is not valid" in str(err.value)
    assert "did you mean cumulus?" in str(err.value)


# -- change classes (Cumulus Linux 5.14: ECMP, QoS and BGP pages) -------------------------------

BASE = """- set:
    interface:
      swp1s0:
        type: swp
        description: 'gpu1:rdma0'
        link:
          mtu: 9214
    qos:
      congestion-control:
        RF-ECN-1-2:
          traffic-class:
            '3':
              min-threshold: 600000
      traffic-pool:
        default-lossless:
          memory-percent: 50
    router:
      bgp:
        autonomous-system: 65101
    system:
      forwarding:
        hash-seed: 1
"""


@pytest.mark.parametrize("old, new, cls", [
    ("hash-seed: 1", "hash-seed: 2", "port-flapping"),        # switchd restart, ports reset
    ("min-threshold: 600000", "min-threshold: 500000", "hitless"),
    ("memory-percent: 50", "memory-percent: 60", "traffic-affecting"),   # qos_infra.conf
    ("mtu: 9214", "mtu: 9000", "port-flapping"),
    ("'gpu1:rdma0'", "'gpu9:rdma0'", "hitless"),
    ("autonomous-system: 65101", "autonomous-system: 65102", "traffic-affecting"),  # FRR
])
def test_change_classes(old, new, cls):
    (part,) = changes.nvue_parts(BASE, BASE.replace(old, new))
    assert part["class"] == cls, part
    assert part["changed"] == 1 and part["added"] == part["removed"] == 0


def test_a_new_profile_is_added_and_nothing_differs_is_no_part():
    assert changes.nvue_parts(BASE, BASE) == []
    added = BASE.replace("        RF-ECN-1-2:", "        RF-ECN-9-9:\n          traffic-class:\n"
                         "            '3':\n              ecn: enable\n        RF-ECN-1-2:")
    (part,) = changes.nvue_parts(BASE, added)
    assert (part["part"], part["added"], part["class"]) == ("qos congestion-control", 1,
                                                            "hitless")
