"""Every rendered SONiC config is what the switch runs: SONiC's buffer manager (render/sonic/
buffermgrd.py, written from sonic-swss cfgmgr/buffermgr.cpp and buffermgrdyn.cpp) replayed over
every SONiC config_db.json of every bundled, golden, generated and per-model inventory changes
nothing and logs no error ("No PG profile configured ..."), every lossless PG runs the plan's
headroom, and both ends of every cable carry the same cable class."""
import glob
import json
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.hardware import models, sku_tables
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import buffermgrd

import sonic_lua

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
INVENTORIES = sorted(
    [os.path.relpath(p, ROOT)
     for p in glob.glob(os.path.join(ROOT, "inventories", "*", "hosts.yml"))] +
    [os.path.relpath(p, ROOT)
     for p in glob.glob(os.path.join(ROOT, "tests", "golden", "*", "inventory", "hosts.yml"))])
# (model, link speed Gb/s): every model in every breakout a SONiC HWSKU names
PER_MODEL = [(name, mode.speeds[0]) for name, model in sorted(models.MODELS.items())
             for mode in model["modes"] if "sonic" in model["platforms"]
             and mode.name in model["sonic"]["hwsku"]]


def _vendor(dev):
    return "mellanox" if dev["asic_family"] == "spectrum" else "broadcom"


def _replay(p):
    """Run the buffer manager over every SONiC switch of plan ``p``; returns the rendered
    configs by switch and the number of lossless PGs checked."""
    configs, checked = {}, 0
    for name, dev in sorted(p["devices"].items()):
        if dev["kind"] != "switch":
            continue
        files = render.render_switch(dev, ["configs"])
        if dev["platform"] != "sonic":
            continue
        db = json.loads(files["configs/%s.json" % name])
        configs[name] = db
        hwsku = (dev.get("hardware") or {}).get("hwsku")
        after, log = buffermgrd.traditional(db, sku_tables.pg_table(hwsku), _vendor(dev))
        assert [m for level, m in log if level == "ERROR"] == [], name
        assert after == db, "%s: buffermgrd rewrites %s" % (name, [
            k for k in db.get("BUFFER_PG", {}) if db["BUFFER_PG"][k] != after["BUFFER_PG"].get(k)])
        dynamic = buffers_dynamic(dev)
        if dynamic:
            computed, log = buffermgrd.dynamic_profiles(db, sonic_lua.headroom_lua(dev))
            assert [m for level, m in log if level == "ERROR"] == [], name
        pfc = dev["qos"]["pfc_priorities"]
        for port in dev["ports"]:
            ll = port["lossless"]
            if not ll:
                continue
            hr = ll["headroom"]
            for pg in buffermgrd._bitmap_keys(",".join(str(x) for x in pfc)):
                key = "%s|%s" % (port["name"], pg)
                prof = computed[key] if dynamic else buffermgrd.effective_pg(after, key)
                assert prof, "%s %s: no lossless PG" % (name, key)
                assert (int(prof["xon"]), int(prof["xoff"]), int(prof["size"])) == (
                    hr["xon_bytes"], hr["xoff_bytes"], hr["size_bytes"]), (name, key, prof)
                checked += 1
    return configs, checked


def buffers_dynamic(dev):
    return (dev["buffer"].get("sonic") or {}).get("buffer_model") == "dynamic"


def _ends_agree(p, configs):
    links = 0
    for name, dev in p["devices"].items():
        if dev["kind"] != "switch":
            continue
        for port in dev["ports"]:
            peer = p["devices"].get(port["peer"])
            if not port["lossless"] or not peer or peer["kind"] != "switch":
                continue
            other = next(x for x in peer["ports"] if x["name"] == port["peer_port"])
            assert other["lossless"]["cable_class_m"] == port["lossless"]["cable_class_m"], \
                (name, port["name"], port["peer"])
            if name in configs and port["peer"] in configs:
                mine = configs[name]["CABLE_LENGTH"]["AZURE"][port["name"]]
                theirs = configs[port["peer"]]["CABLE_LENGTH"]["AZURE"][port["peer_port"]]
                # equal, or an end that pins its profile (0m: the manager leaves it alone)
                assert mine == theirs or "0m" in (mine, theirs), (name, port["name"])
            links += 1
    return links


@pytest.mark.parametrize("inventory", INVENTORIES)
def test_bundled_and_golden_configs_are_what_buffermgrd_runs(inventory_data, inventory):
    p = pipeline.build_plan(*inventory_data(os.path.join(ROOT, inventory)))
    configs, checked = _replay(p)
    _ends_agree(p, configs)
    assert checked or not configs


@pytest.mark.parametrize("gpus,radix,planes,mix", [
    (1024, 64, 1, "mixed"), (4096, 64, 1, "mixed"), (2048, 64, 2, "alternate"),
    (1024, 64, 1, "sonic")])
def test_generated_configs_are_what_buffermgrd_runs(gpus, radix, planes, mix):
    if mix not in generate.PLATFORM_MIXES:
        pytest.skip("no %s mix" % mix)
    p = pipeline.build_plan(*generate.clos(gpus, radix, planes, platforms=mix)[:2])
    configs, checked = _replay(p)
    assert configs and checked
    assert _ends_agree(p, configs)


