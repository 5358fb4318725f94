"""The Ansible path: `ansible-playbook site.yml` on the example inventory (offline), clean,
under --limit, with a seeded violation and with a bad inventory; and the plan Ansible computes
equals the pure-Python plan."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import plan

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
EXAMPLE = os.path.join(ROOT, "inventories", "example", "hosts.yml")
ALL_CLEAR = "all clear: 2 spines, 4 leaves (2 pairs), 8 hosts, 64 NICs, 128 links"


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
    assert "1 error(s), 0 warning(s)" in result.stdout
    assert "pfc-watchdog" in result.stdout and "leaf1a" in result.stdout
    assert "nothing was rendered or pushed" in result.stdout + result.stderr


def test_bad_inventory_fails_clearly(inventory_copy):
    (inventory_copy / "host_vars" / "gpu1.yml").write_text(
        "roce_nic_overrides: {0: {port: Ethernet999}}\n")
    result = run_site("-i", str(inventory_copy / "hosts.yml"))
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "host gpu1: roce_nic_overrides.0.port = 'Ethernet999' is not valid" in output
    assert "Traceback" not in output


def test_ansible_plan_equals_python_plan(inventory_data):
    result = run_site(ANSIBLE_STDOUT_CALLBACK="ansible.posix.json")
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
    assert result["violations"] == []
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
    assert ("all clear: 4 super-spines, 4 pods, 2 plane(s); 8 spines, 8 leaves (4 pairs), "
            "4 hosts, 16 NICs, 48 links") in result.stdout
    configs = sorted(os.listdir(out / "configs"))
    assert len([c for c in configs if c.endswith((".json", ".cfg"))]) == 20
    assert "a-ss1.json" in configs and "b-ss1.cfg" in configs    # plane B runs EOS


def test_superspine_tag_renders_only_the_super_spines(tmp_path):
    out = tmp_path / "intended"
    result = run_site("-i", MULTI_POD, "--tags", "superspine", "-e", "switch_output_dir=%s" % out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(os.listdir(out / "configs")) == [
        "a-ss1.bgpd.conf", "a-ss1.json", "a-ss2.bgpd.conf", "a-ss2.json", "b-ss1.cfg", "b-ss2.cfg"]
