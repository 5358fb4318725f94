"""Regenerate the generated tables of the docs from the code they describe: the input-schema,
name-grammar and rule tables of docs/fabric-and-checks.md (plugins/module_utils/inputs/ and the
rule registry in plugins/module_utils/checks/) and the driver
stack table of docs/hosts.md (plugins/module_utils/host/stacks.py).
Usage: .venv/bin/python tools/schema-doc.py [--check]"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, ".collections"))
from ansible_collections.roce.fabric.plugins.module_utils.checks import run as checks  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.host import stacks  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema_doc  # noqa: E402

DOCS = ((os.path.join(ROOT, "docs", "fabric-and-checks.md"),
         dict(schema_doc.SECTIONS, **checks.DOC_SECTIONS)),
        (os.path.join(ROOT, "docs", "hosts.md"), stacks.DOC_SECTIONS))

stale = []
for doc, sections in DOCS:
    with open(doc) as handle:
        old = handle.read()
    new = schema_doc.update(old, sections)
    if new != old:
        stale.append(os.path.relpath(doc, ROOT))
        if "--check" not in sys.argv[1:]:
            with open(doc, "w") as handle:
                handle.write(new)
if stale and "--check" in sys.argv[1:]:
    sys.exit("%s stale: run make schema-doc" % ", ".join(stale))