@pytest.mark.parametrize("model,speed", PER_MODEL)
@pytest.mark.parametrize("case", ["default", "pinned", "spine-ieee", "long"])
def test_every_model_renders_what_buffermgrd_runs(small_clos, model, speed, case):
    """Every model and breakout, SONiC everywhere: SKU-table defaults, a pinned headroom on
    one port, spines on the ieee model (no table lengths of their own), and cables longer
    than any table row."""
    cable = {"long": 500, "spine-ieee": 30}.get(case, 3)
    groups, hv = small_clos(host_link={"speed_gbps": speed, "cable_m": 3},
                            fabric_link={"speed_gbps": speed, "cable_m": cable})
    for name in groups["roce_switches"]:
        hv[name]["roce_model"] = model
    if case == "spine-ieee":
        for name in groups["spines"]:
            hv[name]["roce_lossless"] = {"model": "ieee"}
    p = pipeline.build_plan(groups, hv)
    if case == "pinned":
        leaf = p["devices"]["leaf1a"]
        port = next(x for x in leaf["ports"] if x["lossless"] and x["peer_kind"] == "host")
        hv["leaf1a"]["roce_link_overrides"] = {port["name"]: {
            "headroom_bytes": port["lossless"]["headroom_required_bytes"] + 4096}}
        p = pipeline.build_plan(groups, hv)
    assert not [v for v in p["violations"] if v["severity"] == "ERROR"], p["violations"][:3]
    configs, checked = _replay(p)
    assert checked
    assert _ends_agree(p, configs)
    if case == "pinned":
        db = configs["leaf1a"]
        assert db["CABLE_LENGTH"]["AZURE"][port["name"]] == "0m"
        assert sum(v == "0m" for v in db["CABLE_LENGTH"]["AZURE"].values()) == 1 or \
            not sku_tables.pg_table(p["devices"]["leaf1a"]["hardware"]["hwsku"])


def test_model_rules_from_buffermgr_cpp():
    """The rules themselves: a non-standard profile is re-pointed at the standard name
    (L281-306), a missing ini row is an ERROR (L238-243), 0m leaves the port (L159-163),
    admin-down reclaims only the standard profile on mellanox (L206-236), and an existing
    standard profile is reused, not overwritten (L245-279)."""
    table = {(400, 5): (250880, 19456, 231424, 0, None)}
    db = {"DEVICE_METADATA": {"localhost": {"buffer_model": "traditional"}},
          "BUFFER_POOL": {"ingress_lossless_pool": {"mode": "dynamic"}},
          "PORT": {"Ethernet0": {"speed": "400000", "admin_status": "up"},
                   "Ethernet4": {"speed": "400000", "admin_status": "up"},
                   "Ethernet8": {"speed": "400000", "admin_status": "up"},
                   "Ethernet12": {"speed": "400000", "admin_status": "down"}},
          "CABLE_LENGTH": {"AZURE": {"Ethernet0": "5m", "Ethernet4": "30m", "Ethernet8": "0m",
                                     "Ethernet12": "5m"}},
          "PORT_QOS_MAP": dict((p, {"pfc_enable": "3,4"}) for p in
                               ("Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12")),
          "BUFFER_PROFILE": {"mine": {"xoff": "1"}},
          "BUFFER_PG": {"Ethernet0|3-4": {"profile": "mine"},
                        "Ethernet8|3-4": {"profile": "mine"},
                        "Ethernet12|3-4": {"profile": "pg_lossless_400000_5m_profile"}}}
    after, log = buffermgrd.traditional(db, table, "mellanox")
    assert after["BUFFER_PG"]["Ethernet0|3-4"] == {"profile": "pg_lossless_400000_5m_profile"}
    assert after["BUFFER_PROFILE"]["pg_lossless_400000_5m_profile"] == {
        "pool": "ingress_lossless_pool", "xon": "19456", "xoff": "231424", "size": "250880",
        "dynamic_th": "0"}
    assert after["BUFFER_PG"]["Ethernet8|3-4"] == {"profile": "mine"}
    assert "Ethernet12|3-4" not in after["BUFFER_PG"]
    assert [m for level, m in log if level == "ERROR"] == [
        "Unable to create/update PG profile for port Ethernet4. No PG profile configured for "
        "speed 400000 and cable length 30m"]
    db["BUFFER_PROFILE"]["pg_lossless_400000_5m_profile"] = {"xoff": "2"}
    after, _log = buffermgrd.traditional(db, table, "broadcom")
    assert after["BUFFER_PROFILE"]["pg_lossless_400000_5m_profile"] == {"xoff": "2"}
    assert after["BUFFER_PG"]["Ethernet12|3-4"]["profile"] == "pg_lossless_400000_5m_profile"
    assert buffermgrd._bitmap_keys("3,4") == ["3-4"] and buffermgrd._bitmap_keys("1,3") == [
        "1", "3"]


def test_create_only_fields_and_stale_objects():
    """Deploying over the vendor template: a profile's pool and threshold mode and a pool's
    mode are create-only (bufferorch.cpp), and objects the plan lacks stay unless removed,
    users first."""
    running = {"BUFFER_POOL": {"ingress_lossy_pool": {"mode": "dynamic"},
                               "ingress_lossless_pool": {"mode": "dynamic", "type": "ingress"}},
               "BUFFER_PROFILE": {"ingress_lossy_profile": {"pool": "ingress_lossy_pool",
                                                            "dynamic_th": "3"}},
               "BUFFER_PG": {"Ethernet0|0": {"profile": "ingress_lossy_profile"}}}
    new = {"BUFFER_POOL": {"ingress_lossless_pool": {"mode": "dynamic", "type": "ingress"}},
           "BUFFER_PROFILE": {"ingress_lossy_profile": {"pool": "ingress_lossless_pool",
                                                        "dynamic_th": "3"}},
           "BUFFER_PG": {"Ethernet0|0": {"profile": "ingress_lossy_profile"}}}
    assert buffermgrd.create_only(running, new) == [
        ("BUFFER_PROFILE", "ingress_lossy_profile", "pool", "ingress_lossy_pool",
         "ingress_lossless_pool")]
    assert buffermgrd.stale(running, new) == [("BUFFER_POOL", "ingress_lossy_pool")]
