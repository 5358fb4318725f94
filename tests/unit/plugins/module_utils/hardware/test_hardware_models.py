"""Switch models against the vendors' port maps: fixtures/port_maps/*.tsv are transcribed from
the SONiC HWSKUs' port_config.ini (source line in each file). Every model port equals its row,
and every port rendered for a bundled or generated inventory exists on its model with the
row's lanes, alias, index and speed (EOS: the cage and lane its name encodes)."""
import json
import os
import re

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.hardware import models

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
MAPS = os.path.join(ROOT, "tests", "unit", "fixtures", "port_maps")
MODEL_OF = {"sn5600": "sn5600", "sn4700": "sn4700", "7060x6": "7060x6-64pe",
            "7060dx5": "7060dx5-64s", "ds5000": "ds5000"}


def _table(filename):
    rows = []
    with open(os.path.join(MAPS, filename)) as handle:
        for line in handle:
            if line.startswith("#") or line.startswith("name\t"):
                continue
            name, lanes, alias, index, speed = line.rstrip("\n").split("\t")
            rows.append({"name": name, "lanes": lanes, "alias": alias, "index": int(index),
                         "speed_mbps": int(speed)})
    return rows


TABLES = {}
for _file in sorted(os.listdir(MAPS)):
    _model = MODEL_OF[_file.split("-")[0]]
    TABLES[(_model, _file[len(_file.split("-")[0]) + 1:-len(".tsv")])] = _table(_file)


def _mode(model, sku):
    return next(m for m in models.MODELS[model]["modes"]
                if models.MODELS[model]["sonic"]["hwsku"].get(m.name) == sku)


@pytest.mark.parametrize("model,sku", sorted(TABLES))
def test_model_ports_are_the_vendor_port_map(model, sku):
    mode = _mode(model, sku)
    rows = TABLES[(model, sku)]
    assert len(rows) == models.port_count(model, mode)
    for i, row in enumerate(rows):
        name, lanes, alias, cage, per = models.port(model, "sonic", mode, i)
        assert (name, lanes, alias, cage) == (row["name"], row["lanes"], row["alias"],
                                              row["index"]), row
        assert per == len(row["lanes"].split(","))
        assert row["speed_mbps"] == mode.speeds[0] * 1000
        assert models.parse(model, "sonic", mode, name) == i


def test_first_lanes_cover_every_lane_once():
    for name, model in models.MODELS.items():
        lanes = [first + k for first in model["first_lanes"] for k in range(model["cage_lanes"])]
        assert len(set(lanes)) == len(lanes) == len(model["first_lanes"]) * model["cage_lanes"]
        assert min(lanes) in (0, 1), name


def _eos_ports(rows):
    """{EOS interface name: lanes per port} from a port table: cage N's port whose first lane
    is k lanes into the cage is EthernetN/(k+1) (EOS manual: an OSFP cage N is EthernetN/1-8)."""
    first_of_cage = {}
    for row in rows:
        first = int(row["lanes"].split(",")[0])
        first_of_cage[row["index"]] = min(first, first_of_cage.get(row["index"], first))
    out = {}
    for row in rows:
        first = int(row["lanes"].split(",")[0])
        out["Ethernet%d/%d" % (row["index"], first - first_of_cage[row["index"]] + 1)] = \
            len(row["lanes"].split(","))
    return out


def _check_rendered(p):
    checked = 0
    for name, dev in p["devices"].items():
        if dev["kind"] != "switch":
            continue
        hw = dev["hardware"]
        assert hw, "%s has no model" % name
        mode = next(m for m in models.MODELS[hw["model"]]["modes"] if m.name == hw["breakout"])
        sku = models.MODELS[hw["model"]]["sonic"]["hwsku"][mode.name]
        rows = dict((r["name"], r) for r in TABLES[(hw["model"], sku)])
        files = render.render_switch(dev, ["configs"])
        if dev["platform"] == "sonic":
            db = json.loads(files["configs/%s.json" % name])
            assert db["DEVICE_METADATA"]["localhost"]["hwsku"] == sku
            for port, row in db["PORT"].items():
                want = rows[port]
                assert (row["lanes"], row["alias"], int(row["index"]), int(row["speed"])) == \
                    (want["lanes"], want["alias"], want["index"], want["speed_mbps"]), port
                checked += 1
        else:
            eos = _eos_ports(rows.values())
            text = files["configs/%s.cfg" % name]
            for port, speed, lanes in re.findall(
                    r"^interface (Ethernet\S+)\n(?:   .*\n)*?   speed (\d+)g-(\d+)$", text, re.M):
                assert eos[port] == int(lanes) and int(speed) == mode.speeds[0], port
                checked += 1
    return checked


@pytest.mark.parametrize("inventory", ["example/hosts.yml", "cluster-1024/hosts.yml",
                                       "multi-pod/hosts.yml"])
def test_bundled_inventories_render_ports_their_switches_have(inventory_data, inventory):
    p = plan.build_plan(*inventory_data(os.path.join(ROOT, "inventories", inventory)))
    ports = sum(len(d["ports"]) for d in p["devices"].values() if d["kind"] == "switch")
    assert _check_rendered(p) == ports


@pytest.mark.parametrize("gpus,radix,planes,mix", [
    (1024, 64, 1, "mixed"), (4096, 64, 1, "mixed"), (2048, 64, 2, "alternate")])
def test_generated_inventories_render_ports_their_switches_have(gpus, radix, planes, mix):
    p = plan.build_plan(*generate.clos(gpus, radix, planes, platforms=mix)[:2])
    ports = sum(len(d["ports"]) for d in p["devices"].values() if d["kind"] == "switch")
    assert _check_rendered(p) == ports


def test_a_port_the_model_lacks_is_refused(example):
    """128 x 400G is all an SN5600 has: a 129th host port names host, port and model."""
    from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError
    groups, hv = example
    hv["gpu1"]["roce_nic_overrides"] = {"0": {"port": "Ethernet512"}}   # the 25G service port
    with pytest.raises(RoceInputError) as err:
        plan.build_plan(groups, hv)
    assert (err.value.host, err.value.field) == ("gpu1", "roce_nic_overrides.0.port")
    assert "Ethernet0, Ethernet4 .. Ethernet508 (128 ports, sn5600, 2x400G)" in str(err.value)
