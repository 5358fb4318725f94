"""SONiC deploy: objects the plan owns that something outside the plan uses are refused before
anything is applied, naming both (deploy/sonic_shared.py, issue 28).

The switch is the real running CONFIG_DB of ../shared/running-configs/sonic (an SN5600 with 128
ports, the plan wires 32) and variants of it made here; the plan is the bundled example's leaf1a.
Expected numbers are read from those two files and counted here, never from the code under test.
"""
import copy
import json

import jsonpatch
import pytest
import sonic_running_configs
from sonic_running_configs import intended

from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic as deploy_sonic
from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic_shared

RELOAD = ["docker_routing_config_mode"]          # separated -> split; refused otherwise
PROFILE = "pg_lossless_400000_5m_profile"
HAND_OVER = ["BUFFER_PROFILE|" + PROFILE]


def realistic():
    return sonic_running_configs.realistic("SONiC shared-object tests")


def refused(running, want, **kw):
    """The refusal's text; the patch must not come back (nothing to apply)."""
    with pytest.raises(ValueError) as exc:
        deploy_sonic.config_patch(running, want, allow_reload=RELOAD, **kw)
    return str(exc.value)


def foreign_users(running, want, name):
    """BUFFER_PG / BUFFER_QUEUE rows of ports the plan does not wire that use profile ``name``,
    counted by scanning the running DB (the plan's ports: its PORT table)."""
    return sorted("%s|%s" % (table, key) for table in ("BUFFER_PG", "BUFFER_QUEUE")
                  for key, row in running.get(table, {}).items()
                  if row.get("profile") == name and key.split("|")[0] not in want["PORT"])


# ------------------------------------------------------------------ named objects (item 5)

def test_the_switchs_lossless_profile_under_96_foreign_ports_is_refused_with_the_numbers():
    running, want = realistic(), intended()
    have, plan = running["BUFFER_PROFILE"][PROFILE], want["BUFFER_PROFILE"][PROFILE]
    assert have["size"] != plan["size"] and have["xoff"] != plan["xoff"]
    users = foreign_users(running, want, PROFILE)
    assert len(users) == 96
    msg = refused(running, want)
    assert "BUFFER_PROFILE|%s" % PROFILE in msg
    assert "size %s -> %s" % (have["size"], plan["size"]) in msg
    assert "xoff %s -> %s" % (have["xoff"], plan["xoff"]) in msg
    assert "96 keys outside the plan" in msg and users[0] in msg and "93 more" in msg
    delta = int(plan["size"]) - int(have["size"])
    assert "%+d bytes reserved per PG row x 96 rows = %+d bytes" % (delta, delta * 96) in msg
    assert 'switch_deploy_sonic_hand_over: ["BUFFER_PROFILE|%s"]' % PROFILE in msg


def test_handed_over_the_patch_rewrites_only_the_profile_under_the_foreign_ports():
    running, want = realistic(), intended()
    patch = deploy_sonic.config_patch(running, want, allow_reload=RELOAD, hand_over=HAND_OVER)
    result = jsonpatch.apply_patch(running, patch)
    assert result["BUFFER_PROFILE"][PROFILE] == want["BUFFER_PROFILE"][PROFILE]
    users = foreign_users(running, want, PROFILE)
    for user in users:
        table, key = user.split("|", 1)
        assert json.dumps(result[table][key], sort_keys=True) == json.dumps(
            running[table][key], sort_keys=True)
    touched = [op["path"] for op in patch if any(
        op["path"].startswith("/%s/%s" % tuple(u.split("|", 1))) for u in users)]
    assert touched == []
    assert deploy_sonic.config_patch(result, want, allow_reload=RELOAD, hand_over=HAND_OVER) == []


def test_an_identical_profile_is_reused_without_refusal():
    running, want = realistic(), intended()
    running["BUFFER_PROFILE"][PROFILE] = copy.deepcopy(want["BUFFER_PROFILE"][PROFILE])
    assert deploy_sonic.shared_risks(running, want) == []
    assert deploy_sonic.config_patch(running, want, allow_reload=RELOAD)


