"""fabric/deviations.md holds only true statements: every vendor number is the vendor's, checked
here against ../shared/sku_data (sonic-buildimage master 086b03bd70, SOURCES.md) or against the
upstream file quoted below (same commit, read with git show); every rendered number is a value
the rendered config carries; a row without a vendor source claims no difference.

SONiC's PFC watchdog default is sonic-utilities pfcwd/main.py PfcwdCli.start_default, read on
the 202305..202605 branches and master 691b1bbc4: detection = restoration = 200 ms x multiply,
multiply = max(1, (PORT entries - 1) // 32 + 1), poll = 200 ms x multiply, capped at 1,000 ms
(MAX_POLL_INTERVAL_TIME) on 202511 (04adbbe36, #4340) and 202605 (master 2ec21e196, #4306).
Every release counts every PORT entry. The values below are worked by hand from that formula."""
import json
import os
import re

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    sku_tables, vendor_defaults)
from ansible_collections.roce.fabric.plugins.module_utils.render import deviations
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render

import shared_data

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
SKU_DATA = os.environ.get("ROCE_SKU_DATA_DIR",
                          os.path.join(os.path.dirname(ROOT), "shared", "sku_data"))
PLATFORM = {"ACS-SN5600": "x86_64-nvidia_sn5600-r0", "Mellanox-SN5600-O128":
            "x86_64-nvidia_sn5600-r0", "Mellanox-SN5600-V256": "x86_64-nvidia_sn5600-r0",
            "ACS-MSN4700": "x86_64-mlnx_msn4700-r0",
            "Arista-7060X6-64PE": "x86_64-arista_7060x6_64pe",
            "Arista-7060X6-64PE-O128S2": "x86_64-arista_7060x6_64pe",
            "Arista-7060X6-64PE-256x200G": "x86_64-arista_7060x6_64pe",
            "Arista-7060DX5-64S": "x86_64-arista_7060dx5_64s", "DS5000": "x86_64-cls_ds5000-r0"}

# buffers_defaults_t1.j2 pools at 086b03bd70 (git show): Mellanox files set *_pool_size at
# lines 18-21; the Arista ones give BUFFER_POOL sizes and the ingress pool's xoff.
TEMPLATES = {
    # device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/buffers_defaults_t1.j2 (O128 links it)
    "ACS-SN5600": {"ingress_lossless_pool": 52161690, "ingress_lossy_pool": 52161690,
                   "egress_lossless_pool": 158229504, "egress_lossy_pool": 52161690},
    # .../Mellanox-SN5600-V256/buffers_defaults_t1.j2 lines 18-21
    "Mellanox-SN5600-V256": {"ingress_lossless_pool": 73684992,
                             "ingress_lossless_pool_xoff": 60293120,
                             "egress_lossless_pool": 158229504, "egress_lossy_pool": 73684992},
    # device/mellanox/x86_64-mlnx_msn4700-r0/ACS-MSN4700/buffers_defaults_t1.j2 lines 18-21
    "ACS-MSN4700": {"ingress_lossless_pool": 20627456, "ingress_lossy_pool": 20627456,
                    "egress_lossless_pool": 60817392, "egress_lossy_pool": 20627456},
    # device/arista/x86_64-arista_7060x6_64pe/Arista-7060X6-64PE-O128S2/buffers_defaults_t1.j2
    "Arista-7060X6-64PE-O128S2": {"ingress_lossless_pool": 166115492,
                                  "ingress_lossless_pool_xoff": 29423360,
                                  "egress_lossless_pool": 166115492},
    # .../Arista-7060X6-64PE-256x200G/BALANCED/buffers_defaults_t1.j2
    "Arista-7060X6-64PE-256x200G": {"ingress_lossless_pool": 121964196,
                                    "ingress_lossless_pool_xoff": 29520896,
                                    "egress_lossless_pool": 121964196},
}
TEMPLATES["Mellanox-SN5600-O128"] = TEMPLATES["ACS-SN5600"]
# files/build_templates/qos_config.j2 lines 494-507 WRED_PROFILE AZURE_LOSSLESS; the O128S2's
# qos.json.j2 WRED_LOSSLESS_Q3 (lines 128-140)
WRED = {"green_min_threshold": 1048576, "green_max_threshold": 2097152,
        "green_drop_probability": 5}
