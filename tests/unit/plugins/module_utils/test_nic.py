"""NIC parsing and decisions against recorded output (tests/unit/fixtures/nic/*/README.md)."""
import os

from ansible_collections.roce.fabric.plugins.module_utils import nic

FIX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "fixtures", "nic")


def fixture(*parts):
    with open(os.path.join(FIX, *parts)) as handle:
        return handle.read()


def test_veth_recordings():
    channels = nic.parse_ethtool_channels(fixture("veth", "ethtool-l.txt"))
    assert channels["max"] == {"rx": 4, "tx": 4, "other": None, "combined": None}
    assert channels["current"]["rx"] == 4
    assert nic.parse_ethtool_pause(fixture("veth", "ethtool-a.txt")) is None
    assert nic.parse_ethtool_driver(fixture("veth", "ethtool-i.txt"))["driver"] == "veth"
    assert nic.parse_dcb_app(fixture("veth", "dcb-app.stderr")) is None
    assert nic.driver_stack("veth", False) == "no-dcb"


def test_channels_capped_by_driver_and_local_cores():
    channels = nic.parse_ethtool_channels(fixture("veth", "ethtool-l.txt"))
    assert nic.channel_target(channels, numa_local_cpus=2) == ("rxtx", 2)
    assert nic.channel_target(channels, numa_local_cpus=64) == ("rxtx", 4)   # driver max
    assert nic.channel_target(channels, 64, override=3) == ("rxtx", 3)


def test_mlx5_dscp_table():
    assert nic.parse_dcb_app(fixture("mlx5-inbox", "dcb-app-configured.json")) == {26: 3, 48: 6}
    assert nic.parse_dcb_app(fixture("mlx5-inbox", "dcb-app.json")) == {}
    assert nic.driver_stack("mlx5_core", False) == "mlx5-inbox"
    assert nic.driver_stack("mlx5_core", True) == "mlx5-ofed"


def _current(**kw):
    cur = {"mtu_bytes": 9000, "dscp_prio": {26: 3, 48: 6}, "pause": {"autoneg": False,
           "rx": False, "tx": False},
           "channels": nic.parse_ethtool_channels(fixture("veth", "ethtool-l.txt"))}
    cur.update(kw)
    return cur


DESIRED = {"name": "rdma0", "mtu_bytes": 9000, "dscp_prio": {26: 3, 48: 6}, "pause_off": True,
           "channels": ("rxtx", 4)}


def test_nothing_to_do_when_state_matches():
    assert nic.decide(DESIRED, _current()) == []


def test_changes_are_argv_lists():
    changes = nic.decide(DESIRED, _current(mtu_bytes=1500, dscp_prio={26: 0},
                                           pause={"autoneg": True, "rx": True, "tx": True}))
    argv = dict((c["setting"], c["argv"]) for c in changes)
    assert argv["mtu"] == ["ip", "link", "set", "dev", "rdma0", "mtu", "9000"]
    assert argv["dscp_prio"] == ["dcb", "app", "replace", "dev", "rdma0", "dscp-prio", "26:3",
                                 "48:6"]
    assert argv["global_pause"][:3] == ["ethtool", "-A", "rdma0"]


def test_veth_reports_unsupported_settings_with_reasons():
    changes = nic.decide(DESIRED, _current(dscp_prio=None, pause=None))
    unsupported = dict((c["setting"], c["unsupported"]) for c in changes if c["unsupported"])
    assert "no DCB" in unsupported["dscp_prio"]
    assert "pause" in unsupported["global_pause"]
