"""Platform catalog: coverage, sources, unverified flags and inventory overrides."""
import ast
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError

REQUIRED = ("tomahawk3", "tomahawk4", "tomahawk5", "trident4", "jericho2", "jericho3",
            "spectrum2", "spectrum3", "spectrum4")


def test_required_asics_present_with_sourced_facts():
    for name in REQUIRED:
        for key, fact in catalog.ASICS[name].items():
            assert isinstance(fact, catalog.Fact), (name, key)
            if fact.value not in (None, ""):
                assert fact.source, (name, key)


def test_verified_golden_facts():
    # lossless-math.md §1.1 #7 / §2.4 and sonic.md §1.3
    th5 = catalog.asic_profile("tomahawk5")
    assert th5.value("cell_bytes") == 254
    # facebook/fboss Tomahawk5Asic.h / Tomahawk4Asic.h: 2 ITMs x cells x 254 B
    assert th5.value("total_buffer_bytes") == 2 * 341080 * 254
    assert catalog.asic_profile("tomahawk4").value("total_buffer_bytes") == 2 * 234606 * 254
    assert catalog.asic_profile("spectrum6").value("sonic_asic_table")["cell_size"] == 256
    assert catalog.asic_profile("spectrum6").value("sonic_asic_table")["pipeline_latency_kb"] \
        == 42
    assert catalog.asic_profile("spectrum2").value("cell_bytes") == 144
    assert catalog.asic_profile("spectrum4").value("cell_bytes") == 192
    assert catalog.PAUSE_QUANTA_IEEE[100].value * 64 == 25216
    assert catalog.PAUSE_QUANTA_IEEE[400].value * 64 == 57920


def test_reference_unverified_values_are_flagged():
    # lossless-math.md §2.4 tags the TD4 buffer [M] (unverified); Tomahawk 6 has only the
    # community figure of sonic-buildimage issue #28657
    for name in ("trident4", "tomahawk6"):
        assert "total_buffer_bytes" in catalog.asic_profile(name).unverified()
    assert not catalog.PAUSE_QUANTA_IEEE[800].verified


# Every total and cell the catalog cites from a repository, as that file says it (the literal
# values of the files at the cited commits, not the catalog's own arithmetic).
CITED = {
    # sonic-buildimage device/mellanox/<platform>/<HWSKU>/buffers_defaults_t*.j2,
    # egress_lossless_pool_size: ACS-MSN2700 / ACS-MSN3800 / ACS-MSN4700 t1 line 20 @ba853348,
    # ACS-SN5600 t1 line 20 @c076c12431, Mellanox-SN5640-C512S2 t1 line 27 @1f88a42e30,
    # ACS-SN6600_LD t0 line 21 @c237d88fbc (all on master 086b03bd70)
    "spectrum1": (13945824, 96), "spectrum2": (34287552, 144),
    "spectrum3": (60817392, 144), "spectrum4": (158229504, 192),
    "spectrum5": (136209408, 192), "spectrum6": (226492416, 256),
    # facebook/fboss fboss/agent/hw/switch_asics/*.h @05d1a971: getMMUSizeBytes (Tomahawk) or
    # getSramSizeBytes (Jericho) and getMMUCellSize
    "tomahawk3": (64 * 1024 * 1024, 254), "tomahawk4": (2 * 234606 * 254, 254),
    "tomahawk5": (2 * 341080 * 254, 254), "jericho2": (64 * 1024 * 1024, 254),
    "jericho3": (128 * 1024 * 1024, 254),
}


@pytest.mark.parametrize("name", sorted(CITED))
def test_totals_and_cells_are_the_cited_files(name):
    total, cell = CITED[name]
    asic = catalog.asic_profile(name)
    assert asic.value("total_buffer_bytes") == total
    assert asic.value("cell_bytes") == cell
    assert "total_buffer_bytes" not in asic.unverified()
    if name.startswith("spectrum"):
        # sonic-buildimage platform/mellanox/asic_table.j2 @086b03bd70 lines 65-136
        assert asic.value("sonic_asic_table")["cell_size"] == cell


