#!/usr/bin/env python
"""A leaf-spine fabric of network namespaces, wired exactly as the roce.fabric plan cables it.

usage: lab.py up DEVICES.json | down

Every device of the plan (DEVICES.json: the plan's ``devices``, written by create.yml) becomes
namespace
rff<ID>-<name> with an sshd on 198.19.<ID>.N (a bridge in the root namespace holds .1) and its
planned ports as veth ends named like the plan (Ethernet0 on SONiC leaves, rdma0 on hosts).
Switches also run FRR's zebra and bgpd (as SONiC's bgp container does) with an empty bgpd.conf,
IPv4 forwarding and L4 ECMP hashing; the deploy gives them addresses, MTU and BGP. State (keys,
FRR sockets and configs, pids, logs) lives in LAB; down kills every process in each namespace
and removes what up made.
"""
import json
import os
import shutil
import subprocess
import sys
import time

# ROCE_LAB_ID (1-249; `make molecule` derives it from the checkout's path) keeps the names,
# addresses and paths of two checkouts' labs apart; another lab (tests/integration/
# test_three_tier_frr.py) picks its own names and subnet.
ID = os.environ.get("ROCE_LAB_ID") or "200"
LAB = os.environ.get("ROCE_FABRIC_LAB_DIR", "/tmp/roce-fabric-fabric-lab-" + ID)
NS = os.environ.get("ROCE_FABRIC_LAB_NS", "rff%s-" % ID)
BRIDGE = os.environ.get("ROCE_FABRIC_LAB_BRIDGE", "rffbr" + ID)
MGMT = os.environ.get("ROCE_FABRIC_LAB_MGMT", "198.19." + ID) + ".%d"
MGMT_LINK = os.environ.get("ROCE_FABRIC_LAB_LINK", "rfm%s-" % ID)
# ROCE_FABRIC_LAB_BFDD=1: switches also run bfdd (the rendered `neighbor X bfd` lines then
# bring BFD sessions up; SONiC starts bfdd only where its image has it, docs/rendering.md)
DAEMONS = ("zebra", "bgpd") + (("bfdd",) if os.environ.get("ROCE_FABRIC_LAB_BFDD") == "1"
                               else ())
# ip netns exec bind-mounts /etc/netns/<ns>/<x> over /etc/<x> only where /etc/<x> exists; a
# missing target leaves the namespace on the real /etc, shared by every lab host (their plans
# overwrote each other: the verify flake of a first run on a fresh machine). up() makes the
# targets (and down() removes those it made, if empty) and checks the isolation.
ETC_TARGETS = ("sysctl.d", "roce-fabric")
SSHD = """ListenAddress {addr}
HostKey {d}/hostkey
PidFile {d}/sshd.pid
AuthorizedKeysFile {lab}/id_ed25519.pub
PermitRootLogin prohibit-password
PasswordAuthentication no
UsePAM no
StrictModes no
MaxSessions 50
MaxStartups 50
Subsystem sftp internal-sftp
"""


def sh(*argv, check=True):
    return subprocess.run(argv, check=check, capture_output=True, text=True)


def ns_exec(ns, *argv, check=True):
    return sh("ip", "netns", "exec", ns, *argv, check=check)


def down():
    state = os.path.join(LAB, "devices.json")
    names = json.load(open(state)) if os.path.exists(state) else []
    for name in names:
        ns = NS + name
        pids = sh("ip", "netns", "pids", ns, check=False).stdout.split()
        if pids:
            sh("kill", *pids, check=False)
            time.sleep(0.2)
            sh("kill", "-9", *pids, check=False)
        sh("ip", "netns", "del", ns, check=False)
        sh("ip", "link", "del", MGMT_LINK + name[:10], check=False)
        shutil.rmtree("/var/run/frr/" + ns, ignore_errors=True)
        shutil.rmtree("/etc/netns/" + ns, ignore_errors=True)
    sh("ip", "link", "del", BRIDGE, check=False)
    made = os.path.join(LAB, "etc-targets.json")
    # Removing a mount target detaches the bind mounts of every namespace using it (Linux >=
    # 3.18): only when no other lab's namespace (another checkout's, side by side) is left.
    others = os.listdir("/etc/netns") if os.path.isdir("/etc/netns") else []
    for target in (json.load(open(made)) if os.path.exists(made) and not others else []):
        try:
            os.rmdir(target)
        except OSError:
            pass
    shutil.rmtree(LAB, ignore_errors=True)


