"""SONiC's own pool accounting on Spectrum: sonic-swss cfgmgr/buffer_pool_mellanox.lua,
re-implemented here step by step from its source (each step cites its lines on the release
branch), replayed over the config_db.json the renderer writes - the ports, profiles, PGs, queues
and profile lists it really carries - on every claimed Spectrum SKU and breakout, both buffer
models and every SONiC release the plan targets. The ingress_lossless_pool (and egress_lossy_pool)
size the renderer writes is the pool the lua computes for that config, and the plan's pause
points are computed from it.

The lua runs in SONiC's dynamic model over APPL_DB, for pools without a configured size
(L411-431 on 202511): the replay takes the rendered config with those two sizes left out, as
SONiC's dynamic templates leave them, and APPL_DB as buffermgrdyn fills it (a "NULL" lossless PG
on the profile it computes: render/sonic/buffermgrd.dynamic_profiles with the headroom lua; a
headroom override on its own profile). The traditional model's pool is held to the same
arithmetic. mmu_size is the egress_lossless_pool (no BUFFER_MAX_PARAM_TABLE in the replay,
L285-288), which equals the SKU template's (hardware/sku_tables.py TEMPLATES).
"""
import json
import math
import os
import re

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    catalog, models, sku_tables)
from ansible_collections.roce.fabric.plugins.module_utils.lossless import headroom
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import buffermgrd

import sonic_lua

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))

# sonic-net/sonic-swss cfgmgr/buffer_pool_mellanox.lua: the commit that last changed it on each
# release branch, and which text it is (202411/202505 = 202405's, 202605 = 202511's = master).
COMMITS = {"202305": "81b5b4cf4", "202311": "3b953ae73", "202405": "42e9feaa8",
           "202411": "d264a8aec", "202505": "d264a8aec", "202511": "83be94fbd",
           "202605": "2ed250d4f"}
TEXT = {"202305": "202305", "202311": "202311", "202405": "202405", "202411": "202405",
        "202505": "202405", "202511": "202511", "202605": "202511"}
