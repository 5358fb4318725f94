"""Property tests: monotone headroom, and sound defaults for every in-range port."""
from hypothesis import given, settings, strategies as st

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.lossless import (
    headroom, switch as lossless)
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog
from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema

# ASICs whose buffer is in the catalog (jericho3 needs an inventory override).
ASICS = sorted(n for n in catalog.ASICS if catalog.ASICS[n]["total_buffer_bytes"].value)
CABLES = st.floats(min_value=0.5, max_value=schema.MAX_CABLE_M, allow_nan=False)
MTUS = st.integers(min_value=schema.MTU_BYTES[0], max_value=schema.MTU_BYTES[1])
SPECTRUM = {"spectrum1", "spectrum2", "spectrum3", "spectrum4"}


@st.composite
def asic_port(draw):
    name = draw(st.sampled_from(ASICS))
    asic = catalog.asic_profile(name)
    speed = draw(st.sampled_from(asic.value("port_speeds_gbps")))
    model = draw(st.sampled_from(headroom.MODELS if name in SPECTRUM else ("ieee",)))
    return asic, speed, model


@settings(max_examples=200, deadline=None)
@given(asic_port(), CABLES, CABLES, MTUS)
def test_headroom_grows_with_cable_length(port, a, b, mtu):
    asic, speed, model = port
    short, long_ = sorted((a, b))
    h1 = headroom.port_headroom(asic, speed, short, mtu, model=model)
    h2 = headroom.port_headroom(asic, speed, long_, mtu, model=model)
    assert h1["raw_bytes"] <= h2["raw_bytes"]
    assert h1["xoff_bytes"] <= h2["xoff_bytes"]
    assert h1["size_bytes"] <= h2["size_bytes"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ASICS), CABLES, MTUS, st.sampled_from(headroom.MODELS))
def test_headroom_grows_with_speed(name, cable, mtu, model):
    asic = catalog.asic_profile(name)
    if model == "sonic-nvidia" and name not in SPECTRUM:
        model = "ieee"
    speeds = sorted(asic.value("port_speeds_gbps"))
    xoffs = [headroom.port_headroom(asic, s, cable, mtu, model=model, lanes=4)["xoff_bytes"]
             for s in speeds]
    assert xoffs == sorted(xoffs)


def _assert_sound(plan, model, mtu):
    trig = plan["trigger"]
    assert 0 <= trig["xon_bytes"] < trig["trigger_n_pgs_bytes"] <= trig["trigger_one_pg_bytes"]
    for row in plan["ports"]:
        marks = row["ecn"]
        assert 0 < marks["kmin_bytes"] < marks["kmax_bytes"]
        assert marks["kmax_bytes"] <= 0.8 * trig["trigger_one_pg_bytes"]
        assert marks["kmax_bytes"] - marks["kmin_bytes"] >= 2 * mtu
        if model == "ieee":
            assert row["headroom"]["xon_bytes"] < row["headroom"]["xoff_bytes"]


@settings(max_examples=300, deadline=None)
@given(asic_port(), CABLES, MTUS, st.floats(min_value=0.6, max_value=0.7))
def test_defaults_sound_for_every_port_in_range(port, cable, mtu, fraction):
    """Any in-range (ASIC, speed, cable, MTU) port gets Kmin < Kmax <= 0.8 trigger, xon < xoff."""
    asic, speed, model = port
    ports = [{"name": "p0", "speed_gbps": speed, "cable_m": cable, "mtu_bytes": mtu}]
    plan = lossless.switch_lossless(asic, ports, {"model": model, "trigger_fraction": fraction})
    _assert_sound(plan, model, mtu)


@settings(max_examples=150, deadline=None)
@given(asic_port(), CABLES, MTUS, st.integers(min_value=1, max_value=64),
       st.sampled_from([[3], [3, 4]]))
def test_switch_is_sound_or_refused_clearly(port, cable, mtu, nports, pgs):
    """A whole switch either gets sound numbers or a clear refusal (budget or hysteresis)."""
    asic, speed, model = port
    ports = [{"name": "p%d" % i, "speed_gbps": speed, "cable_m": cable, "mtu_bytes": mtu}
             for i in range(nports)]
    try:
        plan = lossless.switch_lossless(asic, ports, {"model": model, "lossless_pgs": pgs})
    except errors.RoceInputError as exc:
        assert "buffer" in str(exc)
        return
    _assert_sound(plan, model, mtu)
