"""Balls-into-bins (lossless-math.md §5.2) and topology sizing (§6) golden values."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.checks import ecmp
from ansible_collections.roce.fabric.plugins.module_utils.design import sizing
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError

# §5.2: (N, M) -> E[max], efficiency, P(no collision), E[idle], fraction used
TABLE = {
    (8, 8): (2.597, 0.385, 0.0024, 2.75, 0.656),
    (16, 16): (3.078, 0.325, 1.13e-6, 5.70, 0.644),
    (32, 32): (3.533, 0.283, 1.8e-13, 11.59, 0.638),
    (64, 64): (3.958, 0.253, 3.2e-27, 23.36, 0.635),
    (16, 8): (4.201, 0.476, 0, 0.94, 0.882),
    (32, 8): (7.048, 0.568, 0, 0.11, 0.986),
    (64, 32): (5.415, 0.369, 0, 4.19, 0.869),
    (128, 64): (5.967, 0.335, 0, 8.53, 0.867),
}


@pytest.mark.parametrize("case", sorted(TABLE))
def test_balls_into_bins_table(case):
    emax, eff, p0, idle, used = TABLE[case]
    r = ecmp.balls_into_bins(*case)
    assert r["expected_max_load"] == pytest.approx(emax, abs=0.001)
    assert r["efficiency"] == pytest.approx(eff, abs=0.001)
    assert r["p_no_collision"] == pytest.approx(p0, rel=0.02, abs=1e-30)
    assert r["expected_idle_links"] == pytest.approx(idle, abs=0.01)
    assert r["fraction_links_used"] == pytest.approx(used, abs=0.001)


def test_eight_by_eight_exact():
    # §8.7: P(no collision) = 8!/8^8
    r = ecmp.balls_into_bins(8, 8)
    assert r["exact"] and r["p_no_collision"] == pytest.approx(40320 / 8 ** 8, rel=1e-12)


@pytest.mark.parametrize("gpus,radix,expected", [
    (1024, 64, {"tiers": 2, "leaves": 32, "spines": 16, "superspines": 0}),
    (8192, 64, {"tiers": 3, "leaves": 256, "spines": 256, "superspines": 128}),
    (8192, 128, {"tiers": 2, "leaves": 128, "spines": 64, "superspines": 0}),
    (32768, 64, {"tiers": 3, "leaves": 1024, "spines": 1024, "superspines": 512}),
    (32768, 128, {"tiers": 3, "leaves": 512, "spines": 512, "superspines": 256}),
])
def test_sizing_table(gpus, radix, expected):
    r = sizing.size_fabric(gpus, radix)
    assert dict((k, r[k]) for k in expected) == expected
    assert r["ecmp_width"]["leaf"] == radix // 2


def test_sizing_refuses_impossible():
    with pytest.raises(RoceInputError) as err:
        sizing.size_fabric(70000, 64)       # k^3/4 = 65,536
    assert "65536" in str(err.value)
    with pytest.raises(RoceInputError):
        sizing.size_fabric(1024, 63)
