"""Rendering: golden files, SONiC YANG validity, EOS block structure, and numbers traced to the
plan and to SONiC's own tables."""
import copy
import json
import os

import pytest
import yaml

from ansible_collections.roce.fabric.plugins.module_utils.inputs import eos_base
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils.render import structured
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import yang as sonic_yang
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as render_eos
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    config_db as render_sonic)
from ansible_collections.roce.fabric.plugins.module_utils.deploy import drain
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
GOLDEN = os.path.join(ROOT, "tests", "golden", "example")


@pytest.fixture
def example_plan(example):
    return plan.build_plan(*example)


def test_rendered_example_equals_golden_files(example_plan):
    produced = {}
    for dev in example_plan["devices"].values():
        if dev["kind"] == "switch":
            produced.update(render.render_switch(dev))
            produced.update(render.render_anta(dev, example_plan))
        else:
            produced.update(render.render_host(dev))
    produced.update(render.render_report(example_plan))
    golden = {}
    for folder, _dirs, files in os.walk(GOLDEN):
        for fname in files:
            path = os.path.join(folder, fname)
            with open(path) as handle:
                golden[os.path.relpath(path, GOLDEN)] = handle.read()
    assert sorted(produced) == sorted(golden)
    for rel in sorted(golden):
        assert produced[rel] == golden[rel], "%s differs from the golden file" % rel


def test_every_sonic_config_is_yang_valid(example_plan, validator):
    sonic = [d for d in example_plan["devices"].values() if d.get("platform") == "sonic"]
    assert len(sonic) == 2
    for dev in sonic:
        validator.validate(render_sonic.config_db(dev))


def test_yang_rejects_a_broken_config(example_plan, validator):
    db = render_sonic.config_db(example_plan["devices"]["leaf1a"])
    bad = copy.deepcopy(db)
    profile = next(iter(bad["WRED_PROFILE"].values()))
    profile["green_max_threshold"] = "1"            # max below min
    with pytest.raises(sonic_yang.YangError):
        validator.validate(bad)
    bad = copy.deepcopy(db)
    bad["QUEUE"]["Ethernet0|3"]["scheduler"] = "nope"   # dangling leafref
    with pytest.raises(sonic_yang.YangError):
        validator.validate(bad)


def test_validator_accepts_upstream_samples(validator):
    # SONiC's own rendered samples (shared/sonic-yang/upstream-samples) are a positive control.
    folder = os.path.join(validator.models_dir, "upstream-samples")
    samples = sorted(os.listdir(folder))
    assert samples
    for sample in samples:
        with open(os.path.join(folder, sample)) as handle:
            validator.validate(json.load(handle))


def test_sonic_numbers_come_from_the_plan(example_plan):
    dev = example_plan["devices"]["leaf1a"]
    db = render_sonic.config_db(dev)
    port = dev["ports"][0]
    ecn = port["lossless"]["ecn"]
    wred = db["WRED_PROFILE"][render_sonic.wred_name(ecn)]
    assert wred["green_min_threshold"] == str(ecn["kmin_bytes"])
    assert wred["green_max_threshold"] == str(ecn["kmax_bytes"])
    assert wred["wred_green_enable"] == "true" and wred["ecn"] == "ecn_all"
    prof = db["BUFFER_PROFILE"][render_sonic.profile_name(port)]
    hr = port["lossless"]["headroom"]
    assert (prof["xon"], prof["xoff"], prof["size"]) == \
        (str(hr["xon_bytes"]), str(hr["xoff_bytes"]), str(hr["size_bytes"]))
    assert prof["dynamic_th"] == str(dev["buffer"]["trigger"]["dynamic_th"])
    assert db["PORT_QOS_MAP"][port["name"]]["pfc_enable"] == "3"
    assert db["DSCP_TO_TC_MAP"]["ROCE"]["26"] == "3" and db["DSCP_TO_TC_MAP"]["ROCE"]["48"] == "6"
    assert db["QUEUE"]["%s|6" % port["name"]]["scheduler"] == "cnp_strict"
    assert db["SCHEDULER"]["cnp_strict"]["type"] == "STRICT"
    assert "L4_SRC_PORT" in db["SWITCH_HASH"]["GLOBAL"]["ecmp_hash"]
    assert db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"] == "200"
    assert db["DEVICE_METADATA"]["localhost"]["docker_routing_config_mode"] == "split"


