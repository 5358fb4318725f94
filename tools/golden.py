"""Regenerate the golden scenarios under tests/golden/ through the real entry point,
``ansible-playbook site.yml``: every switch's config, structured intent, device document and
ANTA catalog, every GPU host's intent and the fabric report.

A scenario is a folder tests/golden/<name>/ holding ``inventory/`` (hosts.yml + group_vars)
and ``intended/`` (what the playbook renders from it). ``example`` is the whole-fabric scenario:
its inventory is inventories/example and its files sit directly in tests/golden/example/ (the
layout other tests read). Each scenario is rendered into a fresh scratch folder and swapped in
only when the playbook succeeds, so a failed run leaves the committed files alone and a file the
playbook no longer writes disappears. tests/unit/golden/test_golden_scenarios.py renders the
same files through the Python API and compares them byte for byte.

Usage: .venv/bin/python tools/golden.py [scenario ...] [-j JOBS]   (no scenario: all of them;
``make golden`` runs this). Review the diff like code.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden")
WHOLE_FABRIC = "example"   # inventories/example, rendered into tests/golden/example itself


def scenarios():
    """{name: (inventory path, output root)} of every scenario folder under tests/golden/."""
    found = {}
    for name in sorted(os.listdir(GOLDEN)):
        folder = os.path.join(GOLDEN, name)
        if not os.path.isdir(folder) or name.startswith("."):
            continue
        if name == WHOLE_FABRIC:
            found[name] = (os.path.join(ROOT, "inventories", "example", "hosts.yml"), folder)
        else:
            found[name] = (os.path.join(folder, "inventory", "hosts.yml"),
                           os.path.join(folder, "intended"))
    return found


def _env():
    env = dict(os.environ)
    venv_bin = os.path.dirname(os.path.abspath(sys.executable))
    env["PATH"] = venv_bin + os.pathsep + env.get("PATH", "")
    env.setdefault("ANSIBLE_COLLECTIONS_PATH", os.path.join(ROOT, ".collections"))
    env.setdefault("ANSIBLE_HOME", os.path.join(ROOT, ".ansible"))
    env["ANSIBLE_NOCOLOR"] = "1"
    return env


def regenerate(name, inventory, output):
    """Run site.yml on ``inventory`` into a scratch folder; on success replace ``output`` with
    it. Returns (name, ok, message)."""
    if not os.path.isfile(inventory):
        return name, False, "no inventory at %s" % os.path.relpath(inventory, ROOT)
    started = time.time()
    parent = os.path.dirname(output)
    scratch = tempfile.mkdtemp(prefix=".golden-%s-" % name, dir=parent)
    try:
        proc = subprocess.run(
            [os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "site.yml",
             "-i", inventory, "-e", "switch_output_dir=%s" % scratch],
            cwd=ROOT, env=_env(), capture_output=True, text=True, check=False)
        if proc.returncode:
            return name, False, "ansible-playbook failed (rc %d); %s left unchanged\n%s" % (
                proc.returncode, os.path.relpath(output, ROOT),
                (proc.stdout + proc.stderr)[-6000:])
        # The change plan compares with a deployed-state record (none here: every switch
        # "no-baseline"), a fact of a workspace, not of the inventory: not a golden file
        # (tests/integration/test_change_plan.py covers it).
        plan_md = os.path.join(scratch, "fabric", "changes.md")
        if os.path.exists(plan_md):
            os.remove(plan_md)
        count = sum(len(files) for _folder, _subfolders, files in os.walk(scratch))
        if os.path.isdir(output):
            shutil.rmtree(output)
        os.rename(scratch, output)
        scratch = None
        return name, True, "%d files in %s (%.1f s)" % (
            count, os.path.relpath(output, ROOT), time.time() - started)
    finally:
        if scratch and os.path.isdir(scratch):
            shutil.rmtree(scratch)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("names", nargs="*", metavar="scenario",
                        help="scenario folders under tests/golden/ (default: all)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="playbook runs at once (default: one per CPU)")
    args = parser.parse_args()
    known = scenarios()
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error("unknown scenario(s) %s; known: %s" % (", ".join(unknown),
                                                            ", ".join(sorted(known))))
    wanted = args.names or sorted(known)
    failed = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, ok, message in pool.map(lambda n: regenerate(n, *known[n]), wanted):
            print("%-4s %-18s %s" % ("ok" if ok else "FAIL", name, message))
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
