"""Gather and decide per driver stack, replaying recorded hosts (fixtures/nic/*/README.md).

Each recorded host answers the commands and file reads the gather step makes; the expected
changes are the host-nic.md §1.1 targets (DSCP 26 -> 3, CNP 48 -> 6, PFC on 3 only, pause off,
ECN on 3, ToS 106, IRQs NIC-local), checked against what each fixture shows as current.
"""
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import nic, nic_host, nic_rdma
from ansible_collections.roce.fabric.plugins.module_utils import plan as plan_mod

FIX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "fixtures", "nic")

COMMANDS = {"-i": "ethtool-i", "-l": "ethtool-l", "-a": "ethtool-a", "-S": "ethtool-S"}


class RecordedHost(object):
    """A host replayed from fixtures/nic/<stack>: its command outputs and its sysfs tree."""

    def __init__(self, stack, app="dcb-app.json"):
        self.dir = os.path.join(FIX, stack)
        self.app = app
        self.commands = []

    def _file(self, name):
        for suffix, rc in ((".txt", 0), (".json", 0), (".stderr", 1)):
            path = os.path.join(self.dir, name + suffix)
            if os.path.exists(path):
                with open(path) as handle:
                    text = handle.read()
                return (rc, text, "") if rc == 0 else (rc, "", text)
        return 127, "", "not recorded"

    def run(self, argv):
        self.commands.append(argv)
        if argv[0] == "ethtool":
            return self._file(COMMANDS[argv[1]])
        if argv[:3] == ["dcb", "-j", "app"]:
            return self._file(self.app[:-5] if self.app.endswith(".json") else self.app)
        if argv[:2] == ["dcb", "pfc"]:
            return self._file("dcb-pfc")
        if argv[:2] == ["ip", "-j"]:
            return 0, "[]", ""
        return 127, "", "not recorded: %s" % argv

    def _tree(self, path):
        # ansible-test sanity forbids ':' in file names: PCI addresses are stored with '_'.
        return os.path.join(self.dir, "tree", path.lstrip("/").replace(":", "_"))

    def read(self, path):
        return nic_host.read_file(self._tree(path))

    def listdir(self, path):
        return nic_host.list_dir(self._tree(path))

    def gather(self, name):
        return nic_host.gather(name, self.run, self.read, self.listdir)


@pytest.fixture
def want(example):
    """gpu1's first NIC as the plan hands it to the nic module, minus routing."""
    settings = plan_mod.build_plan(*example)["devices"]["gpu1"]["nic_settings"][0]
    return dict((k, v) for k, v in settings.items()
                if k not in ("address", "gateway", "route_table"))


def decisions(host, name, want):
    have = host.gather(name)
    todo = nic_host.plan_interface(dict(want, name=name), have, host.run)
    return have, dict((s, [i for i in todo if i["setting"] == s])
                      for s in set(i["setting"] for i in todo))


def test_plan_hands_the_nic_module_every_qos_setting(want):
    assert want["dscp_prio"] == {26: 3, 48: 6}
    assert want["pfc_priorities"] == [3]
    assert (want["cnp_dscp"], want["cnp_priority"]) == (48, 6)
    assert want["ecn_priorities"] == [3]
    assert want["roce_tos"] == 106                 # 26 << 2 | ECT(0), host-nic.md §1.1


