"""Gather and decide per driver stack, replaying recorded hosts (fixtures/nic/*/README.md).

Each recorded host answers the commands and file reads the gather step makes; the expected
changes are the host-nic.md §1.1 targets (DSCP 26 -> 3, CNP 48 -> 6, PFC on 3 only, pause off,
ETS with CNP strict, ECN on 3, ToS 106, IRQs NIC-local), in the order each stack's vendor
applies them (mlnx_qos, bnxt_setupcc.sh, the E810 DCB guide; host-audit.md).
"""
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan_mod
from ansible_collections.roce.fabric.plugins.module_utils.host import changes, live, nccl

FIX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                   "fixtures", "nic")

COMMANDS = {"-i": "ethtool-i", "-l": "ethtool-l", "-a": "ethtool-a", "-S": "ethtool-S",
            "--show-priv-flags": "ethtool-priv-flags"}


class RecordedHost(object):
    """A host replayed from fixtures/nic/<stack>: its command outputs and its sysfs tree. It
    never changes: applying to it and reading back is what a NIC refusing every write does."""

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
        return 1, "", "Operation not supported"

    def run(self, argv):
        self.commands.append(argv)
        if argv[0] == "ethtool" and argv[1] in COMMANDS:
            return self._file(COMMANDS[argv[1]])
        if argv[:3] == ["dcb", "-j", "app"]:
            return self._file(self.app[:-5] if self.app.endswith(".json") else self.app)
        if argv[:2] in (["dcb", "pfc"], ["dcb", "ets"], ["dcb", "dcbx"]):
            return self._file("dcb-" + argv[1])
        if argv[:2] == ["ip", "-j"]:
            return 0, "[]", ""
        return 0, "", ""        # a write: accepted, and changes nothing

    def _tree(self, path):
        # ansible-test sanity forbids ':' in file names: PCI addresses are stored with '_'.
        return os.path.join(self.dir, "tree", path.lstrip("/").replace(":", "_"))

    def read(self, path):
        return live.read_file(self._tree(path))

    def listdir(self, path):
        return live.list_dir(self._tree(path))

    def gather(self, name):
        return live.gather(name, self.run, self.read, self.listdir)


@pytest.fixture
def want(example):
    """gpu1's first NIC as the plan hands it to the nic module, minus routing."""
    settings = plan_mod.build_plan(*example)["devices"]["gpu1"]["nic_settings"][0]
    return dict((k, v) for k, v in settings.items()
                if k not in ("address", "gateway", "route_table"))


def decisions(host, name, want):
    have = host.gather(name)
    todo = live.plan_interface(dict(want, name=name), have, host.run)
    return have, dict((s, [i for i in todo if i["setting"] == s])
                      for s in set(i["setting"] for i in todo))


def sequence(host, name, want):
    """The settings in the order they would be carried out (each once, unsupported left out)."""
    todo = live.plan_interface(dict(want, name=name), host.gather(name), host.run)
    out = []
    for item in todo:
        if not item["unsupported"] and (not out or out[-1] != item["setting"]):
            out.append(item["setting"])
    return out


def test_plan_hands_the_nic_module_every_qos_setting(want):
    assert want["dscp_prio"] == {26: 3, 48: 6}
    assert want["pfc_priorities"] == [3]
    assert (want["cnp_dscp"], want["cnp_priority"]) == (48, 6)
    assert want["ecn_priorities"] == [3]
    assert want["roce_tos"] == 106                 # 26 << 2 | ECT(0), host-nic.md §1.1
    # Cumulus RoCE ETS (host-nic.md §1.1): CNP TC6 strict, TC3 and TC0 50 % each
    assert want["ets"] == {"roce_priority": 3, "cnp_priority": 6, "roce_bw": 50,
                           "default_bw": 50}
    assert want["cable_m"] == 3


