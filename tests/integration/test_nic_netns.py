"""roce.fabric.nic on a real veth in a network namespace made for the test (198.18.0.0/15).

A veth has no DCB and no pause: those settings must come back as unsupported with a reason;
MTU, channels, the /31 and per-NIC policy routing must be applied, and a second run must change
nothing. The namespace is removed by name whatever happens.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NS = "rf-nic-%d" % os.getpid()   # unique, so concurrent runs never share it
ANSIBLE = os.path.join(os.path.dirname(sys.executable), "ansible")

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("ethtool"),
                                reason="needs root and ethtool (make setup installs ethtool)")


def sh(*argv):
    subprocess.run(list(argv), check=True, capture_output=True)


@pytest.fixture
def netns():
    subprocess.run(["ip", "netns", "del", NS], capture_output=True, check=False)
    sh("ip", "netns", "add", NS)
    try:
        sh("ip", "-n", NS, "link", "add", "rdma0", "numtxqueues", "4", "numrxqueues", "4",
           "type", "veth", "peer", "name", "rdma0p", "numtxqueues", "4", "numrxqueues", "4")
        for dev in ("rdma0", "rdma0p", "lo"):
            sh("ip", "-n", NS, "link", "set", dev, "up")
        yield NS
    finally:
        subprocess.run(["ip", "netns", "del", NS], capture_output=True, check=False)


def run_nic(args, *extra):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"))
    out = subprocess.run(["ip", "netns", "exec", NS, ANSIBLE, "localhost", "-c", "local", "-m",
                          "roce.fabric.nic", "-a", json.dumps(args)] + list(extra),
                         capture_output=True, text=True, env=env, cwd=ROOT, check=False).stdout
    result = json.loads(out[out.index(" => {") + 4:])
    result["failed"] = "| FAILED!" in out
    return result


ARGS = {"interfaces": [{"name": "rdma0", "mtu_bytes": 9000, "dscp_prio": {"26": 3, "48": 6},
                        "address": "198.18.64.1/31", "gateway": "198.18.64.0",
                        "route_table": 100}],
        "required_settings": ["mtu", "address"]}


def test_nic_on_veth(netns):
    check = run_nic(ARGS, "--check")
    assert check["changed"]
    state = subprocess.run(["ip", "-n", NS, "-j", "link", "show", "rdma0"], capture_output=True,
                           text=True, check=True).stdout
    assert json.loads(state)[0]["mtu"] == 1500          # check mode changed nothing

    first = run_nic(ARGS)
    assert first["changed"]
    assert {c["setting"] for c in first["changes"]} == {"mtu", "channels", "address",
                                                        "policy_rule", "policy_route"}
    reasons = dict((u["setting"], u["unsupported"]) for u in first["unsupported"])
    assert "no DCB" in reasons["dscp_prio"] and "pause" in reasons["global_pause"]
    rules = subprocess.run(["ip", "-n", NS, "rule"], capture_output=True, text=True,
                           check=True).stdout
    assert "from 198.18.64.1 lookup 100" in rules
    route = subprocess.run(["ip", "-n", NS, "route", "show", "table", "100"],
                           capture_output=True, text=True, check=True).stdout
    assert "default via 198.18.64.0 dev rdma0" in route

    second = run_nic(ARGS)
    assert not second["changed"] and second["changes"] == []


def test_required_dcb_fails_on_veth(netns):
    args = dict(ARGS, required_settings=["dscp_prio"])
    result = run_nic(args)
    assert result["failed"] and \
        "rdma0 dscp_prio (unsupported on no-dcb: the netdev has no DCB" in result["msg"]
    state = subprocess.run(["ip", "-n", NS, "-j", "link", "show", "rdma0"], capture_output=True,
                           text=True, check=True).stdout
    assert json.loads(state)[0]["mtu"] == 1500          # failed before writing anything


def test_missing_interface_names_both(netns):
    args = {"interfaces": [{"name": "rdma7", "mtu_bytes": 9000}]}
    result = run_nic(args)
    assert result["failed"] and "rdma7" in result["msg"] and "rdma0" in result["msg"]


def test_nic_facts_on_veth(netns):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"))
    out = subprocess.run(["ip", "netns", "exec", NS, ANSIBLE, "localhost", "-c", "local", "-m",
                          "roce.fabric.nic_facts"], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout
    facts = json.loads(out[out.index(" => {") + 4:])["ansible_facts"]["roce_nics"]
    assert sorted(facts) == ["rdma0", "rdma0p"]
    rdma0 = facts["rdma0"]
    assert (rdma0["driver"], rdma0["driver_stack"], rdma0["dscp_prio"], rdma0["pause"]) == \
        ("veth", "no-dcb", None, None)
    assert rdma0["channels"]["max"]["rx"] == 4
