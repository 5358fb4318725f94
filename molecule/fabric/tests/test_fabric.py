"""The deployed lab fabric, checked from the controller (testinfra local backend, ip netns exec).

Expected values are fabric facts, not our code's output: 2 spines, so a leaf reaches every
remote host prefix over 2 next hops; a spine has one link per leaf; host MTU 9000, so an
8972-byte ICMP payload (+ 28 bytes of headers) crosses with DF set and 8973 does not.
"""
import hashlib
import ipaddress
import json
import os
import signal
import subprocess
import time

import pytest

testinfra_hosts = ["local://"]

LAB_ID = os.environ.get("ROCE_LAB_ID") or "200"      # as lab.py: names and paths of this run
LAB = "/tmp/roce-fabric-fabric-lab-" + LAB_ID
NS = "rff%s-" % LAB_ID
EPHEMERAL = os.environ.get("MOLECULE_EPHEMERAL_DIRECTORY", "")
PROJECT = os.environ.get("MOLECULE_PROJECT_DIRECTORY", os.getcwd())
SPINES = ["spine1", "spine2"]
LEAVES = ["leaf1a", "leaf1b", "leaf2a", "leaf2b"]


def devices():
    with open(os.path.join(EPHEMERAL, "lab-devices.json")) as handle:
        return json.load(handle)


def ns(name, *argv):
    return subprocess.run(["ip", "netns", "exec", NS + name] + list(argv),
                          capture_output=True, text=True, check=False)


def vtysh(name, command):
    out = ns(name, "vtysh", "--vty_socket", "%s/%s%s/frr" % (LAB, NS, name), "-c", command)
    assert out.returncode == 0, out.stderr
    return out.stdout


def host_address(host, nic):
    for n in devices()[host]["nics"]:
        if n["name"] == nic:
            return n["address"].split("/")[0]
    raise KeyError(nic)


def fingerprint(name):
    """A switch's deployed state: persistent bgpd.conf, FRR's running config, its addresses."""
    with open("%s/%s%s/frr/bgpd.conf" % (LAB, NS, name), "rb") as handle:
        conf = hashlib.sha256(handle.read()).hexdigest()
    running = vtysh(name, "show running-config")
    addrs = ns(name, "ip", "-br", "addr", "show").stdout
    return conf, running, addrs