def test_a_differing_profile_no_foreign_port_uses_is_the_plans():
    running, want = realistic(), intended()
    for key, row in running["BUFFER_PG"].items():
        if row.get("profile") == PROFILE and key.split("|")[0] not in want["PORT"]:
            row["profile"] = "ingress_lossy_profile"
    assert deploy_sonic.config_patch(running, want, allow_reload=RELOAD)


def test_a_qos_map_other_ports_use_is_refused_too():
    running, want = realistic(), intended()
    running["DSCP_TO_TC_MAP"]["ROCE"] = {"0": "1"}
    running["PORT_QOS_MAP"]["Ethernet256"]["dscp_to_tc_map"] = "ROCE"
    msg = refused(running, want, hand_over=HAND_OVER)
    assert "DSCP_TO_TC_MAP|ROCE" in msg and "PORT_QOS_MAP|Ethernet256" in msg


def test_an_unknown_hand_over_name_is_an_error_naming_it_and_the_valid_ones():
    running, want = realistic(), intended()
    msg = refused(running, want, hand_over=["BUFFER_PROFILE|pg_lossless_400000_300m_profile"])
    assert '"BUFFER_PROFILE|pg_lossless_400000_300m_profile"' in msg
    assert "switch_deploy_sonic_hand_over" in msg and "BUFFER_PROFILE|%s" % PROFILE in msg
    assert "SCHEDULER|roce_dwrr" in msg


# ------------------------------------------ ports, VRFs, source interfaces (items 1 to 4)

def test_a_plan_port_in_a_port_channel_is_refused_naming_both():
    running, want = realistic(), intended()
    running["PORTCHANNEL_MEMBER"]["PortChannel101|Ethernet0"] = {}
    msg = refused(running, want, hand_over=HAND_OVER)      # handing over frees no port
    assert "PORT|Ethernet0" in msg and "PORTCHANNEL_MEMBER|PortChannel101|Ethernet0" in msg
    assert "config portchannel member del PortChannel101 Ethernet0" in msg
    assert "198.18.64.0/31" in msg                          # the address the plan would give it


def test_a_plan_port_in_a_vlan_is_refused_naming_both():
    running, want = realistic(), intended()
    running["VLAN_MEMBER"]["Vlan1000|Ethernet4"] = {"tagging_mode": "untagged"}
    msg = refused(running, want, hand_over=HAND_OVER)
    assert "PORT|Ethernet4" in msg and "VLAN_MEMBER|Vlan1000|Ethernet4" in msg
    assert "config vlan member del Vlan1000 Ethernet4" in msg


def test_a_plan_port_in_another_vrf_is_refused_naming_both():
    running, want = realistic(), intended()
    running["INTERFACE"]["Ethernet8"] = {"vrf_name": "Vrf-inband"}
    assert "vrf_name" not in want["INTERFACE"]["Ethernet8"]
    msg = refused(running, want, hand_over=HAND_OVER)
    assert "INTERFACE|Ethernet8 vrf_name Vrf-inband -> (none)" in msg and "VRF Vrf-inband" in msg


def test_tacacs_sourced_from_the_loopback_the_plan_readdresses_is_refused():
    running, want = realistic(), intended()
    old = sorted(k for k in running["LOOPBACK_INTERFACE"] if k.startswith("Loopback0|"))
    new = sorted(k for k in want["LOOPBACK_INTERFACE"] if k.startswith("Loopback0|"))
    assert old == ["Loopback0|10.1.0.32/32"] and new == ["Loopback0|198.18.0.2/32"]
    running["TACPLUS"]["global"]["src_intf"] = "Loopback0"
    msg = refused(running, want, hand_over=HAND_OVER)
    assert "TACPLUS|global src_intf Loopback0" in msg
    assert "10.1.0.32/32 -> 198.18.0.2/32" in msg