def test_sonic_profile_matches_sn5600_ini(small_clos):
    # sonic.md §1.4: SN5600 400000 40m -> size 303104, xon 19456, xoff 283648 (port MTU 9100,
    # LOSSLESS_TRAFFIC_PATTERN mtu 1024, small packets 100 %).
    groups, hv = small_clos(host_link={"speed_gbps": 400, "cable_m": 40, "media": "fiber"},
                            mtu={"host": 9000, "leaf": 9100, "spine": 9100})
    hv["leaf1a"].update({"roce_model": "sn5600", "roce_lossless": {
        "model": "sonic-nvidia", "sonic": {"lossless_mtu_bytes": 1024, "small_packet_pct": 100}}})
    result = plan.build_plan(groups, hv)
    db = render_sonic.config_db(result["devices"]["leaf1a"])
    prof = db["BUFFER_PROFILE"]["pg_lossless_400000_40m_profile"]
    assert (prof["size"], prof["xon"], prof["xoff"]) == ("303104", "19456", "283648")
    assert db["CABLE_LENGTH"]["AZURE"]["Ethernet0"] == "40m"


def test_eos_lines_carry_the_plan(example_plan):
    dev = example_plan["devices"]["spine1"]
    text = render_eos.eos_config(dev)
    ecn = dev["ports"][0]["lossless"]["ecn"]
    assert ("random-detect ecn minimum-threshold %d bytes maximum-threshold %d bytes "
            "max-mark-probability %d" % (ecn["kmin_bytes"], ecn["kmax_bytes"],
                                         ecn["pmax_percent"])) in text
    assert "qos map dscp 26 to traffic-class 3" in text
    assert "   priority-flow-control priority 3 no-drop" in text
    assert "maximum-paths 64 ecmp 64" in text
    assert "   ingress priority-group 3 threshold 2" in text      # alpha 2 = dynamic_th 1
    blocks = dict(eos_base.parse_blocks(text))
    assert "      priority strict" not in text.split("tx-queue 3")[1].split("!")[0]
    assert blocks["interface Ethernet1/1"][-1][0] == "no shutdown"


def test_eos_mmu_lines_print_the_plan_and_reserve_for_every_port(example):
    """The Trident MMU queue profile is one per switch: the plan gives each lossless PG the
    largest reservation of the switch's ports and the shared headroom pool in whole 254-byte
    cells (Tomahawk 5, fboss Tomahawk5Asic.h), rounded up; a long cable on one port grows the
    pool (Broadcom keeps xoff there, not in the PG); the renderer prints the plan's numbers as
    they are. SONiC switches carry none."""
    groups, hv = example
    before = plan.build_plan(groups, hv)["devices"]["spine1"]["buffer"]
    hv["spine1"]["roce_link_overrides"] = {"Ethernet1/1": {"cable_m": 100}}
    result = plan.build_plan(groups, hv)
    dev = result["devices"]["spine1"]
    mmu = dev["buffer"]["eos_mmu"]
    sizes = [p["lossless"]["headroom"]["size_bytes"] for p in dev["ports"] if p["lossless"]]
    assert mmu["pg_reserved_bytes"] == max(sizes) > 0
    pool = dev["buffer"]["shared_headroom_pool_bytes"]
    assert pool > before["shared_headroom_pool_bytes"]
    assert mmu["headroom_pool_cells"] > before["eos_mmu"]["headroom_pool_cells"]
    assert (mmu["headroom_pool_cells"] - 1) * 254 < pool <= mmu["headroom_pool_cells"] * 254
    text = render_eos.eos_config(dev)
    assert "   ingress priority-group 3 reserved bytes %d" % max(sizes) in text
    assert "platform trident mmu headroom-pool limit cells %d" % mmu["headroom_pool_cells"] \
        in text
    sonic = [d for d in result["devices"].values() if d.get("platform") == "sonic"]
    assert sonic and all(d["buffer"]["eos_mmu"] is None for d in sonic)


