"""The SONiC deploy patch, applied with an independent RFC 6902 implementation (jsonpatch)."""
import copy
import json
import os

import jsonpatch
import pytest
import sonic_running_configs
from sonic_running_configs import expected, intended
from hypothesis import given, strategies as st

from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic as deploy_sonic

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))


def test_applied_config_gives_an_empty_patch():
    want = intended()
    assert deploy_sonic.config_patch(want, want) == []


def test_drifted_switch():
    want = intended()
    running = copy.deepcopy(want)
    running["BUFFER_PROFILE"]["pg_lossless_400000_3m_profile"] = dict(
        running["BUFFER_PROFILE"].get("pg_lossless_400000_3m_profile", {"xoff": "1"}),
        xoff="1")
    running["BGP_NEIGHBOR"]["198.18.9.254"] = {"asn": "65199", "name": "not the plan's"}
    running["BGP_NEIGHBOR"]["198.18.64.1"] = {"asn": "65199", "name": "stale, on a plan port"}
    running["PORT"]["Ethernet0"]["autoneg"] = "off"          # platform field: kept
    running["PORT"]["Ethernet0"]["mtu"] = "1500"
    del running["PFC_WD"]["Ethernet8"]
    del running["INTERFACE"]["Ethernet0|198.18.64.0/31"]
    del running["WRED_PROFILE"]
    running["SYSLOG_SERVER"] = {"198.18.255.1": {}}           # not planned: untouched
    patch = deploy_sonic.config_patch(running, want)
    result = jsonpatch.apply_patch(running, patch)
    assert result == expected(running, want)
    assert result["PORT"]["Ethernet0"]["autoneg"] == "off"
    assert result["SYSLOG_SERVER"] == {"198.18.255.1": {}}
    assert "198.18.64.1" not in result["BGP_NEIGHBOR"]
    assert result["BGP_NEIGHBOR"]["198.18.9.254"] == running["BGP_NEIGHBOR"]["198.18.9.254"]
    paths = [op["path"] for op in patch]
    assert "/INTERFACE/Ethernet0|198.18.64.0~131" in paths    # RFC 6901: '/' in a key is ~1
    assert "/PORT/Ethernet0/mtu" in paths                      # field level, not the whole port
    assert patch[0]["op"] == "remove"
    assert deploy_sonic.config_patch(result, want) == []      # second run: nothing
    summary = deploy_sonic.summarize(patch)
    assert summary["BGP_NEIGHBOR"]["remove"] == 1 and summary["WRED_PROFILE"]["add"] == 1


NAMES = st.text(alphabet="ab/~|0", min_size=1, max_size=3)
DOCS = st.dictionaries(st.sampled_from(["PORT", "BGP_NEIGHBOR", "QUEUE", "X"]),
                       st.dictionaries(NAMES, st.dictionaries(NAMES, NAMES, max_size=3),
                                       max_size=3), max_size=4)


@given(DOCS, DOCS)
def test_any_running_config_ends_as_the_contract_says(running, want):
    try:
        patch = deploy_sonic.config_patch(running, want)
    except ValueError as exc:     # a key the patch would remove is still used by a kept one
        assert "still references it" in str(exc)
        return
    result = jsonpatch.apply_patch(running, patch)
    assert result == expected(running, want)
    assert deploy_sonic.config_patch(result, want) == []


def test_rollback_only_once_something_was_applied():
    assert not deploy_sonic.rollback_needed([("checkpoint", 0), ("dry_run", 1)])
    assert deploy_sonic.rollback_needed([("checkpoint", 0), ("dry_run", 0), ("apply", 0),
                                         ("frr_apply", 1)])
    assert not deploy_sonic.rollback_needed([("checkpoint", 0), ("apply", 0), ("save", 0)])
    steps = deploy_sonic.steps("roce-fabric-1", "/tmp/p.json", "/tmp/bgpd.conf", "/run/frr")
    assert steps["apply"] == ["config", "apply-patch", "-f", "CONFIGDB", "/tmp/p.json"]
    assert steps["frr_apply"][-2:] == ["--reload", "/tmp/bgpd.conf"]


