"""The cable change of issue 22 through ansible-playbook: leaf pair 2's uplinks from 30 m to
100 m with one group line. --check --diff shows every changed config line and one line per
other file; the applied run writes fabric/changes.md with each device's class; the pair-limited
run names the spines whose side changes and the --limit that covers them."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)


def run_site(*args):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    result = subprocess.run([os.path.join(BIN, "ansible-playbook"), "site.yml"] + list(args),
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                            check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    return result.stdout


def _config_changes(root_a, root_b):
    """Every line that differs between two renders' configs (the lines a review must see)."""
    out = set()
    for name in os.listdir(os.path.join(root_b, "configs")):
        with open(os.path.join(root_a, "configs", name)) as a, \
                open(os.path.join(root_b, "configs", name)) as b:
            old, new = a.read().splitlines(), b.read().splitlines()
        out |= {"-" + line for line in set(old) - set(new)}
        out |= {"+" + line for line in set(new) - set(old)}
    return out


def test_a_pair_cable_change_reviews_and_rolls_with_its_blast_radius(tmp_path):
    inv = tmp_path / "inventory"
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), inv)
    base = tmp_path / "base"
    run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % base)
    assert not (base / "fabric" / "changes.md").exists()       # a first render: nothing to compare
    pair = inv / "group_vars" / "leaf_pair2.yml"
    pair.write_text(pair.read_text() + "roce_uplink_overrides: {cable_m: 100}   # one line\n")
    limited = tmp_path / "limited"
    shutil.copytree(base, limited)

    review = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % base,
                      "--check", "--diff")
    assert not (base / "fabric" / "changes.md").exists()       # check mode wrote nothing
    applied = tmp_path / "applied"
    shutil.copytree(base, applied)
    run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % applied)
    wanted = _config_changes(base, applied)
    assert len(wanted) == 4          # the headroom-pool line, old and new (spines, leaves)
    for line in wanted:
        assert line in review.splitlines(), line
    # every other changed file: one line, never a raw diff
    per_file = {}
    for line in review.splitlines():
        m = re.match(r"^(?:[-+]{3} )?((?:docs|structured|fabric|hosts|anta)/\S+?)[: ]", line)
        if m:
            per_file[m.group(1)] = per_file.get(m.group(1), 0) + 1
    assert per_file and max(per_file.values()) < 10, per_file
    assert "docs/leaf2a.md: " in review and "fabric/topology.svg" not in review
    assert "\n--- docs/" not in review and "\n--- structured/" not in review

    plan_md = (applied / "fabric" / "changes.md").read_text()
    for device in ("leaf2a", "leaf2b", "spine1", "spine2"):
        assert re.search(r"^\| %s \| eos \| \w+ \| traffic-affecting \| drain first \|" % device,
                         plan_md, re.M), plan_md
    assert "leaf1a" not in plan_md.split("## Why")[0]
    assert "change plan (" in review and "spine2  traffic-affecting" in review

    # the pair alone: the spines' side changes too, and the run says which --limit covers it
    out = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % limited,
                   "--tags", "leaf", "--limit", "leaf_pair2")
    assert ("not rendered by this run but changed: spine1, spine2 (spine1: the other end of "
            "links to leaf2a, leaf2b") in out
    assert "cover the change with --limit 'leaf_pair2,spines' --tags leaf,spine" in out
    verdict = [line for line in out.splitlines() if '"roce.fabric: ' in line][-1]
    assert ("roce.fabric: PENDING - 2 switch(es) outside this run change too (spine1, spine2): "
            "cover them with --limit 'leaf_pair2,spines' --tags leaf,spine; checks: 0 error(s), "
            in verdict), verdict
    assert (limited / "configs" / "spine1.cfg").read_text() == \
        (base / "configs" / "spine1.cfg").read_text()         # outside the limit: untouched
    second = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % applied)
    assert "change plan (" not in second                      # nothing changes: quiet
    assert "PENDING" not in second