def test_mlx5_inbox(want):
    host = RecordedHost("mlx5-inbox")
    have, todo = decisions(host, "ens1f0np0", want)
    assert (have["driver_stack"], have["rdma_device"], have["numa_node"]) == \
        ("mlx5-inbox", "mlx5_0", 0)
    assert have["pci_address"] == "0000:17:00.0" and have["local_cpus"] == 16
    assert have["rdma"]["gids"] == [(3, "198.18.64.1")]
    assert todo["mtu"][0]["argv"] == ["ip", "link", "set", "dev", "ens1f0np0", "mtu", "9000"]
    # all 64 DSCPs: the plan's two, every other one at priority 0 (not the driver's DSCP >> 3)
    assert todo["dscp_prio"][0]["argv"][6:] == [
        "%d:%d" % (d, {26: 3, 48: 6}.get(d, 0)) for d in range(64)]
    # PFC with the NIC's 3 m cable: mlx5 sizes its headroom for it (default 7 m, en_dcbnl.c)
    assert todo["pfc"][0]["argv"] == ["dcb", "pfc", "set", "dev", "ens1f0np0", "prio-pfc",
                                      "all:off", "3:on", "delay", "3"]
    assert todo["ets"][0]["argv"] == [
        "dcb", "ets", "set", "dev", "ens1f0np0",
        "prio-tc", "0:0", "1:0", "2:0", "3:3", "4:0", "5:0", "6:6", "7:0",
        "tc-tsa", "0:ets", "1:ets", "2:ets", "3:ets", "4:ets", "5:ets", "6:strict", "7:ets",
        "tc-bw", "0:50", "1:0", "2:0", "3:50", "4:0", "5:0", "6:0", "7:0"]
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
    # mlnx_qos order: trust and DSCP map, ETS, PFC, then the RDMA side
    assert sequence(host, "ens1f0np0", want) == [
        "mtu", "global_pause", "dscp_prio", "ets", "pfc", "roce_tos", "irq_affinity",
        "channels"]


def test_mlx5_inbox_configured_table_is_left_alone(want):
    """A table with the plan's two entries: an older plan (no dscp_default_prio) leaves it, the
    full map adds only the 62 DSCPs missing, at priority 0."""
    host = RecordedHost("mlx5-inbox", app="dcb-app-configured.json")
    older = dict((k, v) for k, v in want.items() if k != "dscp_default_prio")
    _have, todo = decisions(host, "ens1f0np0", older)
    assert "dscp_prio" not in todo
    _have, todo = decisions(host, "ens1f0np0", want)
    assert todo["dscp_prio"][0]["argv"][2:6] == ["replace", "dev", "ens1f0np0", "dscp-prio"]
    assert todo["dscp_prio"][0]["argv"][6:] == [
        "%d:0" % d for d in range(64) if d not in (26, 48)]
    assert todo["dscp_prio"][0]["current"] == "{26: 3, 48: 6}"
    assert todo["dscp_prio"][0]["desired"] == "{26: 3, 48: 6, others: 0}"


def test_mlx5_ofed_is_told_by_its_ecn_sysfs_not_by_qos_trust(want):
    host = RecordedHost("mlx5-ofed")
    have, todo = decisions(host, "ens1f0np0", want)
    assert have["driver_stack"] == "mlx5-ofed"
    assert "trust" not in todo                     # no qos/trust on OFED: the APP table sets it
    # all 64 DSCPs: the plan's two, every other one at priority 0 (not the driver's DSCP >> 3)
    assert todo["dscp_prio"][0]["argv"][6:] == [
        "%d:%d" % (d, {26: 3, 48: 6}.get(d, 0)) for d in range(64)]
    assert sorted(i["write"]["path"] for i in todo["ecn"]) == [
        "/sys/class/net/ens1f0np0/ecn/roce_np/enable/3",
        "/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3"]
    assert [(i["write"]["path"].rsplit("/", 1)[1], i["write"]["value"]) for i in todo["cnp"]] \
        == [("cnp_802p_prio", "6")]                # DSCP already 48; priority was 7
    assert todo["roce_tos"][0]["write"]["mkdir"] is None      # group exists, reads 0
    assert todo["traffic_class"][0]["write"] == {
        "path": "/sys/class/infiniband/mlx5_0/tc/1/traffic_class", "value": "106",
        "mkdir": None}
    assert sequence(host, "ens1f0np0", want) == [
        "mtu", "global_pause", "dscp_prio", "ets", "pfc", "cnp", "ecn", "roce_tos",
        "traffic_class", "irq_affinity", "channels"]