# A switch's management plane as SONiC keeps it in CONFIG_DB (sonic-mgmt-interface,
# sonic-mgmt_vrf, sonic-aaa, sonic-system-tacacs, sonic-ntp, sonic-syslog YANG models).
MANAGEMENT = {
    "MGMT_INTERFACE": {"eth0|10.250.0.12/24": {"gwaddr": "10.250.0.1"}},
    "MGMT_PORT": {"eth0": {"admin_status": "up", "alias": "eth0"}},
    "MGMT_VRF_CONFIG": {"vrf_global": {"mgmtVrfEnabled": "true"}},
    "AAA": {"authentication": {"login": "tacacs+,local"}},
    "TACPLUS_SERVER": {"10.250.0.5": {"priority": "1", "tcp_port": "49"}},
    "NTP_SERVER": {"10.250.0.6": {}},
    "SYSLOG_SERVER": {"10.250.0.7": {}},
    "FEATURE": {"bgp": {"state": "enabled"}},
}


@given(st.sets(st.sampled_from(sorted(MANAGEMENT)), min_size=1),
       st.sampled_from(["leaf1a.json", "leaf1b.json"]))
def test_the_patch_never_touches_the_management_plane(tables, golden):
    with open(os.path.join(ROOT, "tests", "golden", "example", "configs", golden)) as handle:
        want = json.load(handle)
    running = copy.deepcopy(want)
    running["PORT"]["Ethernet0"]["mtu"] = "1500"
    running.update(copy.deepcopy(dict((t, MANAGEMENT[t]) for t in tables)))
    patch = deploy_sonic.config_patch(running, want)
    assert patch and not [op for op in patch if op["path"].split("/")[1] in MANAGEMENT]
    result = jsonpatch.apply_patch(running, patch)
    for table in tables:
        assert result[table] == MANAGEMENT[table]


def test_a_plan_that_would_write_management_tables_is_refused():
    want = intended()
    want["MGMT_INTERFACE"] = {"eth0|198.18.0.9/24": {}}
    try:
        deploy_sonic.config_patch(dict(MANAGEMENT), want)
    except ValueError as exc:
        assert "MGMT_INTERFACE" in str(exc) and "refused" in str(exc)
    else:
        raise AssertionError("a management-table patch was not refused")


# ------------------------------------------------- the realistic running CONFIG_DB (../shared)

def realistic():
    return sonic_running_configs.realistic("realistic CONFIG_DB tests")


def test_realistic_config_db_a_reload_field_is_refused_naming_the_consequence():
    running, want = realistic(), intended()
    with pytest.raises(ValueError) as exc:
        deploy_sonic.config_patch(running, want)
    assert "docker_routing_config_mode separated -> split" in str(exc.value)
    assert "config reload" in str(exc.value) and "allow_reload" in str(exc.value) or \
        "switch_deploy_sonic_allow_reload_fields" in str(exc.value)


# The switch's pg_lossless_400000_5m_profile (buffermgrd's standard name, which the plan takes
# too) runs with other numbers and the 96 ports outside the plan use it: refused unless handed
# over (test_sonic_shared.py). Handed over here: what is tested is which keys the patch touches.
HAND_OVER = ["BUFFER_PROFILE|pg_lossless_400000_5m_profile"]


