"""roce.fabric.sonic_config against a replayed SONiC switch: check mode, diff, apply, rollback.

No SONiC switch runs here, so the switch is a script of responses: the running CONFIG_DB is the
rendered example with drift, and each sonic-utilities command returns the exit code a scenario
needs. The module must decide correctly from those codes alone.
"""
import copy
import json
import os

import pytest
from ansible.module_utils import basic
from ansible.module_utils.testing import patch_module_args

from ansible_collections.roce.fabric.plugins.modules import sonic_config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))


class Exit(Exception):
    def __init__(self, failed, result):
        Exception.__init__(self, result.get("msg", ""))
        self.failed, self.result = failed, result


class Switch(object):
    """Answers run_command from a running config and per-command exit codes."""

    def __init__(self, running, codes=None):
        self.running, self.codes, self.calls = running, codes or {}, []

    def run_command(self, argv, **_kw):
        self.calls.append(list(argv))
        if argv[:2] == ["show", "runningconfiguration"]:
            return 0, json.dumps(self.running), ""
        key = " ".join(argv[:2]) + (" -d" if "-d" in argv else "")
        rc = self.codes.get(key, 0)
        return rc, "", "" if rc == 0 else "Error: %s failed on the switch" % key


@pytest.fixture
def run(monkeypatch, tmp_path):
    with open(os.path.join(ROOT, "tests", "golden", "example", "configs", "leaf1a.json")) as f:
        intended = json.load(f)

    def runner(switch, check=False, diff=False, **args):
        params = dict(intended=intended, checkpoint="rf-1",
                      patch_path=str(tmp_path / "patch.json"),
                      _ansible_check_mode=check, _ansible_diff=diff)
        params.update(args)

        def leave(failed):
            def handler(_self, **result):
                raise Exit(failed, result)
            return handler
        monkeypatch.setattr(basic.AnsibleModule, "exit_json", leave(False))
        monkeypatch.setattr(basic.AnsibleModule, "fail_json", leave(True))
        monkeypatch.setattr(basic.AnsibleModule, "run_command",
                            lambda _self, argv, **kw: switch.run_command(argv, **kw))
        with patch_module_args(params), pytest.raises(Exit) as caught:
            sonic_config.main()
        return caught.value
    return runner


def drifted():
    with open(os.path.join(ROOT, "tests", "golden", "example", "configs", "leaf1a.json")) as f:
        running = json.load(f)
    running = copy.deepcopy(running)
    running["PORT"]["Ethernet0"]["mtu"] = "1500"
    running["BGP_NEIGHBOR"]["198.18.64.1"] = {"asn": "65199"}   # stale, on a plan port
    return running


def sonic_cmds(switch):
    return [c[:2] + (["-d"] if "-d" in c else []) for c in switch.calls if c[0] == "config"]


def test_check_mode_shows_the_patch_and_runs_nothing(run):
    switch = Switch(drifted())
    out = run(switch, check=True, diff=True)
    assert not out.failed and out.result["changed"]
    assert out.result["tables"] == {"BGP_NEIGHBOR": {"add": 0, "replace": 0, "remove": 1},
                                    "PORT": {"add": 0, "replace": 1, "remove": 0}}
    # the rendered PORT mtu: the switch tiers' default
    assert "replace /PORT/Ethernet0/mtu \"9214\"" in out.result["diff"]["after"]
    assert sonic_cmds(switch) == []


def test_in_sync_switch_is_left_alone(run, tmp_path):
    with open(os.path.join(ROOT, "tests", "golden", "example", "configs", "leaf1a.json")) as f:
        switch = Switch(json.load(f))
    out = run(switch)
    assert not out.failed and not out.result["changed"] and sonic_cmds(switch) == []


def test_apply_takes_a_checkpoint_dry_runs_applies_and_saves(run, tmp_path):
    switch = Switch(drifted())
    out = run(switch)
    assert not out.failed and out.result["changed"] and not out.result["rolled_back"]
    assert sonic_cmds(switch) == [["config", "checkpoint"], ["config", "apply-patch", "-d"],
                                  ["config", "apply-patch"], ["config", "save"]]
    written = json.load(open(str(tmp_path / "patch.json")))
    assert written == out.result["patch"]


