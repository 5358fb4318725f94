"""roce.fabric.nic and roce-check end to end against the driver models of drivers.py.

Each model refuses what its driver refuses and reports what its driver reports (the rules cite
the driver functions). On every stack the plan must be applied in the vendor's order and read
back clean on the first run, the second run must change nothing, a device that ignores writes
must fail naming each setting, and a refused setting must leave every independent one applied.
"""
import importlib.util
import json
import os
import re

import pytest
from ansible.module_utils import basic
from ansible.module_utils.testing import patch_module_args

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan_mod
from ansible_collections.roce.fabric.plugins.module_utils.host import live, nccl
from ansible_collections.roce.fabric.plugins.modules import nic as nic_module

import nic_driver_models as drivers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))


class Exit(Exception):
    def __init__(self, failed, result):
        Exception.__init__(self, result.get("msg", ""))
        self.failed, self.result = failed, result


@pytest.fixture
def want(example):
    """gpu1's first NIC as the plan hands it to the nic module, on the model's netdev."""
    settings = plan_mod.build_plan(*example)["devices"]["gpu1"]["nic_settings"][0]
    return dict(settings, name="rdma0")


@pytest.fixture
def on_host(monkeypatch):
    """Points live.py's file functions and the module's commands at a model host."""
    def use(host):
        monkeypatch.setattr(live, "read_file", host.read)
        monkeypatch.setattr(live, "list_dir", host.listdir)
        monkeypatch.setattr(live, "write_value", host.write)
        monkeypatch.setattr(basic.AnsibleModule, "run_command",
                            lambda _self, argv, **kw: host.run(argv))
        monkeypatch.setattr(basic.AnsibleModule, "get_bin_path",
                            lambda _self, name, *a, **kw: None if name in host.missing
                            else "/usr/bin/" + name)
        monkeypatch.setattr(nic_module.platform, "node", lambda: "gpu1")
        return host
    return use


@pytest.fixture
def run_nic(monkeypatch):
    def runner(want, **args):
        params = dict(interfaces=[want], network_manager="none")
        params.update(args)

        def leave(failed):
            def handler(_self, **result):
                raise Exit(failed, result)
            return handler
        monkeypatch.setattr(basic.AnsibleModule, "exit_json", leave(False))
        monkeypatch.setattr(basic.AnsibleModule, "fail_json", leave(True))
        monkeypatch.setattr(basic.AnsibleModule, "warn", lambda _self, msg: None)
        with patch_module_args(params), pytest.raises(Exit) as caught:
            nic_module.main()
        return caught.value
    return runner


def kinds(nic):
    """The order the model took changes in: DCB ops and the app entries by selector."""
    out = []
    for entry in nic.log:
        kind = entry[0]
        if kind == "app":
            kind = "app-4791" if entry[1][0] == drivers.SEL_DGRAM else "app-dscp"
        elif kind == "write":
            kind = entry[1].rsplit("/", 1)[1]
        if not out or out[-1] != kind:
            out.append(kind)
    return out


STACKS = {
    # model, the vendor's order of the DCB steps (host-nic.md §1.2-1.5, stacks.ORDER)
    "mlx5-inbox": (drivers.Mlx5, ["app-dscp", "ets", "pfc"]),
    "mlx5-ofed": (lambda: drivers.Mlx5(ofed=True), ["app-dscp", "ets", "pfc"]),
    "bnxt-broadcom": (lambda: drivers.Bnxt(broadcom=True),
                      ["ets", "pfc", "app-dscp", "app-4791"]),
    "bnxt-upstream": (drivers.Bnxt, ["ets", "pfc", "app-dscp", "app-4791"]),
    "ice": (lambda: drivers.Ice(fw_lldp=True), ["priv_flags", "app-dscp", "ets", "pfc"]),
}


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_every_stack_takes_the_plan_in_its_vendor_order_and_reads_back_clean(
        stack, want, on_host, run_nic):
    make, order = STACKS[stack]
    host = on_host(drivers.Host(make()))
    first = run_nic(want)
    assert not first.failed, first.result["msg"]
    assert first.result["changed"]
    assert host.nic.stack == stack
    dcb_steps = [k for k in kinds(host.nic) if k in order]
    assert dcb_steps == order
    # what the drivers hold now is the plan
    assert host.nic.mtu == 9000 and host.nic.pause == {"autoneg": False, "rx": False,
                                                       "tx": False}
    assert host.addrs == ["198.18.64.1/31"] and host.routes["100"] == [("198.18.64.0",
                                                                        "rdma0")]
    second = run_nic(want)
    assert not second.failed and not second.result["changed"], second.result
    assert second.result["changes"] == []


