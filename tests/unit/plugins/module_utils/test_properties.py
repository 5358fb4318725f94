"""Property tests: monotone headroom, and sound defaults for every in-range port."""
from hypothesis import given, settings, strategies as st

from ansible_collections.roce.fabric.plugins.module_utils import catalog, headroom, lossless

# ASICs whose buffer is in the catalog (jericho3 needs an inventory override).
ASICS = sorted(n for n in catalog.ASICS if catalog.ASICS[n]["total_buffer_bytes"].value)
CABLES = st.floats(min_value=0.5, max_value=headroom.MAX_CABLE_M, allow_nan=False)
MTUS = st.integers(min_value=headroom.MTU_RANGE[0], max_value=headroom.MTU_RANGE[1])
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


@settings(max_examples=150, deadline=None)
@given(asic_port(), CABLES, MTUS, st.integers(min_value=1, max_value=64),
       st.floats(min_value=0.6, max_value=0.7))
def test_defaults_mark_before_pause_and_resume_below_pause(port, cable, mtu, nports, fraction):
    asic, speed, model = port
    ports = [{"name": "p%d" % i, "speed_gbps": speed, "cable_m": cable, "mtu_bytes": mtu}
             for i in range(nports)]
    plan = lossless.switch_lossless(asic, ports, {"model": model, "trigger_fraction": fraction})
    trig = plan["trigger"]
    assert 0 <= trig["xon_bytes"] < trig["trigger_n_pgs_bytes"] <= trig["trigger_one_pg_bytes"]
    for row in plan["ports"]:
        marks = row["ecn"]
        assert 0 < marks["kmin_bytes"] < marks["kmax_bytes"]
        assert marks["kmax_bytes"] <= 0.8 * trig["trigger_one_pg_bytes"]
        assert marks["kmax_bytes"] - marks["kmin_bytes"] >= 2 * mtu
        if model == "ieee":
            assert row["headroom"]["xon_bytes"] < row["headroom"]["xoff_bytes"]
