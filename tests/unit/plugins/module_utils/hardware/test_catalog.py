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
    # lossless-math.md §2.4 tags TH3, TD4 and Jericho2 buffers [M] (unverified); the newest
    # ASICs have only community or pool figures
    for name in ("tomahawk3", "trident4", "jericho2", "tomahawk6", "spectrum5", "spectrum6"):
        assert "total_buffer_bytes" in catalog.asic_profile(name).unverified()
    assert not catalog.PAUSE_QUANTA_IEEE[800].verified


def test_jericho_carries_voq_caveat():
    j2 = catalog.asic_profile("jericho2")
    assert j2.value("headroom_semantics") == "voq_deep_buffer"
    assert "VOQ" in j2.value("caveat")


def test_missing_fact_asks_for_override():
    with pytest.raises(RoceInputError) as err:
        catalog.asic_profile("jericho3", host="spine1").require("total_buffer_bytes", "spine1")
    assert "roce_asic_overrides.total_buffer_bytes" in str(err.value)


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