def test_bnxt_broadcom_in_bnxt_setupcc_order(want):
    host = RecordedHost("bnxt-broadcom")
    have, todo = decisions(host, "ens2f0np0", want)
    assert (have["driver_stack"], have["rdma_device"], have["numa_node"]) == \
        ("bnxt-broadcom", "bnxt_re0", 1)
    # ETS before PFC (bnxt refuses PFC until ETS is set), compact TCs on a 3-TC NIC
    assert sequence(host, "ens2f0np0", want) == [
        "ets", "pfc", "dscp_prio", "roce_port_prio", "ecn", "cnp", "roce_tos", "channels"]
    assert todo["ets"][0]["argv"][5:14] == ["prio-tc", "0:0", "1:0", "2:0", "3:1", "4:0",
                                            "5:0", "6:2", "7:0"]
    assert todo["pfc"][0]["argv"][-1] == "3:on"                # no mlx5 cable term on bnxt
    assert todo["roce_port_prio"][0]["argv"][-2:] == ["dgram-port-prio", "4791:3"]
    cc = "/sys/kernel/config/bnxt_re/bnxt_re0"
    cnp = [(i["write"]["path"], i["write"]["value"], i["write"]["mkdir"]) for i in todo["cnp"]]
    assert cnp == [(cc + "/ports/1/cc/cnp_dscp", "0x30", cc),     # the group made first
                   (cc + "/ports/1/cc/cnp_prio", "0x6", None),
                   (cc + "/ports/1/cc/apply", "0x1", None)]
    assert todo["ecn"][0]["write"]["path"] == cc + "/ports/1/cc/ecn_enable"


def test_bnxt_upstream_has_dcb_but_no_configfs(want):
    host = RecordedHost("bnxt-upstream")
    have, todo = decisions(host, "ens2f0np0", want)
    assert have["driver_stack"] == "bnxt-upstream"
    assert sequence(host, "ens2f0np0", want)[:4] == ["ets", "pfc", "dscp_prio",
                                                     "roce_port_prio"]
    assert "no configfs" in todo["cnp"][0]["unsupported"]
    assert "no configfs" in todo["ecn"][0]["unsupported"]


def test_ice_turns_the_firmware_lldp_agent_off_first(want):
    host = RecordedHost("ice")
    have, todo = decisions(host, "ens5f0np0", want)
    assert have["driver_stack"] == "ice" and have["rdma_device"] == "irdma0"
    assert todo["fw_lldp_agent"][0]["argv"] == ["ethtool", "--set-priv-flags", "ens5f0np0",
                                                "fw-lldp-agent", "off"]
    # DSCP map before ETS: its first entry switches to DSCP mode and resets ETS (ice_dcbnl_setapp)
    assert sequence(host, "ens5f0np0", want)[:6] == [
        "mtu", "fw_lldp_agent", "global_pause", "dscp_prio", "ets", "pfc"]
    assert "irdma" in todo["cnp"][0]["unsupported"]


def test_bnxt_with_the_firmware_lldp_agent_says_so_instead_of_failing(want, tmp_path):
    host = RecordedHost("bnxt-broadcom")
    host.run_dcbx = host.run

    def run(argv):
        if argv[:2] == ["dcb", "dcbx"]:
            return 0, "lld-managed ieee \n", ""
        return host.run_dcbx(argv)
    host.run = run
    _have, todo = decisions(host, "ens2f0np0", want)
    for setting in ("dcbx", "ets", "pfc", "dscp_prio", "roce_port_prio"):
        assert "unsupported on bnxt-broadcom: the firmware DCBX agent" in \
            todo[setting][0]["unsupported"], setting


def test_a_refused_write_fails_with_planned_and_read_back_values(want):
    """The recorded host accepts every command and changes nothing: what a NIC refusing the
    writes looks like (dcb app replace exits 0 even then). The read-back names each one."""
    host = RecordedHost("mlx5-inbox")
    name = dict(want, name="ens1f0np0")
    todo = live.plan_interface(name, host.gather("ens1f0np0"), host.run)
    for item in todo:
        if item["argv"]:
            assert live.apply(item, host.run) is None        # every command "succeeds"
    refused = live.read_back([name], host.run, host.read, host.listdir)
    assert "ens1f0np0 dscp_prio: planned {26: 3, 48: 6, others: 0}, read back {}" in refused
    assert any(line.startswith("ens1f0np0 pfc: planned") for line in refused)
    assert any(line.startswith("ens1f0np0 mtu: planned 9000, read back 1500") for line in
               refused)


def test_a_settled_host_reads_back_clean(want):
    host = RecordedHost("veth")
    # a veth that has the plan's MTU: everything else is unsupported there
    settled = dict(want, name="d0", mtu_bytes=host.gather("d0")["mtu_bytes"], channels=0)
    channels = host.gather("d0")["channels"]["current"]
    settled["channels"] = min(channels["rx"], channels["tx"])
    assert live.read_back([settled], host.run, host.read, host.listdir) == []


