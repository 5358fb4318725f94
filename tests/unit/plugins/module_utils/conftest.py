"""Fixtures: the bundled example inventory as plain data, and a tiny Clos builder."""
import copy
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))


def _load_example():
    out = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "ansible-inventory"), "--list", "-i",
         os.path.join(ROOT, "inventories", "example", "hosts.yml")],
        capture_output=True, text=True, check=True, cwd=ROOT).stdout
    inv = json.loads(out)

    def members(group):
        node = inv.get(group, {})
        found = list(node.get("hosts", []))
        for child in node.get("children", []):
            found += members(child)
        return found
    groups = dict((g, members(g)) for g in inv if g != "_meta")
    groups["_children"] = dict((g, inv[g].get("children", [])) for g in inv if g != "_meta")
    hostvars = dict((h, dict((k, v) for k, v in hv.items() if k.startswith("roce_")))
                    for h, hv in inv["_meta"]["hostvars"].items())
    return groups, hostvars


_EXAMPLE = []


@pytest.fixture
def example():
    """(groups, hostvars) of inventories/example, a fresh deep copy per test."""
    if not _EXAMPLE:
        _EXAMPLE.append(_load_example())
    return copy.deepcopy(_EXAMPLE[0])


def _small_clos(spines=2, pairs=1, hosts=2, nics=2, **fabric):
    """A small classic fabric as plain inventory data: spine1.., leaf1a/leaf1b.., gpu1.."""
    spine_names = ["spine%d" % (i + 1) for i in range(spines)]
    leaf_names = ["leaf%d%s" % (p + 1, s) for p in range(pairs) for s in "ab"]
    host_names = ["gpu%d" % (i + 1) for i in range(hosts)]
    settings = {"design": "classic", "nics_per_host": nics, "ecmp": {"adaptive_routing": True}}
    settings.update(fabric)
    hostvars = dict((n, {"roce_asic": "tomahawk5", "roce_platform": "sonic"})
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
