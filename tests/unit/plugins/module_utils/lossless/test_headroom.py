"""PFC headroom against golden values from ../shared/reference (never computed by the code)."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.lossless import headroom
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError

# lossless-math.md §1.3, Model R, MTU 9216, fibre 5 ns/m, occupancy 1, 254 B cells:
# (speed, cable) -> (H_raw, H rounded to 254 B cells)
MODEL_R = {
    (100, 5): (75117, 75184),
    (100, 40): (79492, 79502),
    (400, 5): (201856, 201930),
    (400, 100): (249356, 249428),
    (800, 10): (332236, 332486),
}
# lossless-math.md §1.3, D_intf = 200 ns per PHY: H_raw
MODEL_R_200NS = {(100, 5): 49397, (100, 40): 53772, (400, 5): 98976, (400, 100): 146476,
                 (800, 10): 126476}

# lossless-math.md §1.3: SONiC lua at 18913fa, Spectrum-2/3 ASIC_TABLE (cell 144, 18 KiB),
# MTU 9216 both; (speed, cable) -> (spp 100: xoff, xon, size), (spp 0: xoff, xon, size)
SONIC_18913FA = {
    (100, 5): ((90112, 18432, 108544), (46080, 18432, 64512)),
    (100, 40): ((100352, 18432, 118784), (50176, 18432, 68608)),
    (400, 5): ((167936, 18432, 186368), (79872, 18432, 98304)),
    (400, 100): ((273408, 18432, 291840), (126976, 18432, 145408)),
    (800, 10): ((184320, 35840, 229376), (87040, 35840, 132096)),
}

# sonic.md §1.4: SN5600 (Spectrum-4) pg_profile_lookup.ini rows: (speed, cable) -> size, xon, xoff
SN5600 = {
    (100, 5): (133120, 19456, 113664),
    (400, 5): (250880, 19456, 231424),
    (800, 5): (304128, 38912, 257024),
    (100, 40): (146432, 19456, 126976),
    (400, 40): (303104, 19456, 283648),
    (800, 40): (410624, 38912, 362496),
    (100, 300): (244736, 19456, 225280),
    (400, 300): (697344, 19456, 677888),
    (800, 300): (1198080, 38912, 1150976),
}
# sonic.md §1.4 cross-check: the current lua reproduces these rows exactly ...
SN5600_EXACT = [(100, 5), (100, 40), (100, 300), (400, 40), (400, 300), (800, 40)]
# ... while the ini's xoff is 1024 B higher at 400G/5m (size follows) and at 800G 5m/300m
# (size matches): the ini was generated with other parameters.
SN5600_XOFF_PLUS_1K = [(400, 5), (800, 5), (800, 300)]


@pytest.mark.parametrize("case", sorted(MODEL_R))
def test_model_r_worked_numbers(case):
    result = headroom.ieee_headroom(case[0], case[1], 9216, cell_bytes=254)
    raw, rounded = MODEL_R[case]
    assert result["raw_bytes"] == pytest.approx(raw, abs=0.5)
    assert result["xoff_bytes"] == rounded
    assert result["xoff_bytes"] % 254 == 0


def test_model_r_100g_5m_is_296_cells():
    assert headroom.ieee_headroom(100, 5, 9216, cell_bytes=254)["cells"] == 296


@pytest.mark.parametrize("case", sorted(MODEL_R_200NS))
def test_model_r_with_200ns_phy(case):
    speed, cable = case
    result = headroom.ieee_headroom(speed, cable, 9216, cell_bytes=254,
                                    interface_delay_bt=200 * speed)  # 200 ns at r Gb/s
    assert result["raw_bytes"] == pytest.approx(MODEL_R_200NS[case], abs=0.5)


def test_model_r_size_reserves_xon_plus_xoff_unless_shared_pool():
    private = headroom.ieee_headroom(100, 5, 9216, cell_bytes=254)
    shared = headroom.ieee_headroom(100, 5, 9216, cell_bytes=254, shared_headroom=True)
    assert private["size_bytes"] == private["xon_bytes"] + private["xoff_bytes"]
    assert shared["size_bytes"] == shared["xon_bytes"]
    # xon: 2 x 9216 B rounded up to 254 B cells = 73 cells (LM §1.4 hysteresis rule)
    assert private["xon_bytes"] == 73 * 254


def test_model_r_uses_larger_mtu_for_receiver_frame():
    # LM §3.5 #4: MTU_R = max of both ends; a 1500 B local MTU with a 9216 B peer
    # must not shrink the frame-at-receiver term.
    mixed = headroom.ieee_headroom(100, 5, 1500, peer_mtu_bytes=9216, cell_bytes=254)
    assert mixed["raw_bytes"] == pytest.approx(75117, abs=0.5)


@pytest.mark.parametrize("case", sorted(SONIC_18913FA))
@pytest.mark.parametrize("spp,column", [(100, 0), (0, 1)])
def test_sonic_replica_18913fa(case, spp, column):
    speed, cable = case
    table = catalog.SONIC_ASIC_TABLE_18913FA["spectrum2"]
    result = headroom.sonic_nvidia_headroom(
        speed, cable, table, port_mtu_bytes=9216, lossless_mtu_bytes=9216,
        small_packet_pct=spp, lanes=8 if speed == 800 else 4, revision="18913fa")
    assert (result["xoff_bytes"], result["xon_bytes"], result["size_bytes"]) == \
        SONIC_18913FA[case][column]


def _sn5600(speed, cable):
    table = catalog.asic_profile("spectrum4").value("sonic_asic_table")
    return headroom.sonic_nvidia_headroom(
        speed, cable, table, port_mtu_bytes=9100, lossless_mtu_bytes=1024,
        small_packet_pct=100, lanes=8 if speed == 800 else 4)


@pytest.mark.parametrize("case", SN5600_EXACT)
def test_sonic_current_reproduces_sn5600_ini(case):
    result = _sn5600(*case)
    assert (result["size_bytes"], result["xon_bytes"], result["xoff_bytes"]) == SN5600[case]


@pytest.mark.parametrize("case", SN5600_XOFF_PLUS_1K)
def test_sonic_current_sn5600_rows_generated_with_other_parameters(case):
    result = _sn5600(*case)
    size, xon, xoff = SN5600[case]
    assert result["xon_bytes"] == xon
    assert result["xoff_bytes"] == xoff - 1024


def test_sonic_current_worked_check_sn5600():
    # sonic.md §1.3 worked check: cell occupancy 3, xoff 113664, xon 19456, size 133120
    result = _sn5600(100, 5)
    assert result["cell_occupancy"] == 3
    assert sum(result["terms"].values()) == pytest.approx(37266.5, abs=0.1)


def test_sonic_current_spp50_headroom_compensation_sn4700():
    # sonic.md §1.4: SN4700 (Spectrum-3) 100G/5m with the dynamic default spp 50:
    # xoff 48128, size 67584.
    table = catalog.asic_profile("spectrum3").value("sonic_asic_table")
    result = headroom.sonic_nvidia_headroom(100, 5, table)
    assert (result["xoff_bytes"], result["size_bytes"]) == (48128, 67584)
    assert result["headroom_compensation"] is True


def test_sonic_shared_headroom_size_is_xon():
    table = catalog.asic_profile("spectrum3").value("sonic_asic_table")
    result = headroom.sonic_nvidia_headroom(100, 5, table, shared_headroom=True)
    assert result["size_bytes"] == result["xon_bytes"] == 19456


def test_port_headroom_picks_eight_lanes_from_serdes_rate():
    # SN5600 800G ports are 8 x 100G lanes: xon doubles to 38912 (sonic.md §1.3 step 8).
    spectrum4 = catalog.asic_profile("spectrum4")
    result = headroom.port_headroom(spectrum4, 800, 5, 9100, model="sonic-nvidia",
                                    sonic={"lossless_mtu_bytes": 1024, "small_packet_pct": 100})
    assert result["xon_bytes"] == 38912
    assert result["size_bytes"] == 304128


def test_port_headroom_sonic_model_needs_spectrum():
    with pytest.raises(RoceInputError) as err:
        headroom.port_headroom(catalog.asic_profile("tomahawk5"), 400, 5, model="sonic-nvidia")
    assert "roce_headroom_model" in str(err.value) and "tomahawk5" in str(err.value)


def test_speed_not_supported_by_asic():
    with pytest.raises(RoceInputError) as err:
        headroom.port_headroom(catalog.asic_profile("spectrum2"), 400, 5, host="leaf9",
                               port="Ethernet0")
    assert "Ethernet0.speed_gbps = 400" in str(err.value)
    assert "200" in str(err.value)  # names what is allowed
