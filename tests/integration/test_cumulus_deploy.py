"""The Cumulus deploy path of site.yml, run with roce.fabric.nvue_config against nvue_api.py, a
stand-in NVUE REST API written from NVIDIA's documentation (revisions, apply with a confirm
timeout and its automatic rollback, validation of every key and range the documents give; no
Cumulus Linux runs here). The example fabric with its leaf pair 1 on Cumulus Linux; leaf1a runs a
base config of its own (management VRF, a storage bond with its own BGP peer and policy, NTP,
SNMP, a foreign QoS map; tests/unit/fixtures/cumulus/applied-base.json) and is deployed, leaf1b
stays offline.

Shows: --check --diff patches a revision and prints its diff as NVUE commands, applies nothing;
a roll drains, applies the plan's revision with a confirm timeout, verifies, confirms, undrains,
and keeps every setting the plan does not own; a second run changes nothing; a revision whose
BGP sessions do not come up is not confirmed and the switch rolls it back by itself (the roll
then undrains it); a change that would touch what something else uses (a bond with a plan port,
a foreign route-map on a plan policy, SNMP on an address the deploy removes, a storage bond whose
QoS map puts PCP 3 on the lossless priority) is refused before any revision exists."""
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(sys.executable)
BASE = os.path.join(ROOT, "tests", "unit", "fixtures", "cumulus", "applied-base.json")
PASSWORD = "lab-secret"
# The confirm window: long enough that the roll verifies inside it on a loaded CI machine (each
# task of the roll starts a module), short enough that a test waits for the rollback.
CONFIRM_S = 20


def _record(inventory_data, inventory, record):
    """Every switch's configs but leaf1a's written as the deployed-state record (the fabric runs
    the plan; leaf1a is being rolled for the first time)."""
    from ansible_collections.roce.fabric.plugins.module_utils import pipeline
    from ansible_collections.roce.fabric.plugins.module_utils.render import outputs
    built = pipeline.build_plan(*inventory_data(str(inventory / "hosts.yml")))
    for name, dev in built["devices"].items():
        if dev["kind"] == "switch" and name != "leaf1a":
            for rel, text in outputs.render_switch(dev, ("configs",)).items():
                os.makedirs(os.path.dirname(os.path.join(record, rel)), exist_ok=True)
                with open(os.path.join(record, rel), "w") as handle:
                    handle.write(text)
    return built


@pytest.fixture
def nvue_lab(tmp_path, inventory_data):
    state = tmp_path / "leaf1a"
    state.mkdir()
    shutil.copy(BASE, state / "applied.json")
    inventory = tmp_path / "inventory"
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), inventory)
    pair = inventory / "group_vars" / "leaf_pair1.yml"
    pair.write_text(pair.read_text().replace("roce_platform: sonic", "roce_platform: cumulus"))
    built = _record(inventory_data, inventory, tmp_path / "intended" / "deployed")
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "nvue_api.py"), str(state),
                               "cumulus", PASSWORD], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    (inventory / "host_vars").mkdir(exist_ok=True)
    (inventory / "host_vars" / "leaf1a.yml").write_text(
        "roce_deploy: true\nansible_host: 127.0.0.1\nswitch_deploy_nvue_port: %d\n"
        "switch_deploy_nvue_password: %s\nswitch_deploy_nvue_validate_certs: false\n"
        "switch_deploy_nvue_confirm_s: %d\n" % (port, PASSWORD, CONFIRM_S))
    yield {"state": state, "inventory": inventory, "output": tmp_path / "intended",
           "plan": built}
    server.kill()
    server.wait()


