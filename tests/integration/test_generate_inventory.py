"""The Ansible path of the inventory generator: playbooks/generate_inventory.yml writes a small
three-tier, two-plane inventory (check mode first, then for real, then a refused rerun into
the non-empty directory), and site.yml plans it all-clear and renders it offline."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)


def _run(*argv):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    return subprocess.run([os.path.join(BIN, "ansible-playbook")] + list(argv), cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300, check=False)


def test_generate_then_plan_and_render(tmp_path):
    dest = str(tmp_path / "inventory")
    args = ["playbooks/generate_inventory.yml", "-e", "gpus=128", "-e", "radix=8", "-e",
            "planes=2", "-e", "dest=%s" % dest, "-e", "name=gen-test"]
    checked = _run(*(args + ["--check"]))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "would change" in checked.stdout and not os.path.exists(dest)

    made = _run(*args)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "gen-test: 128 GPUs on 16 hosts, 3 tiers, 2 plane(s)" in made.stdout
    assert sorted(os.listdir(os.path.join(dest, "group_vars"))) == \
        ["all.yml", "leaves.yml", "roce_switches.yml", "spines.yml", "superspines.yml"]

    again = _run(*(args[:-2] + ["-e", "gpus=256"]))         # different fabric, same dest
    assert again.returncode != 0
    # errors.py shortens a long value ("...") - the path of a pytest-xdist worker's tmp_path is
    assert "dest = '%s" % dest[:60] in again.stdout and "force=true" in again.stdout
    assert "is not valid: an empty or missing directory" in again.stdout

    bad = _run(*(args[:1] + ["-e", "gpus=100", "-e", "dest=%s" % (tmp_path / "x")]))
    assert bad.returncode != 0
    assert "gpus = 100 is not valid: a multiple of nics_per_host = 8" in bad.stdout

    # tiers reaches the generator as -e text: two tiers at radix 8 hold 8*8/2 = 32 GPUs a plane,
    # 128 GPUs over 2 planes are 64 a plane
    two = _run(*(args[:1] + ["-e", "gpus=128", "-e", "radix=8", "-e", "planes=2", "-e",
                             "tiers=2", "-e", "dest=%s" % (tmp_path / "y")]))
    assert two.returncode != 0 and not os.path.exists(str(tmp_path / "y"))
    assert "at most k^2/2 = 32 GPUs per plane (128 GPUs over 2 planes)" in two.stdout, two.stdout

    out = str(tmp_path / "intended")
    site = _run("site.yml", "-i", dest, "-e", "switch_output_dir=%s" % out)
    assert site.returncode == 0, site.stdout[-3000:] + site.stderr
    # no ERROR (a WARN, e.g. of a vendor SKU table, does not stop the run)
    assert re.search(r"roce\.fabric: (all clear|0 error\(s\), \d+ warning\(s\)): 16 super-spines, "
                     r"8 pods, 2 plane\(s\); 32 spines, 32 leaves \(16 pairs\), 16 hosts, 128 NICs",
                     site.stdout), site.stdout[-3000:]
    assert len(os.listdir(os.path.join(out, "configs"))) >= 80     # 80 switches
    assert os.path.exists(os.path.join(out, "fabric", "README.md"))