def test_mlx5_reports_its_strict_tc_at_100_and_pfc_bounces_the_link_once(
        want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Mlx5()))
    assert not run_nic(want).failed
    ets = host.nic.getets()
    assert ets["tc_bw"] == {0: 50, 1: 0, 2: 0, 3: 50, 4: 0, 5: 0, 6: 100, 7: 0}
    assert ets["tc_tsa"][6] == 0 and host.nic.trust == "dscp"
    assert host.nic.cable_len == 3 and host.nic.toggles == 1
    assert not run_nic(want).result["changed"] and host.nic.toggles == 1


def test_mlx5_ofed_sysfs_and_upstream_bnxt_configfs(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Mlx5(ofed=True)))
    assert not run_nic(want).failed
    assert host.nic.ecn[("rp", 3)] == host.nic.ecn[("np", 3)] == 1
    assert host.nic.ofed_cnp == {"cnp_dscp": 48, "cnp_802p_prio": 6} and host.nic.tclass == 106


def test_upstream_bnxt_and_ice_say_what_they_cannot_hold(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Bnxt()))
    result = run_nic(want).result
    reasons = dict((u["setting"], u["unsupported"]) for u in result["unsupported"])
    assert reasons["cnp"].startswith("unsupported on bnxt-upstream: upstream bnxt_re has no")
    assert reasons["ecn"].startswith("unsupported on bnxt-upstream")
    assert host.nic.firmware_apps == [(drivers.SEL_DGRAM, 4791, 3)]
    host = on_host(drivers.Host(drivers.Ice()))
    result = run_nic(want).result
    reasons = dict((u["setting"], u["unsupported"]) for u in result["unsupported"])
    assert reasons["cnp"].startswith("unsupported on ice: irdma")
    assert host.nic.dscp_mode and drivers.num_tcs(host.nic.ets["prio_tc"]) == 8


def test_a_device_that_ignores_writes_fails_naming_each_setting(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Mlx5(ignore_writes=True)))
    result = run_nic(want)
    assert result.failed
    refused = result.result["refused"]
    for setting in ("mtu", "global_pause", "dscp_prio", "ets", "pfc", "roce_tos",
                    "irq_affinity", "channels"):
        assert any(line.startswith("rdma0 %s: planned" % setting) for line in refused), setting
    assert "rdma0 dscp_prio: planned {26: 3, 48: 6, others: 0}, read back {}" in refused
    assert host.nic.mtu == 1500


def test_service_profile_firmware_refuses_cnp_prio_and_everything_else_is_applied(
        want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Bnxt(broadcom=True, service_profile=True)))
    result = run_nic(want)
    assert result.failed
    # the refusal with the driver's reason, and the read-back of what the firmware kept
    (line,) = result.result["refused"]
    assert line.startswith("rdma0 cnp: planned {'dscp': 48, 'prio': 6}, read back "
                           "{'dscp': 48, 'prio': 7}") and "Invalid argument" in line
    # every independent setting applied: ETS, PFC, the maps, ECN (+ apply), ToS, IRQs, routing
    nic = host.nic
    assert nic.my_ets is not None and nic.my_pfc["pfc_en"] == 1 << 3
    assert (drivers.SEL_DSCP, 26, 3) in nic.apps and nic.firmware_apps
    assert nic.applied["ecn_enable"] == 1 and host.tos == 106
    assert host.irq_affinity[122] in [str(c) for c in range(16)]
    assert host.addrs and host.rules and host.routes


def test_bnxt_dcbx_modes_are_named_with_their_reason(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Bnxt(dcbx="ieee")))          # a VF
    result = run_nic(want)
    assert not result.failed
    reasons = dict((u["setting"], u["unsupported"]) for u in result.result["unsupported"])
    for setting in ("dcbx", "ets", "pfc", "dscp_prio", "roce_port_prio"):
        assert "reports 'ieee' without host: a VF" in reasons[setting], setting
    assert host.nic.mtu == 9000 and host.addrs                 # the rest went on
    host = on_host(drivers.Host(drivers.Bnxt(dcbx="lld-managed ieee")))
    reasons = dict((u["setting"], u["unsupported"])
                   for u in run_nic(want).result["unsupported"])
    assert "firmware DCBX agent owns DCB (dcb dcbx: lld-managed)" in reasons["ets"]
    # required: the host fails, naming it, before anything is written
    result = run_nic(want, required_settings=["ets"])
    assert result.failed and "unsupported on bnxt-upstream" in result.result["msg"]


