"""SONiC's Mellanox headroom formula per lua revision, against numbers published upstream.

Every golden value here was published by SONiC itself, never computed by this code:
- PR #3235 description (sonic-net/sonic-swss, "Update headroom calculation algorithm"): four
  rows at port MTU 9100, lossless MTU 1024, 50 % small packets;
- sonic-buildimage device/mellanox/x86_64-nvidia_sn5610n-r0/Mellanox-SN5610N-C256S2/
  pg_profile_lookup.ini @223508b0 (Spectrum-4, port MTU 9216, lossless MTU 4096, 50 %);
- sonic-mgmt PR #26696 (the profile SONiC generates after sonic-swss #4757): SPC4 800G 15 m,
  old xoff 118784 / size 166912, new xoff 120832 / size 168960;
- sonic-swss PR #4797 description: Spectrum-6 only, 18 KiB more xoff (no shipped
  pg_profile_lookup.ini pins it: the SN6600-simx table is a Spectrum-4 copy).
"""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.lossless import headroom
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog


def _table(asic):
    return catalog.asic_profile(asic).value("sonic_asic_table")


# PR #3235: (asic, speed, cable, lanes) -> (xon, xoff, size)
PR3235 = {
    ("spectrum3", 400, 300, 8): (38912, 272384, 320512),
    ("spectrum3", 100, 40, 4): (19456, 51200, 70656),
    ("spectrum4", 800, 300, 8): (38912, 474112, 522240),
    ("spectrum4", 200, 40, 4): (19456, 65536, 84992),
}
# Mellanox-SN5610N-C256S2 pg_profile_lookup.ini: (speed, cable) -> (size, xon, xoff)
SN5610N = {
    (10, 5): (39936, 19456, 20480), (25, 5): (40960, 19456, 21504),
    (40, 5): (44032, 19456, 24576), (50, 5): (46080, 19456, 26624),
    (100, 5): (63488, 19456, 44032), (200, 5): (69632, 19456, 50176),
    (400, 5): (105472, 19456, 86016), (800, 5): (134144, 38912, 95232),
    (10, 40): (39936, 19456, 20480), (25, 40): (41984, 19456, 22528),
    (40, 40): (45056, 19456, 25600), (50, 40): (48128, 19456, 28672),
    (100, 40): (68608, 19456, 49152), (200, 40): (79872, 19456, 60416),
    (400, 40): (123904, 19456, 104448), (800, 40): (171008, 38912, 132096),
}


@pytest.mark.parametrize("case", sorted(PR3235))
def test_pr3235_rows(case):
    asic, speed, cable, lanes = case
    got = headroom.sonic_nvidia_headroom(speed, cable, _table(asic), port_mtu_bytes=9100,
                                         lossless_mtu_bytes=1024, small_packet_pct=50,
                                         lanes=lanes, revision="pr3235")
    assert (got["xon_bytes"], got["xoff_bytes"], got["size_bytes"]) == PR3235[case]


@pytest.mark.parametrize("case", sorted(SN5610N))
def test_pr3235_reproduces_the_sn5610n_table(case):
    speed, cable = case
    got = headroom.sonic_nvidia_headroom(speed, cable, _table("spectrum4"), port_mtu_bytes=9216,
                                         lossless_mtu_bytes=4096, small_packet_pct=50,
                                         lanes=8 if speed == 800 else 4, revision="pr3235")
    # The table's size is xon + xoff (no 8-lane MTU term: the file predates it or omits it).
    assert (got["xon_bytes"], got["xoff_bytes"]) == SN5610N[case][1:]


def _spc4_800g_15m(revision):
    return headroom.sonic_nvidia_headroom(800, 15, _table("spectrum4"), port_mtu_bytes=9100,
                                          lossless_mtu_bytes=1024, small_packet_pct=50,
                                          lanes=8, revision=revision)


def test_pr4757_compensation_is_the_sonic_mgmt_26696_profile():
    before, after = _spc4_800g_15m("pr3235"), _spc4_800g_15m("pr4757")
    assert (before["xon_bytes"], before["xoff_bytes"], before["size_bytes"]) == \
        (38912, 118784, 166912)
    assert (after["xon_bytes"], after["xoff_bytes"], after["size_bytes"]) == \
        (38912, 120832, 168960)
    assert after["headroom_compensation"] is True


def test_pr4757_compensation_never_applies_at_100_percent_small_packets():
    got = headroom.sonic_nvidia_headroom(800, 15, _table("spectrum4"), small_packet_pct=100,
                                         lanes=8, revision="pr4757")
    assert got["headroom_compensation"] is False


def test_pr4797_adds_18_kib_on_spectrum6_only():
    spc6 = _table("spectrum6")
    for speed, cable in ((400, 5), (800, 40), (100, 300)):
        lanes = 8 if speed == 800 else 4
        old = headroom.sonic_nvidia_headroom(speed, cable, spc6, small_packet_pct=100,
                                             lanes=lanes, revision="pr4757")
        new = headroom.sonic_nvidia_headroom(speed, cable, spc6, small_packet_pct=100,
                                             lanes=lanes, revision="pr4797")
        assert new["xoff_bytes"] - old["xoff_bytes"] == 18 * 1024
    assert _spc4_800g_15m("pr4797")["xoff_bytes"] == 120832      # Spectrum-4 unchanged


def test_spectrum6_asic_table_is_asic_table_j2():
    # sonic-buildimage platform/mellanox/asic_table.j2 @4a9bf641: MELLANOX-SPECTRUM-6 cell 256,
    # pipeline_latency 42 (KB), mac_phy_delay 0.8, peer_response_time 3.8.
    table = _table("spectrum6")
    assert (table["cell_size"], table["pipeline_latency_kb"], table["mac_phy_delay_kb"],
            table["peer_response_time_kb"]) == (256, 42, 0.8, 3.8)
    assert not table.get("kb_on_tile")


@pytest.mark.parametrize("version,revision", [("202311", "18913fa"), ("202405", "pr3235"),
                                              ("202511", "pr3235"), ("202605", "pr4797")])
def test_release_branches_carry_their_revision(version, revision):
    # #3235 reached 202405 through #3342; #4757 and #4797 were tested on 202605.
    assert headroom.SONIC_VERSIONS[version] == revision
