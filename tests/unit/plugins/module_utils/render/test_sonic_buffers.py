"""SONiC buffer configuration per vendor and buffer model, end to end (inventory -> plan ->
config_db.json), against numbers SONiC publishes: the switch must run what the plan checked."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    config_db as render_sonic)

# sonic.md §1.4: ACS-SN5600 pg_profile_lookup.ini (Mellanox-SN5600-O128 links to it):
# (speed, cable class) -> (size, xon, xoff)
SN5600_INI = {
    (400, 5): (250880, 19456, 231424), (800, 5): (304128, 38912, 257024),
    (400, 40): (303104, 19456, 283648), (800, 40): (410624, 38912, 362496),
    (400, 300): (697344, 19456, 677888), (800, 300): (1198080, 38912, 1150976),
}
# sonic.md §1.2 / upstream-samples/arista7060x6: TH5 cell 254 B; O128S2 buffers_defaults_t1.j2
# (broadcom research): egress_lossy_profile size 1778 = 7 cells.
TH5_EGRESS_LOSSY_BYTES = 1778


def _fabric(small_clos, speed, cable, leaf_vars, mtu=None):
    link = {"speed_gbps": speed, "cable_m": cable}
    groups, hostvars = small_clos(spines=2, pairs=1, hosts=2, nics=2, host_link=link,
                                  fabric_link=dict(link))
    for leaf in groups["leaves"]:
        hostvars[leaf].update(leaf_vars)
    if mtu:
        for sw in groups["roce_switches"]:
            hostvars[sw]["roce_mtu"] = mtu
    result = plan.build_plan(groups, hostvars)
    assert result["summary"]["errors"] == 0, [f for f in result["findings"]
                                              if f["severity"] == "ERROR"]
    return result


@pytest.mark.parametrize("speed,cable,cable_class", [
    (400, 3, 5), (400, 5, 5), (400, 30, 40), (400, 40, 40), (400, 100, 300), (400, 300, 300),
    (800, 2, 5), (800, 40, 40), (800, 250, 300)])
def test_sn5600_traditional_pins_the_hwsku_rows(small_clos, speed, cable, cable_class):
    """SONiC's traditional model on an SN5600: every lossless PG gets the HWSKU's ini row for
    the cable's class, in the plan, the profile and CABLE_LENGTH alike."""
    result = _fabric(small_clos, speed, cable, {"roce_model": "sn5600"})
    dev = result["devices"]["leaf1a"]
    db = render_sonic.config_db(dev)
    assert db["DEVICE_METADATA"]["localhost"]["buffer_model"] == "traditional"
    size, xon, xoff = SN5600_INI[(speed, cable_class)]
    name = "pg_lossless_%d_%dm_profile" % (speed * 1000, cable_class)
    assert db["BUFFER_PROFILE"][name] == {
        "pool": "ingress_lossless_pool", "size": str(size), "xon": str(xon), "xoff": str(xoff),
        "dynamic_th": str(dev["buffer"]["trigger"]["dynamic_th"])}
    for port in dev["ports"]:
        assert db["BUFFER_PG"][port["name"] + "|3"] == {"profile": name}
        assert db["CABLE_LENGTH"]["AZURE"][port["name"]] == "%dm" % cable_class
        # the table row covers what is in flight on the real cable (the formula's need)
        assert port["lossless"]["headroom_required_bytes"] <= xoff


def test_sn5600_beyond_the_table_says_where_its_headroom_comes_from(small_clos):
    result = _fabric(small_clos, 400, 500, {"roce_model": "sn5600"})
    hr = result["devices"]["leaf1a"]["ports"][0]["lossless"]["headroom"]
    assert "no pg_profile_lookup.ini row for 400G at 500 m" in hr["source"]
    assert hr["xoff_bytes"] > SN5600_INI[(400, 300)][2]


@pytest.mark.parametrize("version,xoff,size", [
    ("202605", 120832, 168960), ("202511", 118784, 166912)])
