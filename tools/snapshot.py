"""Fingerprint everything the collection renders, to prove a restructure changes no output.

Renders, through the Python API the action plugins use, every bundled inventory
(inventories/*), every golden scenario's inventory (tests/golden/*) and a set of generated
fabrics (design/generate.py: two and three tiers, planes, every platform mix), plus the
inventory files the generator writes (design/inventory.py), and records a SHA-256 per file:
switch configs, structured intent, device documents, ANTA catalogs, host intents, the fabric
report, and the plan's violations and summary. The manifest is not a golden file (the code under
test computes it): write one before a change and compare after it.

    .venv/bin/python tools/snapshot.py write /tmp/before.json
    ... change the code ...
    .venv/bin/python tools/snapshot.py compare /tmp/before.json     # exit 1 on any difference
"""
import argparse
import glob
import hashlib
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, ".collections"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from conftest import load_inventory  # noqa: E402

from ansible_collections.roce.fabric.plugins.module_utils import pipeline  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.design import (  # noqa: E402
    generate, inventory)

# (GPUs, radix, planes, platform mix): two tiers, three tiers, planes, each mix of platforms
GENERATED = [(512, 64, 1, "mixed"), (512, 64, 1, "sonic"), (512, 64, 1, "eos"),
             (1024, 64, 8, "alternate"), (4096, 64, 2, "alternate"), (8192, 32, 1, "mixed"),
             (4096, 32, 1, "eos"), (1024, 16, 1, "sonic")]
# generate_inventory's files: (GPUs, radix, planes, models, platforms)
INVENTORY_FILES = [(1024, 64, 1, None, None), (8192, 32, 1, None, "sonic"),
                   (4096, 64, 4, {"leaf": "7060x6-64pe"}, "eos"),
                   (16384, 64, 1, {"leaf": "sn5600"}, None), (1024, 64, 1, None, "eos")]


def _digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _render_all(plan):
    """{path: text}: the files site.yml writes for a plan, and the plan's findings."""
    files = render.render_all(plan)
    files["plan/violations.json"] = json.dumps(plan["violations"], sort_keys=True, default=str)
    files["plan/summary.json"] = json.dumps(plan["summary"], sort_keys=True, default=str)
    return files


def _fabric(groups, hostvars):
    try:
        return _render_all(pipeline.build_plan(groups, hostvars))
    except Exception as exc:   # an error is an output too: its text must not change either
        return {"error": "%s: %s" % (type(exc).__name__, exc)}


def fingerprints():
    out = {}
    found = sorted(glob.glob(os.path.join(ROOT, "inventories", "*", "hosts.yml")) +
                   glob.glob(os.path.join(ROOT, "tests", "golden", "*", "inventory", "hosts.yml")))
    for path in found:
        key = os.path.relpath(path, ROOT)
        started = time.time()
        out[key] = dict((k, _digest(v)) for k, v in _fabric(*load_inventory(path)).items())
        print("%-60s %5d files %5.1f s" % (key, len(out[key]), time.time() - started))
    for gpus, radix, planes, mix in GENERATED:
        key = "generated/%d-%d-%d-%s" % (gpus, radix, planes, mix)
        started = time.time()
        groups, hostvars = generate.clos(gpus, radix, planes, platforms=mix)[:2]
        out[key] = dict((k, _digest(v)) for k, v in _fabric(groups, hostvars).items())
        print("%-60s %5d files %5.1f s" % (key, len(out[key]), time.time() - started))
    for gpus, radix, planes, models, platforms in INVENTORY_FILES:
        key = "inventory-files/%d-%d-%d-%s-%s" % (gpus, radix, planes, models, platforms)
        try:
            written, summary = inventory.files(gpus, radix, planes, models, platforms)
            written["summary.json"] = json.dumps(summary, sort_keys=True)
        except Exception as exc:   # a refusal's text is an output too
            written = {"error": "%s: %s" % (type(exc).__name__, exc)}
        out[key] = dict((k, _digest(v)) for k, v in written.items())
    return out


def compare(old, new):
    problems = 0
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            print("%s: only in the %s manifest" % (key, "old" if b is None else "new"))
            problems += 1
            continue
        changed = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        if changed:
            problems += 1
            print("%s: %d file(s) differ: %s" % (key, len(changed), ", ".join(changed[:8])))
    files = sum(len(v) for v in new.values())
    print("%s: %d inventories, %d files" % ("DIFFERENT" if problems else "identical",
                                            len(new), files))
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("mode", choices=("write", "compare"))
    parser.add_argument("manifest")
    args = parser.parse_args()
    new = fingerprints()
    if args.mode == "write":
        with open(args.manifest, "w", encoding="utf-8") as handle:
            json.dump(new, handle, indent=1, sort_keys=True)
        print("%d inventories, %d files -> %s" % (len(new), sum(len(v) for v in new.values()),
                                                  args.manifest))
        return 0
    with open(args.manifest, encoding="utf-8") as handle:
        return compare(json.load(handle), new)


if __name__ == "__main__":
    sys.exit(main())
