"""ANTA catalogs of the EOS switches, loaded by ANTA's own catalog loader (its input models
validate every test name, address, interface name and value)."""
import os

import pytest
from anta.catalog import AntaCatalog

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
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


def test_a_leaf_expects_every_remote_host_prefix_over_all_its_uplinks(example, tmp_path):
    result = plan.build_plan(*example)
    dev = result["devices"]["leaf2a"]
    catalog = _load(tmp_path, "leaf2a", render.render_anta(dev, result)["anta/leaf2a.yml"])
    ecmp = [t.inputs for t in catalog.tests if t.test.__name__ == "VerifyBGPRouteECMP"][0]
    uplinks = sum(1 for p in dev["ports"] if p["peer_kind"] == "spine")
    hosts_elsewhere = sum(1 for name in ("leaf1a", "leaf1b", "leaf2b")
                          for p in result["devices"][name]["ports"] if p["peer_kind"] == "host")
    assert len(ecmp.route_entries) == hosts_elsewhere == 48
    assert set(r.ecmp_count for r in ecmp.route_entries) == {uplinks} == {16}


def test_sonic_switches_get_no_catalog(example):
    result = plan.build_plan(*example)
    assert render.render_anta(result["devices"]["leaf1a"], result) == {}
