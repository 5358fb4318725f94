"""The Jinja2 filters are thin: same numbers as the core, input errors as filter errors."""
import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.filter import lossless


def test_registered_filters():
    assert sorted(lossless.FilterModule().filters()) == [
        "dynamic_th", "ecn_thresholds", "fabric_size", "pfc_headroom", "pfc_trigger"]


def test_fabric_size_section_6_row_and_refusal():
    # lossless-math.md §6: 32,768 GPUs at k = 128 -> 512 leaves (8 pods x 64), 512 spines, 256
    r = lossless.fabric_size(32768, radix=128)
    assert (r["tiers"], r["leaves"], r["spines"], r["superspines"], r["pods"]) == \
        (3, 512, 512, 256, 8)
    with pytest.raises(AnsibleFilterError) as err:
        lossless.fabric_size(70000, radix=64)      # k^3/4 = 65,536
    assert "65536" in str(err.value)


def test_pfc_headroom_worked_number():
    # lossless-math.md §1.3: 100G / 5 m / MTU 9216 on 254 B cells -> 75,184 B
    result = lossless.pfc_headroom({"speed_gbps": 100, "cable_m": 5}, "tomahawk5")
    assert result["xoff_bytes"] == 75184


def test_pfc_headroom_sonic_model_sn5600_row():
    # sonic.md §1.4 SN5600 100000 5m: size 133120 xon 19456 xoff 113664
    result = lossless.pfc_headroom({"speed_gbps": 100, "cable_m": 5, "mtu_bytes": 9100},
                                   "spectrum4", model="sonic-nvidia",
                                   sonic={"small_packet_pct": 100})
    assert (result["size_bytes"], result["xon_bytes"], result["xoff_bytes"]) == \
        (133120, 19456, 113664)


def test_dynamic_th_and_trigger():
    assert lossless.dynamic_th(0.65) == 1
    trig = lossless.pfc_trigger(30000000, fraction=2.0 / 3, congested_pgs=2)
    assert trig["trigger_n_pgs_bytes"] == 12000000     # 40.0 % with 2 PGs (§2.2)


def test_ecn_thresholds():
    assert lossless.ecn_thresholds(100, 10 ** 8)["kmin_bytes"] == 150000


@pytest.mark.parametrize("call,text", [
    (lambda: lossless.pfc_headroom({"speed_gbps": 100, "cable_m": -1}, "tomahawk5"),
     "cable_m = -1"),
    (lambda: lossless.pfc_headroom({"speed_gbps": 100, "cable_m": 5}, "tomahawk9"),
     "roce_asic = 'tomahawk9'"),
    (lambda: lossless.ecn_thresholds(400, 5000000, overrides={"kmax_bytes": 6000000}),
     "roce_ecn.kmax_bytes = 6000000"),
    (lambda: lossless.dynamic_th(1.5), "roce_pfc_trigger_fraction = 1.5"),
])
def test_errors_are_filter_errors(call, text):
    with pytest.raises(AnsibleFilterError) as err:
        call()
    assert text in str(err.value)


# The filters are an entry point of their own: their arguments are checked against the input
# schema's rules (inputs/schema.py FILTER_ARGS) before the trusting core sees them.
@pytest.mark.parametrize("port,text", [
    ({"speed_gbps": 37}, "port.speed_gbps = 37"),
    ({"speed_gbps": "100"}, "port.speed_gbps = '100'"),
    ({"cable_m": -3}, "port.cable_m = -3"),
    ({"cable_m": 50000}, "port.cable_m = 50000"),
    ({"cable_m": True}, "port.cable_m = True"),
    ({"cable_m": "5m"}, "port.cable_m = '5m'"),
    ({"mtu_bytes": 20000}, "port.mtu_bytes = 20000"),
    ({"mtu_bytes": 9000.5}, "port.mtu_bytes = 9000.5"),
    ({"media": "copper"}, "port.media = 'copper'"),
    ({"colour": "red"}, "port.colour"),
])
def test_bad_port_names_field_and_value(port, text):
    args = {"name": "Ethernet0", "speed_gbps": 100, "cable_m": 5, "mtu_bytes": 9216}
    args.update(port)
    with pytest.raises(AnsibleFilterError) as err:
        lossless.pfc_headroom(args, "tomahawk5")
    assert text in str(err.value)


@pytest.mark.parametrize("fraction", [0, 1, 1.5, -0.2, "0.6"])
def test_bad_trigger_fraction(fraction):
    for call in (lambda: lossless.dynamic_th(fraction),
                 lambda: lossless.pfc_trigger(10000000, fraction=fraction)):
        with pytest.raises(AnsibleFilterError) as err:
            call()
        assert "roce_pfc_trigger_fraction = %r" % (fraction,) in str(err.value)


@pytest.mark.parametrize("overrides,text", [
    ({"pmax": 0}, "roce_ecn.pmax = 0"),
    ({"pmax": 20}, "roce_ecn.pmax = 20"),
    ({"kmin": 5}, "roce_ecn.kmin"),
    ({"kmax_bytes": "1MB"}, "roce_ecn.kmax_bytes = '1MB'"),
    ({"kmin_bytes": 500000, "kmax_bytes": 400000}, "roce_ecn.kmin_bytes"),
])
def test_bad_ecn_overrides(overrides, text):
    with pytest.raises(AnsibleFilterError) as err:
        lossless.ecn_thresholds(100, 10 ** 8, overrides=overrides)
    assert text in str(err.value)
