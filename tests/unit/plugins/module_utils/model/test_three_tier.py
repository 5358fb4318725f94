"""Three-tier Clos, pods and planes: sizes and widths against lossless-math.md §6, per-tier
headroom against §1.3, the bounce paths of §4.1 with three tiers, and the per-tier checks."""
import json

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.inputs import eos_base
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils.checks import deadlock, paths as routing
from ansible_collections.roce.fabric.plugins.module_utils.model import fabric
from ansible_collections.roce.fabric.plugins.module_utils.design import generate, sizing
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError


def settings(hv, groups):
    return hv[groups["roce_switches"][0]]["roce_fabric"]


def rules(p):
    return sorted(set((v["severity"], v["rule"]) for v in p["violations"]))


@pytest.fixture(scope="module")
def plan_8192():
    groups, hv = generate.clos(8192, 64)[:2]
    return groups, plan.build_plan(groups, hv)


def test_8192_gpus_at_radix_64_match_section_6(plan_8192, proven):
    """§6 table: 8,192 GPUs, k = 64 -> 3 tiers, 256 leaves (8 pods x 32), 256 spines (32 per
    pod), 128 super-spines; ECMP width 32 / 32."""
    groups, p = plan_8192
    s = p["summary"]
    assert (s["tiers"], s["leaves"], s["spines"], s["superspines"], len(s["pods"])) == \
        (3, 256, 256, 128, 8)
    assert s["errors"] == 0 and proven(p["violations"]) == [], p["violations"][:3]
    devs = p["devices"]
    for name in (groups["leaves"][0], groups["leaves"][-1]):
        assert devs[name]["bgp"]["ecmp_width"] == 32 and devs[name]["oversubscription"] == 1.0
    for name in (groups["spines"][0], groups["spines"][-1]):
        kinds = [port["peer_kind"] for port in devs[name]["ports"]]
        assert kinds.count("leaf") == 32 and kinds.count("superspine") == 32
        assert devs[name]["bgp"]["ecmp_width"] == 32 and devs[name]["oversubscription"] == 1.0
    for name in groups["superspines"][:2]:
        assert len(devs[name]["ports"]) == 64          # every port of a radix-64 switch used
        assert set(port["peer_kind"] for port in devs[name]["ports"]) == {"spine"}


def test_spine_j_of_every_pod_meets_super_spine_group_j(plan_8192):
    groups, p = plan_8192
    devs = p["devices"]
    pods = p["summary"]["pods"]
    group_size = 128 // 32
    for pod in list(pods)[:3]:
        spines = sorted(n for n in pods[pod] if devs[n]["role"] == "spine")
        for j in (0, 31):
            tops = set(port["peer"] for port in devs[spines[j]]["ports"]
                       if port["peer_kind"] == "superspine")
            assert tops == set(groups["superspines"][j * group_size:(j + 1) * group_size])


def test_sizing_with_planes_multiplies_one_plane():
    """8 planes of 16,384 GPU ports at k = 64 (§6 formulas: leaves N/(k/2), pods N/(k/2)^2,
    super-spines pods (k/2)^2 / k)."""
    r = sizing.size_fabric(131072, 64, planes=8)
    per = 131072 // 8
    assert r["per_plane"]["leaves"] == per // 32 == 512
    assert r["per_plane"]["pods"] == per // 32 ** 2 == 16
    assert r["per_plane"]["superspines"] == 16 * 32 * 32 // 64 == 256
    assert (r["leaves"], r["spines"], r["superspines"]) == (4096, 4096, 2048)
    with pytest.raises(RoceInputError) as err:
        sizing.size_fabric(131073, 64, planes=8)
    assert "multiple of the 8 planes" in str(err.value)


def test_per_tier_headroom_follows_each_tier_cable():
    """§1.3 Model R (254 B cells): 400G / 5 m -> H_raw 201,856 B; 400G / 150 m -> 274,356 B at
    MTU 9216. Leaf-spine cables of 5 m and spine-super-spine cables of 100 m on one spine: the
    100 m cable takes the class the SONiC super-spine's table has (O128S2: 150 m), at both
    ends. The EOS spine runs at the default 9214: H_raw's two frame terms, (MTU_R + 20) and
    (MTU_S + 20) (§1.2), are 2 B smaller each."""
    groups, hv = generate.clos(16, 4, nics_per_host=2)[:2]
    cfg = settings(hv, groups)
    cfg["fabric_link"]["cable_m"] = 5
    cfg["superspine_link"]["cable_m"] = 100
    p = plan.build_plan(groups, hv)
    ports = p["devices"][groups["spines"][0]]["ports"]
    raw = dict((port["peer_kind"], port["lossless"]["headroom"]["raw_bytes"]) for port in ports)
    assert raw == {"leaf": 201856 - 2 * 2, "superspine": 274356 - 2 * 2}


