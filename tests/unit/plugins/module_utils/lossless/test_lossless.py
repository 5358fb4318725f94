"""Switch-level carving of the buffer: headroom, shared headroom pool, shared pool, trigger."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.lossless import switch as lossless
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError


def _ports(n, speed=400, cable=5):
    return [{"name": "Ethernet%d" % (8 * i), "speed_gbps": speed, "cable_m": cable}
            for i in range(n)]


def test_th5_sizes_its_shared_headroom_pool_from_the_xoffs():
    """lossless-math.md §2.3: SHP = sum(xoff) / over_subscribe_ratio; Broadcom's pool size, SHP
    and per-PG minimums are separate regions of one MMU (sonic-buildimage #28657)."""
    for ratio in (1, 4):
        plan = lossless.switch_lossless(catalog.asic_profile("tomahawk5"), _ports(64),
                                        {"over_subscribe_ratio": ratio})
        xoff = plan["ports"][0]["headroom"]["xoff_bytes"]
        assert plan["shared_headroom_pool_bytes"] == -(-64 * xoff // ratio)
        assert plan["shared_pool_bytes"] == (2 * 341080 * 254 - plan["shared_headroom_pool_bytes"]
                                             - plan["reserved_headroom_bytes"]
                                             - plan["lossy_reserved_bytes"])
    assert plan["port_classes"] == 1


def test_reserved_per_pg_budget_counts_every_lossless_pg():
    one = lossless.switch_lossless(catalog.asic_profile("spectrum3"), _ports(32))
    two = lossless.switch_lossless(catalog.asic_profile("spectrum3"), _ports(32),
                                   {"lossless_pgs": [3, 4]})
    assert two["reserved_headroom_bytes"] == 2 * one["reserved_headroom_bytes"]
    assert two["trigger"]["congested_pgs"] == 64


def test_budget_exceeded_is_a_clear_error():
    with pytest.raises(RoceInputError) as err:
        lossless.switch_lossless(catalog.asic_profile("spectrum1"),
                                 _ports(64, speed=100, cable=2000), {"lossless_pgs": [3, 4]},
                                 host="leaf7")
    assert "host leaf7" in str(err.value) and "more headroom than buffer" in str(err.value)


# --- the carve in each vendor's accounting ---------------------------------------------------
# sonic-swss cfgmgr/buffer_pool_mellanox.lua: on 202511 (83be94fbd, #3948/#4020) and 202605
# (2ed250d4f, #4005) a platform "sn<N>" with N >= 6000 reserves
# modification_descriptors_pool_size = 32 MiB and egress_mirror_headroom 0 (L193-205); 202505
# (d264a8aec) reserves the 10 KiB mirror headroom per admin-up port (L369-370) and no
# descriptors. lossypg_reserved = pipeline_latency KiB, (2 x pipeline_latency - 1) KiB on 8
# lanes (L293-294): Spectrum-6's asic_table.j2 pipeline_latency is 42 (sonic-buildimage
# @086b03bd70 platform/mellanox/asic_table.j2 L125-130).
@pytest.mark.parametrize("release,descriptors,mirror", [
    ("202505", 0, 10 * 1024), ("202511", 32 * 1024 * 1024, 0), ("202605", 32 * 1024 * 1024, 0)])
def test_spectrum6_carve_follows_the_lua_of_its_release(release, descriptors, mirror):
    ports = [dict(p, lanes=8) for p in _ports(16, speed=800)]
    plan = lossless.switch_lossless(catalog.asic_profile("spectrum6"), ports,
                                    {"model": "sonic-nvidia", "release": release})
    items = dict((item[0], item[1]) for item in plan["carve"])
    assert items.get("descriptors_pool", 0) == descriptors
    assert items.get("mirror_headroom", 0) == 16 * mirror
    assert items["management_pool"] == 256 * 1024                          # L23
    assert items["lossy_reserved"] == items["management_pg"] == 16 * (2 * 42 - 1) * 1024
    assert items["egress_lossy_profile"] == 16 * 9216
    assert plan["pool_accounting"] == "SONiC %s buffer_pool_mellanox.lua" % release
    assert plan["shared_pool_bytes"] == plan["total_buffer_bytes"] - sum(items.values())


def test_spectrum_lossy_reservation_is_the_lua_s_and_not_an_input():
    with pytest.raises(RoceInputError) as err:
        lossless.switch_lossless(catalog.asic_profile("spectrum4"), _ports(4),
                                 {"lossy_reserved_per_port_bytes": 9216}, host="leaf1a")
    assert "roce_lossless.lossy_reserved_per_port_bytes" in str(err.value)
    assert "buffer_pool_mellanox.lua" in str(err.value) and "leaf1a" in str(err.value)


# facebook/fboss @14ec47ec32 fboss/agent/hw/switch_asics/: Tomahawk3Asic.h L99-105,
# Tomahawk4Asic.h L106-112, Tomahawk5Asic.h L102-109 getNumMemoryBuffers 2 and
# getStaticQueueLimitBytes getMMUSizeBytes() / 2 ("Per ITM buffers limits the queue size");
# Tomahawk6Asic.h L108-113: 1 and the whole MMU. Tomahawk5 MMU: 2 x 341,080 cells x 254 B.
@pytest.mark.parametrize("asic,itms", [("tomahawk3", 2), ("tomahawk4", 2), ("tomahawk5", 2),
                                       ("tomahawk6", 1)])
def test_tomahawk_pause_points_within_one_itm(asic, itms):
    profile = catalog.asic_profile(asic)
    plan = lossless.switch_lossless(profile, _ports(8))
    assert plan["itms"] == itms and profile.facts["memory_buffers"].verified
    assert plan["itm_pool_bytes"] == plan["shared_pool_bytes"] // itms
    trig = plan["trigger"]
    assert trig["shared_pool_bytes"] == plan["itm_pool_bytes"]
    alpha = 2.0 ** trig["dynamic_th"]
    assert trig["trigger_one_pg_bytes"] == int(alpha / (1 + alpha) * plan["itm_pool_bytes"])
    assert trig["trigger_one_pg_bytes"] < profile.value("total_buffer_bytes") / itms
    if asic == "tomahawk5":
        assert profile.value("total_buffer_bytes") // 2 == 341080 * 254 == 86634320
    for port in plan["ports"]:
        assert port["ecn"]["kmax_bytes"] < trig["trigger_one_pg_bytes"]


def test_an_itm_layout_without_a_source_is_unverified():
    """Trident 4 is not in FBOSS's switch_asics: carved as one buffer, flagged unverified."""
    profile = catalog.asic_profile("trident4")
    assert profile.value("memory_buffers") == 1 and not profile.facts["memory_buffers"].verified
