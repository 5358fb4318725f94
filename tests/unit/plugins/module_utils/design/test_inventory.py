"""design/inventory.py: a generated inventory directory loads through ansible-inventory, holds
the groups sizing.size_fabric asks for and plans all-clear; bad inputs fail in one line; the
writer refuses a non-empty directory unless forced."""
import os

import pytest

from ansible.plugins.inventory import expand_hostname_range

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.design import generate, inventory, sizing


def _write(tmp_path, gpus, radix, planes, **kw):
    dest = str(tmp_path / ("inv-%d-%d-%d" % (gpus, radix, planes)))
    content, summary = inventory.files(gpus, radix, planes, **kw)
    inventory.write(dest, content)
    return dest, content, summary


@pytest.mark.parametrize("gpus, radix, planes", [
    (1024, 64, 8),      # two tiers, 8 planes
    (64, 8, 1),         # three tiers, 4 pods, one plane
    (128, 8, 2),        # three tiers, 2 planes
    (32, 8, 1),         # two tiers, one plane
])
def test_generated_inventory_loads_and_plans_all_clear(tmp_path, inventory_data, gpus, radix,
                                                       planes):
    dest, content, summary = _write(tmp_path, gpus, radix, planes)
    assert not [f for f in content if f.startswith("host_vars")]
    groups, hostvars = inventory_data(dest)
    size = sizing.size_fabric(gpus, radix, planes)
    one = size.get("per_plane", size)
    assert len(groups["leaves"]) == size["leaves"] == summary["leaves"]
    assert len(groups["spines"]) == size["spines"] == summary["spines"]
    assert len(groups.get("superspines", [])) == size["superspines"] == summary["superspines"]
    assert len(groups["gpu_hosts"]) == gpus // 8 == summary["hosts"]
    assert len(groups["_children"]["leaf_pairs"]) == size["leaves"] // 2
    assert len(groups["_children"].get("pods", [])) == size.get("pods", 0)
    assert len(groups["_children"].get("planes", [])) == (planes if planes > 1 else 0)
    # The same hosts in the same order as generate.clos, group names made Ansible-valid.
    ref = generate.clos(gpus, radix, planes)[0]
    for group in ("leaves", "spines", "superspines", "gpu_hosts"):
        assert groups.get(group, []) == ref[group], group
    for pair in ref["_children"]["leaf_pairs"]:
        assert groups[pair.replace("-", "_")] == ref[pair]
    # Every variable comes from group_vars: all switches of a tier share model and platform.
    for host in groups["leaves"]:
        assert hostvars[host]["roce_model"] == "7060x6-64pe"
        assert hostvars[host]["roce_platform"] == "eos"
    top = "superspines" if one["tiers"] == 3 else "spines"
    assert set(hostvars[h]["roce_platform"] for h in groups[top]) == {"sonic"}
    plan = pipeline.build_plan(groups, hostvars)
    s = plan["summary"]
    assert s["errors"] == 0, [v for v in plan["violations"] if v["severity"] == "ERROR"][:3]
    assert (s["tiers"], s["leaves"], s["spines"], s["superspines"]) == \
        (one["tiers"], size["leaves"], size["spines"], size["superspines"])


def test_the_inventory_is_a_few_files_with_host_ranges(tmp_path):
    _dest, content, _summary = _write(tmp_path, 32768, 64, 8)
    assert sorted(content) == ["group_vars/all.yml", "group_vars/leaves.yml",
                               "group_vars/roce_switches.yml", "group_vars/spines.yml",
                               "group_vars/superspines.yml", "hosts.yml"]
    hosts = content["hosts.yml"]
    assert "p[0:7]-spine[00:03]-[00:31]:" in hosts
    assert "p[0:7]-ss[000:063]:" in hosts
    assert "gpu[00000:04095]:" in hosts
    assert len(hosts.splitlines()) < 800           # 6,656 hosts, 512 leaf pairs
    assert "roce_fabric:" in content["group_vars/all.yml"]


def test_per_tier_models_and_platforms(tmp_path, inventory_data):
    dest, content, summary = _write(tmp_path, 1024, 64, 1, models={"spine": "sn5600"},
                                    platforms={"spine": "sonic", "leaf": "eos"},
                                    name="cluster-a")
    assert summary["models"] == {"leaf": "7060x6-64pe", "spine": "sn5600"}
    groups, hostvars = inventory_data(dest)
    assert set(hostvars[h]["roce_model"] for h in groups["spines"]) == {"sn5600"}
    assert hostvars[groups["leaves"][0]]["roce_fabric"]["name"] == "cluster-a"
    plan = pipeline.build_plan(groups, hostvars)
    assert plan["summary"]["errors"] == 0, plan["violations"][:3]


