"""The vendors' shipped numbers: every pg_profile_lookup.ini in hardware/sku_tables.py equals
the HWSKU's file in ../shared/sku_data (sonic-buildimage, SOURCES.md), every HWSKU a model
names has a table or a stated reason, every model+breakout renders its SKU's shipped row (or
more, with the reason in the headroom's source) and every carve fits its SKU's template total."""
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    catalog, models, sku_tables)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
SKU_DATA = os.environ.get("ROCE_SKU_DATA_DIR",
                          os.path.join(os.path.dirname(ROOT), "shared", "sku_data"))
REQUIRED = os.environ.get("ROCE_REQUIRE_SONIC_YANG") == "1"
MISSING = "vendor SKU data not found at %s: shipped-table tests skipped" % SKU_DATA
SKUS = [(name, mode.name, mode.speeds[0], sku)
        for name, model in sorted(models.MODELS.items())
        for mode in model["modes"] for m, sku in model["sonic"]["hwsku"].items()
        if m == mode.name]


def _platform_of(hwsku):
    return next(m["sonic"]["platform"] for m in models.MODELS.values()
                if hwsku in m["sonic"]["hwsku"].values())


def _read_ini(path):
    rows = {}
    with open(path) as handle:
        for line in handle:
            f = line.split()
            if not f or f[0].startswith("#"):
                continue
            rows[(int(f[0]) // 1000, int(f[1][:-1]))] = (
                int(f[2]), int(f[3]), int(f[4]), int(f[5]), int(f[6]) if len(f) > 6 else None)
    return rows


@pytest.mark.parametrize("hwsku", sorted(sku_tables.PG_TABLES))
def test_tables_are_the_shipped_files(hwsku):
    if not os.path.isdir(SKU_DATA):
        if REQUIRED:
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    path = os.path.join(SKU_DATA, _platform_of(hwsku), hwsku, "pg_profile_lookup.ini")
    assert sku_tables.PG_TABLES[hwsku] == _read_ini(path)


def test_every_named_hwsku_has_a_table_or_a_reason():
    for _model, _mode, _speed, sku in SKUS:
        assert (sku in sku_tables.PG_TABLES) != (sku in sku_tables.NO_TABLE), sku
        if sku in sku_tables.NO_TABLE and os.path.isdir(SKU_DATA):
            assert not os.path.exists(os.path.join(SKU_DATA, _platform_of(sku), sku,
                                                   "pg_profile_lookup.ini")), sku


def test_spectrum_totals_are_the_templates():
    """Spectrum-1..4 totals are the egress lossless pool of SONiC's ACS templates."""
    totals = dict((k, v["total"]) for k, v in sku_tables.TEMPLATES.items())
    assert catalog.ASICS["spectrum3"]["total_buffer_bytes"].value == totals["ACS-MSN4700"] \
        == 60817392
    assert catalog.ASICS["spectrum4"]["total_buffer_bytes"].value == totals["ACS-SN5600"]
    assert (catalog.ASICS["spectrum1"]["total_buffer_bytes"].value,
            catalog.ASICS["spectrum2"]["total_buffer_bytes"].value) == (13945824, 34287552)


@pytest.mark.parametrize("model,mode,speed,sku", SKUS)
def test_every_breakout_renders_its_row_and_fits_its_template(
        small_clos, model, mode, speed, sku):
    if "sonic" not in models.MODELS[model]["platforms"]:
        pytest.skip("no SONiC")
    groups, hv = small_clos(host_link={"speed_gbps": speed, "cable_m": 3},
                            fabric_link={"speed_gbps": speed, "cable_m": 30})
    for name in groups["roce_switches"]:
        hv[name].update(roce_model=model, roce_platform="sonic")
    p = pipeline.build_plan(groups, hv)
    assert not [v for v in p["violations"] if v["severity"] == "ERROR"]
    table = sku_tables.pg_table(sku)
    template = sku_tables.template(sku)
    for dev in p["devices"].values():
        if dev["kind"] != "switch":
            continue
        assert dev["hardware"]["hwsku"] == sku
        buf = dev["buffer"]
        chip = catalog.ASICS[dev["asic"]]["total_buffer_bytes"].value
        # the carve (headroom, reservations, pools) adds up to its total, at most the chip's
        # and the vendor template's
        assert sum(item[1] for item in buf["carve"]) + buf["shared_pool_bytes"] == \
            buf["total_buffer_bytes"] <= chip
        if template:
            assert buf["total_buffer_bytes"] <= template["total"] or \
                buf["total_buffer_bytes"] == chip < template["total"], sku
        for port in dev["ports"]:
            ll = port["lossless"]
            if not ll:
                continue
            hr = ll["headroom"]
            row = table.get((port["speed_gbps"], ll["cable_class_m"]))
            if not table:
                assert ll["table_row"] is False
                continue
            assert row, (sku, port["speed_gbps"], ll["cable_class_m"])
            if "below" in hr.get("source", ""):
                # the shipped row is short of what is in flight: more than it, said why
                assert hr["xoff_bytes"] > row[2] and hr["sku_row"] == list(row[:3])
            else:
                assert (hr["size_bytes"], hr["xon_bytes"], hr["xoff_bytes"]) == row[:3]