def test_dry_run_rejected_by_yang_fails_without_rollback(run):
    switch = Switch(drifted(), {"config apply-patch -d": 1})
    out = run(switch)
    assert out.failed and not out.result["rolled_back"]
    assert ["config", "apply-patch"] not in sonic_cmds(switch)
    assert "apply-patch" in out.result["msg"]


def test_apply_failure_rolls_back_to_the_checkpoint(run):
    switch = Switch(drifted(), {"config apply-patch": 1})
    out = run(switch)
    assert out.failed and out.result["rolled_back"]
    assert sonic_cmds(switch)[-1] == ["config", "rollback"]
    assert "rolled back to checkpoint rf-1" in out.result["msg"]


def test_rollback_state_runs_config_rollback(run):
    switch = Switch(drifted())
    out = run(switch, state="rolled_back", intended=None)
    assert not out.failed and out.result["rolled_back"]
    assert switch.calls == [["config", "rollback", "rf-1"]]


def vendor_template():
    """leaf1a running the vendor's buffer template: its lossy PGs on ingress_lossy_pool."""
    with open(os.path.join(ROOT, "tests", "golden", "example", "configs", "leaf1a.json")) as f:
        running = json.load(f)
    running["BUFFER_POOL"]["ingress_lossy_pool"] = {"mode": "dynamic", "size": "52161690",
                                                    "type": "ingress"}
    running["BUFFER_POOL"]["ingress_lossless_pool"]["size"] = "52161690"
    running["BUFFER_PROFILE"]["ingress_lossy_profile"]["pool"] = "ingress_lossy_pool"
    return running


class FailingRun(Switch):
    """Fails the nth ``config apply-patch`` (not the dry run)."""

    def __init__(self, running, nth):
        Switch.__init__(self, running)
        self.nth, self.applies = nth, 0

    def run_command(self, argv, **kw):
        if argv[:2] == ["config", "apply-patch"] and "-d" not in argv:
            self.applies += 1
            if self.applies == self.nth:
                self.calls.append(list(argv))
                return 1, "", "Error: orchagent said no"
        return Switch.run_command(self, argv, **kw)


def test_a_create_only_buffer_change_is_refused_before_anything_runs(run):
    switch = Switch(vendor_template())
    out = run(switch)
    assert out.failed and sonic_cmds(switch) == []
    assert out.result["msg"].startswith(
        "BUFFER_PROFILE|ingress_lossy_profile pool: running ingress_lossy_pool, planned "
        "ingress_lossless_pool - orchagent applies this only on create: `config reload`")
    assert out.result["msg"].endswith("nothing was applied")


def test_allowed_buffer_recreate_applies_in_ordered_runs(run, tmp_path):
    switch = Switch(vendor_template())
    out = run(switch, allow_buffer_recreate=True)
    assert not out.failed and out.result["changed"]
    assert sonic_cmds(switch) == [["config", "checkpoint"], ["config", "apply-patch", "-d"]] + [
        ["config", "apply-patch"]] * 3 + [["config", "save"]]
    applied = [c[-1] for c in switch.calls if c[:2] == ["config", "apply-patch"]]
    assert applied[0] == str(tmp_path / "patch.json")          # the dry run: the whole patch
    assert [json.load(open(p)) for p in applied[1:]] == out.result["phases"]
    assert out.result["phases"][0][-1] == {"op": "remove",
                                           "path": "/BUFFER_PROFILE/ingress_lossy_profile"}


def test_a_failed_rebuild_rolls_back_and_says_what_orchagent_keeps(run):
    switch = FailingRun(vendor_template(), 2)
    out = run(switch, allow_buffer_recreate=True)
    assert out.failed and out.result["rolled_back"]
    assert sonic_cmds(switch)[-1] == ["config", "rollback"]
    assert "re-created buffer objects (BUFFER_PROFILE|ingress_lossy_profile) keep their new " \
        "fields in orchagent until `config reload`" in out.result["msg"]


# ------------------------------------------------- shared objects (deploy/sonic_shared.py)