def test_small_ecn_overrides_are_rendered_exactly(example):
    """A Kmin below 1 KB is rendered in bytes, not rounded to 0 kbytes; Pmax in whole percent,
    as the plan (and its checks) carry it."""
    groups, hv = example
    hv["leaf2a"]["roce_lossless"]["ecn"] = {"kmin_bytes": 900, "kmax_bytes": 40000,
                                            "pmax": 0.014}
    dev = plan.build_plan(groups, hv)["devices"]["leaf2a"]
    text = render_eos.eos_config(dev)
    assert ("random-detect ecn minimum-threshold 900 bytes maximum-threshold 40000 bytes "
            "max-mark-probability 1") in text
    assert dev["ports"][0]["lossless"]["ecn"]["pmax"] == 0.01


def test_hash_seed_fields_and_dlb_are_rendered_as_the_plan_credits(example_plan):
    """The checks credit the rendered seed, hash fields and adaptive routing only: each appears
    in the config text exactly as the plan's rendered ECMP values say. EOS renders no
    `ip load-sharing` line (no primary source for its keywords or seed range): the plan says
    seed None, no hash fields, the switch's default hash."""
    for name in ("spine1", "leaf2a"):
        dev = example_plan["devices"][name]
        rendered = dev["ecmp"]["rendered"]
        text = render_eos.eos_config(dev)
        assert "load-sharing" not in text
        assert rendered["seed"] is None and rendered["hash_fields"] == [] and \
            rendered["default_hash"] is True
        assert ("ip hardware fib load-balance distribution dynamic\n" in text) == \
            rendered["adaptive_routing"]
    sonic = example_plan["devices"]["leaf1a"]
    db = render_sonic.config_db(sonic)
    assert db["DEVICE_METADATA"]["localhost"]["type"] == "ToRRouter"     # seed 0 in SONiC
    assert sonic["ecmp"]["rendered"] == dict(sonic["ecmp"]["rendered"], seed=0,
                                             adaptive_routing=False)
    assert "L4_SRC_PORT" in db["SWITCH_HASH"]["GLOBAL"]["ecmp_hash"]
    assert not [t for t in db if t.startswith("ARS")]


@pytest.mark.parametrize("text", [
    "interface Ethernet1\n      mtu 9216\n",            # jumps two levels
    "hostname x\n  mtu 9216\n",                        # not a multiple of 3
    "hostname x\nend\nhostname y\n",                   # text after end
    "hostname x\n\tmtu 1\n",                           # tab
])
def test_eos_parser_rejects_malformed_blocks(text):
    with pytest.raises(ValueError):
        eos_base.parse_blocks(text)


@pytest.mark.parametrize("platform,asic,reason", [
    ("eos", "spectrum4", "do not run EOS"), ("eos", "jericho2", "VOQ"),
    ("sonic", "jericho3", "VOQ chassis")])
def test_platform_asic_pairs_rendered_incompletely_are_refused(
        small_clos, platform, asic, reason):
    groups, hv = small_clos()
    hv["spine2"].update({"roce_asic": asic, "roce_platform": platform})
    del hv["spine2"]["roce_model"]                  # a switch of no model, of that ASIC
    with pytest.raises(RoceInputError) as err:
        plan.build_plan(groups, hv)
    assert (err.value.host, err.value.field, err.value.value) == ("spine2", "roce_asic", asic)
    assert reason in str(err.value) and "tomahawk5" in str(err.value)