def test_bnxt_pfc_is_not_tried_when_ets_was_refused(want, on_host):
    nic = drivers.Bnxt()
    host = on_host(drivers.Host(nic))
    have = live.gather("rdma0", host.run, host.read, host.listdir)
    todo = live.plan_interface(want, have, host.run)
    ets = next(i for i in todo if i["setting"] == "ets")
    ets["argv"] = ets["argv"][:-8] + ["0:50", "1:50", "2:0", "3:0", "4:0", "5:0", "6:0",
                                      "7:10"]       # TC7 above max_tc: bnxt_ets_validate
    errors = live.apply_all(todo, host.run, host.write)
    assert "Invalid argument" in errors[("rdma0", "ets")][0]
    assert errors[("rdma0", "pfc")] == ["not attempted: ets failed first and the driver "
                                        "needs it"]
    assert (drivers.SEL_DSCP, 26, 3) in nic.apps and nic.mtu == 9000


def test_a_missing_dcb_tool_is_one_line(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Mlx5(), missing={"dcb"}))
    result = run_nic(want)
    assert not result.failed
    assert result.result["missing_tools"] == [
        "gpu1: dcb not found - install iproute2 >= 5.11 (dscp_prio, roce_port_prio, ets, pfc, "
        "dcbx)"]
    assert host.nic.mtu == 9000
    result = run_nic(want, required_settings=["dscp_prio", "ets", "pfc"])
    assert result.failed and result.result["msg"] == (
        "required settings unsupported, nothing changed: gpu1: dcb not found - install "
        "iproute2 >= 5.11 (dscp_prio, roce_port_prio, ets, pfc, dcbx)")