def test_services_sourced_from_an_address_the_plan_removes_are_named():
    running, want = realistic(), intended()
    running["SNMP_AGENT_ADDRESS_CONFIG"]["10.1.0.32|161|"] = {}
    running["SYSLOG_SERVER"]["10.0.10.5"]["source"] = "10.1.0.32"
    running["NTP"]["global"]["src_intf"] = ["eth0", "Loopback0"]        # a leaf-list
    lines = deploy_sonic.shared_risks(running, want, HAND_OVER)
    assert len(lines) == 3
    assert any("SNMP_AGENT_ADDRESS_CONFIG|10.1.0.32|161|" in ln and
               "LOOPBACK_INTERFACE|Loopback0|10.1.0.32/32" in ln for ln in lines)
    assert any("SYSLOG_SERVER|10.0.10.5 source 10.1.0.32" in ln for ln in lines)
    assert any("NTP|global src_intf Loopback0" in ln for ln in lines)


def test_the_realistic_switch_hangs_nothing_else_on_the_plan():
    """Its LAG, VLAN, in-band VRF port, TACACS+ (Loopback1) and SNMP (Loopback1, mgmt) all sit
    outside the plan: only the profile is refused."""
    running, want = realistic(), intended()
    assert deploy_sonic.shared_risks(running, want, HAND_OVER) == []


# -------------------------------------------------------------------- breakout (item 6)

def one_by_800(running):
    """The device's first cage in 1x800G (as DPB leaves it: one port on all eight lanes)."""
    running = copy.deepcopy(running)
    running["BREAKOUT_CFG"]["Ethernet0"] = {"brkout_mode": "1x800G[400G,200G]"}
    running["PORT"]["Ethernet0"].update(lanes="0,1,2,3,4,5,6,7", speed="800000")
    del running["PORT"]["Ethernet4"]
    return running


def test_a_breakout_mode_the_plans_ports_do_not_fit_is_refused():
    running, want = one_by_800(realistic()), intended()
    assert want["PORT"]["Ethernet0"]["lanes"] == "0,1,2,3" and "Ethernet4" in want["PORT"]
    msg = refused(running, want, hand_over=HAND_OVER)
    assert "BREAKOUT_CFG|Ethernet0 brkout_mode is 1x800G[400G,200G]" in msg
    assert "Ethernet0 (lanes 0,1,2,3, speed 400000)" in msg and "Ethernet4" in msg
    assert "describe 2x400G" in msg and "config interface breakout Ethernet0" in msg


def test_a_speed_the_mode_lacks_is_refused_and_an_alternative_speed_is_not():
    running, want = realistic(), intended()
    assert running["BREAKOUT_CFG"]["Ethernet8"] == {"brkout_mode": "2x400G[200G]"}
    want["PORT"]["Ethernet8"]["speed"] = "200000"                  # in the brackets: fits
    assert sonic_shared.breakout_risks(running, want) == []
    want["PORT"]["Ethernet8"]["speed"] = "100000"
    assert [ln.split(":")[0] for ln in sonic_shared.breakout_risks(running, want)] == [
        "BREAKOUT_CFG|Ethernet8 brkout_mode is 2x400G[200G] on the device, but the plan's "
        "PORT rows Ethernet8 (lanes 8,9,10,11, speed 100000) describe a mixed mode"]


def test_no_breakout_cfg_for_the_parent_no_refusal():
    running, want = one_by_800(realistic()), intended()
    del running["BREAKOUT_CFG"]["Ethernet0"]
    assert sonic_shared.breakout_risks(running, want) == []


def test_a_planned_breakout_cfg_is_compared_directly():
    running, want = realistic(), intended()
    want["BREAKOUT_CFG"] = {"Ethernet0": {"brkout_mode": "2x400G[200G]"}}
    assert sonic_shared.breakout_risks(running, want) == []
    want["BREAKOUT_CFG"]["Ethernet0"]["brkout_mode"] = "4x200G[100G]"
    assert "describe 4x200G[100G]" in sonic_shared.breakout_risks(running, want)[0]
