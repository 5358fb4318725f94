"""Host tool output parsed as the tools print it (tests/unit/fixtures/nic/*/README.md)."""
import os

from ansible_collections.roce.fabric.plugins.module_utils.host import netdev, parse, rdma

FIX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                   "fixtures", "nic")


def fixture(*parts):
    with open(os.path.join(FIX, *parts)) as handle:
        return handle.read()


def test_veth_recordings():
    channels = parse.parse_ethtool_channels(fixture("veth", "ethtool-l.txt"))
    assert channels["max"] == {"rx": 4, "tx": 4, "other": None, "combined": None}
    assert channels["current"]["rx"] == 4
    assert parse.parse_ethtool_pause(fixture("veth", "ethtool-a.txt")) is None
    assert parse.parse_ethtool_driver(fixture("veth", "ethtool-i.txt"))["driver"] == "veth"
    assert parse.parse_dcb_app(fixture("veth", "dcb-app.stderr")) is None
    assert parse.parse_dcb_pfc(fixture("veth", "dcb-pfc.stderr")) is None


def test_channels_capped_by_driver_and_local_cores():
    channels = parse.parse_ethtool_channels(fixture("veth", "ethtool-l.txt"))
    assert netdev.channel_target(channels, numa_local_cpus=2) == ("rxtx", 2)
    assert netdev.channel_target(channels, numa_local_cpus=64) == ("rxtx", 4)   # driver max
    assert netdev.channel_target(channels, 64, override=3) == ("rxtx", 3)


def test_dcb_app_tables():
    assert parse.parse_dcb_app(fixture("mlx5-inbox", "dcb-app-configured.json")) == \
        {"dscp_prio": {26: 3, 48: 6}, "dgram_port_prio": {},
         "dscp_prio_entries": [[26, 3], [48, 6]]}
    assert parse.parse_dcb_app("{}") == {"dscp_prio": {}, "dgram_port_prio": {},
                                         "dscp_prio_entries": []}
    # dcb_app.c: one [key, prio] pair per entry and table
    assert parse.parse_dcb_app('{"dscp_prio":[[26,3]],"dgram_port_prio":[[4791,3]]}') == \
        {"dscp_prio": {26: 3}, "dgram_port_prio": {4791: 3}, "dscp_prio_entries": [[26, 3]]}
    # dcbnl keeps two entries of one DSCP with different priorities (dcb_ieee_setapp adds
    # beside the other): the map shows one, the entries both, which a rewrite must remove
    both = parse.parse_dcb_app('{"dscp_prio":[[24,0],[24,3]]}')
    assert both["dscp_prio_entries"] == [[24, 0], [24, 3]] and len(both["dscp_prio"]) == 1


def test_dcb_text_printers():
    assert parse.parse_dcb_pfc("pfc-cap 8 macsec-bypass off delay 4096\n"
                               "prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:on 7:on\n") == \
        {"pfc_cap": 8, "delay": 4096, "enabled": [6, 7]}    # man dcb-pfc(8) example
    ets = parse.parse_dcb_ets(fixture("bnxt-broadcom", "dcb-ets.txt"))
    assert ets["ets_cap"] == 3 and ets["tc_tsa"][0] == "strict" and ets["tc_bw"][7] == 0
    assert len(ets["prio_tc"]) == 8
    assert parse.parse_dcb_dcbx("host ieee \n") == {"host", "ieee"}
    assert parse.parse_dcb_dcbx(fixture("ice", "dcb-dcbx.txt")) == {"lld-managed", "ieee"}
    assert parse.parse_ethtool_priv_flags(fixture("ice", "ethtool-priv-flags.txt"))[
        "fw-lldp-agent"] is True


def test_less_common_number_formats():
    assert parse.parse_int("0x30\n") == 48
    assert parse.parse_int("Global tclass=106\n") == 106
    assert parse.parse_int("") is None and parse.parse_int(None) is None
    assert parse.parse_cpulist("0-3,8\n") == [0, 1, 2, 3, 8]
    assert rdma.ipv4_of_gid("0000:0000:0000:0000:0000:ffff:c612:4001") == "198.18.64.1"
    assert rdma.ipv4_of_gid("fe80:0000:0000:0000:1270:fdff:fe12:3456") is None


def test_ets_target_follows_the_tcs_the_nic_has():
    ets = {"roce_priority": 3, "cnp_priority": 6, "roce_bw": 50, "default_bw": 50}
    full, expect = netdev.ets_target(ets, 8)
    assert full["prio_tc"][3] == 3 and full["prio_tc"][6] == 6 and full["prio_tc"][1] == 0
    assert full["tc_tsa"][6] == "strict" and full["tc_bw"] == {0: 50, 1: 0, 2: 0, 3: 50, 4: 0,
                                                               5: 0, 6: 0, 7: 0}
    assert expect == full
    # Thor2 (ets-cap 3): TC0 default, TC1 RoCE, TC2 CNP strict, as bnxt_setupcc.sh; the unused
    # TCs strict at 0 % (bnxt_ets_validate refuses ETS above max_tc and starved ETS TCs)
    small, expect = netdev.ets_target(ets, 3, "bnxt-broadcom")
    assert (small["prio_tc"][3], small["prio_tc"][6], small["prio_tc"][0]) == (1, 2, 0)
    assert small["tc_tsa"] == {0: "ets", 1: "ets", 2: "strict", 3: "strict", 4: "strict",
                               5: "strict", 6: "strict", 7: "strict"}
    assert small["tc_bw"][1] == 50 and small["tc_bw"][0] == 50 and expect == small
    assert sum(small["tc_bw"].values()) == 100
    # mlx5 reports its strict TC at 100 % (mlx5e_build_tc_tx_bw)
    write, expect = netdev.ets_target(ets, 8, "mlx5-inbox")
    assert write["tc_bw"][6] == 0 and expect["tc_bw"][6] == 100
    # ice in DSCP mode: the 1:1 map it keeps, contiguous TCs (ice_dcb_get_num_tc)
    write, expect = netdev.ets_target(ets, 8, "ice")
    assert write["prio_tc"] == dict((p, p) for p in range(8)) and expect == write


def test_app_table_in_both_printer_formats():
    pairs = parse.parse_dcb_app('{"dscp_prio":[[26,3],[48,6]]}')
    triples = parse.parse_dcb_app('{"dscp_prio":[[26,3," "],[48,6," "]],'
                                  '"dgram_port_prio":[[4791,3," "]]}')
    assert pairs["dscp_prio"] == triples["dscp_prio"] == {26: 3, 48: 6}
    assert triples["dgram_port_prio"] == {4791: 3}
    # an error text where JSON was expected (no dcb tool, an old iproute2) is no table
    assert parse.parse_dcb_app("Error executing command.") is None
    assert parse.parse_dcb_app(None) is None and parse.parse_ethtool_pause(None) is None


def test_pfc_unchanged_when_it_matches():
    # Writing PFC bounces an mlx5 link: nothing may be written when it already matches.
    assert netdev.decide_pfc("x", [3], {"pfc_cap": 8, "delay": 3, "enabled": [3]}, 3) == []
    change = netdev.decide_pfc("x", [3], {"pfc_cap": 8, "delay": 7, "enabled": [3]}, 2.5)
    assert change[0]["argv"][-2:] == ["delay", "3"]     # the cable, whole metres up