def _roce_check():
    path = os.path.join(ROOT, "roles", "nic", "files", "roce_check.py")
    spec = importlib.util.spec_from_file_location("roce_check_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_roce_check_applies_and_then_finds_nothing_to_do(stack, want, on_host, monkeypatch,
                                                         tmp_path, capsys):
    check = _roce_check()
    host = on_host(drivers.Host(STACKS[stack][0]()))
    monkeypatch.setattr(check, "run", host.run)
    plan = tmp_path / "host.json"
    plan.write_text(json.dumps({"host": "gpu1", "interfaces": [want]}))
    assert check.main(["--plan", str(plan)]) == 1              # differs before
    assert check.main(["--apply", "--plan", str(plan)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert check.main(["--plan", str(plan)]) == 0
    assert "DIFFERS" not in capsys.readouterr().out


def test_roce_check_never_crashes_on_tools(want, on_host, monkeypatch, tmp_path, capsys):
    check = _roce_check()
    host = on_host(drivers.Host(drivers.Mlx5(ignore_writes=True), missing={"ethtool"}))

    def garbage(argv):
        if argv[:3] == ["dcb", "-j", "app"]:
            return 0, "Error executing command.\n", ""
        return host.run(argv)
    monkeypatch.setattr(check, "run", garbage)
    plan = tmp_path / "host.json"
    plan.write_text(json.dumps({"host": "gpu1", "interfaces": [want]}))
    assert check.main(["--apply", "--plan", str(plan)]) == 1
    out, err = capsys.readouterr()
    assert "FAILED" in out and "Traceback" not in out + err
    assert "ethtool not found - install ethtool >= 4.0" in err


def test_nccl_socket_ifname_from_the_host_and_the_port_of_a_two_port_device(example):
    host_plan = plan_mod.build_plan(*example)["devices"]["gpu1"]
    assert host_plan["nccl"]["NCCL_SOCKET_IFNAME"] is None          # no eth0 by default
    facts = dict((n["name"], {"rdma_device": "mlx4_0", "rdma_port": 1 + i % 2,
                              "rdma": {"gids": []}})
                 for i, n in enumerate(host_plan["nics"]))
    settings, notes = nccl.settings(host_plan, facts, {"default_route_interface": "eno1",
                                                       "interfaces": ["lo", "eno1"]})
    assert settings["NCCL_SOCKET_IFNAME"] == "eno1"
    assert settings["NCCL_IB_HCA"].startswith("=mlx4_0:1,mlx4_0:2,")
    planned = dict(host_plan, nccl=dict(host_plan["nccl"], NCCL_SOCKET_IFNAME="eth0"))
    settings, notes = nccl.settings(planned, facts, {"default_route_interface": "eno1",
                                                     "interfaces": ["lo", "eno1"]})
    assert settings["NCCL_SOCKET_IFNAME"] is None and "lacks" in notes[0]
    settings, notes = nccl.settings(host_plan, facts, {"default_route_interface": None,
                                                       "interfaces": ["eno1"]})
    assert settings["NCCL_SOCKET_IFNAME"] is None and "NCCL picks" in notes[0]


def test_the_port_of_a_two_port_device_is_found_by_its_gid_table():
    from ansible_collections.roce.fabric.plugins.module_utils.host import rdma
    tree = {"/sys/class/infiniband/mlx4_0/ports": ["1", "2"],
            "/sys/class/infiniband/mlx4_0/ports/1/gid_attrs/ndevs": ["0"],
            "/sys/class/infiniband/mlx4_0/ports/2/gid_attrs/ndevs": ["0"],
            "/sys/class/infiniband/mlx4_0/ports/1/gid_attrs/ndevs/0": "ens1\n",
            "/sys/class/infiniband/mlx4_0/ports/2/gid_attrs/ndevs/0": "ens1d1\n"}

    def read(path):
        value = tree.get(path)
        return value if isinstance(value, str) else None

    def listdir(path):
        value = tree.get(path)
        return value if isinstance(value, list) else None
    assert rdma.port_of("ens1d1", "mlx4_0", read, listdir) == 2
    assert rdma.port_of("ens1", "mlx4_0", read, listdir) == 1


def held_dscp_map(nic):
    """What the NIC classifies by, as its driver holds it: mlx5 its firmware dscp2prio
    (en_dcbnl.c mlx5e_set_dscp2prio), bnxt its firmware DSCP table (bnxt_hwrm_queue_dscp2pri_cfg),
    ice and the kernel's APP table otherwise. A DSCP with two entries is a list."""
    if isinstance(nic, drivers.Mlx5):
        return dict(enumerate(nic.dscp2prio))
    if isinstance(nic, drivers.Bnxt):
        return dict(nic.firmware_dscp)
    table = {}
    for sel, dscp, prio in nic.apps:
        if sel == drivers.SEL_DSCP:
            table[dscp] = prio if dscp not in table else [table[dscp], prio]
    return table


@pytest.mark.parametrize("start", ["older plan", "plan"])
@pytest.mark.parametrize("stack", sorted(STACKS))
def test_a_replanned_roce_dscp_leaves_no_stale_entry(stack, start, want, on_host, run_nic):
    """RoCE first on DSCP 24 (by an older plan that wrote only its two entries, or by this
    one), then re-planned to 26: every model ends holding exactly the 64-DSCP map, only 26 on
    the lossless priority, in one run that reads back clean; the next run changes nothing."""
    make, _order = STACKS[stack]
    host = on_host(drivers.Host(make()))
    before = dict(want, dscp_prio={24: 3, 48: 6})
    if start == "older plan":
        before.pop("dscp_default_prio")
    assert not run_nic(before).failed
    assert held_dscp_map(host.nic)[24] == 3
    result = run_nic(want)
    assert not result.failed, result.result["msg"]
    planned = dict((d, {26: 3, 48: 6}.get(d, 0)) for d in range(64))
    assert held_dscp_map(host.nic) == planned
    kernel = sorted((d, p) for s, d, p in host.nic.apps if s == drivers.SEL_DSCP)
    assert kernel == sorted(planned.items())
    lossless = want["pfc_priorities"]
    assert [d for d, p in planned.items() if p in lossless] == [26]
    if isinstance(host.nic, drivers.Mlx5):
        assert host.nic.trust == "dscp"
    assert not run_nic(want).result["changed"]


def test_mlx5_in_firmware_dcbx_mode_is_switched_to_host_before_ets_and_pfc(
        want, on_host, run_nic):
    """A ConnectX whose firmware runs DCBX (dcb dcbx: cee ieee, no host): its agent applies the
    switch's LLDP PFC and ETS over the host's. The module switches it to host mode first, so
    the first run reads back clean with one PFC write (one link bounce) and the second run
    changes nothing and bounces nothing."""
    host = on_host(drivers.Host(drivers.Mlx5(firmware_dcbx=True)))
    assert host.nic.dcbx() == "cee ieee" and host.nic.pfc_en == drivers.Mlx5.PEER_PFC
    first = run_nic(want)
    assert not first.failed, first.result["msg"]
    steps = [k for k in kinds(host.nic) if k in ("dcbx", "ets", "pfc")]
    assert steps == ["dcbx", "ets", "pfc"]
    assert host.nic.dcbx() == "host ieee" and host.nic.pfc_en == 1 << 3
    assert host.nic.getets()["tc_bw"] == {0: 50, 1: 0, 2: 0, 3: 50, 4: 0, 5: 0, 6: 100, 7: 0}
    assert host.nic.toggles == 1
    second = run_nic(want)
    assert not second.failed and not second.result["changed"], second.result
    assert host.nic.toggles == 1


def test_mlx5_refusing_host_dcbx_fails_naming_what_firmware_mode_costs(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Mlx5(firmware_dcbx=True, host_mode_refused=True)))
    result = run_nic(want)
    assert result.failed
    (line,) = [x for x in result.result["refused"] if x.startswith("rdma0 dcbx:")]
    assert line.startswith("rdma0 dcbx: planned host, read back firmware DCBX (dcb dcbx: cee "
                           "ieee): the ConnectX's LLDP agent applies the switch's PFC and ETS "
                           "over the host's")
    assert "dcb dcbx set dev rdma0 host ieee failed" in line
    # the switch's PFC is what the NIC runs: the read-back says so too
    assert any(x.startswith("rdma0 pfc: planned") for x in result.result["refused"])
    assert host.nic.pfc_en == drivers.Mlx5.PEER_PFC


def test_bnxt_broadcom_lld_managed_is_refused_with_its_reason(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Bnxt(broadcom=True, dcbx="lld-managed ieee")))
    result = run_nic(want)
    assert not result.failed
    reasons = dict((u["setting"], u["unsupported"]) for u in result.result["unsupported"])
    for setting in ("dcbx", "ets", "pfc", "dscp_prio", "roce_port_prio"):
        assert reasons[setting].startswith("unsupported on bnxt-broadcom: the firmware DCBX "
                                           "agent owns DCB (dcb dcbx: lld-managed)"), setting
    assert host.nic.my_ets is None and not host.nic.apps        # nothing DCB was attempted