def roll(lab, *args):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0", ANSIBLE_DEPRECATION_WARNINGS="0")
    for name in ("requests.log", "revisions.log"):
        (lab["state"] / name).write_text("")
    result = subprocess.run(
        [os.path.join(BIN, "ansible-playbook"), "site.yml", "-i",
         str(lab["inventory"] / "hosts.yml"), "--tags", "leaf", "--limit", "leaf_pair1",
         "-e", "switch_output_dir=%s" % lab["output"]] + list(args),
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    result.text = re.sub(r"\s+", " ", result.stdout + result.stderr)
    result.revisions = (lab["state"] / "revisions.log").read_text().splitlines()
    result.requests = (lab["state"] / "requests.log").read_text().splitlines()
    return result


def applied(lab, name="applied.json"):
    return json.loads((lab["state"] / name).read_text())


def recap(result, host):
    return dict((k, int(v)) for k, v in
                re.findall(r"(\w+)=(\d+)", result.text.split("%s :" % host)[-1].split(host)[0])[:8])


def _foreign(tree):
    """What the base config holds that the plan does not touch (tests/unit/fixtures/cumulus)."""
    return {"eth0": tree["interface"]["eth0"], "bond1": tree["interface"]["bond1"],
            "swp1 fec": tree["interface"]["swp1"]["link"].get("fec"),
            "STORAGE-MAP": tree["qos"]["mapping"]["STORAGE-MAP"],
            "storage peer": tree["vrf"]["default"]["router"]["bgp"]["neighbor"]["192.0.2.67"],
            "STORAGE-OUT": tree["router"]["policy"]["route-map"]["STORAGE-OUT"],
            "service": tree["service"], "mgmt": tree["vrf"]["mgmt"],
            "default ECN": tree["qos"]["congestion-control"]["default-global"]}


def test_check_diff_shows_the_revision_diff_and_applies_nothing(nvue_lab):
    before = applied(nvue_lab)
    result = roll(nvue_lab, "--check", "--diff")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    # the revision was created and patched, its diff shown as NVUE commands; nothing applied
    assert [r for r in result.requests if r.startswith("POST /nvue_v1/revision")]
    assert "nv set qos mapping default-global dscp 26 switch-priority 3" in result.text
    assert "nv set interface swp1s0 qos pfc profile RF-PFC-3M" in result.text
    # a loopback address the plan never owned is kept (no deployed-state record of leaf1a)
    assert "nv unset interface lo" not in result.text
    assert result.revisions == [] and applied(nvue_lab) == before
    assert PASSWORD not in result.stdout + result.stderr


def test_roll_drains_applies_verifies_confirms_undrains_and_keeps_the_rest(nvue_lab):
    before = applied(nvue_lab)
    result = roll(nvue_lab)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr
    # drain (no confirm); the cages' breakouts on their own, first (NVIDIA: before the QoS of
    # the ports they make); the rest of the plan's part, confirmed once verified; undrain
    assert result.revisions == ["1 applied", "2 confirm", "2 confirmed", "3 confirm",
                                "3 confirmed", "4 applied"], result.revisions
    assert "GET /nvue_v1/vrf/default/router/bgp/neighbor" in result.requests
    after = applied(nvue_lab)
    assert after == applied(nvue_lab, "startup.json")            # saved
    dev = nvue_lab["plan"]["devices"]["leaf1a"]
    ports = [p["name"] for p in dev["ports"]]
    assert all(after["interface"][p]["qos"]["pfc"]["profile"].startswith("RF-PFC-")
               for p in ports)
    dscp = after["qos"]["mapping"]["default-global"]["dscp"]
    assert len(dscp) == 64 and dscp["26"] == {"switch-priority": 3}
    assert "graceful-shutdown" not in after["router"]["bgp"]          # undrained
    assert _foreign(after) == _foreign(before)
    loopbacks = after["interface"]["lo"]["ip"]["address"]
    assert loopbacks == {dev["loopback"]: {}, "192.0.2.200/32": {}}
    assert recap(result, "leaf1a")["failed"] == 0

    again = roll(nvue_lab)
    assert again.returncode == 0, again.stdout[-3000:]
    assert again.revisions == [] and recap(again, "leaf1a")["changed"] == 0
    assert not [r for r in again.requests if r.startswith(("POST", "PATCH"))]


def test_a_revision_that_fails_verification_rolls_back_by_itself(nvue_lab):
    roll(nvue_lab)                                  # leaf1a runs the plan
    (nvue_lab["state"] / "fault.json").write_text(json.dumps({"bgp_idle_while_confirming": True}))
    # a change of the plan's that drains (the pools: traffic-affecting)
    pair = nvue_lab["inventory"] / "group_vars" / "leaf_pair1.yml"
    pair.write_text(pair.read_text().replace(
        "  trigger_fraction: 0.65", "  trigger_fraction: 0.65\n  nvue: {lossless_pool_percent: 60}"))
    before = applied(nvue_lab)
    result = roll(nvue_lab, "-e", "switch_deploy_verify_retries=2",
                  "-e", "switch_deploy_verify_delay_s=1")
    assert result.returncode != 0
    assert 'deploy failed at "Verify BGP sessions and ECMP width against the plan' in result.text
    assert "rolled back by the switch (revision not confirmed)" in result.text
    # drain, the change (not confirmed: rolled back by the switch), then the roll undrains
    assert result.revisions == ["5 applied", "6 confirm", "6 rolled back (not confirmed)",
                                "7 applied"], result.revisions
    now = applied(nvue_lab)
    assert "graceful-shutdown" not in now["router"]["bgp"]            # undrained again
    assert now == before == applied(nvue_lab, "startup.json")
    assert "Rollout: stopped in wave" in result.text


def test_what_something_else_uses_is_refused_before_any_revision(nvue_lab):
    # the plan deployed leaf1a before with another loopback: this deploy removes it
    record = nvue_lab["output"] / "deployed" / "configs" / "leaf1a.yaml"
    record.write_text("- set:\n    interface:\n      lo:\n        type: loopback\n"
                      "        ip:\n          address:\n            '192.0.2.200/32': {}\n")
    tree = applied(nvue_lab)
    tree["interface"]["bond2"] = {"type": "bond", "bond": {"member": {"swp2s1": {}}}}
    tree["vrf"]["default"]["router"]["bgp"]["neighbor"]["192.0.2.67"]["address-family"][
        "ipv4-unicast"]["policy"]["inbound"] = {"route-map": "RF-DRAIN-IN"}
    tree["service"]["snmp-server"]["listening-address"]["192.0.2.200"] = {}
    del tree["qos"]["mapping"]["STORAGE-MAP"]["pcp"]       # PCP 3 on switch priority 3 again
    (nvue_lab["state"] / "applied.json").write_text(json.dumps(tree))
    result = roll(nvue_lab)
    assert result.returncode != 0
    assert "refused, nothing changed" in result.text
    assert "interface bond2 is a bond with plan port swp2s1 as member" in result.text
    assert "uses a plan object (RF-*)" in result.text
    assert "service.snmp-server.listening-address.192.0.2.200" in result.text
    assert "uses address 192.0.2.200, which this deploy removes" in result.text
    assert ("interface bond1 classifies with qos mapping STORAGE-MAP (trust l2), which puts "
            "PCP 3 by NVUE's default map on lossless switch priority 3") in result.text
    assert not [r for r in result.requests if r.startswith(("POST", "PATCH"))]


def test_a_switch_lost_after_the_apply_rolls_back_by_itself_and_a_rerun_rolls_it(nvue_lab):
    """The controller loses the switch right after NVUE applied the plan's revision: nothing can
    be verified or confirmed, so the switch rolls the revision back by itself when the window
    ends - drained, as the roll left it before the apply. The run says so; once the switch
    answers, a rerun rolls it to the plan."""
    before = applied(nvue_lab)
    (nvue_lab["state"] / "fault.json").write_text(json.dumps({"down_while_confirming": True}))
    result = roll(nvue_lab, "-e", "switch_deploy_verify_retries=1",
                  "-e", "switch_deploy_verify_delay_s=0")
    assert result.returncode != 0
    said = ("rolls an unconfirmed revision back by itself %d s after it applied it; it stays "
            "drained (graceful shutdown) until then" % CONFIRM_S)
    assert "NOT checked" in result.text and said in result.text
    deadline = time.time() + CONFIRM_S + 20
    while "rolled back (not confirmed)" not in (nvue_lab["state"] / "revisions.log").read_text():
        assert time.time() < deadline, "the switch did not roll back"
        time.sleep(0.5)
    now = applied(nvue_lab)
    assert now["router"]["bgp"].pop("graceful-shutdown") == "on"      # the drain stands
    assert now == before
    (nvue_lab["state"] / "fault.json").unlink()
    again = roll(nvue_lab)
    assert again.returncode == 0, again.stdout[-3000:]
    assert "graceful-shutdown" not in applied(nvue_lab)["router"]["bgp"]
    assert applied(nvue_lab) == applied(nvue_lab, "startup.json")
