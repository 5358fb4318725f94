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