def golden():
    with open(os.path.join(ROOT, "tests", "golden", "example", "configs", "leaf1a.json")) as f:
        return json.load(f)


def foreign_port(running):
    """A port outside the plan using the plan's lossless profile, which runs with another
    size on the switch."""
    running["PORT"]["Ethernet256"] = dict(running["PORT"]["Ethernet0"], lanes="256,257,258,259",
                                          index="33", alias="etp33a")
    running["BUFFER_PG"]["Ethernet256|3"] = {"profile": "pg_lossless_400000_5m_profile"}
    running["BUFFER_PROFILE"]["pg_lossless_400000_5m_profile"]["size"] = "38912"
    return running


def in_lag(running):
    running["PORTCHANNEL_MEMBER"] = {"PortChannel101|Ethernet0": {}}
    return running


def in_vlan(running):
    running["VLAN_MEMBER"] = {"Vlan1000|Ethernet4": {"tagging_mode": "untagged"}}
    return running


def in_vrf(running):
    running["INTERFACE"]["Ethernet8"] = {"vrf_name": "Vrf-inband"}
    return running


def tacacs_source(running):
    """TACACS+ sourced from Loopback0, which runs with another address than the plan's."""
    del running["LOOPBACK_INTERFACE"]["Loopback0|198.18.0.2/32"]
    running["LOOPBACK_INTERFACE"]["Loopback0|10.1.0.32/32"] = {}
    running["TACPLUS"] = {"global": {"src_intf": "Loopback0"}}
    return running


def one_by_800(running):
    running["BREAKOUT_CFG"] = {"Ethernet0": {"brkout_mode": "1x800G[400G,200G]"}}
    running["PORT"]["Ethernet0"].update(lanes="0,1,2,3,4,5,6,7", speed="800000")
    del running["PORT"]["Ethernet4"]
    return running


@pytest.mark.parametrize("variant,names", [
    (foreign_port, ["BUFFER_PROFILE|pg_lossless_400000_5m_profile", "BUFFER_PG|Ethernet256|3"]),
    (in_lag, ["PORT|Ethernet0", "PORTCHANNEL_MEMBER|PortChannel101|Ethernet0"]),
    (in_vlan, ["PORT|Ethernet4", "VLAN_MEMBER|Vlan1000|Ethernet4"]),
    (in_vrf, ["INTERFACE|Ethernet8 vrf_name Vrf-inband", "VRF Vrf-inband"]),
    (tacacs_source, ["TACPLUS|global src_intf Loopback0", "10.1.0.32/32 -> 198.18.0.2/32"]),
    (one_by_800, ["BREAKOUT_CFG|Ethernet0", "Ethernet4 (lanes 4,5,6,7"]),
])
def test_every_shared_object_refusal_fires_in_check_mode_before_anything_runs(
        run, variant, names):
    """The role's pending_db.yml runs the module in check mode: it refuses there too."""
    for check in (True, False):
        switch = Switch(variant(golden()))
        out = run(switch, check=check)
        assert out.failed and sonic_cmds(switch) == [], out.result
        assert out.result["msg"].endswith(": nothing was applied")
        assert "patch" not in out.result
        for name in names:
            assert name in out.result["msg"]


def test_a_handed_over_profile_is_applied_and_a_wrong_name_is_refused(run):
    out = run(Switch(foreign_port(golden())), check=True,
              hand_over=["BUFFER_PROFILE|pg_lossless_400000_5m_profile"])
    assert not out.failed and out.result["tables"]["BUFFER_PROFILE"] == {
        "add": 0, "replace": 1, "remove": 0}
    out = run(Switch(foreign_port(golden())), check=True, hand_over=["BUFFER_PROFILE|nope"])
    assert out.failed and '"BUFFER_PROFILE|nope" names no object the plan writes' in \
        out.result["msg"]


class Leaky(Switch):
    """A switch whose commands fail printing its config back (TACACS+ passkey, SNMP community)."""

    DUMP = '{"TACPLUS": {"global": {"passkey": "test123"}}, "SNMP_COMMUNITY": {"public": {}}}'

    def run_command(self, argv, **_kw):
        self.calls.append(list(argv))
        if argv[:2] == ["show", "runningconfiguration"]:
            return (1, self.DUMP, "") if self.codes.get("show") else \
                (0, json.dumps(self.running), "")
        if argv[:2] == ["config", "apply-patch"] and "-d" not in argv:
            return 1, "", "Error: validation failed: " + self.DUMP
        return 0, "", ""