def test_eos_peers_honour_graceful_shutdown(example_plan):
    """Every EOS neighbor sends communities and takes RF-DRAIN-IN inbound, whose first entry
    sets local preference 0 on GSHUT-tagged routes (RFC 8326 §4)."""
    dev = example_plan["devices"]["leaf2a"]
    blocks = eos_base.parse_blocks(render_eos.eos_config(dev))
    top = dict(blocks)
    assert "ip community-list RF-GSHUT permit GSHUT" in top
    entries = [block for block in blocks if block[0].startswith("route-map RF-DRAIN-IN ")]
    assert [block[0] for block in entries] == ["route-map RF-DRAIN-IN permit 10",
                                               "route-map RF-DRAIN-IN permit 20"]
    assert [kid[0] for kid in entries[0][1]] == ["match community RF-GSHUT",
                                                 "set local-preference 0"]
    bgp = [kid[0] for kid in top["router bgp %d" % dev["bgp"]["asn"]]]
    for nbr in dev["bgp"]["neighbors"]:
        assert "neighbor %s send-community" % nbr["address"] in bgp
        assert "neighbor %s route-map RF-DRAIN-IN in" % nbr["address"] in bgp


@pytest.mark.parametrize("indent", ["   ", ""])   # running-config, and flat as eos_config sends it
def test_eos_drain_tags_every_neighbor(example_plan, indent):
    dev = example_plan["devices"]["leaf2a"]
    text = "\n".join(indent + line.strip() if line.startswith("   ") else line
                     for line in render_eos.eos_config(dev).splitlines())
    drained = drain.eos_drained(text)
    outs = [line.strip() for line in drained.splitlines() if line.endswith(" RF-DRAIN-OUT out")]
    assert outs == ["neighbor %s route-map RF-DRAIN-OUT out" % n["address"]
                    for n in dev["bgp"]["neighbors"]]
    assert "route-map RF-DRAIN-OUT permit 10\n   set community GSHUT\n!\nrouter bgp" in drained
    # only additions: removing the drain lines gives the input back (commit it to undrain)
    undrained = drained.replace("route-map RF-DRAIN-OUT permit 10\n   set community GSHUT\n!\n", "")
    assert [line for line in undrained.splitlines()
            if not line.endswith(" RF-DRAIN-OUT out")] == text.splitlines()
    if indent:
        eos_base.parse_blocks(drained)


def test_config_db_json_is_the_same_with_and_without_orjson(example_plan, monkeypatch):
    """orjson is an optional speed-up: the standard library must write the same bytes."""
    db = render_sonic.config_db(example_plan["devices"]["leaf1a"])
    fast = structured.config_db_json(db)
    monkeypatch.setattr(structured, "HAS_ORJSON", False)
    assert structured.config_db_json(db) == fast == json.dumps(db, indent=2, sort_keys=True) + "\n"


def test_structured_intent_parses_back_to_the_plan(example_plan):
    """The structured YAML (profiles once, rows on one line) is YAML that reads back as the
    device's intent: every port with its own lossless numbers, every BGP neighbour."""
    for name in ("leaf1a", "spine1"):
        dev = example_plan["devices"][name]
        back = yaml.safe_load(structured.structured_yaml(dev))
        assert [p["name"] for p in back["ports"]] == [p["name"] for p in dev["ports"]]
        assert back["bgp"]["neighbors"] == dev["bgp"]["neighbors"]
        for port, row in zip(dev["ports"], back["ports"]):
            profile = back["lossless_profiles"][row["lossless_profile"]]
            assert profile["headroom"]["xoff_bytes"] == port["lossless"]["headroom"]["xoff_bytes"]
            assert profile["ecn"] == json.loads(json.dumps(port["lossless"]["ecn"]))
            assert row["address"] == port["address"] and row["mtu_bytes"] == port["mtu_bytes"]


def test_eos_takes_the_plans_alert_as_notify_only(example):
    """EOS has no `alert` watchdog action: its notify-only keyword (eos-and-avd.md §2; AVD
    #6399) is what the plan's alert renders as."""
    groups, hostvars = example
    hostvars["spine1"]["roce_pfc_watchdog"] = {"action": "alert"}
    text = render.render_switch(plan.build_plan(groups, hostvars)["devices"]["spine1"],
                                ("configs",))["configs/spine1.cfg"]
    assert "priority-flow-control pause watchdog action notify-only" in text.splitlines()
    assert "   priority-flow-control pause watchdog port action notify-only" in text.splitlines()
    assert "alert" not in text