def test_sn5600_dynamic_model_is_what_buffermgrd_computes(small_clos, validator, version, xoff,
                                                          size):
    """Dynamic model, SONiC's default pattern (1024 B, 50 %), port MTU 9100: an 800G 15 m port
    gets the profile sonic-mgmt #26696 shows SONiC generating (#4757 compensation on 202605,
    none before)."""
    result = _fabric(small_clos, 800, 15, {
        "roce_model": "sn5600",
        "roce_lossless": {"sonic": {"buffer_model": "dynamic", "version": version}}}, mtu=9100)
    dev = result["devices"]["leaf1a"]
    hr = dev["ports"][0]["lossless"]["headroom"]
    assert (hr["xon_bytes"], hr["xoff_bytes"], hr["size_bytes"]) == (38912, xoff, size)
    db = render_sonic.config_db(dev)
    validator.validate(db)
    assert db["DEVICE_METADATA"]["localhost"]["buffer_model"] == "dynamic"
    assert db["LOSSLESS_TRAFFIC_PATTERN"] == {"AZURE": {"mtu": "1024",
                                                        "small_packet_percentage": "50"}}
    assert db["DEFAULT_LOSSLESS_BUFFER_PARAMETER"]["AZURE"]["default_dynamic_th"] == \
        str(dev["buffer"]["trigger"]["dynamic_th"])
    assert not [p for p in db["BUFFER_PROFILE"] if p.startswith("pg_lossless")]
    for port in dev["ports"]:
        assert db["BUFFER_PG"][port["name"] + "|3"] == {"profile": "NULL"}
        assert db["CABLE_LENGTH"]["AZURE"][port["name"]] == "15m"
    # pool sizes written: buffermgrd keeps a configured size, so it runs the plan's carve
    assert db["BUFFER_POOL"]["ingress_lossless_pool"]["size"] == \
        str(dev["buffer"]["shared_pool_bytes"])


def test_dynamic_model_is_refused_off_spectrum(small_clos):
    groups, hostvars = small_clos()
    hostvars["leaf1a"]["roce_lossless"] = {"sonic": {"buffer_model": "dynamic"}}
    with pytest.raises(Exception) as exc:
        plan.build_plan(groups, hostvars)
    assert "leaf1a" in str(exc.value) and "Spectrum" in str(exc.value)


@pytest.mark.parametrize("leaf_vars,field", [
    ({"roce_lossless": {"sonic": {"buffer_model": "dynamic"}, "trigger_mode": "static"}},
     "roce_lossless.trigger_mode"),
    ({"roce_lossless": {"sonic": {"buffer_model": "dynamic"}, "model": "ieee"}},
     "roce_lossless.model"),
])
def test_dynamic_model_refuses_what_buffermgrd_would_not_run(small_clos, leaf_vars, field):
    groups, hostvars = small_clos()
    for leaf in groups["leaves"]:
        hostvars[leaf].update(dict(leaf_vars, roce_model="sn5600"))
    with pytest.raises(Exception) as exc:
        plan.build_plan(groups, hostvars)
    assert field in str(exc.value) and "leaf1" in str(exc.value)


@pytest.mark.parametrize("version", ["202511", "202605"])
def test_dynamic_model_renders_a_pinned_headroom_as_override(small_clos, validator, version):
    """A pinned headroom in SONiC's dynamic model is a headroom override (sonic-swss
    cfgmgr/buffermgrdyn.cpp @e6b0c5b handleSingleBufferPgEntry L3164-3212: a PG naming a
    profile other than "NULL"): a lossless profile of its own (pool, xon, xoff, size and the
    pool's dynamic_th, handleBufferProfileTable L2757-2775, L2790-2792) that YANG accepts, the
    PG on it, every other PG "NULL", and the pool accounting its size."""
    result = _fabric(small_clos, 400, 3, {
        "roce_model": "sn5600",
        "roce_lossless": {"sonic": {"buffer_model": "dynamic", "version": version}},
        "roce_link_overrides": {"Ethernet0": {"headroom_bytes": 300000}}})
    dev = result["devices"]["leaf1a"]
    db = render_sonic.config_db(dev)
    validator.validate(db)
    hr = dev["ports"][0]["lossless"]["headroom"]
    assert hr["xoff_bytes"] == 300000 and hr["size_bytes"] == hr["xon_bytes"] + 300000
    name = db["BUFFER_PG"]["Ethernet0|3"]["profile"]
    # never buffermgrdyn's own name (getDynamicProfileName: pg_lossless_<speed>_<cable>_profile)
    assert name != "pg_lossless_400000_3m_profile"
    assert db["BUFFER_PROFILE"][name] == {
        "pool": "ingress_lossless_pool", "xon": str(hr["xon_bytes"]), "xoff": "300000",
        "size": str(hr["size_bytes"]),
        "dynamic_th": db["DEFAULT_LOSSLESS_BUFFER_PARAMETER"]["AZURE"]["default_dynamic_th"]}
    assert db["BUFFER_POOL"]["ingress_lossless_pool"]["mode"] == "dynamic"
    for port in dev["ports"][1:]:
        assert db["BUFFER_PG"][port["name"] + "|3"] == {"profile": "NULL"}
    assert db["CABLE_LENGTH"]["AZURE"]["Ethernet0"] == "3m"
    # the carve takes the override's size, not what buffermgrd would have computed
    unpinned = _fabric(small_clos, 400, 3, {
        "roce_model": "sn5600",
        "roce_lossless": {"sonic": {"buffer_model": "dynamic", "version": version}}})
    other = unpinned["devices"]["leaf1a"]
    assert other["buffer"]["shared_pool_bytes"] - dev["buffer"]["shared_pool_bytes"] == \
        hr["size_bytes"] - other["ports"][0]["lossless"]["headroom"]["size_bytes"]