def test_veth_reports_every_rdma_setting_unsupported_with_a_reason(want):
    host = RecordedHost("veth")
    have, todo = decisions(host, "d0", want)
    assert have["driver_stack"] == "no-dcb" and have["rdma_device"] is None
    assert have["pfc"] is None and have["rdma"]["irqs"] is None
    reasons = dict((s, items[0]["unsupported"]) for s, items in todo.items())
    for setting in ("dscp_prio", "pfc", "ets", "global_pause", "cnp", "ecn", "roce_tos",
                    "irq_affinity"):
        assert reasons[setting], setting
    assert "MSI" in reasons["irq_affinity"] and "RDMA device" in reasons["roce_tos"]
    assert todo["mtu"][0]["argv"][-1] == "9000" and reasons["mtu"] is None


def test_apply_writes_and_makes_the_configfs_group(tmp_path):
    (tmp_path / "rdma_cm").mkdir()              # configfs rdma_cm exists once rdma_cm is loaded
    group = tmp_path / "rdma_cm" / "mlx5_0"
    target = tmp_path / "tos"
    item = changes.write("roce_tos", None, 106, str(target), 106, mkdir=str(group))
    assert live.apply(item, None) is None
    assert group.is_dir() and target.read_text() == "106"
    bad = changes.write("roce_tos", None, 106, str(tmp_path / "missing" / "tos"), 106)
    assert "failed" in live.apply(bad, None)


def test_nccl_settings_from_live_rdma_devices(example):
    host = plan_mod.build_plan(*example)["devices"]["gpu1"]
    recorded = RecordedHost("mlx5-inbox").gather("ens1f0np0")
    assert host["nics"][0]["address"].startswith("198.18.64.1/")   # the recorded GID's address
    facts = {}
    for i, n in enumerate(host["nics"]):
        gid_ip = n["address"].split("/")[0]
        facts[n["name"]] = dict(recorded, rdma_device="rocep%ds0f0" % (23 + i),
                                rdma=dict(recorded["rdma"], gids=[(3, gid_ip)]))
    settings, notes = nccl.settings(host, facts)
    assert settings["NCCL_IB_HCA"] == "=" + ",".join("rocep%ds0f0:1" % (23 + i)
                                                     for i in range(8))
    assert settings["NCCL_IB_GID_INDEX"] == 3 and settings["NCCL_IB_TC"] == 106
    assert notes == []                 # persistent names, one GID index: nothing to say
    facts["rdma0"] = dict(facts["rdma0"], rdma_device="mlx5_0")
    facts["rdma7"] = dict(facts["rdma7"], rdma_device=None)
    facts["rdma6"] = dict(facts["rdma6"], rdma=dict(recorded["rdma"], gids=[(5, "198.18.64.99")]))
    settings, notes = nccl.settings(host, facts)
    assert settings["NCCL_IB_HCA"] is None and settings["NCCL_IB_GID_INDEX"] is None
    assert "rdma7" in notes[0] and "auto-selection" in notes[1]
    assert "NCCL >= 2.21.5" in notes[1]      # NCCL commit ab2b89c4 (host-audit.md #7)
    facts["rdma7"] = dict(facts["rdma7"], rdma_device="mlx5_7")
    _settings, notes = nccl.settings(host, facts)
    assert "kernel-numbered devices (mlx5_0, mlx5_7)" in notes[0]


def test_lossless_counters_of_an_mlx5_host():
    host = RecordedHost("mlx5-inbox")
    found = live.counters("ens1f0np0", [3], "mlx5_0", host.run, host.read, host.listdir)
    assert found["rx_prio3_pause"] == 1742 and found["tx_prio3_pause"] == 1391
    assert found["rx_prio3_discards"] == 0 and found["tx_pause_storm_error_events"] == 0
    assert found["np_cnp_sent"] == 49870 and found["rp_cnp_handled"] == 47311
    assert "rx_prio6_pause" not in found          # only the lossless priorities asked for
    assert "roce_adp_retrans" not in found        # not one of the counters reported


def test_a_veth_has_no_lossless_counters():
    host = RecordedHost("veth")
    assert live.counters("d0", [3], None, host.run, host.read, host.listdir) == {}


def test_the_documented_stack_table_is_the_code_s():
    from ansible_collections.roce.fabric.plugins.module_utils.host import stacks
    from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema_doc
    doc = os.path.join(os.path.dirname(FIX), "..", "..", "..", "docs", "hosts.md")
    with open(doc) as handle:
        text = handle.read()
    assert schema_doc.update(text, stacks.DOC_SECTIONS) == text, "run make schema-doc"
