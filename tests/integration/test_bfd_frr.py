"""BFD on real FRR: a two-tier fabric (2 spines, one leaf pair, one host) in network namespaces
with bfdd running, every switch on its rendered bgpd.conf. A link that silently stops carrying
one direction (the leaf's frames to spine s1 go to a wrong MAC; the link stays up, so neither
carrier loss nor zebra tells anyone) is found by BFD and the spine's session drops well under
the 9 s hold time the plan renders.

Without bfdd (or without the rendered `neighbor X bfd`) the session would only drop when the
hold timer (9 s) expires: the test's 3 s bound fails then."""
import os
import time

import frr_lab
from lab_ports import lab_port_map
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan

NS, ENV = frr_lab.lab_env("rb", "bfd", ROCE_FABRIC_LAB_BFDD="1")
DETECT_BOUND_S = 3.0     # BFD: 300 ms x 3 = 0.9 s (platform defaults); the hold time is 9 s

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/usr/lib/frr/bfdd"),
    reason="needs root and FRR with bfdd (tools/setup-system.sh installs it)")


def inventory():
    switches = ["s1", "s2", "l1a", "l1b"]
    hostvars = dict((n, {"roce_asic": "tomahawk5", "roce_platform": "sonic",
                         "roce_port_map": lab_port_map("sonic", 16)}) for n in switches)
    hostvars["h0"] = {}
    hostvars["s1"]["roce_fabric"] = {"design": "classic", "nics_per_host": 2}
    groups = {"spines": ["s1", "s2"], "leaves": ["l1a", "l1b"], "gpu_hosts": ["h0"],
              "roce_switches": switches, "p1": ["l1a", "l1b"],
              "_children": {"leaf_pairs": ["p1"]}}
    return groups, hostvars


def ns_run(name, *argv, check=True):
    return frr_lab.ns_run(NS, name, *argv, check=check)


def _vty(labmod, name, command):
    return frr_lab.vty_json(NS, labmod, name, command)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    p = plan.build_plan(*inventory())
    assert p["summary"]["errors"] == 0, p["violations"]
    wiring = tmp_path_factory.mktemp("bfd") / "devices.json"
    with frr_lab.rendered_lab(NS, ENV, "labbfd", p, wiring) as labmod:
        yield labmod, p


def test_bfd_finds_a_silent_link_failure_well_under_the_hold_time(lab):
    labmod, p = lab
    leaf = p["devices"]["l1a"]
    nbr = [n for n in leaf["bgp"]["neighbors"] if n["name"] == "s1"][0]
    spine_view = nbr["local_address"]          # l1a's address, as s1 sees its neighbour

    def established():
        peers = _vty(labmod, "s1", "show bgp ipv4 unicast summary json")["peers"]
        return peers.get(spine_view, {}).get("state") == "Established"

    def bfd_up():
        peers = _vty(labmod, "s1", "show bfd peers json")
        return any(b.get("peer") == spine_view and b.get("status") == "up" for b in peers)

    assert frr_lab.wait(established, 90, 1) and frr_lab.wait(bfd_up, 30, 0.5), \
        "session or BFD never came up"
    assert leaf["bgp"]["hold_s"] == 9 and leaf["bgp"]["bfd"]
    # l1a's frames to s1 now go to a MAC nobody has: s1 hears nothing from l1a, the link and
    # l1a's own view of it stay up
    ns_run("l1a", "ip", "neigh", "replace", nbr["address"], "lladdr", "02:00:00:00:00:01",
           "nud", "permanent", "dev", nbr["port"])
    start = time.time()
    assert frr_lab.wait(lambda: not established(), 12, 0.1), "s1 kept the session for 12 s"
    took = time.time() - start
    assert took < DETECT_BOUND_S, "s1 dropped the session after %.1f s" % took
