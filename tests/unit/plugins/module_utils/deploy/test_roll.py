"""How a switch is rolled from the disruption class of its change (deploy/roll.py)."""
import json

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy import roll
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes as changes


def record(cls, parts=None, device="leaf1a"):
    return {"device": device, "class": cls, "parts": parts or [], "summary": "WRED_PROFILE ~1"}


def test_find_record_prefers_the_switch_render_then_the_change_plan():
    render = {"changes": [record("hitless")]}
    plan = {"change_plan": {"devices": [record("port-flapping"), record("reload", device="x")]}}
    assert roll.find_record("leaf1a", render, plan)["class"] == "hitless"
    assert roll.find_record("leaf1a", None, plan)["class"] == "port-flapping"
    assert roll.find_record("x", {"changes": []}, plan)["class"] == "reload"
    assert roll.find_record("leaf9", render, plan) is None
    assert roll.find_record("leaf1a", [record("hitless")]) is not None


@pytest.mark.parametrize("cls, drain, ports", [
    ("hitless", False, False), ("traffic-affecting", True, False),
    ("port-flapping", True, True)])
def test_the_class_picks_the_steps(cls, drain, ports):
    out = roll.decide("leaf1a", record(cls), pending=True)
    assert (out["todo"], out["class"], out["drain"], out["check_ports"], out["refused"]) == (
        True, cls, drain, ports, "")
    assert cls in out["why"]


def test_a_switch_that_does_not_drain_never_drains_and_says_it_rolls_live():
    live = roll.decide("spine1", record("traffic-affecting"), True, drains=False)
    assert not live["drain"]
    assert live["steps"] == ("apply, verify - LIVE, not drained (switch_deploy_drain: false): "
                             "traffic through this switch meets the change")
    flap = roll.decide("spine1", record("port-flapping"), True, drains=False)
    assert flap["steps"].startswith("apply, verify, check the ports are up at the planned "
                                    "speed/MTU - LIVE, not drained")
    hitless = roll.decide("spine1", record("hitless"), True, drains=False)
    assert hitless["steps"] == "apply, verify (no drain)"


def test_nothing_recorded_and_nothing_pending_runs_nothing():
    assert not roll.decide("leaf1a", None, pending=False)["todo"]


def test_no_record_no_baseline_or_a_forced_roll_drain():
    assert roll.decide("leaf1a", None, pending=True)["class"] == "traffic-affecting"
    unrecorded = roll.decide("leaf1a", record("no-baseline"), pending=True)
    assert unrecorded["class"] == "traffic-affecting" and unrecorded["drain"]
    assert "no deployed-state record" in unrecorded["why"]
    forced = roll.decide("leaf1a", None, pending=False, force=True)
    assert forced["todo"] and forced["drain"] and "forced" in forced["why"]
    hitless = roll.decide("leaf1a", record("hitless"), pending=True, force=True)
    assert hitless["drain"] and hitless["class"] == "traffic-affecting"
    flap = roll.decide("leaf1a", record("port-flapping"), pending=True, force=True)
    assert flap["class"] == "port-flapping"


def test_a_recorded_change_rolls_even_when_the_device_shows_no_difference():
    # linux backend: WRED_PROFILE has no netdev; the record alone decides
    assert roll.decide("leaf1a", record("hitless"), pending=False)["todo"]


def test_a_reload_is_refused_with_the_reason_unless_allowed():
    part = {"part": "DEVICE_METADATA", "class": "reload", "reasons": ["reload"]}
    out = roll.decide("leaf1a", record("reload", [part]), True, reasons=changes.REASONS)
    assert out["refused"].startswith("leaf1a: refused - a reload-class change: DEVICE_METADATA")
    assert "read only when the services start" in out["refused"]
    assert "sonic-utilities #4680" in out["refused"]
    assert "switch_deploy_allow_reload=true" in out["refused"]
    allowed = roll.decide("leaf1a", record("reload", [part]), True, allow_reload=True)
    assert not allowed["refused"] and allowed["drain"] and allowed["check_ports"]
    assert "reload the switch" in allowed["why"]


def test_the_classes_are_the_change_plans():
    assert roll.CLASSES == changes.CLASSES


DEVICE = {"ports": [
    {"name": "Ethernet0", "up": True, "peer": "gpu1", "mtu_bytes": 9216, "speed_gbps": 400},
    {"name": "Ethernet8", "up": True, "peer": "spine1", "mtu_bytes": 9216, "speed_gbps": 400},
    {"name": "Ethernet12", "up": False, "peer": None, "mtu_bytes": 9216, "speed_gbps": 400}]}


def test_port_problems_linux():
    links = [{"ifname": "Ethernet0", "flags": ["BROADCAST", "UP", "LOWER_UP"], "mtu": 9216,
              "operstate": "UP"},
             {"ifname": "Ethernet8", "flags": ["BROADCAST", "UP"], "mtu": 1500,
              "operstate": "DOWN"}]
    planned = roll.planned_ports(DEVICE)
    assert sorted(planned) == ["Ethernet0", "Ethernet8"]
    assert roll.port_problems(planned, roll.ports_linux(json.dumps(links))) == [
        "Ethernet8: down", "Ethernet8: mtu 1500, planned 9216"]
    links[1].update(flags=["UP", "LOWER_UP"], mtu=9216)
    assert roll.port_problems(planned, roll.ports_linux(links)) == []


def test_port_problems_sonic_show_interfaces_status():
    text = """\
  Interface            Lanes    Speed    MTU    FEC    Alias    Vlan    Oper    Admin             Type    Asym PFC
-----------  ---------------  -------  -----  -----  -------  ------  ------  -------  ---------------  ----------
  Ethernet0          0,1,2,3     400G   9216     rs     etp1  routed      up       up  QSFP-DD Double         N/A
  Ethernet8      16,17,18,19     200G   9216     rs     etp3  routed    down       up  QSFP-DD Double         N/A
"""
    live = roll.ports_sonic(text)
    assert live["Ethernet0"] == {"up": True, "mtu": 9216, "speed_gbps": 400}
    assert roll.port_problems(roll.planned_ports(DEVICE), live) == [
        "Ethernet8: down", "Ethernet8: 200G, planned 400G"]


def test_port_problems_eos():
    status = {"interfaceStatuses": {
        "Ethernet0": {"linkStatus": "connected", "bandwidth": 400000000000},
        "Ethernet8": {"linkStatus": "notconnect", "bandwidth": 400000000000}}}
    assert roll.port_problems(roll.planned_ports(DEVICE), roll.ports_eos(status)) == [
        "Ethernet8: down"]
    assert roll.port_problems(roll.planned_ports(DEVICE), {}) == [
        "Ethernet0: not found", "Ethernet8: not found"]