@pytest.mark.parametrize("names", [
    ["gpu%05d" % i for i in range(300)],
    ["p%d-spine%02d-%02d" % (p, d, i) for p in range(3) for d in range(4) for i in range(32)],
    ["leaf8", "leaf9", "leaf10", "leaf11", "x", "leaf12", "a01", "a02", "a04"],
    ["p0-leaf000", "p0-leaf001", "p1-leaf000", "p1-leaf001", "p0-spine00"],
    [],
])
def test_ranges_expand_back_to_the_same_hosts_in_order(names):
    patterns = inventory.ranges(names)
    expanded = [h for p in patterns
                for h in (expand_hostname_range(p) if "[" in p else [p])]
    assert expanded == names
    assert [h for p in patterns for h in inventory.expand(p)] == names


@pytest.mark.parametrize("kwargs, field, words", [
    ({"gpus": 0}, "gpus", "a whole number from 1"),
    ({"gpus": "many"}, "gpus", "a whole number"),
    ({"gpus": 1000, "planes": 3}, "gpus", "multiple of the 3 planes"),
    ({"gpus": 1028}, "gpus", "a multiple of nics_per_host = 8"),
    ({"gpus": 1024, "radix": 63}, "radix", "an even number"),
    ({"gpus": 1024, "radix": 256}, "radix", "at most the 128 x 400G ports"),
    ({"gpus": 1 << 20, "radix": 32}, "gpus", "at most k^3/4"),
    ({"gpus": 1024, "planes": 0}, "planes", "from 1 to 64"),
    ({"gpus": 1024, "planes": 16}, "nics_per_host", "a multiple of the 16 planes"),
    ({"gpus": 1024, "models": "qfx5240"}, "models", "one of 7060dx5-64s"),
    ({"gpus": 1024, "models": {"lef": "sn5600"}}, "models.lef", "unknown key"),
    ({"gpus": 1024, "models": {"leaf": "sn5600"}}, "platforms.leaf", "a platform sn5600 runs"),
    ({"gpus": 1024, "platforms": "juniper"}, "platforms", "one of mixed, sonic, eos"),
    ({"gpus": 1024, "platforms": {"spine": "nxos"}}, "platforms.spine", "one of cumulus, eos, sonic"),
    ({"gpus": 1024, "models": "sn4700", "platforms": "sonic"}, "radix",
     "at most the 32 x 400G ports"),
    ({"gpus": 1024, "speed_gbps": 300}, "speed_gbps", "one of 10, 25, 40, 50, 100, 200, 400, 800"),
    ({"gpus": 1024, "name": "my fabric"}, "name", "a device name"),
])
def test_bad_inputs_fail_in_one_line(kwargs, field, words):
    with pytest.raises(errors.RoceInputError) as err:
        inventory.files(**kwargs)
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith("%s = " % field), text
    assert words in text, text


def test_dest_not_empty_is_refused_unless_forced(tmp_path):
    dest = str(tmp_path / "inv")
    small = inventory.files(32, 8, 1)[0]
    assert inventory.write(dest, small, check=True)["write"] == sorted(small)
    assert not os.path.exists(dest)                       # check mode writes nothing
    assert inventory.write(dest, small)["write"] == sorted(small)
    again = inventory.write(dest, small)                   # the same inventory: unchanged
    assert again["write"] == [] and again["remove"] == []
    bigger = inventory.files(64, 8, 1)[0]                  # three tiers: superspines.yml
    with open(os.path.join(dest, "notes.txt"), "w") as handle:
        handle.write("mine\n")
    with pytest.raises(errors.RoceInputError) as err:
        inventory.write(dest, bigger)
    assert "dest = " in str(err.value) and "force=true" in str(err.value)
    assert "\n" not in str(err.value)
    done = inventory.write(dest, bigger, force=True)
    assert "group_vars/superspines.yml" in done["write"]
    back = inventory.write(dest, small, force=True)        # a stale generated file goes
    assert back["remove"] == ["group_vars/superspines.yml"]
    assert sorted(os.listdir(os.path.join(dest, "group_vars"))) == \
        sorted(os.path.basename(f) for f in small if f.startswith("group_vars/"))
    assert os.path.exists(os.path.join(dest, "notes.txt"))  # not ours: left alone
    with pytest.raises(errors.RoceInputError):
        inventory.write(os.path.join(dest, "notes.txt"), small)