def roll(*extra, **kw):
    """The leaf-pair roll as a user runs it; stdout with whitespace folded (the callback wraps
    long messages)."""
    result = subprocess.run(
        ["ansible-playbook", os.path.join(PROJECT, "site.yml"),
         "--inventory", os.path.join(EPHEMERAL, "inventory"),
         "--extra-vars", "switch_output_dir=%s/intended" % EPHEMERAL,
         "--tags", "leaf", "--limit", kw.get("limit", "leaf_pair1")] + list(extra),
        capture_output=True, text=True, check=False, cwd=PROJECT,
        env=dict(os.environ, ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0"))
    with open(os.path.join(EPHEMERAL, "roll-%d.log" % time.time()), "w") as log:
        log.write(result.stdout + result.stderr)
    result.stdout = " ".join((result.stdout + result.stderr).split())
    return result


def test_every_bgp_session_is_established():
    for name in SPINES + LEAVES:
        peers = json.loads(vtysh(name, "show bgp ipv4 unicast summary json"))["peers"]
        assert len(peers) == (4 if name in SPINES else 2), (name, sorted(peers))
        assert set(p["state"] for p in peers.values()) == {"Established"}, (name, peers)


def test_every_leaf_reaches_remote_hosts_through_all_spines():
    plan = devices()
    for leaf in LEAVES:
        remote = [p["address"] for other in LEAVES if other != leaf
                  for p in plan[other]["ports"] if p["peer_kind"] == "host"]
        assert len(remote) == 6                       # 2 host ports on each of 3 other leaves
        routes = json.loads(ns(leaf, "ip", "-j", "route", "show").stdout)
        table = dict((r["dst"], r) for r in routes)
        for address in remote:
            net = str(ipaddress.ip_interface(address).network)
            hops = table[net].get("nexthops", [])
            assert len(hops) == 2, (leaf, net, table.get(net))
            assert len(set(h["dev"] for h in hops)) == 2   # two different uplinks


def test_jumbo_frames_cross_the_fabric_with_df_set():
    src, dst = host_address("gpu1", "rdma0"), host_address("gpu3", "rdma1")
    ok = ns("gpu1", "ping", "-M", "do", "-s", "8972", "-c", "3", "-W", "2", "-I", src, dst)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    too_big = ns("gpu1", "ping", "-M", "do", "-s", "8973", "-c", "1", "-W", "2", "-I", src, dst)
    assert too_big.returncode != 0


def test_check_diff_shows_a_drifted_switch_and_changes_nothing():
    ns("leaf2b", "ip", "link", "set", "dev", "Ethernet16", "mtu", "1500")
    try:
        result = roll("--check", "--diff", limit="leaf_pair2")
        mtu = ns("leaf2b", "cat", "/sys/class/net/Ethernet16/mtu").stdout.strip()
    finally:
        ns("leaf2b", "ip", "link", "set", "dev", "Ethernet16", "mtu", "9216")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "Ethernet16 mtu: 1500" in result.stdout and "Ethernet16 mtu: 9216" in result.stdout
    assert mtu == "1500"


def test_rolling_one_pair_loses_nothing_on_the_other_pair():
    # gpu3 rdma0 sits on leaf2a, gpu4 rdma1 on leaf2b: the stream crosses the spines.
    src, dst = host_address("gpu3", "rdma0"), host_address("gpu4", "rdma1")
    before = dict((leaf, fingerprint(leaf)) for leaf in ("leaf2a", "leaf2b"))
    stream = subprocess.Popen(["ip", "netns", "exec", NS + "gpu3", "ping", "-q", "-i", "0.05",
                               "-w", "60", "-c", "100000", "-I", src, dst],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(1)
    result = roll("--extra-vars", "switch_deploy_force=true")
    time.sleep(1)
    stream.send_signal(signal.SIGINT)            # ping prints its statistics on SIGINT
    out = stream.communicate()[0]
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    # the rollout waves: one leaf of the pair per wave
    assert "wave 3 of 4: leaf1a verified" in result.stdout
    assert "wave 4 of 4: leaf1b verified" in result.stdout
    assert "TASK [roce.fabric.switch_deploy : Drain (RFC 8326" in result.stdout
    transmitted = int(out.split(" packets transmitted", maxsplit=1)[0].split()[-1])
    assert transmitted > 50, out
    assert " 0% packet loss" in out, out
    assert dict((leaf, fingerprint(leaf)) for leaf in ("leaf2a", "leaf2b")) == before
    test_every_bgp_session_is_established()


@pytest.fixture
def bgpd_stopped_on_leaf1a():
    frr = "%s/%sleaf1a/frr" % (LAB, NS)
    with open(frr + "/bgpd.pid") as handle:
        os.kill(int(handle.read().strip()), 15)
    time.sleep(1)
    yield
    ns("leaf1a", "/usr/lib/frr/bgpd", "-d", "-N", NS + "leaf1a", "-f", frr + "/bgpd.conf",
       "-i", frr + "/bgpd.pid", "--vty_socket", frr, "-z", frr + "/zserv.api")


def test_a_failing_roll_stops_rolls_the_device_back_and_leaves_the_other_pair(
        bgpd_stopped_on_leaf1a):
    with open("%s/%sleaf1a/frr/bgpd.conf" % (LAB, NS), "rb") as handle:
        leaf1a_conf = handle.read()
    leaf1a_addrs = ns("leaf1a", "ip", "-br", "addr", "show").stdout
    others = dict((leaf, fingerprint(leaf)) for leaf in ("leaf2a", "leaf2b"))
    result = roll("--extra-vars", "switch_deploy_force=true")
    assert result.returncode != 0
    assert "leaf1a: deploy failed at" in result.stdout
    assert "Rolled back - config_db restored" in result.stdout
    assert ("Rollout: stopped in wave 3 of 4 - the waves before it verified; the other "
            "switches of this wave finish their roll; 1 later wave(s) (1 switch(es)) "
            "untouched") in result.stdout
    assert "leaf1a verified" not in result.stdout and "leaf1b verified" not in result.stdout
    with open("%s/%sleaf1a/frr/bgpd.conf" % (LAB, NS), "rb") as handle:
        assert handle.read() == leaf1a_conf
    assert ns("leaf1a", "ip", "-br", "addr", "show").stdout == leaf1a_addrs
    assert dict((leaf, fingerprint(leaf)) for leaf in ("leaf2a", "leaf2b")) == others
