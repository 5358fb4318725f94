"""XOFF trigger, alpha mapping, XON hysteresis and the DCQCN bounds against lossless-math.md."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.lossless import pause as thresholds
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError

# lossless-math.md §2.2: alpha -> (1 congested PG, each of 2 / 4 / 8), in percent
ALPHA_TABLE = {
    1.0: (50.0, 33.3, 20.0, 11.1),
    1.5: (60.0, 37.5, 21.4, 11.5),
    2.0: (66.7, 40.0, 22.2, 11.8),
    2.33: (70.0, 41.2, 22.6, 11.9),
    4.0: (80.0, 44.4, 23.5, 12.1),
}


@pytest.mark.parametrize("alpha", sorted(ALPHA_TABLE))
def test_pause_fraction_table(alpha):
    for n, percent in zip((1, 2, 4, 8), ALPHA_TABLE[alpha]):
        assert 100 * thresholds.pause_fraction(alpha, n) == pytest.approx(percent, abs=0.06)


@pytest.mark.parametrize("fraction,alpha", [(0.5, 1.0), (0.6, 1.5), (0.7, 2.333), (0.8, 4.0)])
def test_alpha_from_fraction(fraction, alpha):
    assert thresholds.alpha_from_fraction(fraction) == pytest.approx(alpha, abs=0.001)


def test_sixty_to_seventy_percent_rule_is_dynamic_th_one():
    # LM §2.2: "60-70 %" corresponds to alpha 1.5-2.3, i.e. dynamic_th ~ 1.
    for fraction in (0.6, 0.65, 0.7):
        assert thresholds.dynamic_th(thresholds.alpha_from_fraction(fraction)) == 1


def test_dynamic_th_clamps_to_sai_finite_range():
    assert thresholds.dynamic_th(1e-6) == -7
    assert thresholds.dynamic_th(1e6) == 6


@pytest.mark.parametrize("alpha,enum", [(2.0, "2"), (1.0, "1"), (0.125, "1/8"), (100, "8"),
                                        (1.0 / 1000, "1/128")])
def test_eos_threshold_enum(alpha, enum):
    assert thresholds.eos_threshold(alpha) == enum


def test_xoff_trigger_dynamic_reports_one_and_n_pgs():
    result = thresholds.xoff_trigger(30000000, 2.0 / 3, congested_pgs=2)
    assert result["dynamic_th"] == 1 and result["alpha"] == 2.0
    assert result["trigger_one_pg_bytes"] == 20000000      # 66.7 % of 30 MB
    assert result["trigger_n_pgs_bytes"] == 12000000       # 40.0 % each with 2 PGs
    assert result["xon_bytes"] == 12000000 - 2 * 9216


def test_xoff_trigger_static_does_not_shrink():
    result = thresholds.xoff_trigger(10000000, 0.65, mode="static", congested_pgs=8)
    assert result["static_th_bytes"] == 6500000 == result["trigger_n_pgs_bytes"]


def test_xoff_trigger_pool_too_small_for_hysteresis():
    with pytest.raises(RoceInputError) as err:
        thresholds.xoff_trigger(40000, congested_pgs=8, host="leaf1")
    assert "host leaf1: shared_pool_bytes = 40000" in str(err.value)


def test_check_xon():
    assert thresholds.check_xon(100000, 200000) == []
    assert thresholds.check_xon(200000, 200000)[0][0] == "ERROR"
    assert thresholds.check_xon(195000, 200000)[0][0] == "WARN"


def test_dcqcn_static_pfc_threshold():
    # LM §3.1: Trident II, B = 12,000 KB, n = 32 x 40G, t_flight = 22.4 KB -> 24.47 KB
    value = thresholds.dcqcn_static_pfc_threshold(12000000, 32, 22400)
    assert value / 1000 == pytest.approx(24.475, abs=0.001)


def test_dcqcn_dynamic_ecn_bound_is_alpha_form():
    # LM §3.1/§3.2: beta 8 -> 21.75 KB; alpha = beta/8 = 1, P_l = 8, B_s = B - 8 n t_flight
    shared = 12000000 - 8 * 32 * 22400
    value = thresholds.kmin_worst_case_max(1.0, shared, 32, 8)
    assert value / 1000 == pytest.approx(21.756, abs=0.001)


def test_generalised_bound_th5():
    # LM §3.2 check 2: B_s = 165,660,324 - 29,423,360, n = 128, alpha 1, P_l 1 -> 532.2 KB
    value = thresholds.kmin_worst_case_max(1.0, 165660324 - 29423360, 128, 1)
    assert value / 1000 == pytest.approx(532.2, abs=0.05)
    assert thresholds.kmin_worst_case_max(1.0, 165660324 - 29423360, 64, 1) / 1000 == \
        pytest.approx(1064, abs=0.5)