def test_mtu_chain_covers_the_super_spine_hop():
    groups, hv = generate.clos(16, 4, nics_per_host=2)[:2]
    hv[groups["superspines"][0]]["roce_mtu"] = 9100
    p = plan.build_plan(groups, hv)
    bad = [v for v in p["violations"] if v["rule"] == "mtu-chain"]
    assert bad and all(groups["superspines"][0] in v["location"] or
                       v["device"] == groups["superspines"][0] for v in bad)
    assert all("9100" in v["message"] and "9214" in v["message"] for v in bad)


def test_super_spine_seed_shared_with_spines_polarizes():
    """EOS renders no seed: on an all-EOS three-tier fabric the three tiers keep one default,
    whatever seeds the plan asks, in one warning naming them all."""
    groups, hv = generate.clos(16, 4, nics_per_host=2, platforms="eos")[:2]
    settings(hv, groups)["ecmp"]["seeds"] = {"leaf": 1, "spine": 2, "superspine": 3}
    p = plan.build_plan(groups, hv)
    warn = [v for v in p["violations"] if v["rule"] == "hash-polarization"]
    assert len(warn) == 1 and warn[0]["numbers"]["roles"] == ["leaf", "spine", "superspine"]
    assert warn[0]["device"] in groups["leaves"] and warn[0]["location"] == "ecmp seed default"


def test_oversubscription_above_the_pod():
    groups, hv = generate.clos(64, 8, nics_per_host=8)[:2]      # 4 pods, groups of 2, 2 links
    cfg = settings(hv, groups)
    one = plan.build_plan(groups, hv)
    spine = groups["spines"][0]
    assert sum(p["peer_kind"] == "superspine" for p in one["devices"][spine]["ports"]) == 4
    cfg["max_oversubscription_above_pod"] = 2        # planned 2:1 above the pod: half the links
    two = plan.build_plan(groups, hv)
    assert sum(p["peer_kind"] == "superspine" for p in two["devices"][spine]["ports"]) == 2
    assert two["devices"][spine]["oversubscription"] == 2.0 and two["summary"]["errors"] == 0
    cfg["max_oversubscription_above_pod"] = 1
    cfg["links_per_spine_superspine"] = 1                  # forced: 4 down, 2 up at 1:1
    bad = plan.build_plan(groups, hv)
    assert ("ERROR", "oversubscription") in rules(bad)
    assert all(v["device"] in groups["spines"] for v in bad["violations"]
               if v["rule"] == "oversubscription")


def test_planes_are_separate_fabrics():
    groups, hv = generate.clos(64, 4, planes=4, nics_per_host=4)[:2]
    fab = fabric.build_fabric(groups, hv)
    assert fab.planes == 4 and fab.tiers == 3
    for kind, a, b in fab.links:
        if kind == "fabric":
            assert fab.switches[a.switch].plane == fab.switches[b.switch].plane
    for _host, nics in fab.hosts:
        assert [fab.switches[n.leaf].plane for n in nics] == [0, 1, 2, 3]
    p = plan.build_plan(groups, hv)
    assert p["summary"]["errors"] == 0 and p["summary"]["planes"] == 4


@pytest.mark.parametrize("change,field,text", [
    ({"pods": None}, "roce_fabric.groups.pods", "super-spines need pods"),
    ({"superspines": 3}, "superspines", "a multiple of the spines per pod"),
    ({"pod_across_planes": True}, "pods", "a pod inside one plane"),
])
def test_bad_three_tier_inventory_fails_clearly(change, field, text):
    groups, hv = generate.clos(32, 4, planes=2, nics_per_host=2)[:2]
    if "pods" in change:
        groups["_children"]["pods"] = []
    if "superspines" in change:
        plane0 = [n for n in groups["superspines"] if n.startswith("p0-")]
        groups["superspines"].remove(plane0[0])
        groups["plane0"].remove(plane0[0])
        groups["roce_switches"].remove(plane0[0])
    if "pod_across_planes" in change:
        leaf = groups["p1-pod00"][-1]
        groups["p1-pod00"].remove(leaf)
        groups["p0-pod00"].append(leaf)
    with pytest.raises(RoceInputError) as err:
        plan.build_plan(groups, hv)
    assert err.value.field == field and text in str(err.value)


