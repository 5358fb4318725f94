"""A switch of no model renders the ports its inventory gives (roce_port_map), never guessed ones.

The vendors' port_config.ini files come from ../shared/sku_data (sonic-buildimage master
086b03bd70, device/<vendor>/<platform>/<HWSKU>/port_config.ini; its SOURCES.md): an HWSKU no
model covers (Mellanox-SN4700-C128, 128 x 100G on two lanes each) renders exactly the file's
rows; the 7060X6-64PE's O128S2 file given as a port map renders what the model renders."""
import json
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError
from ansible_collections.roce.fabric.plugins.module_utils.inputs import port_map
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from lab_ports import lab_port_map

import shared_data

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
SKU_DATA = os.path.join(os.path.dirname(ROOT), "shared", "sku_data")


def _ini(platform, hwsku):
    path = os.path.join(SKU_DATA, platform, hwsku, "port_config.ini")
    shared_data.need(path, "the vendor port maps are read from ../shared/sku_data")
    with open(path) as handle:
        return handle.read()


def _rows(text):
    """{name: (lanes, alias, index, speed)} of a port_config.ini, read by the test itself."""
    out = {}
    header = ["name", "lanes", "alias", "index"]
    for line in text.splitlines():
        if line.startswith("#"):
            if " name " in " %s " % line.strip("#"):
                header = line.strip("#").split()
            continue
        fields = line.split()
        if len(fields) >= 2:
            row = dict(zip(header, fields))
            out[row["name"]] = (row["lanes"], row.get("alias", row["name"]), row.get("index"),
                                row.get("speed"))
    return out


def _sonic_ports(p):
    """{switch: config_db PORT table} of every switch of plan ``p``."""
    out = {}
    for name, dev in p["devices"].items():
        if dev["kind"] == "switch":
            db = json.loads(render.render_switch(dev, ["configs"])["configs/%s.json" % name])
            out[name] = db["PORT"]
    return out


def _given(small_clos, value, asic="spectrum3", platform="sonic", **fabric):
    groups, hv = small_clos(**fabric)
    for name in groups["roce_switches"]:
        hv[name].pop("roce_model")
        hv[name].update(roce_asic=asic, roce_platform=platform, roce_port_map=value)
    return groups, hv


def _error(groups, hv):
    with pytest.raises(RoceInputError) as err:
        plan.build_plan(groups, hv)
    return err.value


def test_an_unmodelled_sku_renders_its_port_config_ini(small_clos):
    text = _ini("x86_64-mlnx_msn4700-r0", "Mellanox-SN4700-C128")
    rows = _rows(text)
    assert len(rows) == 128
    groups, hv = _given(small_clos, text, host_link={"speed_gbps": 100},
                        fabric_link={"speed_gbps": 100})
    checked = 0
    for switch, ports in _sonic_ports(plan.build_plan(groups, hv)).items():
        assert ports, switch
        for name, row in ports.items():
            lanes, alias, index, speed = rows[name]
            assert (row["lanes"], row["alias"], row["index"], row["speed"]) == \
                (lanes, alias, index, speed), (switch, name)
            checked += 1
    assert checked == sum(len(p) for p in _sonic_ports(plan.build_plan(groups, hv)).values())


def test_a_port_config_ini_given_for_a_model_renders_the_models_ports(small_clos):
    groups, hv = small_clos()
    by_model = _sonic_ports(plan.build_plan(groups, hv))
    text = _ini("x86_64-arista_7060x6_64pe", "Arista-7060X6-64PE-O128S2")
    groups, hv = _given(small_clos, text, asic="tomahawk5")
    assert _sonic_ports(plan.build_plan(groups, hv)) == by_model


def test_a_link_above_the_maps_speed_is_refused(small_clos):
    """Mellanox-SN4700-C128 ports are 100000 Mb/s: a 400G link on one names the port (spines
    are checked first: spine1's Ethernet0 is a leaf link)."""
    groups, hv = _given(small_clos, _ini("x86_64-mlnx_msn4700-r0", "Mellanox-SN4700-C128"))
    err = _error(groups, hv)
    assert (err.host, err.field, err.value) == ("spine1", "roce_fabric.fabric_link.speed_gbps",
                                                400)
    assert "at most 100G on Ethernet0" in str(err)


def test_an_asic_without_a_port_map_is_refused_naming_what_is_needed(small_clos):
    groups, hv = small_clos()
    hv["spine2"].pop("roce_model")
    hv["spine2"]["roce_asic"] = "tomahawk5"
    err = _error(groups, hv)
    assert (err.host, err.field, err.value) == ("spine2", "roce_port_map", None)
    for needed in ("roce_model", "7060x6-64pe", "sn5600", "port_config.ini", "name, lanes"):
        assert needed in str(err), needed


def test_a_port_map_beside_a_model_is_refused(small_clos):
    groups, hv = small_clos()
    hv["leaf1a"]["roce_port_map"] = lab_port_map("sonic", 8)
    err = _error(groups, hv)
    assert (err.host, err.field) == ("leaf1a", "roce_port_map")
    assert "ports follow from the model" in str(err)


