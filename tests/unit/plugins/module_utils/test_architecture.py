"""The core's shape (docs/architecture.md): its folders are the pipeline's stages and imports only
point upstream; deploy/ and host/ ship to targets and import nothing but errors; no module or
package cycle; at most three loose files; importing the plan loads no renderer."""
import ast
import os
import subprocess
import sys

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.checks import paths

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))
CORE = os.path.join(ROOT, "plugins", "module_utils")
PREFIX = "ansible_collections.roce.fabric.plugins.module_utils"
# Stages in pipeline order: a stage may import the ones before it (and itself).
# records (declarations only: the plan's TypedDicts) sits with errors, upstream of every stage.
STAGES = ("errors", "records", "hardware", "inputs", "model", "lossless", "plan", "checks",
          "pipeline", "render", "design")
APART = ("deploy", "host")          # libraries anyone may use; they use only errors
LOOSE_MAX = 3


def _modules():
    """{dotted module name relative to module_utils: path}."""
    out = {}
    for folder, _dirs, files in os.walk(CORE):
        for name in files:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), CORE)[:-3].replace(os.sep, ".")
                out[rel[:-len(".__init__")] if rel.endswith(".__init__") else rel] = \
                    os.path.join(folder, name)
    return out


def _imports(path, known):
    """Core modules imported by the file at ``path`` (module- and function-level)."""
    found = set()
    with open(path) as handle:
        tree = ast.parse(handle.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PREFIX):
            base = node.module[len(PREFIX) + 1:]
            for alias in node.names:
                full = (base + "." + alias.name).lstrip(".")
                found.add(full if full in known else base)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PREFIX + "."):
                    found.add(alias.name[len(PREFIX) + 1:])
    return found - {""}


@pytest.fixture(scope="module")
def graph():
    mods = _modules()
    return dict((m, _imports(p, mods)) for m, p in mods.items())


def _stage(module):
    return module.split(".")[0]


def test_every_package_is_a_known_stage(graph):
    unknown = sorted(set(_stage(m) for m in graph) - set(STAGES) - set(APART))
    assert not unknown, "module_utils holds %s: add it to a stage (docs/architecture.md)" % unknown


def test_imports_point_upstream(graph):
    bad = []
    for module, imported in sorted(graph.items()):
        mine = _stage(module)
        for target in sorted(imported):
            theirs = _stage(target)
            if theirs == mine or theirs == "errors":
                continue
            if mine in APART:
                bad.append("%s -> %s (deploy/ and host/ import only errors)" % (module, target))
            elif theirs in APART:
                continue
            elif STAGES.index(theirs) > STAGES.index(mine):
                bad.append("%s -> %s (downstream)" % (module, target))
    assert not bad, "\n".join(bad)


def test_no_module_cycle(graph):
    # the deadlock analysis's own cycle finder (iterative Tarjan), tested with the checks
    assert paths.find_cycle(graph) is None


def test_no_package_cycle(graph):
    packages = {}
    for module, imported in graph.items():
        packages.setdefault(_stage(module), set()).update(
            _stage(t) for t in imported if _stage(t) != _stage(module))
    assert paths.find_cycle(packages) is None


def test_a_cycle_is_found():
    assert paths.find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) is not None


def test_at_most_three_loose_files():
    loose = sorted(n for n in os.listdir(CORE) if n.endswith(".py") and n != "__init__.py")
    assert len(loose) <= LOOSE_MAX, loose


def test_importing_the_plan_loads_no_renderer():
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from ansible_collections.roce.fabric.plugins.module_utils import pipeline\n"
            "from ansible_collections.roce.fabric.plugins.module_utils.plan import build\n"
            "print('\\n'.join(m for m in sys.modules if m.startswith(%r)))"
            % (os.path.join(ROOT, ".collections"), PREFIX))
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                            text=True).stdout.split()
    assert loaded and not [m for m in loaded if m.startswith(PREFIX + ".render")], loaded
    assert not [m for m in loaded if m.startswith(PREFIX + ".deploy")], loaded


def test_records_are_declarations_only():
    """records.py holds the plan's TypedDicts: it imports typing (and at most errors), so any
    stage may use it and nothing changes at run time."""
    with open(os.path.join(CORE, "records.py")) as handle:
        tree = ast.parse(handle.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert imported <= {"__future__", "typing", PREFIX}, imported
    assert not [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                and not _is_typed_dict(n)]


def _is_typed_dict(node):
    return isinstance(node, ast.ClassDef) and any(
        getattr(base, "id", None) == "TypedDict" for base in node.bases)
