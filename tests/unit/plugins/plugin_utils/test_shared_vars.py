"""plugin_utils/shared_vars through the plan action's input gathering, on a real Ansible
inventory: hosts that set nothing of their own get their groups' values merged once, and every
host reads exactly what hostvars gives it - whatever the source of a host's own value."""
import os
import textwrap

import pytest
from ansible.inventory.manager import InventoryManager
from ansible.parsing.dataloader import DataLoader
from ansible.vars.hostvars import HostVars
from ansible.vars.manager import VariableManager

from ansible_collections.roce.fabric.plugins.action import plan as plan_action
from ansible_collections.roce.fabric.plugins.plugin_utils import shared_vars

HOSTS = """
all:
  children:
    roce_switches:
      children:
        spines:
          hosts:
            spine[1:4]:
        leaves:
          hosts:
            leaf[1:6]:
            leaf7:
              roce_cable_m: 7
"""


def _write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(textwrap.dedent(text))


@pytest.fixture
def inventory(tmp_path):
    root = str(tmp_path)
    _write(root, "hosts.yml", HOSTS)
    _write(root, "group_vars/all.yml", "roce_fabric: {name: t}\nswitch_outputs: [configs]\n")
    _write(root, "group_vars/leaves.yml", "roce_model: m1\nroce_templated: '{{ inventory_hostname }}'\n")
    _write(root, "group_vars/spines.yml", "roce_model: m2\nroce_cable_m: 3\n")
    _write(root, "host_vars/leaf2.yml", "roce_model: m9\n")          # a host_vars file
    _write(root, "host_vars/spine2.yml", "unrelated: 1\n")           # sets nothing read here
    loader = DataLoader()
    inv = InventoryManager(loader=loader, sources=[os.path.join(root, "hosts.yml")])
    manager = VariableManager(loader=loader, inventory=inv)
    manager.set_nonpersistent_facts("leaf3", {"roce_model": "fact"})   # set_fact
    manager.set_host_variable("spine3", "roce_cable_m", 9)   # add_host / vars
    return inv, manager, HostVars(inventory=inv, variable_manager=manager, loader=loader)


def _expected(hostvars, names):
    return dict((h, dict((k, hostvars[h][k]) for k in hostvars[h] if plan_action._read(k)))
                for h in names)


def test_every_host_reads_what_hostvars_gives_it(inventory, monkeypatch):
    inv, manager, hostvars = inventory
    names = [h.name for h in inv.get_hosts()]
    expected = _expected(hostvars, names)
    merges = []
    real = VariableManager.get_vars
    monkeypatch.setattr(VariableManager, "get_vars",
                        lambda self, *a, **k: merges.append(k.get("host")) or real(self, *a, **k))
    groups = dict((g, [h.name for h in grp.get_hosts()]) for g, grp in inv.groups.items())
    groups["all"] = names
    _groups, inputs, owned = plan_action.ActionModule._inputs({"groups": groups}, hostvars)
    got = dict((h, dict(inputs.get(h, {}), **owned[h])) for h in names)
    assert got == expected
    assert got["leaf2"]["roce_model"] == "m9" and got["leaf3"]["roce_model"] == "fact"
    assert got["spine3"]["roce_cable_m"] == 9 and got["leaf7"]["roce_cable_m"] == 7
    assert got["leaf5"]["roce_templated"] == "leaf5"      # templated per host, never shared
    # shared: spine1, spine2 (nothing read here of its own) and spine4 merged as one
    merged = set(h.name for h in merges if h is not None)
    assert {"spine1"} <= merged and not {"spine2", "spine4"} & merged
    # every leaf has a template in its groups' values: each one is merged
    assert set("leaf%d" % i for i in range(1, 8)) <= merged


def test_sharing_turns_itself_off_without_the_cores_internals():
    assert shared_vars.SharedVars(object(), plan_action._read).key("spine1") is None