def test_mlx5_inbox(want):
    host = RecordedHost("mlx5-inbox")
    have, todo = decisions(host, "ens1f0np0", want)
    assert (have["driver_stack"], have["rdma_device"], have["numa_node"]) == \
        ("mlx5-inbox", "mlx5_0", 0)
    assert have["pci_address"] == "0000:17:00.0" and have["local_cpus"] == 16
    assert have["rdma"]["gids"] == [(3, "198.18.64.1")]
    assert todo["mtu"][0]["argv"] == ["ip", "link", "set", "dev", "ens1f0np0", "mtu", "9000"]
    assert todo["dscp_prio"][0]["argv"][-2:] == ["26:3", "48:6"]
    assert todo["pfc"][0]["argv"] == ["dcb", "pfc", "set", "dev", "ens1f0np0", "prio-pfc",
                                      "all:off", "3:on"]
    assert todo["global_pause"][0]["argv"][:3] == ["ethtool", "-A", "ens1f0np0"]
    # min(63 channels the driver allows, 16 NIC-local cores), host-nic.md §2.3
    assert todo["channels"][0]["argv"] == ["ethtool", "-L", "ens1f0np0", "combined", "16"]
    assert "cnp" not in todo                       # debugfs already reads 48 / 6
    assert "ROCE_CC_PRIO_MASK_P1" in todo["ecn"][0]["unsupported"]
    tos = todo["roce_tos"][0]["write"]
    assert tos == {"path": "/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
                   "value": "106", "mkdir": "/sys/kernel/config/rdma_cm/mlx5_0"}
    assert "traffic_class" not in todo             # OFED only
    # IRQ 123 sat on CPU 40, outside the NIC's node (0-15); 120-122 stay where mlx5 put them.
    assert [i["write"]["path"] for i in todo["irq_affinity"]] == \
        ["/proc/irq/123/smp_affinity_list"]
    assert int(todo["irq_affinity"][0]["write"]["value"]) in range(16)


def test_mlx5_inbox_configured_table_is_left_alone(want):
    host = RecordedHost("mlx5-inbox", app="dcb-app-configured.json")
    _have, todo = decisions(host, "ens1f0np0", want)
    assert "dscp_prio" not in todo


def test_mlx5_ofed(want):
    host = RecordedHost("mlx5-ofed")
    have, todo = decisions(host, "ens1f0np0", want)
    assert have["driver_stack"] == "mlx5-ofed"
    assert todo["trust"][0]["write"] == {"path": "/sys/class/net/ens1f0np0/qos/trust",
                                         "value": "dscp", "mkdir": None}
    assert sorted(i["write"]["path"] for i in todo["ecn"]) == [
        "/sys/class/net/ens1f0np0/ecn/roce_np/enable/3",
        "/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3"]
    assert [(i["write"]["path"].rsplit("/", 1)[1], i["write"]["value"]) for i in todo["cnp"]] \
        == [("cnp_802p_prio", "6")]                # DSCP already 48; priority was 7
    assert todo["roce_tos"][0]["write"]["mkdir"] is None      # group exists, reads 0
    assert todo["traffic_class"][0]["write"] == {
        "path": "/sys/class/infiniband/mlx5_0/tc/1/traffic_class", "value": "106",
        "mkdir": None}


def test_bnxt_thor2_factory_cnp_priority_is_moved_to_the_plan(want):
    host = RecordedHost("bnxt")
    have, todo = decisions(host, "ens2f0np0", want)
    assert (have["driver_stack"], have["rdma_device"], have["numa_node"]) == \
        ("bnxt_en", "bnxt_re0", 1)
    assert set(todo) == {"dscp_prio", "cnp", "channels", "roce_tos"}
    assert todo["dscp_prio"][0]["current"] == {26: 3, 48: 7}
    cc = "/sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/"
    assert [(i["write"]["path"], i["write"]["value"]) for i in todo["cnp"]] == [
        (cc + "cnp_prio", "0x6"), (cc + "apply", "0x1")]   # configfs takes hex, apply commits
    assert todo["channels"][0]["argv"][-2:] == ["combined", "16"]


def test_veth_reports_every_rdma_setting_unsupported_with_a_reason(want):
    host = RecordedHost("veth")
    have, todo = decisions(host, "d0", want)
    assert have["driver_stack"] == "no-dcb" and have["rdma_device"] is None
    assert have["pfc"] is None and have["rdma"]["irqs"] is None
    reasons = dict((s, items[0]["unsupported"]) for s, items in todo.items())
    for setting in ("dscp_prio", "pfc", "global_pause", "cnp", "ecn", "roce_tos",
                    "irq_affinity"):
        assert reasons[setting], setting
    assert "MSI" in reasons["irq_affinity"] and "RDMA device" in reasons["roce_tos"]
    assert todo["mtu"][0]["argv"][-1] == "9000" and reasons["mtu"] is None