def test_spectrum5_is_the_sn5640_templates_total():
    # issue 27: 136,210,432 B cited @0e60c47f, on no ref of sonic-buildimage (the value of the
    # unmerged PR #21556); every SN5640 template of master (Mellanox-SN5640-C448O16, -C508O1X2,
    # -C512S2, -C512X2, -O128X2, t0 and t1) says 136209408
    source = catalog.asic_profile("spectrum5").source("total_buffer_bytes")
    assert catalog.asic_profile("spectrum5").value("total_buffer_bytes") == 136209408
    assert "0e60c47f" not in source and "Mellanox-SN5640-C512S2" in source


def test_tomahawk6_cell_is_fboss_and_total_stays_unverified():
    # facebook/fboss Tomahawk6Asic.h @14ec47ec line 45: getMMUCellSize 420; line 48: 629,986
    # cells available to the user, below #28657's ~636,183-cell total
    th6 = catalog.asic_profile("tomahawk6")
    assert th6.value("cell_bytes") == 420 and "cell_bytes" not in th6.unverified()
    assert th6.value("total_buffer_bytes") >= 629986 * 420


def test_sonic_pause_quanta_are_the_lua_table():
    # sonic-swss cfgmgr/buffer_headroom_mellanox.lua @e6b0c5b5 lines 43-50
    assert catalog.PAUSE_QUANTA_SONIC == {800: 905, 400: 905, 200: 453, 100: 394, 50: 147,
                                          40: 118, 25: 80, 10: 67}


def test_jericho_carries_voq_caveat():
    j2 = catalog.asic_profile("jericho2")
    assert j2.value("headroom_semantics") == "voq_deep_buffer"
    assert "VOQ" in j2.value("caveat")


def test_missing_fact_asks_for_override():
    with pytest.raises(RoceInputError) as err:
        catalog.asic_profile("jericho3", host="spine1").require("pipeline_latency_bytes",
                                                                "spine1")
    assert "roce_asic_overrides.pipeline_latency_bytes" in str(err.value)


def test_override_recorded_as_source():
    j3 = catalog.asic_profile("jericho3", {"total_buffer_bytes": 100000000})
    assert j3.require("total_buffer_bytes") == 100000000
    assert "inventory override" in j3.source("total_buffer_bytes")


@pytest.mark.parametrize("name,overrides,field", [
    ("tomahawk9", None, "roce_asic"),
    ("tomahawk5", {"cell_byte": 254}, "roce_asic_overrides.cell_byte"),
    ("tomahawk5", {"cell_bytes": "254"}, "roce_asic_overrides.cell_bytes"),
    ("tomahawk5", {"total_buffer_bytes": -1}, "roce_asic_overrides.total_buffer_bytes"),
    ("tomahawk5", ["cell_bytes"], "roce_asic_overrides"),
    ("tomahawk5", {"headroom_semantics": "magic"}, "roce_asic_overrides.headroom_semantics"),
])
def test_bad_catalog_input_is_refused_at_the_gate(name, overrides, field):
    # The catalog trusts its inputs: the input schema refuses bad ones before it is consulted.
    from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema, validate
    with pytest.raises(RoceInputError) as err:
        validate.check_value(schema.SWITCH_VARS["roce_asic"], name, "roce_asic", "leaf1")
        validate.check_value(schema.ASIC_OVERRIDES, overrides, "roce_asic_overrides", "leaf1")
    assert err.value.field == field
    assert str(err.value).startswith("host leaf1: %s = " % field)


def test_core_imports_no_ansible_runtime():
    # The core must run without Ansible: only sibling module_utils imports are allowed.
    here = os.path.dirname(catalog.__file__)
    for name in os.listdir(here):
        if not name.endswith(".py"):
            continue
        tree = ast.parse(open(os.path.join(here, name)).read())
        for node in ast.walk(tree):
            mods = []
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mods = [node.module or ""]
            for mod in mods:
                assert not mod.startswith("ansible.") and mod != "ansible", (name, mod)