def test_a_short_port_map_names_the_ports_it_has(small_clos):
    groups, hv = _given(small_clos, lab_port_map("sonic", 2), asic="tomahawk5")
    err = _error(groups, hv)
    assert err.field == "roce_port_map"
    assert "Ethernet0 .. Ethernet8 (2 ports, roce_port_map)" in str(err)


def test_a_lab_port_map_on_eos_names_ports_by_cage(small_clos):
    groups, hv = _given(small_clos, lab_port_map("eos", 8), asic="tomahawk5", platform="eos")
    p = plan.build_plan(groups, hv)
    names = [port["name"] for port in p["devices"]["leaf1a"]["ports"]]
    assert names and all(n.endswith("/1") for n in names)
    assert p["devices"]["leaf1a"]["hardware"] is None


@pytest.mark.parametrize("change,field,allowed", [
    (lambda m: m[1].update(lanes=m[0]["lanes"]), "roce_port_map[1].lanes",
     "a lane no other port has (Ethernet0 has it)"),
    (lambda m: m[1].update(name="Ethernet0"), "roce_port_map[1].name",
     "a name no other port has"),
    (lambda m: m[1].update(alias="etp1"), "roce_port_map[1].alias", "an alias no other port"),
    (lambda m: m[1].update(name="Ethernet1/1"), "roce_port_map[1].name", "a SONiC port name"),
])
def test_a_bad_port_map_entry_is_named(small_clos, change, field, allowed):
    ports = lab_port_map("sonic", 8)
    change(ports)
    groups, hv = _given(small_clos, ports, asic="tomahawk5")
    err = _error(groups, hv)
    assert err.field == field and allowed in err.allowed, (err.field, err.allowed)


def test_an_alias_on_eos_is_refused(small_clos):
    ports = lab_port_map("eos", 8)
    ports[0]["alias"] = "etp1"
    groups, hv = _given(small_clos, ports, asic="tomahawk5", platform="eos")
    err = _error(groups, hv)
    assert (err.field, err.value) == ("roce_port_map[0].alias", "etp1")
    assert "EOS ports have no alias" in err.allowed


@pytest.mark.parametrize("text,field,allowed", [
    ("# name lanes alias\nEthernet0 0,1 etp1 1\nEthernet8 8,9 etp2\n", "roce_port_map line 2",
     "at most one field per column"),
    ("# name alias\nEthernet0 etp1\nEthernet8 etp2\n", "roce_port_map line 2",
     "a lanes column"),
    ("# name lanes alias index speed\nEthernet0 0 etp1 1 fast\nEthernet8 8 etp2 2 1\n",
     "roce_port_map line 2 speed", "Mb/s"),
    ("Ethernet0 0,1; reboot etp1 1\nEthernet8 8 etp2 2\n", "roce_port_map line 1",
     "at most one field per column"),
    ("Ethernet0 0;1 etp1 1\nEthernet8 8 etp2 2\n", "roce_port_map line 1 lanes",
     "lane numbers"),
    ("Ethernet0 0 etp1\nEthernet8 8 etp2\n", "roce_port_map line 2 alias", "an alias no other"),
])
def test_a_bad_port_config_ini_names_its_line(small_clos, text, field, allowed):
    text = text.replace("etp2\n", "etp1\n") if "no other" in allowed else text
    groups, hv = _given(small_clos, text, asic="tomahawk5")
    err = _error(groups, hv)
    assert err.field == field and allowed in err.allowed, (err.field, err.allowed)


def test_port_config_ini_is_read_as_sonic_reads_it():
    """sonic-config-engine portconfig.py parse_port_config_file: the header comment names the
    columns, other comments and short lines are skipped, without a header the columns are
    name lanes alias index, and the alias defaults to the name."""
    text = ("## licence text\n#\n# name lanes index alias speed\n\nEthernet0 0,1 7 etp7a 100000\n"
            "lonely\n")
    assert [dict((k, v) for k, v in r.items() if k != "_line")
            for r in port_map.parse_port_config(text)] == [
        {"name": "Ethernet0", "lanes": "0,1", "index": "7", "alias": "etp7a", "speed": "100000"}]
    given = port_map.given_ports("Ethernet0 0,1\nEthernet4 4,5\n", "sonic")
    assert [g[:5] for g in given] == [("Ethernet0", "0,1", "Ethernet0", 1, 2),
                                      ("Ethernet4", "4,5", "Ethernet4", 2, 2)]


@pytest.mark.parametrize("where,key,value", [
    ("leaf1a", "roce_port_count", 64),
    ("spine1", "roce_fabric.switch_ports", 128),
    ("spine1", "roce_fabric.port_name_step", {"sonic": 4}),
    ("leaf1a", "roce_link_overrides.Ethernet0.lanes", "0,1,2,3"),
])
def test_a_retired_variable_says_what_replaced_it(small_clos, where, key, value):
    groups, hv = small_clos()
    if key.startswith("roce_fabric."):
        hv[where]["roce_fabric"][key.split(".")[1]] = value
    elif key.startswith("roce_link_overrides"):
        hv[where]["roce_link_overrides"] = {"Ethernet0": {"lanes": value}}
    else:
        hv[where][key] = value
    err = _error(groups, hv)
    assert err.field == key
    assert "no longer read" in err.allowed and "roce_port_map" in err.allowed