def _tiny(scheme):
    """16 GPUs at radix 4: 4 pods of 2 leaves and 2 spines, 4 super-spines in groups of 2,
    single links everywhere (the bounce-prone case)."""
    groups, hv = generate.clos(16, 4, nics_per_host=2)[:2]
    settings(hv, groups)["asn"].update(scheme)
    return groups, hv


@pytest.mark.parametrize("scheme,bounce_tier", [
    ({}, None),                                          # RFC 7938 per tier: valley-free
    ({"spine_scheme": "unique"}, "leaf"),                # spine->leaf->spine bounce
    ({"superspine_scheme": "unique"}, "spine"),          # superspine->spine->superspine bounce
])
def test_three_tier_bounce_paths_and_the_reduction(scheme, bounce_tier):
    """§4.1(a): with one ASN per tier (per pod for spines) no single link failure makes a
    valley; with unique ASNs on a tier, failing a link below it bounces traffic through the
    tier below and the dependency graph has a cycle. The representative sub-fabric the check
    uses finds exactly what the full analysis of every single-link failure finds."""
    groups, hv = _tiny(scheme)
    fab = fabric.build_fabric(groups, hv)
    topo = deadlock.topology(fab, None)
    failures = sorted(set((a.switch, b.switch) for kind, a, b in fab.links if kind == "fabric"))
    full = routing.analyse(topo, failures)
    by_text = dict(("link %s-%s down" % pair, pair) for pair in failures)
    lower = set(fab.switches[by_text[f["scenario"]][1]].role for f in full)
    p = plan.build_plan(groups, hv)
    found = [v for v in p["violations"] if v["rule"] == "pfc-deadlock"]
    for finding in found:
        assert "three-tier sub-fabric" in finding["message"]
    if bounce_tier is None:
        assert full == [] and found == []
    else:
        assert lower == {bounce_tier}                    # every cycle: a link above that tier
        assert len(found) == 1 and found[0]["device"] in fab.switches   # a real device
        assert found[0]["location"].startswith("Ethernet")               # and its port
        hops = [node[0] for node in found[0]["numbers"]["cycle"]]
        assert all(h in fab.switches for h in hops)
        assert len(set(fab.switches[h].role for h in hops)) == 2   # two tiers, down and up


def test_expected_routes_per_tier():
    groups, hv = generate.clos(64, 8, nics_per_host=8)[:2]
    p = plan.build_plan(groups, hv)
    devs = p["devices"]
    pods = p["summary"]["pods"]
    pod0, pod1 = [sorted(pods[name]) for name in sorted(pods)[:2]]
    spine = [n for n in pod0 if devs[n]["role"] == "spine"][0]
    own_leaf = [n for n in pod0 if devs[n]["role"] == "leaf"][0]
    far_leaf = [n for n in pod1 if devs[n]["role"] == "leaf"][0]
    routes = plan_targets.expected_routes(spine, p)

    def prefix(leaf):
        port = [x for x in devs[leaf]["ports"] if x["peer_kind"] == "host"][0]
        return plan_targets.network(port["address"])

    assert routes[prefix(own_leaf)] == 1                     # one link to its own pod's leaf
    assert routes[prefix(far_leaf)] == 4                     # all super-spine uplinks
    top = groups["superspines"][0]
    assert plan_targets.expected_routes(top, p)[prefix(far_leaf)] == 2    # its 2 links into pod 1
    assert plan_targets.expected_routes(own_leaf, p)[prefix(far_leaf)] == 4


def test_super_spines_render_on_both_platforms(validator):
    groups, hv = generate.clos(16, 4, nics_per_host=2)[:2]
    top_sonic, top_eos = groups["superspines"][:2]
    hv[top_eos]["roce_platform"] = "eos"
    p = plan.build_plan(groups, hv)
    files = render.render_switch(p["devices"][top_sonic])
    db = files["configs/%s.json" % top_sonic]
    assert '"type": "SpineRouter"' in db
    validator.validate(json.loads(db))
    text = render.render_switch(p["devices"][top_eos])["configs/%s.cfg" % top_eos]
    blocks = dict(eos_base.parse_blocks(text))
    bgp = [k[0] for k in blocks["router bgp %d" % p["devices"][top_eos]["bgp"]["asn"]]]
    spines = [port["peer_address"].split("/")[0] for port in p["devices"][top_eos]["ports"]]
    assert all("neighbor %s route-map RF-DRAIN-IN in" % a in bgp for a in spines)
