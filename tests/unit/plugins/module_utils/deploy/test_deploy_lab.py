"""Verification and netdev decisions against state recorded from the deployed lab fabric
(fixtures/frr-lab/README.md): a deployed switch must verify clean and need no change; each
recorded value bent away from the plan must show up as exactly that mismatch or change."""
import copy
import json
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy import netdev, verify
from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan_mod
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    config_db as render_sonic)

FIX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                   "fixtures", "frr-lab")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(FIX))))


def recorded(name):
    with open(os.path.join(FIX, name)) as handle:
        return json.load(handle)


_LAB = []


@pytest.fixture
def lab_plan(inventory_data):
    """The plan of the molecule fabric lab's inventory (built once: ansible-inventory is slow)."""
    if not _LAB:
        _LAB.append(plan_mod.build_plan(*inventory_data(os.path.join(
            ROOT, "molecule", "fabric", "inventory", "hosts.yml"))))
    return _LAB[0]


def test_deployed_leaf_and_spine_verify_clean(lab_plan):
    for device in ("leaf1a", "spine1"):
        result = verify.check(plan_targets.targets(device, lab_plan),
                              recorded(device + "-bgp-summary.json"),
                              recorded(device + "-routes.json"))
        assert result["ok"], result["failed"]
    leaf = verify.check(plan_targets.targets("leaf1a", lab_plan), recorded("leaf1a-bgp-summary.json"),
                        recorded("leaf1a-routes.json"))
    # 2 spines; 6 host /31s on the 3 other leaves, each over both uplinks.
    assert leaf["summary"] == ("leaf1a: 2/2 BGP sessions Established, 6/6 host prefixes at "
                               "plan ECMP width")


def test_a_down_session_and_a_lost_uplink_are_reported(lab_plan):
    summary = recorded("leaf1a-bgp-summary.json")
    routes = recorded("leaf1a-routes.json")
    summary["peers"]["198.18.8.2"]["state"] = "Idle"
    bent = next(r for r in routes if r.get("nexthops") and r["dst"].endswith("/31"))
    bent["nexthops"] = bent["nexthops"][:1]
    result = verify.check(plan_targets.targets("leaf1a", lab_plan), summary, routes)
    assert not result["ok"]
    found = [(r["check"], r["actual"]) for r in result["failed"]]
    assert found == [("bgp", "Idle"), ("ecmp", 1)]
    assert result["failed"][1]["item"] == bent["dst"]


def test_present_mode_skips_prefixes_not_announced_yet(lab_plan):
    routes = [r for r in recorded("leaf1a-routes.json") if not r["dst"].startswith("198.18.64")]
    targets = plan_targets.targets("leaf1a", lab_plan)
    assert not verify.check(targets, recorded("leaf1a-bgp-summary.json"), routes)["ok"]
    assert verify.check(targets, recorded("leaf1a-bgp-summary.json"), routes,
                        prefixes="present")["ok"]


def test_deployed_netdevs_need_no_change_and_drift_is_put_back(lab_plan):
    config_db = render_sonic.config_db(lab_plan["devices"]["leaf1a"])
    want = netdev.intended(config_db, loopback_device="lo")
    link, addr = recorded("leaf1a-link.json"), recorded("leaf1a-addr.json")
    have = netdev.live(json.dumps(link), json.dumps(addr))
    assert netdev.decide(want, have) == ([], [])
    for entry in link + addr:
        if entry["ifname"] == "Ethernet16":
            entry["mtu"] = 1500
            entry["addr_info"] = [a for a in entry.get("addr_info", [])
                                  if a.get("family") != "inet"]
    changes, missing = netdev.decide(want, netdev.live(json.dumps(link), json.dumps(addr)))
    assert missing == []
    port = next(p for p in lab_plan["devices"]["leaf1a"]["ports"] if p["name"] == "Ethernet16")
    assert [c["argv"] for c in changes] == [
        ["ip", "link", "set", "dev", "Ethernet16", "mtu", "9216"],
        ["ip", "addr", "add", port["address"], "dev", "Ethernet16"]]


def test_a_missing_port_is_named_and_a_stale_address_removed(lab_plan):
    config_db = copy.deepcopy(render_sonic.config_db(lab_plan["devices"]["leaf1a"]))
    config_db["PORT"]["Ethernet64"] = {"mtu": "9216", "admin_status": "up"}
    want = netdev.intended(config_db, loopback_device="lo")
    addr = recorded("leaf1a-addr.json")
    for entry in addr:
        if entry["ifname"] == "Ethernet0":
            entry["addr_info"].append({"family": "inet", "local": "198.18.99.1",
                                       "prefixlen": 31, "scope": "global"})
    changes, missing = netdev.decide(want, netdev.live(json.dumps(recorded("leaf1a-link.json")),
                                                       json.dumps(addr)))
    assert missing == ["Ethernet64"]
    assert [c["argv"] for c in changes] == [["ip", "addr", "del", "198.18.99.1/31", "dev",
                                             "Ethernet0"]]


def eos(name):
    with open(os.path.join(os.path.dirname(FIX), "eos", name)) as handle:
        return json.load(handle)


def test_eos_json_is_read_the_same_way(example):
    plan = plan_mod.build_plan(*example)
    targets = plan_targets.targets("leaf2a", plan)
    summary, routes = eos("leaf2a-show-ip-bgp-summary.json"), eos("leaf2a-show-ip-route.json")
    result = verify.check(targets, summary, routes)
    assert result["ok"], result["failed"]
    assert result["summary"].startswith("leaf2a: 16/16 BGP sessions Established")
    first = sorted(summary["vrfs"]["default"]["peers"])[0]
    summary["vrfs"]["default"]["peers"][first]["peerState"] = "Active"
    prefix = sorted(targets["routes"])[0]
    routes["vrfs"]["default"]["routes"][prefix]["vias"].pop()
    bad = verify.check(targets, summary, routes)["failed"]
    assert [(r["check"], r["actual"]) for r in bad] == [("bgp", "Active"), ("ecmp", 15)]