def test_nvidia_pools_account_for_the_whole_buffer(small_clos):
    """Spectrum accounting (sonic-swss 202605 cfgmgr/buffer_pool_mellanox.lua, the release the
    plan targets by default): the ingress pool plus every reservation the lua counts for the
    rendered ports is the ASIC buffer (the egress lossless pool)."""
    result = _fabric(small_clos, 400, 30, {"roce_model": "sn5600"})
    dev = result["devices"]["leaf1a"]
    db = render_sonic.config_db(dev)
    pools, profiles = db["BUFFER_POOL"], db["BUFFER_PROFILE"]
    headroom = sum(int(profiles[db["BUFFER_PG"][p["name"] + "|3"]["profile"]]["size"])
                   for p in dev["ports"])
    ports = len(dev["ports"])
    # L293, L358-360: the lossy PG (ingress_lossy_profile on PG 0) takes lossypg_reserved, the
    # pipeline latency (asic_table.j2 19 KB), on these 4-lane ports; L400-401: so does each
    # admin-up port's management PG; L353-376 with L337-341: egress_lossy_profile's 9216 B in
    # every port's egress profile list; L404-405: 10 KiB mirror headroom per admin-up port and
    # the 256 KiB management pool (L23-24)
    lossy = mgmt_pg = ports * 19 * 1024
    egress_lossy = ports * int(profiles["egress_lossy_profile"]["size"])
    mgmt, mirror = 256 * 1024, ports * 10 * 1024
    assert int(pools["ingress_lossless_pool"]["size"]) + headroom + lossy + mgmt_pg + \
        egress_lossy + mirror + mgmt == int(pools["egress_lossless_pool"]["size"]) == 158229504
    assert profiles["egress_lossy_profile"]["size"] == "9216"
    assert pools["egress_lossy_pool"]["size"] == pools["ingress_lossless_pool"]["size"]
    assert "xoff" not in pools["ingress_lossless_pool"]
    for port in dev["ports"]:
        assert db["BUFFER_PORT_INGRESS_PROFILE_LIST"][port["name"]] == \
            {"profile_list": "ingress_lossless_profile"}
        assert db["BUFFER_PORT_EGRESS_PROFILE_LIST"][port["name"]] == \
            {"profile_list": "egress_lossless_profile,egress_lossy_profile"}
        assert db["BUFFER_QUEUE"][port["name"] + "|0-2"] == {"profile": "q_lossy_profile"}


def test_broadcom_pools_fit_the_mmu(small_clos, validator):
    """Tomahawk 5 on SONiC (7060X6-64PE-O128S2 structure): pool size, its xoff (the shared
    headroom pool) and the PG minimums are separate regions of one MMU; together they must
    fit it, or lossless PGs are left unprogrammed (sonic-buildimage #28657)."""
    result = _fabric(small_clos, 400, 30, {})
    dev = result["devices"]["spine1"]
    db = render_sonic.config_db(dev)
    validator.validate(db)
    pool = db["BUFFER_POOL"]["ingress_lossless_pool"]
    pg_min = sum(int(db["BUFFER_PROFILE"][db["BUFFER_PG"][p["name"] + "|3"]["profile"]]["size"])
                 for p in dev["ports"])
    sum_xoff = sum(int(db["BUFFER_PROFILE"][db["BUFFER_PG"][p["name"] + "|3"]["profile"]]
                       ["xoff"]) for p in dev["ports"])
    assert int(pool["xoff"]) >= sum_xoff           # over_subscribe_ratio 1
    # FBOSS Tomahawk5Asic.h: 2 ITMs x 341,080 cells x 254 B
    assert int(pool["size"]) + int(pool["xoff"]) + pg_min <= 2 * 341080 * 254
    assert set(db["BUFFER_POOL"]) == {"ingress_lossless_pool", "egress_lossless_pool"}
    assert db["BUFFER_PROFILE"]["egress_lossy_profile"]["size"] == str(TH5_EGRESS_LOSSY_BYTES)
    assert "BUFFER_PORT_INGRESS_PROFILE_LIST" not in db
    for port in dev["ports"]:
        assert db["BUFFER_QUEUE"][port["name"] + "|0-2"] == {"profile": "egress_lossy_profile"}
        prof = db["BUFFER_PROFILE"][db["BUFFER_PG"][port["name"] + "|3"]["profile"]]
        assert "xon_offset" in prof
