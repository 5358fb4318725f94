"""Golden scenarios: every folder under tests/golden/ rendered through the Python API equals,
byte for byte and file for file, what ``ansible-playbook site.yml`` wrote there (tools/golden.py,
``make golden``). The playbook is the entry point users run, this is the API the action plugin
calls: the two must agree.

A scenario is tests/golden/<name>/ with ``inventory/hosts.yml`` and ``intended/``; ``example``
(the whole fabric) is inventories/example rendered into tests/golden/example itself.
"""
import difflib
import importlib.util
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render

from ansible_collections.roce.fabric.plugins.module_utils.pipeline import build_plan

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
GOLDEN = os.path.join(ROOT, "tests", "golden")
WHOLE_FABRIC = "example"
DIFF_LINES = 60   # lines of unified diff shown per differing file


def _scenarios():
    """{name: (inventory hosts.yml, rendered root)}: the discovery of tools/golden.py itself,
    which renders them through ansible-playbook."""
    spec = importlib.util.spec_from_file_location("roce_golden_tool",
                                                  os.path.join(ROOT, "tools", "golden.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool.scenarios()


SCENARIOS = _scenarios()
_INVENTORIES = {}


def _inventory(name, load_inventory, request):
    """(groups, hostvars) of a scenario, through tests/conftest.py's load_inventory (the
    inventory_data fixture). ansible-inventory costs most of this test's time, so the first call
    reads the inventory of every selected scenario at once (one subprocess each, in threads)."""
    if name not in _INVENTORIES:
        selected = set(item.callspec.params["name"] for item in request.session.items
                       if getattr(item, "originalname", None) == request.node.originalname)
        wanted = [n for n in sorted(selected | set([name]))
                  if n not in _INVENTORIES and os.path.isfile(SCENARIOS[n][0])]
        with ThreadPoolExecutor(max_workers=len(wanted)) as pool:
            loaded = pool.map(lambda n: load_inventory(SCENARIOS[n][0]), wanted)
            _INVENTORIES.update(zip(wanted, loaded))
    return _INVENTORIES[name]


def _read_tree(root):
    files = {}
    for folder, _subfolders, names in os.walk(root):
        for fname in names:
            path = os.path.join(folder, fname)
            with open(path, encoding="utf-8", newline="") as handle:   # bytes as written
                files[os.path.relpath(path, root)] = handle.read()
    return files


def _excerpt(rel, golden, produced):
    diff = list(difflib.unified_diff(golden.splitlines(), produced.splitlines(),
                                     "golden/" + rel, "rendered/" + rel, n=2, lineterm=""))
    more = len(diff) - DIFF_LINES
    return "\n".join(diff[:DIFF_LINES] + (["... %d more diff lines" % more] if more > 0 else []))


def test_every_scenario_has_an_inventory_and_rendered_files():
    assert WHOLE_FABRIC in SCENARIOS and len(SCENARIOS) > 1
    for name, (inventory, rendered) in SCENARIOS.items():
        assert os.path.isfile(inventory), "%s: no inventory (%s)" % (
            name, os.path.relpath(inventory, ROOT))
        assert os.path.isdir(rendered), "%s: nothing rendered yet (%s): run tools/golden.py %s" % (
            name, os.path.relpath(rendered, ROOT), name)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_rendered_scenario_equals_golden_files(name, inventory_data, request):
    inventory, rendered = SCENARIOS[name]
    if not os.path.isfile(inventory) or not os.path.isdir(rendered):
        pytest.fail("%s: needs %s and %s" % (name, os.path.relpath(inventory, ROOT),
                                             os.path.relpath(rendered, ROOT)))
    plan = build_plan(*_inventory(name, inventory_data, request))
    assert plan["summary"]["errors"] == 0, "%s plans with %d ERROR(s): %s" % (
        name, plan["summary"]["errors"],
        [(v["rule"], v["device"], v["location"]) for v in plan["violations"]
         if v["severity"] == "ERROR"])
    produced = render.render_all(plan)   # what site.yml's render tasks write
    golden = _read_tree(rendered)
    hint = "regenerate with `make golden` (or .venv/bin/python tools/golden.py %s)" % name
    missing = sorted(set(produced) - set(golden))
    extra = sorted(set(golden) - set(produced))
    assert not missing and not extra, (
        "%s: rendered but not in the golden files: %s; golden but no longer rendered: %s; %s"
        % (name, missing, extra, hint))
    differing = [rel for rel in sorted(golden) if produced[rel] != golden[rel]]
    assert not differing, "%s: %d file(s) differ from the golden files: %s (%s); the first:\n%s" % (
        name, len(differing), ", ".join(differing), hint,
        "\n".join(_excerpt(rel, golden[rel], produced[rel]) for rel in differing[:3]))
