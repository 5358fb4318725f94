"""Regenerate the input-schema and name-grammar tables of docs/fabric-and-checks.md from the
schema itself (plugins/module_utils/inputs/). Usage: .venv/bin/python tools/schema-doc.py [--check]"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, ".collections"))
from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema_doc  # noqa: E402

DOC = os.path.join(ROOT, "docs", "fabric-and-checks.md")

with open(DOC) as handle:
    old = handle.read()
new = schema_doc.update(old)
if "--check" in sys.argv[1:]:
    if new != old:
        sys.exit("docs/fabric-and-checks.md is stale: run make schema-doc")
elif new != old:
    with open(DOC, "w") as handle:
        handle.write(new)
