"""ECN thresholds: speed scaling, the clamp under the PFC trigger, and validated overrides."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.lossless import ecn
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError

BIG_TRIGGER = 100000000  # a trigger far above every default Kmax


@pytest.mark.parametrize("speed,kmin,kmax", [
    (100, 150000, 1500000),    # LM §3.4: NVIDIA default at 100 G
    (400, 600000, 6000000),    # LM §8.6: scaled profile at 400 G
    (800, 1200000, 12000000),  # LM §3.4: 1.2 MB at 800 G
])
def test_scaled_defaults(speed, kmin, kmax):
    result = ecn.ecn_thresholds(speed, BIG_TRIGGER)
    assert (result["kmin_bytes"], result["kmax_bytes"]) == (kmin, kmax)
    assert result["pmax"] == 0.2 and result["pmax_percent"] == 20
    assert not result["clamped"]


def test_clamp_binds_under_small_trigger():
    result = ecn.ecn_thresholds(400, 5000000)
    assert result["clamped"]
    assert result["kmax_bytes"] == 4000000          # 0.8 x 5 MB
    assert result["kmin_bytes"] == 600000
    assert result["warnings"]


def test_clamp_keeps_two_mtu_gap():
    result = ecn.ecn_thresholds(400, 700000)
    assert result["kmax_bytes"] == 560000
    assert result["kmax_bytes"] - result["kmin_bytes"] >= 2 * 9216


def test_scaled_override_fails_when_trigger_below_6mb():
    # LM §8.6: the scaled 400G profile must FAIL Kmax <= XOFF_equiv whenever XOFF_equiv < 6 MB.
    with pytest.raises(RoceInputError) as err:
        ecn.ecn_thresholds(400, 5999999, overrides={"kmin_bytes": 600000, "kmax_bytes": 6000000},
                           host="spine1", queue="Ethernet8")
    message = str(err.value)
    assert err.value.field == "Ethernet8.roce_ecn.kmax_bytes"
    assert "6000000" in message and "5999999" in message and "spine1" in message


def test_override_at_trigger_fails():
    with pytest.raises(RoceInputError):
        ecn.ecn_thresholds(100, 1500000, overrides={"kmax_bytes": 1500000})


def test_nvidia_profile_as_override_is_accepted():
    # CL-ROCE default Kmin 150,000, Kmax 1,500,000, probability 100 %.
    result = ecn.ecn_thresholds(100, BIG_TRIGGER, overrides={
        "kmin_bytes": 150000, "kmax_bytes": 1500000, "pmax": 1.0})
    assert (result["kmin_bytes"], result["kmax_bytes"], result["pmax_percent"]) == \
        (150000, 1500000, 100)
    assert result["warnings"] == []


def test_override_between_clamp_and_trigger_warns():
    result = ecn.ecn_thresholds(100, 1000000, overrides={"kmin_bytes": 100000,
                                                         "kmax_bytes": 900000})
    assert any("0.8" in w for w in result["warnings"])


def test_overrides_out_of_order():
    # Ranges and types of overrides are the input schema's (tests/unit/plugins/filter); the
    # order of Kmin and Kmax depends on each other, so the core judges it.
    with pytest.raises(RoceInputError) as err:
        ecn.ecn_thresholds(100, BIG_TRIGGER,
                           overrides={"kmin_bytes": 500000, "kmax_bytes": 400000})
    assert err.value.field == "roce_ecn.kmin_bytes"