def test_realistic_config_db_the_patch_touches_only_plan_owned_keys():
    running, want = realistic(), intended()
    patch = deploy_sonic.config_patch(running, want, allow_reload=["docker_routing_config_mode"],
                                      hand_over=HAND_OVER)
    result = jsonpatch.apply_patch(running, patch)
    names = deploy_sonic.plan_names(want)
    assert len(names) == 33 and "Ethernet508" not in names     # 32 ports and Loopback0
    kept = 0
    for table, rows in running.items():
        for key, fields in rows.items():
            port = key.split("|")[0]
            if table in want and (key in want[table] or table in deploy_sonic.OWNED_TABLES and
                                  deploy_sonic.owned_key(table, key, want, names, running)):
                continue
            if table in deploy_sonic.OWNED_TABLES or port not in names:
                assert result[table][key] == fields, (table, key)
                kept += 1
    # buffer/QoS keys of the 96 ports the plan does not use, the in-band port, the VLAN and LAG
    # members, the border neighbour, Loopback1 and the management plane are all kept
    assert kept > 1344
    for table, key in (("LOOPBACK_INTERFACE", "Loopback1|10.10.10.1/32"),
                       ("INTERFACE", "Ethernet508|192.168.250.2/30"),
                       ("STATIC_ROUTE", "Vrf-inband|0.0.0.0/0"),
                       ("BGP_NEIGHBOR", "10.0.0.57"), ("PORTCHANNEL_MEMBER",
                                                       "PortChannel101|Ethernet480"),
                       ("VLAN_MEMBER", "Vlan1000|Ethernet256"), ("BUFFER_PG", "Ethernet256|0"),
                       ("QUEUE", "Ethernet480|3"), ("TACPLUS", "global")):
        assert result[table][key] == running[table][key]
    assert "10.0.0.1" not in result["BGP_NEIGHBOR"]    # on a plan port: the plan's to remove
    assert "Ethernet0|3-4" not in result["BUFFER_PG"] and "Ethernet0|3" in result["BUFFER_PG"]
    assert result["DEVICE_METADATA"]["localhost"]["mac"] == running["DEVICE_METADATA"][
        "localhost"]["mac"]
    assert deploy_sonic.config_patch(result, want, allow_reload=["docker_routing_config_mode"],
                                     hand_over=HAND_OVER) == []


def test_realistic_config_db_removing_a_referenced_plan_key_is_refused_naming_both():
    running, want = realistic(), intended()
    # the SNMP agent also listens on the plan's old Loopback0 address
    running["SNMP_AGENT_ADDRESS_CONFIG"]["10.1.0.32|161|"] = {}
    with pytest.raises(ValueError) as exc:
        deploy_sonic.config_patch(running, want, allow_reload=["docker_routing_config_mode"])
    assert "LOOPBACK_INTERFACE|Loopback0|10.1.0.32/32" in str(exc.value)
    assert "SNMP_AGENT_ADDRESS_CONFIG|10.1.0.32|161|" in str(exc.value)


def test_ends_at_reads_old_new_and_between_path_by_path():
    before = {"PORT": {"Ethernet0": {"mtu": "1500"}}, "WRED_PROFILE": {"OLD": {"x": "1"}}}
    patch = [{"op": "replace", "path": "/PORT/Ethernet0/mtu", "value": "9100"},
             {"op": "remove", "path": "/WRED_PROFILE/OLD"},
             {"op": "add", "path": "/WRED_PROFILE/A~1B", "value": {"x": "2"}}]
    after = {"PORT": {"Ethernet0": {"mtu": "9100"}}, "WRED_PROFILE": {"A/B": {"x": "2"}}}
    half = {"PORT": {"Ethernet0": {"mtu": "9100"}}, "WRED_PROFILE": {"OLD": {"x": "1"}}}
    odd = {"PORT": {"Ethernet0": {"mtu": "4000"}}, "WRED_PROFILE": {"OLD": {"x": "1"}}}
    assert deploy_sonic.ends_at(before, before, patch) == ("old", [])
    assert deploy_sonic.ends_at(after, before, patch) == ("new", [])
    assert deploy_sonic.ends_at(half, before, patch) == ("between", ["/PORT/Ethernet0/mtu"])
    assert deploy_sonic.ends_at(odd, before, patch) == ("between", ["/PORT/Ethernet0/mtu"])