@pytest.mark.parametrize("codes", [{"show": 1}, {}])
def test_what_the_switch_prints_back_is_redacted(run, codes):
    failed = run(Leaky(drifted(), codes))
    assert failed.failed
    printed = json.dumps(failed.result)
    assert "test123" not in printed and '"public"' not in printed
    assert "<redacted>" in printed


# ------------------------------------------- an apply-patch failing half way (a behavioural fake)

class UpdaterSwitch(Switch):
    """CONFIG_DB under sonic-utilities' generic config updater, as generic_updater.py has it:
    ``config checkpoint N`` saves the whole CONFIG_DB (FileSystemConfigRollbacker.checkpoint);
    ``config apply-patch P`` applies the patch as a sequence of changes, in order, and undoes
    none of them when one fails (PatchApplier.apply: no rollback, the error is raised); the dry
    run (-d) changes nothing; ``config rollback N`` replaces CONFIG_DB with the checkpoint
    (ConfigReplacer.replace: a patch to it, verified). ``fail_at``: the 1-based change of the
    apply that fails; ``rollback_fails``: the rollback fails before changing anything."""

    def __init__(self, running, fail_at=None, rollback_fails=False):
        Switch.__init__(self, running)
        self.fail_at, self.rollback_fails, self.checkpoints = fail_at, rollback_fails, {}

    def run_command(self, argv, **kw):
        if argv[:2] == ["config", "checkpoint"]:
            self.calls.append(list(argv))
            self.checkpoints[argv[2]] = copy.deepcopy(self.running)
            return 0, "Checkpoint created successfully.", ""
        if argv[:2] == ["config", "apply-patch"] and "-d" not in argv:
            self.calls.append(list(argv))
            with open(argv[-1]) as handle:
                patch = json.load(handle)
            for n, op in enumerate(patch, 1):
                if n == self.fail_at:
                    return 1, "", "Error: change %d of %d failed: %s" % (n, len(patch), op["path"])
                self._apply(op)
            return 0, "Patch applied successfully.", ""
        if argv[:2] == ["config", "rollback"]:
            self.calls.append(list(argv))
            if self.rollback_fails:
                return 1, "", "Error: Config rollback failed: the switch said no"
            self.running = copy.deepcopy(self.checkpoints[argv[2]])
            return 0, "Config rolled back successfully.", ""
        return Switch.run_command(self, argv, **kw)

    def _apply(self, op):
        parts = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        node = self.running
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        if op["op"] == "remove":
            del node[parts[-1]]
        else:
            node[parts[-1]] = copy.deepcopy(op["value"])


def test_an_apply_failing_half_way_is_rolled_back_and_read_again_at_the_old_config(run):
    before = drifted()
    switch = UpdaterSwitch(copy.deepcopy(before), fail_at=2)
    out = run(switch)
    assert out.failed and out.result["rolled_back"] and len(out.result["patch"]) >= 2
    assert switch.running == before                    # the fake's CONFIG_DB: as before
    assert out.result["ends_at"] == "old"
    assert "CONFIG_DB read again: at its old config (every path of the patch as before)" in \
        out.result["msg"]
    assert ["config", "save", "-y"] not in switch.calls


def test_a_failed_rollback_after_a_half_applied_patch_names_the_paths_part_way(run):
    before = drifted()
    switch = UpdaterSwitch(copy.deepcopy(before), fail_at=2, rollback_fails=True)
    out = run(switch)
    assert out.failed and not out.result["rolled_back"]
    first = out.result["patch"][0]["path"]              # the one change applied before
    assert switch.running != before
    assert out.result["ends_at"] == "between"
    assert ("CONFIG_DB read again: BETWEEN its old and its new config - 1 of the patch's %d "
            "paths part way (%s): run `config rollback rf-1` on the switch before anything "
            "else" % (len(out.result["patch"]), first)) in out.result["msg"]
