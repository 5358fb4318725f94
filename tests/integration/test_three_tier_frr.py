"""A three-tier fabric on real FRR: 2 pods (2 spines, one leaf pair each) under 2 super-spines,
2 dual-attached hosts, in network namespaces wired from the plan (molecule/fabric/lab.py with
its own names and subnet). Every switch gets its rendered config_db's netdevs and bgpd.conf.

Shows that the three-tier ASN scheme (per-pod spine ASNs, one super-spine ASN) routes between
pods over every tier's ECMP set, with the widths worked out here from the wiring, and that the
plan's own verification (verify.check) agrees; a 9000-byte DF ping crosses five switch hops."""
import json
import os
import time

import frr_lab
from lab_ports import lab_port_map
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils.deploy import verify
from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    config_db as render_sonic)

# This run's names, subnet and directory (ROCE_LAB_ID: `make` derives it from the checkout's
# path), so two checkouts' labs never meet.
LAB_ID = os.environ.get("ROCE_LAB_ID") or "200"
NS = "r3%s-" % LAB_ID
ENV = {"ROCE_FABRIC_LAB_NS": NS, "ROCE_FABRIC_LAB_BRIDGE": "r3br" + LAB_ID,
       "ROCE_FABRIC_LAB_MGMT": "198.19." + LAB_ID, "ROCE_FABRIC_LAB_LINK": "r3m%s-" % LAB_ID,
       "ROCE_FABRIC_LAB_DIR": "/tmp/roce-fabric-three-tier-lab-" + LAB_ID}

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/usr/lib/frr/bgpd"),
    reason="needs root and FRR (tools/setup-system.sh installs it)")


def inventory():
    pods = {"pod0": ["s0a", "s0b", "l0a", "l0b"], "pod1": ["s1a", "s1b", "l1a", "l1b"]}
    switches = ["ss0", "ss1"] + pods["pod0"] + pods["pod1"]
    # FRR routers on veths: switches of no model, with the 16 ports the lab creates
    hostvars = dict((n, {"roce_asic": "tomahawk5", "roce_platform": "sonic",
                         "roce_port_map": lab_port_map("sonic", 16)}) for n in switches)
    hostvars.update(h0={}, h1={})
    hostvars["s0a"]["roce_fabric"] = {
        "design": "classic", "nics_per_host": 2,
        "asn": {"leaf_first": 65201}, "ecmp": {"adaptive_routing": True},
        "superspine_link": {"cable_m": 100}}
    groups = {"superspines": ["ss0", "ss1"], "spines": ["s0a", "s0b", "s1a", "s1b"],
              "leaves": ["l0a", "l0b", "l1a", "l1b"], "gpu_hosts": ["h0", "h1"],
              "roce_switches": switches, "p0": ["l0a", "l0b"], "p1": ["l1a", "l1b"],
              "_children": {"leaf_pairs": ["p0", "p1"], "pods": ["pod0", "pod1"]}}
    groups.update(pods)
    return groups, hostvars


def ns_run(name, *argv, check=True):
    return frr_lab.ns_run(NS, name, *argv, check=check)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    p = plan.build_plan(*inventory())
    assert p["summary"]["errors"] == 0, p["violations"]
    wiring = tmp_path_factory.mktemp("three-tier") / "devices.json"
    wiring.write_text(json.dumps(p["devices"]))
    with frr_lab.lab(ENV, "lab3") as labmod:
        labmod.up(str(wiring))
        for name, dev in p["devices"].items():
            if dev["kind"] == "switch":
                _configure_switch(labmod, name, dev)
            else:
                frr_lab.address_nics(NS, name, dev)
        yield labmod, p


def _configure_switch(labmod, name, dev):
    frr_lab.apply_netdevs(NS, name, render_sonic.config_db(dev))
    d = os.path.join(labmod.LAB, NS + name, "frr")
    conf = os.path.join(d, "bgpd.roce.conf")
    with open(conf, "w") as handle:
        handle.write(render.render_switch(dev, ("configs",))["configs/%s.bgpd.conf" % name])
    ns_run(name, "/usr/lib/frr/frr-reload.py", "--daemon", "bgpd", "--vty_socket", d,
           "--bindir", "/usr/bin", "--confdir", d, "--rundir", d, "--reload", conf)


