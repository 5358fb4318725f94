"""Fixtures: the bundled example inventory as plain data (and planned with its leaf pair 1 on
Cumulus Linux), and a tiny Clos builder."""
import copy
import importlib.util
import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))


_EXAMPLE = []


@pytest.fixture
def example(inventory_data):
    """(groups, hostvars) of inventories/example, a fresh deep copy per test."""
    if not _EXAMPLE:
        _EXAMPLE.append(inventory_data(os.path.join(ROOT, "inventories", "example",
                                                    "hosts.yml")))
    return copy.deepcopy(_EXAMPLE[0])


def _small_clos(spines=2, pairs=1, hosts=2, nics=2, **fabric):
    """A small classic fabric as plain inventory data: spine1.., leaf1a/leaf1b.., gpu1.."""
    spine_names = ["spine%d" % (i + 1) for i in range(spines)]
    leaf_names = ["leaf%d%s" % (p + 1, s) for p in range(pairs) for s in "ab"]
    host_names = ["gpu%d" % (i + 1) for i in range(hosts)]
    settings = {"design": "classic", "nics_per_host": nics, "ecmp": {"adaptive_routing": True}}
    settings.update(fabric)
    hostvars = dict((n, {"roce_model": "7060x6-64pe", "roce_platform": "sonic"})
                    for n in spine_names + leaf_names)
    for n in host_names:
        hostvars[n] = {}
    for n in hostvars:
        hostvars[n]["roce_fabric"] = settings
    groups = {"spines": spine_names, "leaves": leaf_names, "gpu_hosts": host_names,
              "roce_switches": spine_names + leaf_names, "_children": {}}
    return groups, hostvars


@pytest.fixture
def small_clos():
    """Factory: small_clos(spines, pairs, hosts, nics, **roce_fabric settings)."""
    return _small_clos


def _load_inventory(path):
    """tests/conftest.py's reader (ansible-inventory --list), for a session-scoped fixture (this
    conftest.py shadows the name ``conftest``)."""
    spec = importlib.util.spec_from_file_location("roce_tests_conftest",
                                                  os.path.join(ROOT, "tests", "conftest.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.load_inventory(path)


def cumulus_example_inventory(folder, edit=None, extra=""):
    """inventories/example copied below ``folder`` with leaf pair 1 on Cumulus Linux
    (``edit``: a change to leaf_pair1.yml's text, ``extra``: lines added to it); its hosts.yml."""
    inv = folder / "inv"
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), str(inv))
    pair = inv / "group_vars" / "leaf_pair1.yml"
    text = pair.read_text().replace("roce_platform: sonic", "roce_platform: cumulus")
    pair.write_text((edit(text) if edit else text) + extra)
    return inv / "hosts.yml"


@pytest.fixture(scope="session")
def cumulus_example(tmp_path_factory):
    """The plan of the example with leaf pair 1 on Cumulus Linux (shared: do not change it)."""
    from ansible_collections.roce.fabric.plugins.module_utils import pipeline
    path = cumulus_example_inventory(tmp_path_factory.mktemp("cumulus"))
    return pipeline.build_plan(*_load_inventory(str(path)))


@pytest.fixture
def cumulus_inventory():
    """Factory: cumulus_inventory(folder, edit=None, extra="") -> hosts.yml of the example with
    leaf pair 1 on Cumulus Linux."""
    return cumulus_example_inventory
