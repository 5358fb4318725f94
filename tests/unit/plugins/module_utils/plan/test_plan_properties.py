"""Property tests: the plan never crashes on generated inventories, and a generated clean
fabric (consistent settings, 1:1, RFC 7938 ASNs, adaptive routing) has no ERROR."""
from hypothesis import HealthCheck, given, settings, strategies as st

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError
from lab_ports import lab_port_map

ASICS = ["tomahawk3", "tomahawk4", "tomahawk5", "trident4", "spectrum2", "spectrum3",
         "spectrum4"]


@st.composite
def inventories(draw, clean):
    spines = draw(st.integers(1, 4))
    pairs = draw(st.integers(1, 3))
    nics = draw(st.sampled_from([1, 2, 4, 8]))
    hosts = draw(st.integers(0, 6))
    design = draw(st.sampled_from(["classic", "rail_optimized"]))
    speed = draw(st.sampled_from([100, 200, 400]))
    fabric = {"design": design, "nics_per_host": nics,
              "host_link": {"speed_gbps": speed, "cable_m": draw(st.integers(1, 10)),
                            "media": "dac"},
              "fabric_link": {"speed_gbps": speed, "cable_m": draw(st.integers(5, 300)),
                              "media": "fiber"},
              "ecmp": {"adaptive_routing": True},
              "asn": {"leaf_first": 65200}}
    if design == "rail_optimized":
        fabric["rail_group_leaves"] = draw(st.sampled_from(
            [g for g in (1, 2, 4, 8) if g <= 2 * pairs and (2 * pairs) % g == 0
             and nics % g == 0]))
    names = ["s%d" % i for i in range(spines)]
    leaves = ["l%d%s" % (p, x) for p in range(pairs) for x in "ab"]
    host_names = ["h%d" % i for i in range(hosts)]
    hv = {}
    for name in names + leaves:
        asic = draw(st.sampled_from(ASICS))
        # Spectrum runs SONiC only (hardware/platforms.py: its families)
        platforms = ["sonic"] if asic.startswith("spectrum") else ["sonic", "eos"]
        platform = draw(st.sampled_from(platforms))
        # a switch of no model: its ports are the ones given (256, as a lab switch's)
        hv[name] = {"roce_asic": asic, "roce_platform": platform,
                    "roce_port_map": lab_port_map(platform, 256)}
        if asic.startswith("spectrum") and draw(st.booleans()):
            hv[name]["roce_lossless"] = {"model": "sonic-nvidia"}
        if asic in ("spectrum2",) and speed == 400:
            hv[name]["roce_asic"] = "spectrum3"
    for name in host_names:
        hv[name] = {}
    if not clean:
        # Arbitrary (possibly invalid or inconsistent) overrides.
        victim = draw(st.sampled_from(names + leaves + host_names))
        key = draw(st.sampled_from(["roce_qos", "roce_mtu", "roce_pfc_watchdog", "roce_asn",
                                    "roce_link_overrides", "roce_nic_overrides", "roce_ecmp",
                                    "roce_port_map", "roce_lossless"]))
        hv[victim][key] = draw(st.one_of(
            st.none(), st.integers(-5, 70000), st.text(max_size=5),
            st.dictionaries(st.sampled_from(["pfc_priorities", "poll_ms", "cable_m", "state",
                                             "mtu_bytes", 0, "Ethernet0", "hash_fields",
                                             "xon_offset_bytes"]),
                            st.one_of(st.integers(-10, 10000), st.lists(st.integers(0, 9)),
                                      st.just("down"), st.dictionaries(
                                          st.sampled_from(["cable_m", "state", "qos"]),
                                          st.integers(0, 100))),
                            max_size=2)))
        if draw(st.booleans()):
            fabric["asn"]["spine_scheme"] = "unique"
    for name in hv:
        hv[name]["roce_fabric"] = fabric
    groups = {"spines": names, "leaves": leaves, "gpu_hosts": host_names,
              "roce_switches": names + leaves, "_children": {}}
    return groups, hv


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inventories(clean=False))
def test_plan_never_crashes(inv):
    try:
        result = plan.build_plan(*inv)
    except RoceInputError as exc:
        assert exc.field and str(exc)
        return
    for v in result["violations"]:
        assert v["rule"] and v["severity"] in ("ERROR", "WARN") and v["hint"]
    assert plan.format_report(result)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inventories(clean=True))
def test_generated_clean_fabric_has_no_error(inv):
    try:
        result = plan.build_plan(*inv)
    except RoceInputError as exc:
        # Only the buffer of a small ASIC may refuse a generated port count.
        assert "buffer" in str(exc), str(exc)
        return
    errors = [v for v in result["violations"] if v["severity"] == "ERROR"]
    assert not errors, errors[:3]
