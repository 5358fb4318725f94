"""ANTA catalogs of the EOS switches, loaded by ANTA's own catalog loader (its input models
validate every test name, address, interface name and value)."""
import ipaddress
import os

import pytest
from anta.catalog import AntaCatalog

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))


def _load(tmp_path, name, text):
    path = tmp_path / ("%s.yml" % name)
    path.write_text(text)
    return AntaCatalog.parse(str(path))


@pytest.mark.parametrize("inventory", ["example", "multi-pod", "cluster-1024"])
def test_every_eos_catalog_loads_in_anta(inventory_data, tmp_path, inventory):
    result = plan.build_plan(*inventory_data(os.path.join(ROOT, "inventories", inventory,
                                                          "hosts.yml")))
    eos = [d for d in result["devices"].values() if d.get("platform") == "eos"]
    assert eos
    for dev in eos:
        files = render.render_anta(dev, result)
        catalog = _load(tmp_path, dev["name"], files["anta/%s.yml" % dev["name"]])
        tests = dict((t.test.__name__, t.inputs) for t in catalog.tests)
        assert set(tests) >= {"VerifyRoutingProtocolModel", "VerifyBGPPeerSession",
                              "VerifyInterfacesStatus", "VerifyInterfacesSpeed", "VerifyL3MTU",
                              "VerifyLLDPNeighbors", "VerifyInterfacesPFCCounters"}
        peers = set(str(p.peer_address) for p in tests["VerifyBGPPeerSession"].bgp_peers)
        assert peers == set(n["address"] for n in dev["bgp"]["neighbors"])
        lldp = set((n.port, n.neighbor_device, n.neighbor_port)
                   for n in tests["VerifyLLDPNeighbors"].neighbors)
        assert lldp == set((p["name"], p["peer"], p["peer_port"]) for p in dev["ports"]
                           if p["peer_kind"] != "host" and p["up"])
        speeds = dict((i.name, (i.speed, i.lanes)) for i in tests["VerifyInterfacesSpeed"]
                      .interfaces)
        for port in dev["ports"]:
            assert speeds[port["name"]] == (port["speed_gbps"], port["lanes_per_port"])


def _tests(catalog):
    return dict((t.test.__name__, t.inputs) for t in catalog.tests)


def test_a_leaf_samples_one_prefix_per_remote_leaf_and_bounds_its_bgp_routes(example, tmp_path):
    """leaf2a of the example: 3 other leaves with 16 host ports each (48 remote host prefixes),
    16 spine uplinks; 2 spines + 4 leaves. By hand: one ECMP entry per remote leaf at width 16,
    at least 48 BGP routes and at most 48 + 5 other switches' loopbacks."""
    result = plan.build_plan(*example)
    dev = result["devices"]["leaf2a"]
    tests = _tests(_load(tmp_path, "leaf2a", render.render_anta(dev, result)["anta/leaf2a.yml"]))
    hosts = dict((name, [p for p in result["devices"][name]["ports"] if p["peer_kind"] == "host"])
                 for name in ("leaf1a", "leaf1b", "leaf2b"))
    assert sum(len(v) for v in hosts.values()) == 48
    entries = tests["VerifyBGPRouteECMP"].route_entries
    assert len(entries) == 3 and set(r.ecmp_count for r in entries) == {16}
    owners = set(name for r in entries for name, ports in hosts.items()
                 if any(ipaddress.ip_interface(p["address"]).network == r.prefix for p in ports))
    assert owners == set(hosts)
    size = tests["VerifyRoutingTableSize"]
    assert (size.minimum, size.maximum) == (48, 53)
    assert [(s.source, s.minimum, s.maximum) for s in size.vrfs[0].route_sources] == [
        ("bgp", 48, 53)]
    nbrs = set(n["address"] for n in dev["bgp"]["neighbors"])
    assert set(str(p.peer_address) for p in tests["VerifyBGPNlriAcceptance"].bgp_peers) == nbrs
    count = tests["VerifyBGPPeerCount"].address_families[0]
    assert (count.afi, count.safi, count.num_peers, count.check_peer_state) == (
        "ipv4", "unicast", 16, True)


def _largest_catalog(gpus, tmp_path):
    groups, hostvars = generate.clos(gpus, 16, 1, platforms="eos", tiers=3)[:2]
    result = plan.build_plan(groups, hostvars)
    texts = dict((d["name"], render.render_anta(d, result)["anta/%s.yml" % d["name"]])
                 for d in result["devices"].values() if d.get("platform") == "eos")
    name = max(texts, key=lambda n: len(texts[n]))
    return result, name, len(texts[name]), _tests(_load(tmp_path, name, texts[name]))


def test_the_largest_catalog_does_not_grow_with_the_remote_leaves(tmp_path):
    """Three tiers at radix 16, all EOS: 512 GPUs (8 pods, 64 leaves) and 1,024 (16 pods, 128
    leaves). An entry per remote prefix made the largest catalog 41 KB, then 76 KB; sampled
    (at most 32 ECMP entries, every remote pod) it stays about 10 KB at both sizes."""
    small = _largest_catalog(512, tmp_path)
    result, name, size, tests = _largest_catalog(1024, tmp_path)
    assert result["summary"]["leaves"] == 128 and len(result["summary"]["pods"]) == 16
    assert size < 100 * 1024 and abs(size - small[2]) < 1024, (small[2], size)
    entries = tests["VerifyBGPRouteECMP"].route_entries
    assert len(entries) <= 32
    pod_of = {}
    for dev in result["devices"].values():
        for p in dev.get("ports", []):
            if dev.get("role") == "leaf" and p["peer_kind"] == "host" and p["up"]:
                pod_of[p["address"].split("/")[0]] = dev["pod"]
    me = result["devices"][name]
    remote_pods = set(pod for pod in pod_of.values() if pod != me.get("pod")
                      or me["role"] != "leaf")
    sampled = set(pod_of.get(str(r.prefix.network_address), pod_of.get(
        str(r.prefix.network_address + 1))) for r in entries)
    assert sampled >= remote_pods


def test_sonic_switches_get_no_catalog(example):
    result = plan.build_plan(*example)
    assert render.render_anta(result["devices"]["leaf1a"], result) == {}
