"""A port's lossless record is finished once, in lossless/ (lossless/switch.py plan_switch): the
real cable beside the class its profile is sized and named for, the SKU table row, the headroom
its link really needs; the plan carries that record as it is, and an ECN override has one path.

Golden values are the vendor's: the Mellanox-SN5600-O128 pg_profile_lookup.ini in
../shared/sku_data (its rows for 400G: 5 m, 40 m, 300 m) and the example inventory's cables
(group_vars/all/fabric.yml: host links 3 m DAC, fabric links 30 m fiber)."""
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.lossless import switch as lossless
from ansible_collections.roce.fabric.plugins.module_utils.plan import build

import shared_data

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))
INI = os.path.join(os.path.dirname(ROOT), "shared", "sku_data", "x86_64-nvidia_sn5600-r0",
                   "Mellanox-SN5600-O128", "pg_profile_lookup.ini")


def _ini_rows(speed_mbps):
    """{cable m: (size, xon, xoff)} of the vendor's table at one speed."""
    shared_data.need(INI, "the vendor table is read from ../shared/sku_data")
    rows = {}
    with open(INI) as handle:
        for line in handle:
            fields = line.split()
            if len(fields) >= 5 and not line.lstrip().startswith("#") and \
                    fields[0] == str(speed_mbps):
                rows[int(fields[1].rstrip("m"))] = tuple(int(f) for f in fields[2:5])
    return rows


def _port(dev, peer_kind):
    return next(p for p in dev["ports"] if p["up"] and p["peer_kind"] == peer_kind)


@pytest.mark.parametrize("peer_kind,cable_m", [("host", 3), ("spine", 30)])
def test_the_record_carries_the_real_cable_beside_the_class_of_its_table_row(
        example, peer_kind, cable_m):
    rows = _ini_rows(400000)
    row_class = min(c for c in rows if c >= cable_m)          # SONiC's CABLE_LENGTH class
    port = _port(pipeline.build_plan(*example)["devices"]["leaf1a"], peer_kind)
    ll = port["lossless"]
    assert (port["cable_m"], ll["cable_m"]) == (cable_m, cable_m)
    assert ll["cable_class_m"] == row_class
    assert ll["table_row"] is True
    size, xon, xoff = rows[row_class]
    assert (ll["headroom"]["size_bytes"], ll["headroom"]["xon_bytes"],
            ll["headroom"]["xoff_bytes"]) == (size, xon, xoff)
    assert ll["headroom_configured_bytes"] == xoff
    # what the real (shorter) cable puts in flight: at most the row sized for the class
    assert 0 < ll["headroom_required_bytes"] <= xoff


def test_the_plan_carries_the_record_lossless_finished(example):
    """The intent's port record is the object plan_switch returned: nothing is overwritten or
    derived again after the lossless stage."""
    fab, devices = build.build_intent(*example)
    sw = fab.switches["leaf1a"]
    ordered = sorted(sw.ports.values(), key=lambda p: p.index)
    _asic, result = lossless.plan_switch(sw, ordered, build._link_ends(fab), build._hardware(sw))
    fresh = dict((p["name"], p) for p in result["ports"])
    for port in devices["leaf1a"]["ports"]:
        if port["lossless"]:
            assert port["lossless"] == fresh[port["name"]]


def test_an_ecn_override_is_applied_in_the_lossless_stage(example):
    groups, hostvars = example
    hostvars["leaf1a"]["roce_lossless"] = {"ecn": {"kmin_bytes": 150000, "kmax_bytes": 1500000,
                                                   "pmax": 0.155}}
    fab, _devices = build.build_intent(groups, hostvars)
    sw = fab.switches["leaf1a"]
    ordered = sorted(sw.ports.values(), key=lambda p: p.index)
    _asic, result = lossless.plan_switch(sw, ordered, build._link_ends(fab), build._hardware(sw))
    marks = result["ports"][0]["ecn"]
    assert (marks["kmin_bytes"], marks["kmax_bytes"]) == (150000, 1500000)
    # both platforms take a whole percent: round(15.5) = 16 %
    assert (marks["pmax_percent"], marks["pmax"]) == (16, 0.16)
    assert marks["overridden"] == ["kmax_bytes", "kmin_bytes", "pmax"]
    assert result["ecn_overrides"] == {"kmax_bytes": 1500000, "kmin_bytes": 150000,
                                       "pmax": 0.155}