# The lines of each step, per text.
LINES = {
    "202305": {"iterate_all_items": "L31-88", "iterate_profile_list": "L90-134",
               "ports": "L187-221", "egress_lossless_pool_size": "L223",
               "shp_enabled": "L226-246", "mmu_size": "L250-253", "lossypg_reserved": "L258-259",
               "profiles": "L269-288", "pgs_queues": "L291-296", "profile_lists": "L302-306",
               "sizes": "L318-341", "extra_8lanes": "L344-345", "private_headroom": "L348-362",
               "management_pg": "L365-366", "mirror_mgmt_pool": "L369-370",
               "pools_need_update": "L376-396", "shp_size": "L398-403",
               "pool_size": "L405-417", "result": "L420-428"},
    "202311": {"iterate_all_items": "L31-88", "iterate_profile_list": "L90-134",
               "ports": "L198-232", "egress_lossless_pool_size": "L234",
               "shp_enabled": "L237-257", "mmu_size": "L261-264", "lossypg_reserved": "L269-270",
               "profiles": "L280-299", "pgs_queues": "L302-307", "profile_lists": "L313-317",
               "sizes": "L329-352", "extra_8lanes": "L355-356", "private_headroom": "L359-373",
               "management_pg": "L376-377", "mirror_mgmt_pool": "L380-381",
               "pools_need_update": "L387-407", "shp_size": "L409-414",
               "pool_size": "L416-428", "result": "L431-439"},
    "202405": {"iterate_all_items": "L31-88", "iterate_profile_list": "L90-134",
               "ports": "L202-236", "egress_lossless_pool_size": "L238",
               "shp_enabled": "L241-261", "mmu_size": "L265-268", "lossypg_reserved": "L273-274",
               "profiles": "L284-303", "pgs_queues": "L306-311", "profile_lists": "L317-321",
               "sizes": "L333-356", "extra_8lanes": "L359-360", "private_headroom": "L363-377",
               "management_pg": "L380-381", "mirror_mgmt_pool": "L384-385",
               "pools_need_update": "L391-411", "shp_size": "L413-418",
               "pool_size": "L420-434", "result": "L437-452"},
    "202511": {"iterate_all_items": "L32-91", "iterate_profile_list": "L93-137",
               "spc6": "L193-205", "ports": "L222-256", "egress_lossless_pool_size": "L258",
               "shp_enabled": "L261-281", "mmu_size": "L285-288", "lossypg_reserved": "L293-294",
               "profiles": "L304-323", "pgs_queues": "L326-331", "profile_lists": "L337-341",
               "sizes": "L353-376", "extra_8lanes": "L379-380", "private_headroom": "L383-397",
               "management_pg": "L400-401", "mirror_mgmt_pool": "L404-405",
               "pools_need_update": "L411-431", "shp_size": "L433-438",
               "pool_size": "L440-454", "result": "L457-472"},
}
# sonic-buildimage platform/mellanox/asic_table.j2 @fb4dee11da: (cell_size, pipeline_latency KB)
# of MELLANOX-SPECTRUM-3 (L91-93) and -4 (L103-105)
ASIC_TABLE = {"spectrum3": (144, 19), "spectrum4": (192, 19)}
# (model, speed, lanes per port): every claimed Spectrum SKU and breakout, a HWSKU per mode
# (hardware/models.py: SN5600 1x800G ACS-SN5600, 2x400G Mellanox-SN5600-O128, 4x200G
# Mellanox-SN5600-V256; SN4700 1x400G ACS-MSN4700)
SPECTRUM = [(name, mode.speeds[0], model["cage_lanes"] // mode.ports)
            for name, model in sorted(models.MODELS.items())
            if catalog.ASICS[model["asic"]]["family"].value == "spectrum"
            for mode in model["modes"] if mode.name in model["sonic"]["hwsku"]]


def lua_pools(config, appl, release, asic):
    """buffer_pool_mellanox.lua of ``release`` over CONFIG_DB ``config`` and APPL_DB ``appl``
    ({"BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE", "BUFFER_PORT_INGRESS_PROFILE_LIST",
    "BUFFER_PORT_EGRESS_PROFILE_LIST"}, keys as in CONFIG_DB): ({pool: size} of the pools it
    sizes, its accounting). The comment above each step names its lines in LINES[text]."""
    text = TEXT[release]
    old_range = text != "202511"         # before #3588 a range is parsed digit by digit
    cell_size, pipeline_latency = ASIC_TABLE[asic]
    debug = {}
    # spc6: SN6000+ platforms reserve a 32 MiB descriptors pool and no mirror headroom (202511+)
    mgmt_pool_size, egress_mirror_headroom, descriptors = 256 * 1024, 10 * 1024, 0
    if "spc6" in LINES[text]:
        platform = config.get("DEVICE_METADATA", {}).get("localhost", {}).get("platform")
        match = re.search(r"sn(\d+)", platform or "")
        if match and int(match.group(1)) >= 6000:
            descriptors, egress_mirror_headroom = 32 * 1024 * 1024, 0
    pools = config["BUFFER_POOL"]
    ipools = [p for p, row in pools.items() if row.get("type") == "ingress"]
    epools = [p for p, row in pools.items() if row.get("type") == "egress"]
    # ports: 8-lane ports (lanes counted by commas) and admin-up ports
    set_8lanes, admin_up, admin_up_8 = {}, 0, 0
    for name, row in config["PORT"].items():
        lanes = 0
        if "lanes" in row:
            lanes = row["lanes"].count(",") + 1
            set_8lanes[name] = lanes == 8
        if row.get("admin_status") == "up":
            admin_up += 1
            admin_up_8 += lanes == 8
    # egress_lossless_pool_size, mmu_size: no STATE_DB BUFFER_MAX_PARAM_TABLE here
    mmu_size = int(pools["egress_lossless_pool"]["size"])
    # shp_enabled: over_subscribe_ratio, or an xoff on ingress_lossless_pool
    params = list(config.get("DEFAULT_LOSSLESS_BUFFER_PARAMETER", {}).values())
    ratio = float(params[0]["over_subscribe_ratio"]) if params and \
        "over_subscribe_ratio" in params[0] else None
    shp_enabled = bool(ratio)
    shp_size = int(pools.get("ingress_lossless_pool", {}).get("xoff") or 0)
    shp_enabled = shp_enabled or shp_size != 0
    # lossypg_reserved
    lossypg_reserved = pipeline_latency * 1024
    lossypg_reserved_8lanes = (2 * pipeline_latency - 1) * 1024
    ceiling_mmu_size = mmu_size // cell_size * cell_size
    # profiles: an ingress profile is lossless when it has xoff
    lossless, refs = {}, {}
    for name, prof in appl["BUFFER_PROFILE"].items():
        if prof["pool"] in ipools:
            lossless[name] = "xoff" in prof
        refs[name] = 0
    # pgs_queues (iterate_all_items): each item references its profile once per PG/queue
    lossypg_8lanes, lossless_ports = 0, set()
    for table, check_lossless in (("BUFFER_PG", True), ("BUFFER_QUEUE", False)):
        for key in sorted(appl[table]):
            port, ids = key.split("|")
            name = appl[table][key]["profile"]
            assert name in refs, "%s %s: the lua retries (unknown profile)" % (table, key)
            if len(ids) == 1:
                size = 1
            elif old_range:
                size = 1 + int(ids[-1]) - int(ids[0])
            else:
                first, last = ids.split("-")
                size = int(last) - int(first) + 1
            refs[name] += size
            if set_8lanes.get(port) and lossless.get(name) is False:
                lossypg_8lanes += size
            if check_lossless and lossless.get(name):
                lossless_ports.add(port)
    # profile_lists (iterate_profile_list): a lossy ingress profile in a list costs nothing
    for table in ("BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST"):
        for key, row in appl[table].items():
            for name in row["profile_list"].split(","):
                if lossless.get(name) is False:
                    name += "_list"
                    refs.setdefault(name, 0)
                assert name in refs, "%s %s: the lua retries" % (table, key)
                refs[name] += 1
    # sizes: size x references; a lossy ingress profile on a PG adds lossypg_reserved
    occupied, acc_xoff = 0, 0
    for name, count in refs.items():
        prof = appl["BUFFER_PROFILE"].get(name)
        if prof is None or "size" not in prof:
            continue
        size = int(prof["size"])
        if lossless.get(name) is False:
            size += lossypg_reserved
        if size:
            if shp_size == 0 and "xon" in prof and "xoff" in prof and \
                    int(prof["xon"]) + int(prof["xoff"]) > size:
                acc_xoff += (int(prof["xon"]) + int(prof["xoff"]) - size) * count
            occupied += size * count
    debug["profiles"] = occupied
    # extra_8lanes
    occupied += (lossypg_reserved_8lanes - lossypg_reserved) * lossypg_8lanes
    # private_headroom: a profile with xon + xoff > size forces the shared headroom pool
    if acc_xoff > 0 and not shp_enabled:
        shp_size, shp_enabled = 655360, True
    if shp_enabled:
        occupied += len(lossless_ports) * 10 * 1024
        acc_xoff = max(0, acc_xoff - len(lossless_ports) * 10 * 1024)
    # management_pg: per admin-up port
    debug["management_pg"] = (admin_up - admin_up_8) * lossypg_reserved + \
        admin_up_8 * lossypg_reserved_8lanes
    occupied += debug["management_pg"]
    # mirror_mgmt_pool
    occupied += admin_up * egress_mirror_headroom + mgmt_pool_size + descriptors
    # pools_need_update: pools without a configured size
    need = [p for p in ipools if "size" not in pools[p]] + \
        [p for p in epools if "size" not in pools[p]]
    ingress_count = sum(1 for p in ipools if "size" not in pools[p])
    # shp_size
    if shp_enabled and shp_size == 0:
        shp_size = int(math.ceil(acc_xoff / ratio)) or 655360
    # pool_size
    occupied += shp_size
    available = mmu_size - occupied
    pool_size = available if ingress_count == 1 else available / 2.0
    pool_size = min(pool_size, ceiling_mmu_size)
    debug.update(occupied=occupied, shp_size=shp_size, admin_up=admin_up,
                 admin_up_8lanes=admin_up_8, lossypg_8lanes=lossypg_8lanes)
    # result
    return dict((p, int(math.ceil(pool_size))) for p in need), debug


def _appl_db(db, dev):
    """APPL_DB as buffermgrdyn fills it from ``db`` (dynamic model: each "NULL" lossless PG on
    the profile it computes; a headroom override on its own profile; every other row as
    configured) or, traditional, CONFIG_DB's own buffer tables."""
    appl = dict((t, dict(db.get(t, {}))) for t in (
        "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE", "BUFFER_PORT_INGRESS_PROFILE_LIST",
        "BUFFER_PORT_EGRESS_PROFILE_LIST"))
    if db["DEVICE_METADATA"]["localhost"]["buffer_model"] == "dynamic":
        computed, log = buffermgrd.dynamic_profiles(db, sonic_lua.headroom_lua(dev))
        assert not [m for level, m in log if level == "ERROR"]
        for key, prof in computed.items():
            name = prof["name"]
            appl["BUFFER_PROFILE"][name] = dict((k, v) for k, v in prof.items() if k != "name")
            appl["BUFFER_PG"][key] = {"profile": name}
    return appl


def replay(dev, release):
    """(the rendered pool, the lua's pool, its accounting) of Spectrum switch ``dev``."""
    db = json.loads(render.render_switch(dev, ["configs"])["configs/%s.json" % dev["name"]])
    rendered = dict((p, int(db["BUFFER_POOL"][p]["size"]))
                    for p in ("ingress_lossless_pool", "egress_lossy_pool"))
    stripped = json.loads(json.dumps(db))
    for p in rendered:
        del stripped["BUFFER_POOL"][p]["size"]
    pools, debug = lua_pools(stripped, _appl_db(db, dev), release, dev["asic"])
    hwsku = (dev.get("hardware") or {}).get("hwsku")
    template = sku_tables.template(hwsku)
    if template:
        assert int(db["BUFFER_POOL"]["egress_lossless_pool"]["size"]) == \
            template["egress_lossless_pool"], hwsku
    return rendered, pools, debug


def _check(dev, release):
    rendered, pools, debug = replay(dev, release)
    assert pools == rendered, (dev["name"], release, rendered, pools, debug)
    buf = dev["buffer"]
    assert buf["shared_pool_bytes"] == pools["ingress_lossless_pool"]
    assert buf["pool_accounting"] == "SONiC %s buffer_pool_mellanox.lua" % release
    # the pause points follow the pool (Choudhury-Hahne, one ITM on Spectrum)
    trig = buf["trigger"]
    alpha = 2.0 ** trig["dynamic_th"]
    assert trig["shared_pool_bytes"] == pools["ingress_lossless_pool"]
    assert trig["trigger_one_pg_bytes"] == int(alpha / (1 + alpha) * pools[
        "ingress_lossless_pool"])
    return debug


def _plan(small_clos, model, speed, buffer_model, release, pinned=False, down=False):
    groups, hv = small_clos(host_link={"speed_gbps": speed, "cable_m": 3},
                            fabric_link={"speed_gbps": speed, "cable_m": 30})
    for name in groups["roce_switches"]:
        hv[name]["roce_model"] = model
        hv[name]["roce_lossless"] = {"sonic": {"buffer_model": buffer_model,
                                               "version": release}}
    overrides = {}
    if pinned or down:
        p = pipeline.build_plan(groups, hv)
        hosts = [x for x in p["devices"]["leaf1a"]["ports"] if x["peer_kind"] == "host"]
        if pinned:
            overrides[hosts[0]["name"]] = {
                "headroom_bytes": hosts[0]["lossless"]["headroom_required_bytes"] + 8192}
        if down:
            overrides[hosts[1]["name"]] = {"state": "down"}
    if overrides:
        hv["leaf1a"]["roce_link_overrides"] = overrides
    p = pipeline.build_plan(groups, hv)
    assert not [v for v in p["violations"] if v["severity"] == "ERROR"], p["violations"][:3]
    return p


@pytest.mark.parametrize("release", sorted(headroom.SONIC_VERSIONS))
@pytest.mark.parametrize("buffer_model", ["traditional", "dynamic"])
@pytest.mark.parametrize("model,speed,lanes", SPECTRUM)
def test_every_spectrum_sku_pool_is_what_the_lua_computes(small_clos, model, speed, lanes,
                                                          buffer_model, release):
    p = _plan(small_clos, model, speed, buffer_model, release)
    for name in ("leaf1a", "spine1"):
        dev = p["devices"][name]
        assert dev["hardware"]["hwsku"] == models.MODELS[model]["sonic"]["hwsku"][
            dev["hardware"]["breakout"]]
        debug = _check(dev, release)
        ports = len(dev["ports"])
        # every port admin up: a management PG each, 37,888 B = (2 x 19 - 1) KiB on 8 lanes
        eight = ports if lanes == 8 else 0
        assert debug["admin_up"] == ports and debug["admin_up_8lanes"] == eight
        assert debug["management_pg"] == (ports - eight) * 19456 + eight * 37888
        # and the lossy PG of each 8-lane port as much (L77-81, L378-380)
        assert debug["lossypg_8lanes"] == eight


def test_the_claimed_spectrum_skus():
    assert [(m, s) for m, s, _lanes in SPECTRUM] == [
        ("sn4700", 400), ("sn5600", 800), ("sn5600", 400), ("sn5600", 200)]


@pytest.mark.parametrize("buffer_model", ["traditional", "dynamic"])
@pytest.mark.parametrize("model,speed,lanes", SPECTRUM)
def test_pinned_and_admin_down_ports(small_clos, model, speed, lanes, buffer_model):
    """A pinned headroom (a headroom override in the dynamic model) is accounted at its own
    size; an admin-down port (no buffer objects) takes nothing (L248-254)."""
    p = _plan(small_clos, model, speed, buffer_model, "202605", pinned=True, down=True)
    dev = p["devices"]["leaf1a"]
    debug = _check(dev, "202605")
    assert debug["admin_up"] == sum(1 for x in dev["ports"] if x["up"]) == len(dev["ports"]) - 1


def _spectrum_switches(p):
    return [d for _n, d in sorted(p["devices"].items()) if d["kind"] == "switch" and
            d["platform"] == "sonic" and d["asic_family"] == "spectrum"]


# every bundled and golden inventory with a Spectrum switch on SONiC
GOLDEN_SPECTRUM = ("sonic-dynamic", "pinned-headroom", "ecn-override")
SPECTRUM_INVENTORIES = ["inventories/example/hosts.yml", "inventories/cluster-1024/hosts.yml"] + [
    "tests/golden/%s/inventory/hosts.yml" % s for s in GOLDEN_SPECTRUM]


@pytest.mark.parametrize("inventory", SPECTRUM_INVENTORIES)
def test_bundled_and_golden_spectrum_pools(inventory_data, inventory):
    p = pipeline.build_plan(*inventory_data(os.path.join(ROOT, inventory)))
    switches = _spectrum_switches(p)
    assert switches
    for dev in switches:
        _check(dev, dev["buffer"]["sonic"]["version"])


def test_the_issue_measures(inventory_data):
    """Issue 27 measured the rendered pools 114,688 B too large on the 4-port golden leaf
    (dynamic) and 917,504 B on the example leaf (traditional): 28,672 B per 4-lane port, the
    management PG (19,456 B) and egress_lossy_profile (9,216 B) the carve left out."""
    for inventory, before, ports in (("tests/golden/sonic-dynamic/inventory/hosts.yml",
                                      157348864, 4),
                                     ("inventories/example/hosts.yml", 148153344, 32)):
        p = pipeline.build_plan(*inventory_data(os.path.join(ROOT, inventory)))
        dev = p["devices"]["leaf1a"]
        assert len(dev["ports"]) == ports
        assert before - replay(dev, dev["buffer"]["sonic"]["version"])[0][
            "ingress_lossless_pool"] == ports * (19456 + 9216)
