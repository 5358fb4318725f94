"""A platform is a registry entry per stage, never a string compared across the code
(docs/architecture.md, "Platforms"). Every registry covers exactly the names of
hardware/platforms.py (the input schema's roce_platform enum), so adding a network OS turns into
failures that name each registry still lacking it; removing an entry from any registry is named
the same way. No platform or deploy backend name is compared outside the registries."""
import ast
import os
import re

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy import backends
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    models, platforms, sku_tables)
from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema
from ansible_collections.roce.fabric.plugins.module_utils.lossless import buffer_model
from ansible_collections.roce.fabric.plugins.module_utils.plan import platforms as plan_platforms
from ansible_collections.roce.fabric.plugins.module_utils.render import deviations, registry

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))
NAMES = platforms.NAMES            # read once: the list every registry is held to


def _enum():
    return schema.SWITCH_VARS["roce_platform"]["enum"]


def _managed():
    """The platforms whose buffer manager the lossless stage has."""
    return [n for n, p in platforms.PLATFORMS.items() if p.buffer_manager in buffer_model.MANAGERS]


# label (the file and name a failure shows) -> the platform names the registry has
REGISTRIES = {
    "hardware/platforms.py PLATFORMS": lambda: platforms.PLATFORMS,
    "hardware/sku_tables.py VENDOR_DEFAULTS": lambda: [
        n for n in sku_tables.VENDOR_DEFAULTS if n in NAMES],
    "inputs/schema.py roce_platform": _enum,
    "lossless/buffer_model.py MANAGERS": _managed,
    "plan/platforms.py PLATFORMS": lambda: plan_platforms.PLATFORMS,
    "render/registry.py RENDERERS": lambda: registry.RENDERERS,
    "render/deviations.py ROWS": lambda: deviations.ROWS,
    "deploy/backends.py DEFAULTS": lambda: backends.DEFAULTS,
}


def coverage_problems():
    """One line per registry that lacks a platform of NAMES or has one NAMES does not."""
    out = []
    for label, names in REGISTRIES.items():
        have = set(names())
        out += ["%s has no entry for platform %r" % (label, n) for n in NAMES if n not in have]
        out += ["%s has %r, which is no platform of hardware/platforms.py NAMES" % (label, n)
                for n in sorted(have - set(NAMES))]
    return out


def test_every_registry_covers_every_platform():
    assert coverage_problems() == []


def _remove(monkeypatch, label, name):
    """Take platform ``name`` out of the registry called ``label``, as an edit would."""
    if label == "inputs/schema.py roce_platform":
        monkeypatch.setitem(schema.SWITCH_VARS["roce_platform"], "enum",
                            [n for n in _enum() if n != name])
    elif label == "lossless/buffer_model.py MANAGERS":
        monkeypatch.delitem(buffer_model.MANAGERS, platforms.PLATFORMS[name].buffer_manager)
    else:
        target = {"hardware/platforms.py PLATFORMS": platforms.PLATFORMS,
                  "hardware/sku_tables.py VENDOR_DEFAULTS": sku_tables.VENDOR_DEFAULTS,
                  "plan/platforms.py PLATFORMS": plan_platforms.PLATFORMS,
                  "render/registry.py RENDERERS": registry.RENDERERS,
                  "render/deviations.py ROWS": deviations.ROWS,
                  "deploy/backends.py DEFAULTS": backends.DEFAULTS}[label]
        monkeypatch.delitem(target, name)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("label", sorted(REGISTRIES))
def test_a_registry_without_a_platform_is_named(monkeypatch, label, name):
    _remove(monkeypatch, label, name)
    assert "%s has no entry for platform %r" % (label, name) in coverage_problems()


def test_the_data_names_registered_platforms():
    """Model data, the generator's mixes and the deploy backends name platforms of NAMES, and a
    modelled switch on a platform that needs a HWSKU per breakout has its HWSKU table."""
    for model, data in models.MODELS.items():
        assert set(data["platforms"]) <= set(NAMES), model
        for name in data["platforms"]:
            if platforms.PLATFORMS[name].hwsku_per_breakout:
                assert data[name]["hwsku"], (model, name)
    assert set(generate.MIXED.values()) <= set(NAMES)
    assert set(generate.PLATFORM_MIXES) >= set(NAMES)
    for backend in backends.BACKENDS.values():
        assert backend.platform in NAMES, backend.name
    for name, entry in platforms.PLATFORMS.items():
        assert entry.name == name


def test_the_architecture_doc_lists_every_registry():
    """docs/architecture.md names the files a new platform needs: this test's registries."""
    with open(os.path.join(ROOT, "docs", "architecture.md")) as handle:
        doc = handle.read()
    section = doc.split("## Adding a platform", 1)[-1]
    for label in REGISTRIES:
        path = label.split()[0]
        assert "plugins/module_utils/" + path in section, label


# -- no platform name compared outside the registries --------------------------------------------

WORDS = set(NAMES) | set(backends.NAMES)
# A comparison of a platform's name may live in the registries themselves; none does today.
ALLOWED = frozenset()


def _consts(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*[_consts(e) for e in node.elts]) if node.elts else set()
    return set()


def python_comparisons(root):
    """[(file, line, names)] of every comparison with a platform or backend name literal."""
    out = []
    for folder, _dirs, files in os.walk(root):
        for fname in sorted(files):
            if not fname.endswith(".py"):
                continue
            path = os.path.join(folder, fname)
            with open(path) as handle:
                tree = ast.parse(handle.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Compare):
                    hits = set().union(*[_consts(n) for n in [node.left] + node.comparators])
                    if hits & WORDS:
                        out.append((os.path.relpath(path, ROOT), node.lineno,
                                    sorted(hits & WORDS)))
    return out


# a platform name as a quoted literal in a task file's expression: == 'eos', source='sonic', ...
_YAML_LITERAL = re.compile(r"""['"](%s)['"]""" % "|".join(sorted(WORDS)))


def yaml_literals(root):
    out = []
    for folder, _dirs, files in os.walk(root):
        for fname in sorted(files):
            if fname.endswith((".yml", ".yaml", ".j2")):
                path = os.path.join(folder, fname)
                with open(path) as handle:
                    for number, line in enumerate(handle, 1):
                        if _YAML_LITERAL.search(line.split("#", 1)[0]):
                            out.append((os.path.relpath(path, ROOT), number, line.strip()))
    return out


def test_no_platform_name_is_compared_in_python():
    found = [hit for hit in python_comparisons(os.path.join(ROOT, "plugins"))
             if hit[0] not in ALLOWED]
    assert not found, "compare through the registries (docs/architecture.md): %s" % found
    assert len(ALLOWED) <= 2


def test_no_platform_name_is_a_literal_in_roles_or_playbooks():
    found = []
    for folder in ("roles", "playbooks"):
        found += yaml_literals(os.path.join(ROOT, folder))
    assert not found, "task files pick a backend's file by name instead: %s" % found


def test_the_scans_find_a_comparison(tmp_path):
    (tmp_path / "a.py").write_text("x = dev['platform'] == 'eos'\ny = p in ('sonic', 'eos')\n")
    (tmp_path / "t.yml").write_text("when: switch_deploy_backend == 'sonic'\n")
    assert [hit[1:] for hit in python_comparisons(str(tmp_path))] == [
        (1, ["eos"]), (2, ["eos", "sonic"])]
    assert len(yaml_literals(str(tmp_path))) == 1