def test_ice_lld_managed_turns_the_firmware_agent_off_and_becomes_host(want, on_host, run_nic):
    host = on_host(drivers.Host(drivers.Ice(fw_lldp=True)))
    assert host.nic.dcbx() == "lld-managed ieee"
    assert not run_nic(want).failed
    assert host.nic.dcbx() == "host ieee" and host.nic.pfc_en == 1 << 3
    assert not run_nic(want).result["changed"]


def test_bnxt_broadcom_enables_ecn_before_the_cnp_so_one_run_converges(want, on_host, run_nic):
    """Broadcom's bnxt_re, no service profile, congestion control off: a CNP applied before ECN
    is enabled is reset to 0 (configfs.c bnxt_re_program_cnp_dcb_values). ECN first, as
    bnxt_setupcc.sh does: the first run (every boot's re-apply) reads back clean."""
    host = on_host(drivers.Host(drivers.Bnxt(broadcom=True)))
    assert host.nic.cc["ecn_enable"] == 0
    first = run_nic(want)
    assert not first.failed, first.result["msg"]
    writes = [k for k in kinds(host.nic) if k in ("ecn_enable", "cnp_dscp", "cnp_prio")]
    # the device group did not exist: the CNP values are unknown, both are written
    assert writes == ["ecn_enable", "cnp_dscp", "cnp_prio"]
    assert host.nic.applied == {"cnp_dscp": 48, "cnp_prio": 6, "ecn_enable": 1}
    assert not run_nic(want).result["changed"]


def _render(template, **variables):
    import jinja2
    path = os.path.join(ROOT, "roles", "nic", "templates", template)
    with open(path) as handle:
        return jinja2.Template(handle.read(), keep_trailing_newline=True).render(
            ansible_managed="test", nic_tools_dir="/usr/local/lib/roce-fabric", **variables)


# systemd.unit(5): a unit name is [A-Za-z0-9:_.\-]; a template instance is "prefix@instance.type"
UNIT_NAME = re.compile(r"^[A-Za-z0-9:_.\\-]+@[A-Za-z0-9:_.\\-]+\.service$")


