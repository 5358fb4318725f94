"""The Ansible path: `ansible-playbook site.yml` on the example inventory (offline), clean,
under --limit, with a seeded violation and with a bad inventory; and the plan Ansible computes
equals the pure-Python plan."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
EXAMPLE = os.path.join(ROOT, "inventories", "example", "hosts.yml")
# no error; the two WARNs of EOS's unsourced default hash (tests/conftest.py unproven_defaults)
ALL_CLEAR = "0 error(s), 2 warning(s): 2 spines, 4 leaves (2 pairs), 8 hosts, 64 NICs, 128 links"


def run_site(*args, **env_extra):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0", **env_extra)
    return subprocess.run([os.path.join(BIN, "ansible-playbook"), "site.yml"] + list(args),
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


@pytest.fixture
def inventory_copy(tmp_path):
    dest = tmp_path / "inventory"
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), dest)
    (dest / "host_vars").mkdir(exist_ok=True)
    return dest


def test_site_all_clear():
    result = run_site()
    assert result.returncode == 0, result.stdout + result.stderr
    assert ALL_CLEAR in result.stdout


def test_limit_still_plans_the_whole_fabric():
    result = run_site("--limit", "leaf_pair2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert ALL_CLEAR in result.stdout


def test_seeded_violation_stops_the_run(inventory_copy):
    (inventory_copy / "host_vars" / "leaf1a.yml").write_text(
        "roce_pfc_watchdog: {poll_ms: 500}\n")
    result = run_site("-i", str(inventory_copy / "hosts.yml"))
    assert result.returncode != 0
    # the two EOS hash warnings of the example (hash-entropy, hash-polarization) stay
    assert "1 error(s), 2 warning(s)" in result.stdout
    assert "pfc-watchdog" in result.stdout and "leaf1a" in result.stdout
    assert "nothing was rendered or pushed" in result.stdout + result.stderr


def test_bad_inventory_fails_clearly(inventory_copy):
    (inventory_copy / "host_vars" / "gpu1.yml").write_text(
        "roce_nic_overrides: {0: {port: Ethernet999}}\n")
    result = run_site("-i", str(inventory_copy / "hosts.yml"))
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert ("host_vars/gpu1.yml:1): roce_nic_overrides.0.port = 'Ethernet999' is not valid: "
            "a port of leaf1a: Ethernet0, Ethernet4 .. Ethernet508 (128 ports, sn5600, "
            "2x400G)") in output
    assert "Traceback" not in output


def test_bad_deploy_variable_on_the_leaves_stops_a_spine_run(inventory_copy, tmp_path):
    """A leaf-only deploy flag of the wrong type, and a misspelled one, refused at the plan gate
    of a run limited to the spines, with the group file and line, before anything is written."""
    pair = inventory_copy / "group_vars" / "leaf_pair2.yml"
    pair.write_text(pair.read_text() + "switch_deploy_allow_partial: sometimes\n"
                    "switch_deploy_allow_parital: true\n")
    out = tmp_path / "intended"
    result = run_site("-i", str(inventory_copy / "hosts.yml"), "--limit", "spines",
                      "-e", "switch_output_dir=%s" % out)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert ("group_vars/leaf_pair2.yml:4; host leaf2a and 1 more host): "
            "switch_deploy_allow_partial = 'sometimes' is not valid: true or false") in output
    assert ("group_vars/leaf_pair2.yml:5; host leaf2a and 1 more host): "
            "switch_deploy_allow_parital = True is not valid: unknown variable: no roce.fabric "
            "role reads it; did you mean switch_deploy_allow_partial?") in output
    assert "Traceback" not in output and not out.exists()


HOSTILE_INVENTORIES = {
    # a file beside the example inventory -> (its text, lines the refusal must hold)
    "path escape in a host name": (
        "hosts2.yml", "all:\n  children:\n    gpu_hosts:\n      hosts:\n        ../../x:\n",
        ["inventory host name = '../../x' is not valid: a device name"]),
    "misspelled group variable": (
        "group_vars/leaf_pair2.yml", "roce_platform: eos\nroce_model: 7060x6-64pe\n"
        "roce_link_overides: {Ethernet17/1: {cable_m: 150}}\n",
        ["group leaf_pair2 (", "group_vars/leaf_pair2.yml:4; host leaf2a and 1 more host): "
         "roce_link_overides = {'Ethernet17/1': {'cable_m': 150}} is not valid: unknown "
         "variable; did you mean roce_link_overrides?"]),
    "speed as text in group_vars/all": (
        "group_vars/all/speed.yml", None,
        ["roce_fabric.fabric_link.speed_gbps = '400G' is not valid: one of 10, 25, 40"]),
    "newline in a NIC name": (
        "host_vars/gpu2.yml", 'roce_nic_names: [a0, a1, a2, a3, a4, a5, a6, "a7\\nrouter bgp 1"]\n',
        ["host gpu2 (", "host_vars/gpu2.yml:2): roce_nic_names[7] = 'a7\\nrouter bgp 1' is not "
         "valid: a Linux interface name"]),
    "undefined variable in a value": (
        "host_vars/leaf1b.yml", "roce_mtu: '{{ no_such_variable }}'\n",
        ["host leaf1b (", "host_vars/leaf1b.yml:2): roce_mtu = '(unreadable)' is not valid: "
         "a value Ansible can template"]),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_INVENTORIES))
def test_hostile_inventory_is_refused_through_ansible(inventory_copy, tmp_path, case):
    """Through ansible-playbook: one line naming host or group (with file and line), field,
    value and what is allowed; no traceback; nothing written anywhere."""
    rel, text, expected = HOSTILE_INVENTORIES[case]
    target = inventory_copy / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if text is None:      # edit the fabric in place
        fabric = (inventory_copy / "group_vars" / "all" / "fabric.yml").read_text()
        (inventory_copy / "group_vars" / "all" / "fabric.yml").write_text(
            fabric.replace("fabric_link: {speed_gbps: 400,", "fabric_link: {speed_gbps: 400G,"))
    else:
        target.write_text("---\n" + text if not rel.startswith("hosts") else text)
    sources = ["-i", str(inventory_copy / "hosts.yml")]
    if rel.startswith("hosts"):
        sources += ["-i", str(target)]
    out = tmp_path / "intended"
    before = sorted(os.listdir(tmp_path))
    result = run_site(*sources, "-e", "switch_output_dir=%s" % out)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "invalid inventory, nothing was planned, rendered or pushed" in output
    for piece in expected:
        assert piece in output, output[-3000:]
    assert "Traceback" not in output and "internal error" not in output
    assert sorted(os.listdir(tmp_path)) == before and not out.exists()


def test_ansible_plan_equals_python_plan(inventory_data):
    result = run_site("-e", "plan_return_plan=true", ANSIBLE_STDOUT_CALLBACK="ansible.posix.json")
    assert result.returncode == 0, result.stderr
    tasks = json.loads(result.stdout)["plays"][0]["tasks"]
    facts = [t for t in tasks if "Plan the whole fabric" in t["task"]["name"]][0]
    ansible_plan = list(facts["hosts"].values())[0]["plan"]
    python_plan = json.loads(json.dumps(plan.build_plan(*inventory_data(EXAMPLE))))
    assert ansible_plan["summary"] == python_plan["summary"]
    assert ansible_plan["devices"] == python_plan["devices"]


def test_1024_gpu_cluster_in_well_under_100_lines(inventory_data):
    inv_dir = os.path.join(ROOT, "inventories", "cluster-1024")
    lines = 0
    for folder, _dirs, files in os.walk(inv_dir):
        for name in files:
            with open(os.path.join(folder, name)) as handle:
                lines += sum(1 for ln in handle if ln.strip() and not ln.strip().startswith("#"))
    assert lines < 60
    result = plan.build_plan(*inventory_data(os.path.join(inv_dir, "hosts.yml")))
    s = result["summary"]
    assert (s["spines"], s["leaves"], s["hosts"], s["nics"]) == (8, 16, 128, 1024)
    assert [(v["rule"], v["severity"]) for v in result["violations"]] == [
        ("hash-entropy", "WARN")]         # EOS's unsourced default hash
    leaf = result["devices"]["leaf01"]
    assert leaf["bgp"]["ecmp_width"] == 64 and leaf["oversubscription"] == 1.0


def test_render_writes_every_switch_and_a_second_run_changes_nothing(tmp_path):
    out = tmp_path / "intended"
    first = run_site("-e", "switch_output_dir=%s" % out)
    assert first.returncode == 0, first.stdout + first.stderr
    assert sorted(os.listdir(out / "configs")) == [
        "leaf1a.bgpd.conf", "leaf1a.json", "leaf1b.bgpd.conf", "leaf1b.json", "leaf2a.cfg",
        "leaf2b.cfg", "spine1.cfg", "spine2.cfg"]
    second = run_site("-e", "switch_output_dir=%s" % out)
    assert "0 file(s) changed" in second.stdout and "changed=1" not in second.stdout


def test_roll_one_pair_renders_only_that_pair(tmp_path):
    out = tmp_path / "intended"
    result = run_site("--tags", "leaf", "--limit", "leaf_pair2", "-e",
                      "switch_output_dir=%s" % out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ALL_CLEAR in result.stdout      # the plan still covers the whole fabric
    assert sorted(os.listdir(out / "configs")) == ["leaf2a.cfg", "leaf2b.cfg"]


def test_check_mode_writes_nothing(tmp_path):
    out = tmp_path / "intended"
    result = run_site("--check", "--diff", "-e", "switch_output_dir=%s" % out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "hostname spine1" in result.stdout          # the diff shows the would-be config
    assert not out.exists()


def test_seeded_violation_renders_nothing(inventory_copy, tmp_path):
    (inventory_copy / "host_vars" / "spine2.yml").write_text("roce_mtu: 9000\n")
    out = tmp_path / "intended"
    result = run_site("-i", str(inventory_copy / "hosts.yml"), "-e",
                      "switch_output_dir=%s" % out)
    assert result.returncode != 0
    assert "mtu-chain" in result.stdout
    assert not out.exists()


MULTI_POD = os.path.join(ROOT, "inventories", "multi-pod", "hosts.yml")


def test_multi_pod_example_plans_and_renders_three_tiers(tmp_path):
    out = tmp_path / "intended"
    result = run_site("-i", MULTI_POD, "-e", "switch_output_dir=%s" % out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ("0 error(s), 2 warning(s): 4 super-spines, 4 pods, 2 plane(s); 8 spines, 8 leaves "
            "(4 pairs), 4 hosts, 16 NICs, 48 links") in result.stdout
    configs = sorted(os.listdir(out / "configs"))
    assert len([c for c in configs if c.endswith((".json", ".cfg"))]) == 20
    assert "a-ss1.json" in configs and "b-ss1.json" in configs   # super-spines on SONiC
    assert "a-pod1-leaf1a.cfg" in configs and "b-pod2-spine2.cfg" in configs   # pods on EOS


def test_superspine_tag_renders_only_the_super_spines(tmp_path):
    out = tmp_path / "intended"
    result = run_site("-i", MULTI_POD, "--tags", "superspine", "-e", "switch_output_dir=%s" % out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(os.listdir(out / "configs")) == [
        "a-ss1.bgpd.conf", "a-ss1.json", "a-ss2.bgpd.conf", "a-ss2.json", "b-ss1.bgpd.conf",
        "b-ss1.json", "b-ss2.bgpd.conf", "b-ss2.json"]


def test_check_diff_shows_a_change_deep_in_a_config_db(tmp_path):
    """A line past 1,000 of a 2,000-line config_db.json that differs from what would be
    rendered shows in --check --diff, with its context (nothing is clipped)."""
    out = tmp_path / "intended"
    assert run_site("--tags", "render", "-e", "switch_output_dir=%s" % out).returncode == 0
    path = out / "configs" / "leaf1a.json"
    lines = path.read_text().splitlines(True)
    index = next(i for i in range(1200, len(lines)) if '"mtu": "' in lines[i])
    seeded = lines[index].replace('"mtu": "', '"mtu": "1')
    rendered, lines[index] = lines[index], seeded
    path.write_text("".join(lines))
    result = run_site("--tags", "render", "--check", "--diff", "-e",
                      "switch_output_dir=%s" % out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "-" + seeded in result.stdout and "+" + rendered in result.stdout
    assert path.read_text().splitlines(True)[index] == seeded      # check mode wrote nothing


def test_an_offline_run_of_a_1024_gpu_fabric_is_quiet_and_ends_with_the_verdict(tmp_path):
    """No play iterates over hosts just to skip them: the run prints a summary, not a line per
    host per task, and its last message is the verdict."""
    out = tmp_path / "intended"
    result = run_site("-i", os.path.join(ROOT, "inventories", "cluster-1024", "hosts.yml"),
                      "-e", "switch_output_dir=%s" % out)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) < 200, len(lines)
    assert result.stdout.count("skipping: [") <= 1      # the plan's stop task, once
    recap = lines.index(next(line for line in lines if line.startswith("PLAY RECAP")))
    verdict = [line for line in lines[:recap] if '"roce.fabric: ' in line][-1]
    # a fresh output directory has no deployed-state record: said once, before the verdict
    assert sum("no baseline - no deployed-state record" in line for line in lines) == 1
    # the EOS leaves' unsourced default hash is the one warning
    assert "roce.fabric: 0 error(s), 1 warning(s)" in verdict and "nothing was pushed" in verdict