def _state(labmod, name):
    d = os.path.join(labmod.LAB, NS + name, "frr")
    summary = ns_run(name, "vtysh", "--vty_socket", d, "-c",
                     "show bgp ipv4 unicast summary json").stdout
    routes = ns_run(name, "ip", "-j", "route", "show").stdout
    return json.loads(summary), json.loads(routes)


def _converged(labmod, p, timeout_s=90):
    deadline = time.time() + timeout_s
    while True:
        results = {}
        for name, dev in p["devices"].items():
            if dev["kind"] == "switch":
                summary, routes = _state(labmod, name)
                results[name] = verify.check(plan_targets.targets(name, p), summary, routes)
        if all(r["ok"] for r in results.values()) or time.time() > deadline:
            return results
        time.sleep(2)


def _width(labmod, switch, prefix):
    routes = _state(labmod, switch)[1]
    row = [r for r in routes if r.get("dst") == prefix]
    return len(row[0].get("nexthops") or [row[0]]) if row else 0


def test_three_tier_routes_between_pods_over_every_tier(lab):
    labmod, p = lab
    results = _converged(labmod, p)
    bad = dict((n, r["summary"]) for n, r in results.items() if not r["ok"])
    assert not bad, bad
    devs = p["devices"]
    far = plan_targets.network(devs["h1"]["nics"][0]["address"])      # behind l1a, in pod1
    # Worked out from the wiring: a leaf has one link to each of its pod's 2 spines; spine j
    # of a pod has a leaf-facing 800G and one super-spine (group j of size 1), so 2 parallel
    # links at 1:1; a super-spine reaches pod1 through that pod's spine j over those 2 links.
    assert _width(labmod, "l0a", far) == 2
    assert _width(labmod, "s0a", far) == 2 and _width(labmod, "s0b", far) == 2
    assert _width(labmod, "ss0", far) == 2 and _width(labmod, "ss1", far) == 2
    assert _width(labmod, "s1a", far) == 1                       # its own pod: the leaf link
    asns = dict((n, devs[n]["bgp"]["asn"]) for n in ("ss0", "ss1", "s0a", "s0b", "s1a", "s1b"))
    assert asns["ss0"] == asns["ss1"] and asns["s0a"] == asns["s0b"] != asns["s1a"] == asns["s1b"]


def test_jumbo_frames_cross_five_hops(lab):
    labmod, p = lab
    _converged(labmod, p)
    src = p["devices"]["h0"]["nics"][0]
    dst = p["devices"]["h1"]["nics"][0]["address"].split("/")[0]
    ok = ns_run("h0", "ping", "-M", "do", "-s", "8972", "-c", "3", "-W", "2", "-I",
                src["name"], dst, check=False)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    too_big = ns_run("h0", "ping", "-M", "do", "-s", "8973", "-c", "1", "-W", "2", "-I",
                     src["name"], dst, check=False)
    assert too_big.returncode != 0


def test_only_loopbacks_and_host_subnets_are_announced(lab):
    """redistribute connected goes through RF-CONNECTED: a super-spine learns every host /31 and
    its neighbours' loopbacks over BGP, nothing else and no fabric /31 (FRR applies the rendered
    route-map; loopbacks of switches sharing an ASN with the path are dropped by eBGP itself)."""
    labmod, p = lab
    _converged(labmod, p)
    devs = p["devices"]
    routes = _state(labmod, "ss0")[1]
    learned = set(r["dst"] for r in routes if r.get("protocol") == "bgp")
    loopbacks = set(d["loopback"].split("/")[0] for n, d in devs.items()
                    if d["kind"] == "switch" and n != "ss0")
    hosts = set(plan_targets.network(nic["address"]) for d in devs.values() if d["kind"] == "host"
                for nic in d["nics"])
    fabric = set(plan_targets.network(port["address"]) for d in devs.values()
                 if d["kind"] == "switch" for port in d["ports"]
                 if port["peer_kind"] != "host" and port.get("address"))
    neighbours = set(devs[port["peer"]]["loopback"].split("/")[0]
                     for port in devs["ss0"]["ports"])
    assert hosts <= learned and neighbours <= learned
    assert fabric and not learned & fabric
    assert learned <= loopbacks | hosts