def test_the_udev_rule_starts_the_unit_of_a_planned_nic_by_its_mac():
    text = _render("90-roce-nic.rules.j2", nic_device={"nics": [{"name": "rdma0"},
                                                                {"name": "rdma1"}]},
                   ansible_facts={"roce_nics": {"rdma0": {"mac_address": "0C:42:A1:00:00:01"}}})
    rules = [line for line in text.splitlines() if line.startswith("ACTION")]
    rdma0 = [r for r in rules if "0c:42:a1:00:00:01" in r]
    assert rdma0 == ['ACTION=="add", SUBSYSTEM=="net", ATTR{address}=="0c:42:a1:00:00:01", '
                     'TAG+="systemd", ENV{SYSTEMD_WANTS}+="roce-nic@0c:42:a1:00:00:01.service"']
    assert not [r for r in rules if '"rdma0"' in r]     # no name a rename would break
    # a NIC without a known MAC: by its final name, instance = the planned name
    assert [r for r in rules if '"rdma1"' in r] == [
        'ACTION=="add", SUBSYSTEM=="net", NAME=="rdma1", TAG+="systemd", '
        'ENV{SYSTEMD_WANTS}+="roce-nic@rdma1.service"',
        'ACTION=="add", SUBSYSTEM=="net", NAME=="", KERNEL=="rdma1", TAG+="systemd", '
        'ENV{SYSTEMD_WANTS}+="roce-nic@rdma1.service"']
    for rule in rules:
        for unit in re.findall(r'SYSTEMD_WANTS\}\+="([^"]+)"', rule):
            assert unit == "roce-nic-rdma.service" or UNIT_NAME.match(unit), unit


def test_the_boot_unit_is_a_template_bound_to_no_interface_name():
    text = _render("roce-nic@.service.j2")
    sections, keys = [], []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            assert line in ("[Unit]", "[Service]"), line
            sections.append(line)
            continue
        key, sep, value = line.partition("=")
        assert sep and key and value and key == key.strip(), line   # systemd Key=Value syntax
        keys.append((sections[-1], key, value))
    assert sections == ["[Unit]", "[Service]"]
    values = dict((k, v) for _s, k, v in keys)
    assert values["ExecStart"] == "/usr/local/lib/roce-fabric/bin/roce-check --apply --nic %I"
    assert values["Type"] == "oneshot" and "RemainAfterExit" not in values
    assert "BindsTo" not in values
    assert not [v for v in values.values() if "sys-subsystem-net-devices" in v]


def test_interface_by_mac_finds_the_netdev_whatever_it_is_called(on_host):
    host = on_host(drivers.Host(drivers.Mlx5(name="ens1f0np0")))
    host.files["/sys/class/net/ens1f0np0/device/vendor"] = "0x15b3\n"
    host.files["/sys/class/net/ens1f0np0.100/address"] = "0c:42:a1:00:00:01\n"   # a VLAN
    assert live.interface_by_mac("0C:42:A1:00:00:01", host.read, host.listdir) == "ens1f0np0"
    assert live.interface_by_mac("0c:42:a1:00:00:02", host.read, host.listdir) is None


def test_a_nic_renamed_across_a_reboot_is_configured_by_its_boot_unit(
        want, on_host, monkeypatch, tmp_path, capsys):
    """The plan says rdma0; after the reboot the NIC is ens1f0np0 (its .link rename did not
    happen). roce-nic@<MAC>.service runs roce-check --apply --nic <MAC>: the plan's rdma0
    settings land on ens1f0np0, and the next check finds nothing to do."""
    check = _roce_check()
    host = on_host(drivers.Host(drivers.Mlx5(name="ens1f0np0")))
    monkeypatch.setattr(check, "run", host.run)
    plan = tmp_path / "host.json"
    plan.write_text(json.dumps({"host": "gpu1", "interfaces": [want],
                                "macs": {"rdma0": "0C:42:A1:00:00:01"}}))
    mac = "0c:42:a1:00:00:01"
    assert check.main(["--apply", "--nic", mac, "--plan", str(plan)]) == 0, \
        capsys.readouterr().out
    assert host.nic.mtu == 9000 and host.nic.pfc_en == 1 << 3
    assert host.addrs == ["198.18.64.1/31"]
    capsys.readouterr()
    assert check.main(["--nic", mac, "--plan", str(plan)]) == 0
    out = capsys.readouterr().out
    assert "DIFFERS" not in out and "ens1f0np0" in out
    # the RDMA unit's plain --apply follows the MAC too
    assert check.main(["--plan", str(plan)]) == 0
    capsys.readouterr()
    assert check.main(["--nic", "0c:42:a1:00:00:09", "--plan", str(plan)]) == 2
    assert "no planned interface has MAC 0c:42:a1:00:00:09" in capsys.readouterr().err
