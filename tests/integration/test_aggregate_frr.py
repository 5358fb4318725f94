"""routing.advertise aggregate on real FRR: 2 spines, one leaf pair, 2 hosts with 2 NICs each
(classic: NIC 0 on l1a, NIC 1 on l1b) in network namespaces, every switch on its rendered
bgpd.conf. Each leaf holds two host /31s in one /30 of its own and announces the /30 alone
(aggregate-address ... summary-only): the spines install the leaves' /30s and not one host /31,
the other leaf reaches a leaf's block over both spines, and a host reaches a host behind the
other leaf through it.

Without summary-only the spines would install the /31s too; without the aggregate, only the
/31s: the route assertions fail either way."""
import ipaddress
import os

import frr_lab
from lab_ports import lab_port_map
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan

NS, ENV = frr_lab.lab_env("ra", "aggregate")

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/usr/lib/frr/bgpd"),
    reason="needs root and FRR (tools/setup-system.sh installs it)")


def inventory():
    switches = ["s1", "s2", "l1a", "l1b"]
    hostvars = dict((n, {"roce_asic": "tomahawk5", "roce_platform": "sonic",
                         "roce_port_map": lab_port_map("sonic", 16)}) for n in switches)
    hostvars["h0"], hostvars["h1"] = {}, {}
    hostvars["s1"]["roce_fabric"] = {"design": "classic", "nics_per_host": 2,
                                     "routing": {"advertise": "aggregate"}}
    groups = {"spines": ["s1", "s2"], "leaves": ["l1a", "l1b"], "gpu_hosts": ["h0", "h1"],
              "roce_switches": switches, "p1": ["l1a", "l1b"],
              "_children": {"leaf_pairs": ["p1"]}}
    return groups, hostvars


def ns_run(name, *argv, check=True):
    return frr_lab.ns_run(NS, name, *argv, check=check)


def _routes(labmod, name):
    return frr_lab.vty_json(NS, labmod, name, "show ip route bgp json")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    p = plan.build_plan(*inventory())
    assert p["summary"]["errors"] == 0, p["violations"]
    wiring = tmp_path_factory.mktemp("aggregate") / "devices.json"
    with frr_lab.rendered_lab(NS, ENV, "labaggregate", p, wiring) as labmod:
        yield labmod, p


def _host_31s(dev):
    return set(str(ipaddress.ip_interface(p["address"]).network) for p in dev["ports"]
               if p["peer_kind"] == "host")


def test_spines_install_each_leafs_block_and_no_host_31(lab):
    labmod, p = lab
    devs = p["devices"]
    blocks = dict((leaf, devs[leaf]["bgp"]["aggregate"]) for leaf in ("l1a", "l1b"))
    # by hand: two host links per leaf, 4 addresses: a /30 each, side by side
    assert sorted(ipaddress.ip_network(b).prefixlen for b in blocks.values()) == [30, 30]
    hosts = _host_31s(devs["l1a"]) | _host_31s(devs["l1b"])
    assert len(hosts) == 4
    for spine in ("s1", "s2"):
        assert frr_lab.wait(lambda name=spine: set(blocks.values()) <= set(_routes(labmod, name)), 90), \
            "%s never installed %s" % (spine, blocks)
        assert not hosts & set(_routes(labmod, spine)), "%s installed host /31s" % spine


def test_the_other_leaf_reaches_a_block_over_both_spines(lab):
    labmod, p = lab
    block = p["devices"]["l1a"]["bgp"]["aggregate"]

    def width():
        route = _routes(labmod, "l1b").get(block, [{}])[0]
        return sum(1 for hop in route.get("nexthops", []) if hop.get("active"))
    assert frr_lab.wait(lambda: width() == 2, 60), "l1b reaches %s over %d spine(s)" % (block, width())
    assert not _host_31s(p["devices"]["l1a"]) & set(_routes(labmod, "l1b"))


def test_a_host_reaches_a_host_behind_the_other_leaf(lab):
    _labmod, p = lab
    src = p["devices"]["h0"]["nics"][0]                 # on l1a
    dst = p["devices"]["h1"]["nics"][1]                 # on l1b
    assert (src["leaf"], dst["leaf"]) == ("l1a", "l1b")
    ok = ns_run("h0", "ping", "-c", "3", "-W", "2", "-I", src["name"],
                dst["address"].split("/")[0], check=False)
    assert ok.returncode == 0, ok.stdout + ok.stderr
