"""The cable change of issue 22 through ansible-playbook: leaf pair 2's uplinks from 30 m to
100 m with one group line. The baseline is the deployed-state record (switch_deployed_dir),
never the previous render. --check --diff shows every changed config line and one line per
other file; the applied run writes fabric/changes.md with each device's class; the pair-limited
run names the spines whose side changes and the --limit that covers them; in a fresh
workspace (no record, no previous render) the same run says it has no baseline, names every
other switch - the spines among them - as pending, and a deploying run is refused."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)


def run_site(*args, rc=0):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    result = subprocess.run([os.path.join(BIN, "ansible-playbook"), "site.yml"] + list(args),
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                            check=False)
    assert result.returncode == rc, result.stdout[-3000:] + result.stderr
    return result.stdout


def verdict(out):
    return [line for line in out.splitlines() if '"roce.fabric: ' in line][-1]


def record_deployed(root, record):
    """What switch_deploy leaves after every switch verified (roles/switch_deploy/tasks/main.yml,
    proven on the FRR lab in test_rolls_by_class): each config file in the record, as rendered."""
    shutil.copytree(os.path.join(root, "configs"), os.path.join(record, "configs"))


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
    record = tmp_path / "deployed"        # kept beside the inventory, as a team would keep it
    first = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % base,
                     "-e", "switch_deployed_dir=%s" % record)
    # nothing deployed yet: no baseline, said once, every switch counts as changed
    assert ("no baseline - no deployed-state record in %s: every switch is treated as changed"
            % record) in first
    assert "no baseline, treated as changed: leaf1a, leaf1b, leaf2a, leaf2b, spine1, spine2" \
        in first
    assert "| spine1 | eos | spine | no-baseline |" in (base / "fabric" / "changes.md").read_text()
    record_deployed(base, record)
    pair = inv / "group_vars" / "leaf_pair2.yml"
    pair.write_text(pair.read_text() + "roce_uplink_overrides: {cable_m: 100}   # one line\n")
    limited = tmp_path / "limited"
    shutil.copytree(base, limited)
    deployed = ("-e", "switch_deployed_dir=%s" % record)

    review = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % base,
                      "--check", "--diff", *deployed)
    assert "no-baseline" in (base / "fabric" / "changes.md").read_text()   # check wrote nothing
    applied = tmp_path / "applied"
    shutil.copytree(base, applied)
    run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % applied, *deployed)
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
    assert "leaf1a" not in plan_md.split("## Why")[0] and "Baseline" not in plan_md
    assert "change plan (" in review and "spine2  traffic-affecting" in review

    # the pair alone: the spines' side changes too, and the run says which --limit covers it
    out = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % limited,
                   "--tags", "leaf", "--limit", "leaf_pair2", *deployed)
    assert ("not rendered by this run but changed: spine1, spine2 (spine1: the other end of "
            "links to leaf2a, leaf2b") in out
    assert "cover the change with --limit 'leaf_pair2,spines' --tags leaf,spine" in out
    assert ("roce.fabric: PENDING - 2 switch(es) outside this run change too (spine1, spine2): "
            "cover them with --limit 'leaf_pair2,spines' --tags leaf,spine; checks: 0 error(s), "
            in verdict(out)), verdict(out)
    assert (limited / "configs" / "spine1.cfg").read_text() == \
        (base / "configs" / "spine1.cfg").read_text()         # outside the limit: untouched
    # the record is what runs: the applied render changed nothing on a device, so the next run
    # still shows the whole change, not "nothing changes"
    second = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % applied,
                      *deployed)
    assert "change plan (" in second and "spine2  traffic-affecting" in second
    # a run that deployed the change (its record updated) is quiet
    shutil.rmtree(record)
    record_deployed(applied, record)
    quiet = run_site("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % applied,
                     *deployed)
    assert "change plan (" not in quiet and "PENDING" not in quiet


def test_a_fresh_workspace_has_no_baseline_names_the_pending_spines_and_refuses(tmp_path):
    """A CI runner's or AWX job's checkout: no intended/, no deployed-state record."""
    inv = tmp_path / "inventory"
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), inv)
    pair = inv / "group_vars" / "leaf_pair2.yml"
    pair.write_text(pair.read_text() + "roce_uplink_overrides: {cable_m: 100}\n")
    fresh = ("-i", str(inv / "hosts.yml"), "-e", "switch_output_dir=%s" % (tmp_path / "out"),
             "--tags", "leaf", "--limit", "leaf_pair2")
    out = run_site(*fresh)
    record = tmp_path / "out" / "deployed"
    assert ("change plan (%s/out/fabric/changes.md): no baseline - no deployed-state record in "
            "%s: every switch is treated as changed" % (tmp_path, record)) in out
    assert ("spine1: no deployed-state record; the other end of links to leaf2a, leaf2b"
            in out), out
    assert ("roce.fabric: PENDING - 4 switch(es) outside this run change too or have no "
            "baseline (leaf1a, leaf1b, spine1, spine2): cover them with --limit "
            "'leaf_pair2,leaf_pair1,spines' --tags leaf,spine; ") in verdict(out), verdict(out)
    refused = run_site(*fresh, "-e", '{"roce_deploy": true}', rc=2)
    assert ("refused, nothing deployed: PENDING - 4 switch(es) outside this run change too or "
            "have no baseline (leaf1a, leaf1b, spine1, spine2)") in " ".join(refused.split())
    assert not record.exists()                                  # nothing recorded
