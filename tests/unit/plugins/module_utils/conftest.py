"""Fixtures: the bundled example inventory as plain data, and a tiny Clos builder."""
import copy
import os

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