WRED_O128S2 = {"green_min_threshold": 131072, "green_max_threshold": 262144,
               "green_drop_probability": 5}
# src/sonic-config-engine/config_samples.py lines 36-168 and minigraph.py line 2457: '9100'
SONIC_PORT_MTU = 9100
# AVD p2p_uplinks_mtu default (hardware/platforms.py EOS.mtu_source)
AVD_P2P_MTU = 9214


def _lines(path):
    with open(path) as handle:
        return [ln for ln in handle.read().splitlines()
                if ln.strip() and not ln.lstrip().startswith("#")]


def _need(path):
    return shared_data.need(path, "vendor data is read from ../shared/sku_data")


def _ini(hwsku):
    """The HWSKU's rows; {} where its folder in sku_data has no ini (SOURCES.md: the
    7060X6-64PE's links to a BALANCED/ folder outside the snapshot)."""
    path = os.path.join(_need(os.path.join(SKU_DATA, PLATFORM[hwsku], hwsku)),
                        "pg_profile_lookup.ini")
    rows = {}
    for line in _lines(path) if os.path.exists(path) else []:
        f = line.split()
        rows[(int(f[0]) // 1000, int(f[1][:-1]))] = [int(x) for x in f[2:]]
    return rows


# -- the watchdog formula, by hand ------------------------------------------------------------

@pytest.mark.parametrize("entries,version,expected", [
    # 7060X6-64PE 1x800G: 64 ports + 2 management ports = 66 -> (65 // 32) + 1 = 3
    (66, "202305", (600, 600, 600)),
    (66, "202605", (600, 600, 600)),
    # SN5600 O128: 128 + Ethernet512 = 129 -> 128 // 32 + 1 = 5
    (129, "202505", (1000, 1000, 1000)),
    (129, "202605", (1000, 1000, 1000)),
    # SN5600 V256: 257 -> 256 // 32 + 1 = 9; the poll is capped from 202511 on
    (257, "202505", (1800, 1800, 1800)),
    (257, "202511", (1800, 1800, 1000)),
    # SN4700: 32 -> 31 // 32 + 1 = 1
    (32, "202605", (200, 200, 200)),
    (33, "202305", (400, 400, 400)),
])
def test_pfcwd_start_default_by_hand(entries, version, expected):
    got = vendor_defaults.pfcwd_start_default(entries, version)
    assert (got["detection_ms"], got["restoration_ms"], got["poll_ms"]) == expected
    assert got["action"] == "drop"
    assert version in got["source"] and "%d PORT entries" % entries in got["source"]


@pytest.mark.parametrize("hwsku", sorted(sku_tables.PORT_ENTRIES))
def test_port_entries_are_the_port_config_ini(hwsku):
    path = _need(os.path.join(SKU_DATA, PLATFORM[hwsku], hwsku, "port_config.ini"))
    assert sku_tables.PORT_ENTRIES[hwsku] == len(_lines(path))


def test_the_hand_values_use_the_sku_port_counts():
    # 64-port SKU with its management ports, O128, V256, SN4700 (sku_data port_config.ini)
    for hwsku, ms in (("Arista-7060X6-64PE", 600), ("Mellanox-SN5600-O128", 1000),
                      ("Mellanox-SN5600-V256", 1800), ("ACS-MSN4700", 200)):
        entries = len(_lines(_need(os.path.join(SKU_DATA, PLATFORM[hwsku], hwsku,
                                                "port_config.ini"))))
        assert vendor_defaults.pfcwd_start_default(entries, "202505")["detection_ms"] == ms


def test_templates_are_the_upstream_files():
    for hwsku, pools in TEMPLATES.items():
        mine = dict((k, v) for k, v in sku_tables.template(hwsku).items()
                    if k.endswith("_pool") or k.endswith("_xoff"))
        assert mine == pools, hwsku


# -- the report over real plans ----------------------------------------------------------------

def _plan(small_clos, model, speed, version=None):
    groups, hv = small_clos(spines=1, pairs=1, host_link={"speed_gbps": speed, "cable_m": 3},
                            fabric_link={"speed_gbps": speed, "cable_m": 30})
    for name in groups["roce_switches"]:
        hv[name].update(roce_model=model, roce_platform="sonic")
        if version:
            hv[name]["roce_lossless"] = {"sonic": {"version": version}}
    return pipeline.build_plan(groups, hv)


def _switches(p):
    return [d for d in p["devices"].values() if d["kind"] == "switch"]


def _config(dev):
    ext = "json" if dev["platform"] == "sonic" else "cfg"
    return render.render_switch(dev, ["configs"])["configs/%s.%s" % (dev["name"], ext)]


def _expected_vendor(dev, number):
    """The vendor value of row ``number``, from the data of this test; None where unknown."""
    hwsku = (dev.get("hardware") or {}).get("hwsku")
    m = re.match(r"(xoff|size|xon|xon_offset) (\d+)G (\d+) m$", number)
    if m:
        row = _ini(hwsku).get((int(m.group(2)), int(m.group(3))))
        i = {"size": 0, "xon": 1, "xoff": 2, "xon_offset": 4}[m.group(1)]
        return row[i] if row and len(row) > i else None
    if number == "lossless PG dynamic_th":
        return sorted(set(r[3] for r in _ini(hwsku).values()))
    m = re.match(r"(\w+_pool) (size|xoff)$", number)
    if m:
        pools = TEMPLATES.get(hwsku)
        key = m.group(1) + ("_xoff" if m.group(2) == "xoff" else "")
        return None if pools is None else pools.get(key, 0 if m.group(2) == "xoff" else None)
    m = re.match(r"WRED (\w+) \d+G$", number)
    if m:
        return (WRED_O128S2 if hwsku == "Arista-7060X6-64PE-O128S2" else WRED)[m.group(1)]
    return {"PORT mtu": SONIC_PORT_MTU, "interface mtu": AVD_P2P_MTU}.get(number, "other")


CASES = [("sn5600", 200), ("sn5600", 400), ("sn5600", 800), ("sn4700", 400),
         ("7060x6-64pe", 200), ("7060x6-64pe", 400), ("7060x6-64pe", 800)]


@pytest.mark.parametrize("model,speed", CASES)
def test_every_vendor_number_is_the_vendors(small_clos, model, speed):
    for dev in _switches(_plan(small_clos, model, speed)):
        for number, vendor, _rendered, diff, reason in deviations.device_rows(dev):
            want = _expected_vendor(dev, number)
            if want == "other":
                continue                       # the watchdog rows: the next tests
            if vendor.startswith("none ("):
                assert want in (None, []) and diff == "-", (dev["name"], number, vendor)
                continue
            shown = int(vendor.replace(",", ""))
            assert shown == want or [shown] == want, (dev["name"], number, vendor, want)
            assert (diff == "=") == (reason == ""), (number, diff, reason)


@pytest.mark.parametrize("model,speed", CASES)
def test_every_rendered_number_is_in_the_config(small_clos, model, speed):
    for dev in _switches(_plan(small_clos, model, speed)):
        config = _config(dev)
        values = set(re.findall(r'"([^"]*)"', config))
        for number, _vendor, rendered, _diff, _reason in deviations.device_rows(dev):
            for value in rendered.replace(",", "").split("/"):
                assert value == "not rendered" or value in values, (dev["name"], number, value)


def test_example_inventory(example):
    p = pipeline.build_plan(*example)
    rows = dict((d["name"], deviations.device_rows(d)) for d in _switches(p))
    by = dict((n, dict((r[0], r) for r in rs)) for n, rs in rows.items())
    # leaf1a: Mellanox-SN5600-O128, 129 PORT entries, 202605 -> 1,000 ms, poll 1,000 ms
    wd = by["leaf1a"]
    assert [wd["PFC_WD %s" % f][1] for f in ("detection_time", "restoration_time",
                                             "POLL_INTERVAL", "action")] == \
        ["1,000", "1,000", "1,000", "drop"]
    db = json.loads(_config(p["devices"]["leaf1a"]))
    assert wd["PFC_WD detection_time"][2] == db["PFC_WD"]["Ethernet0"]["detection_time"]
    for name in ("spine1", "leaf2a"):
        cfg = _config(p["devices"][name]).splitlines()
        tokens = set(" ".join(cfg).split())
        for number, _vendor, rendered, _diff, _why in rows[name]:
            assert set(rendered.replace(",", "").split("/")) <= tokens, (name, number)
        # EOS renders no per-PG xoff: no row speaks of one
        assert not [r for r in rows[name] if "xoff" in r[0]]
        # the threshold row is the config line's
        threshold = by[name]["PG 3 threshold"][2]
        assert "   ingress priority-group 3 threshold %s" % threshold in cfg
        assert threshold == "2"
        # no EOS default is claimed without a source; the MTU's is AVD's, never "maximum"
        for number, vendor, _r, diff, _why in rows[name]:
            if number != "interface mtu":
                assert vendor.startswith("none (") and diff == "-", number
        assert by[name]["interface mtu"][1:4] == ("9,214", "9,214", "=")
        assert "maximum" not in " ".join(by[name]["interface mtu"])


def test_the_reasons_match_the_rendered_values(small_clos):
    p = _plan(small_clos, "sn5600", 200)                      # Mellanox-SN5600-V256
    leaf = p["devices"]["leaf1a"]
    by = dict((r[0], r) for r in deviations.device_rows(leaf))
    ini = _ini("Mellanox-SN5600-V256")
    row = by["xoff 200G 5 m"]
    assert row[1] == "{:,}".format(ini[(200, 5)][2])           # 91,136
    assert "in flight" not in row[4] and "buffer_headroom_mellanox.lua" in row[4]
    # the template's shared headroom pool is not rendered, and the reason says so
    shp = by["ingress_lossless_pool xoff"]
    assert (shp[1], shp[2]) == ("60,293,120", "not rendered")
    assert shp[4] == deviations.R_NO_SHP
    assert "xoff" not in json.loads(_config(leaf))["BUFFER_POOL"]["ingress_lossless_pool"]


def test_the_7060x6_ini_is_published_empty(small_clos):
    # device/arista/x86_64-arista_7060x6_64pe/Arista-7060X6-64PE/pg_profile_lookup.ini ->
    # BALANCED/ -> device/common/profiles/th5/gen/BALANCED/pg_profile_lookup.ini at 086b03bd70:
    # "# PG lossless profiles." and the column header, no row (dfa500203d)
    p = _plan(small_clos, "7060x6-64pe", 800)
    rows = deviations.device_rows(p["devices"]["leaf1a"])
    xoff = [r for r in rows if r[0].startswith("xoff")]
    assert xoff and all("published with a header and no rows" in r[1] for r in xoff)
    assert "absent" not in " ".join(" ".join(r) for r in rows)


def test_the_release_sets_the_poll(small_clos):
    rows = dict((v, dict((r[0], r) for r in deviations.device_rows(
        _plan(small_clos, "sn5600", 200, version=v)["devices"]["leaf1a"])))
        for v in ("202505", "202511"))
    assert rows["202505"]["PFC_WD POLL_INTERVAL"][1] == "1,800"
    assert rows["202511"]["PFC_WD POLL_INTERVAL"][1] == "1,000"
    assert rows["202511"]["PFC_WD detection_time"][1] == "1,800"