def up(wiring_path):
    down()
    plan = json.load(open(wiring_path))
    wiring = {"switches": dict((n, d) for n, d in plan.items() if d["kind"] != "host"),
              "hosts": dict((n, d) for n, d in plan.items() if d["kind"] == "host")}
    devices = sorted(wiring["switches"]) + sorted(wiring["hosts"])
    os.makedirs(LAB)
    json.dump(devices, open(os.path.join(LAB, "devices.json"), "w"))
    made = [os.path.join("/etc", t) for t in ETC_TARGETS if not os.path.isdir("/etc/" + t)]
    for target in made:
        os.makedirs(target)
    json.dump(made, open(os.path.join(LAB, "etc-targets.json"), "w"))
    os.makedirs("/run/sshd", exist_ok=True)
    sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", LAB + "/id_ed25519")
    sh("ip", "link", "add", BRIDGE, "type", "bridge")
    sh("ip", "addr", "add", MGMT % 1 + "/24", "dev", BRIDGE)
    sh("ip", "link", "set", BRIDGE, "up")
    addresses = {}
    for n, name in enumerate(devices):
        ns = NS + name
        addresses[name] = MGMT % (11 + n)
        os.makedirs("/etc/netns/%s/sysctl.d" % ns)
        os.makedirs("/etc/netns/%s/roce-fabric" % ns)
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "add", MGMT_LINK + name[:10], "type", "veth", "peer", "name", "eth0",
           "netns", ns)
        sh("ip", "link", "set", MGMT_LINK + name[:10], "master", BRIDGE, "up")
        ns_exec(ns, "ip", "addr", "add", addresses[name] + "/24", "dev", "eth0")
        ns_exec(ns, "ip", "link", "set", "eth0", "up")
        ns_exec(ns, "ip", "link", "set", "lo", "up")
    done = set()
    for name, sw in sorted(wiring["switches"].items()):
        for port in sw["ports"]:
            if not port.get("peer"):
                continue
            key = tuple(sorted([(name, port["name"]), (port["peer"], port["peer_port"])]))
            if key in done:
                continue
            done.add(key)
            sh("ip", "link", "add", port["name"], "netns", NS + name, "type", "veth",
               "peer", "name", port["peer_port"], "netns", NS + port["peer"])
            ns_exec(NS + name, "ip", "link", "set", port["name"], "up")
            ns_exec(NS + port["peer"], "ip", "link", "set", port["peer_port"], "up")
    for name in wiring["switches"]:
        router(name)
    for name in devices:
        sshd(name, addresses[name])
        isolated(NS + name)
    json.dump(addresses, open(os.path.join(LAB, "addresses.json"), "w"), indent=1)


def isolated(ns):
    """Fail loudly unless the namespace writes its own /etc/roce-fabric."""
    marker = "/etc/roce-fabric/.lab-" + ns
    ns_exec(ns, "touch", marker)
    if os.path.exists(marker):
        raise SystemExit("%s shares the root /etc/roce-fabric: ip netns exec did not bind "
                         "/etc/netns/%s/roce-fabric" % (ns, ns))


def router(name):
    ns = NS + name
    d = os.path.join(LAB, ns, "frr")   # also the vty socket directory
    os.makedirs(d)
    os.makedirs("/var/run/frr/" + ns, exist_ok=True)
    ns_exec(ns, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1",
            "net.ipv4.fib_multipath_hash_policy=1")
    for daemon in DAEMONS:
        with open(os.path.join(d, daemon + ".conf"), "w") as handle:
            handle.write("frr defaults datacenter\nhostname %s\n" % name)
    sh("chown", "-R", "frr:frr", d, "/var/run/frr/" + ns)
    for daemon in DAEMONS:
        extra = ["--bfdctl", d + "/bfdd.sock"] if daemon == "bfdd" else []
        ns_exec(ns, "/usr/lib/frr/" + daemon, "-d", "-N", ns, "-f", "%s/%s.conf" % (d, daemon),
                "-i", "%s/%s.pid" % (d, daemon), "--vty_socket", d, "-z", d + "/zserv.api",
                *extra)


def sshd(name, addr):
    ns = NS + name
    d = os.path.join(LAB, ns)
    os.makedirs(d, exist_ok=True)
    sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", d + "/hostkey")
    with open(d + "/sshd_config", "w") as handle:
        handle.write(SSHD.format(addr=addr, d=d, lab=LAB))
    ns_exec(ns, "unshare", "--uts", "sh", "-c", "hostname %s && exec /usr/sbin/sshd -f %s "
            "-E %s/sshd.log" % (name, d + "/sshd_config", d))
    deadline = time.time() + 5
    while time.time() < deadline:
        if os.path.exists(d + "/sshd.pid"):
            return
        time.sleep(0.1)
    raise SystemExit("sshd of %s did not start: see %s/sshd.log" % (name, d))


if __name__ == "__main__":
    if sys.argv[1:2] == ["up"] and len(sys.argv) == 3:
        up(sys.argv[2])
    elif sys.argv[1:] == ["down"]:
        down()
    else:
        sys.exit(__doc__.split("\n\n")[1])