def test_parsers_of_the_less_common_formats():
    assert nic.parse_int("0x30\n") == 48
    assert nic.parse_int("Global tclass=106\n") == 106
    assert nic.parse_int("") is None and nic.parse_int(None) is None
    assert nic.parse_cpulist("0-3,8\n") == [0, 1, 2, 3, 8]
    assert nic.parse_dcb_pfc("pfc-cap 8 macsec-bypass off delay 4096\n"
                             "prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:on 7:on\n") == \
        {"pfc_cap": 8, "delay": 4096, "enabled": [6, 7]}    # man dcb-pfc(8) example
    assert nic_rdma.ipv4_of_gid("0000:0000:0000:0000:0000:ffff:c612:4001") == "198.18.64.1"
    assert nic_rdma.ipv4_of_gid("fe80:0000:0000:0000:1270:fdff:fe12:3456") is None


def test_pfc_unchanged_when_it_matches():
    # Writing PFC bounces an mlx5 link: nothing may be written when it already matches.
    assert nic.decide_pfc("x", [3], {"pfc_cap": 8, "delay": 0, "enabled": [3]}) == []


def test_apply_writes_and_makes_the_configfs_group(tmp_path):
    (tmp_path / "rdma_cm").mkdir()              # configfs rdma_cm exists once rdma_cm is loaded
    group = tmp_path / "rdma_cm" / "mlx5_0"
    target = tmp_path / "tos"
    item = nic.write("roce_tos", None, 106, str(target), 106, mkdir=str(group))
    assert nic_host.apply(item, None) is None
    assert group.is_dir() and target.read_text() == "106"
    bad = nic.write("roce_tos", None, 106, str(tmp_path / "missing" / "tos"), 106)
    assert "failed" in nic_host.apply(bad, None)


def test_apply_tolerates_ethtool_pause_exit_when_rx_tx_are_off():
    item = dict(nic.change("global_pause", {}, "off", ["ethtool", "-A", "x"]), interface="x")

    def run(argv):
        if argv[:2] == ["ethtool", "-A"]:
            return 1, "", "Cannot set device pause parameters: Operation not supported"
        return 0, "Pause parameters for x:\nAutonegotiate:\toff\nRX:\t\toff\nTX:\t\toff\n", ""
    assert nic_host.apply(item, run) is None


def test_nccl_settings_from_live_rdma_devices(example):
    host = plan_mod.build_plan(*example)["devices"]["gpu1"]
    recorded = RecordedHost("mlx5-inbox").gather("ens1f0np0")
    assert host["nics"][0]["address"].startswith("198.18.64.1/")   # the recorded GID's address
    facts = {}
    for i, n in enumerate(host["nics"]):
        gid_ip = n["address"].split("/")[0]
        facts[n["name"]] = dict(recorded, rdma_device="mlx5_%d" % i,
                                rdma=dict(recorded["rdma"], gids=[(3, gid_ip)]))
    settings, notes = nic_host.nccl_settings(host, facts)
    assert settings["NCCL_IB_HCA"] == "=" + ",".join("mlx5_%d:1" % i for i in range(8))
    assert settings["NCCL_IB_GID_INDEX"] == 3 and settings["NCCL_IB_TC"] == 106
    assert notes == []
    facts["rdma7"] = dict(facts["rdma7"], rdma_device=None)
    facts["rdma6"] = dict(facts["rdma6"], rdma=dict(recorded["rdma"], gids=[(5, "198.18.64.99")]))
    settings, notes = nic_host.nccl_settings(host, facts)
    assert settings["NCCL_IB_HCA"] is None and settings["NCCL_IB_GID_INDEX"] is None
    assert "rdma7" in notes[0] and "auto-selection" in notes[1]


def test_lossless_counters_of_an_mlx5_host():
    host = RecordedHost("mlx5-inbox")
    found = nic_host.counters("ens1f0np0", [3], "mlx5_0", host.run, host.read, host.listdir)
    assert found["rx_prio3_pause"] == 1742 and found["tx_prio3_pause"] == 1391
    assert found["rx_prio3_discards"] == 0 and found["tx_pause_storm_error_events"] == 0
    assert found["np_cnp_sent"] == 49870 and found["rp_cnp_handled"] == 47311
    assert "rx_prio6_pause" not in found          # only the lossless priorities asked for
    assert "roce_adp_retrans" not in found        # not one of the counters reported


def test_a_veth_has_no_lossless_counters():
    host = RecordedHost("veth")
    assert nic_host.counters("d0", [3], None, host.run, host.read, host.listdir) == {}
