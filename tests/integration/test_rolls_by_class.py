"""Rolls driven by the disruption class, on real FRR (issue 22, item 3).

The molecule `fabric` lab (molecule/fabric/lab.py: 2 spines, 2 leaf pairs, 4 dual-attached
hosts as network namespaces with FRR and sshd, wired from the plan) with its own names, started
from the state a converge leaves (every switch's rendered netdevs and bgpd.conf, set directly
here to save the converge's two minutes). Then, as a user would, a change in leaf pair 1's
group_vars and `ansible-playbook site.yml --tags leaf --limit leaf_pair1` over SSH, while a
20 pkt/s ping stream runs from gpu1 (leaf1a) to gpu3 (leaf2a) across the spines:

- an ECN marking probability (roce_lossless.ecn.pmax; WRED_PROFILE only: hitless) rolls
  without a drain: a watcher reading leaf1a's and leaf1b's FRR running config every 0.2 s
  never sees `bgp graceful-shutdown`, no drained bgpd.conf is staged, the Drain task does not
  run; the deployed config_db carries the new probability; 0 packets lost;
- an ECMP hash-field change (SWITCH_HASH: traffic-affecting) rolls drained: the watcher sees
  graceful shutdown on both leaves during the roll, none after it; 0 packets lost.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import frr_lab
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy import verify
from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
LAB_ID = os.environ.get("ROCE_LAB_ID") or "200"
NS = "rcl%s-" % LAB_ID
LAB_DIR = "/tmp/roce-fabric-class-lab-" + LAB_ID
ENV = {"ROCE_FABRIC_LAB_NS": NS, "ROCE_FABRIC_LAB_BRIDGE": "rclbr" + LAB_ID,
       "ROCE_FABRIC_LAB_MGMT": "198.19." + LAB_ID, "ROCE_FABRIC_LAB_LINK": "rcm%s-" % LAB_ID,
       "ROCE_FABRIC_LAB_DIR": LAB_DIR}
LEAVES = ("leaf1a", "leaf1b")

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/usr/lib/frr/bgpd"),
    reason="needs root and FRR (tools/setup-system.sh installs it)")

PLAN_DUMP = """---
- name: Hand the plan's devices to the test
  hosts: roce_switches:gpu_hosts
  gather_facts: false
  tasks:
    - name: Plan
      ansible.builtin.include_role:
        name: roce.fabric.plan
      vars:
        plan_show_report: false
        plan_return_plan: true
      run_once: true
    - name: Write the devices
      ansible.builtin.copy:
        content: "{{ plan_result.plan.devices | to_json }}"
        dest: "{{ devices_json }}"
        mode: "0644"
      delegate_to: localhost
      run_once: true
"""


def ns_run(name, *argv, check=True):
    return frr_lab.ns_run(NS, name, *argv, check=check)


def frr_dir(name):
    return os.path.join(LAB_DIR, NS + name, "frr")


def playbook(work, *args):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0", ANSIBLE_HOST_KEY_CHECKING="False",
               ANSIBLE_PIPELINING="True", ANSIBLE_FORKS="10", **ENV)
    result = subprocess.run(
        [os.path.join(BIN, "ansible-playbook"), "-i", str(work / "inventory" / "hosts.yml"),
         "-e", "switch_output_dir=%s" % (work / "intended")] + list(args),
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    with open(work / ("run-%d.log" % time.time()), "w") as log:
        log.write(result.stdout + result.stderr)
    result.folded = " ".join((result.stdout + result.stderr).split())
    return result


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("rolls-by-class")
    shutil.copytree(os.path.join(ROOT, "molecule", "fabric", "inventory"), work / "inventory")
    # this lab's names and directory (group_vars/all/lab.yml derives them from ROCE_LAB_ID)
    (work / "inventory" / "group_vars" / "all" / "zz-class-lab.yml").write_text(
        "fabric_lab_dir: %s\nfabric_lab_ns: %s\n" % (LAB_DIR, NS))
    (work / "inventory" / "group_vars" / "leaf_pair1").mkdir()
    with frr_lab.lab(ENV, "lab_class") as labmod:
        (work / "plan.yml").write_text(PLAN_DUMP)
        devices_json = work / "devices.json"
        dumped = playbook(work, str(work / "plan.yml"), "-e", "devices_json=%s" % devices_json)
        assert dumped.returncode == 0, dumped.stdout[-3000:]
        # the render the lab starts from: its configs become the switches' state and their
        # deployed-state record (_deployed)
        baseline = playbook(work, "site.yml", "-e", '{"roce_deploy": false}')
        assert baseline.returncode == 0, baseline.stdout[-3000:]
        devices = json.loads(devices_json.read_text())
        labmod.up(str(devices_json))
        for name, dev in devices.items():
            if dev["kind"] == "switch":
                _deployed(work, name)
            else:
                frr_lab.address_nics(NS, name, dev)
        bad = _converged(devices)
        assert not bad, bad
        yield work, devices


def _deployed(work, name):
    """The state switch_deploy leaves: netdevs from config_db, the persistent bgpd.conf loaded,
    the deployed config_db.json recorded."""
    configs = work / "intended" / "configs"
    config_db = json.loads((configs / ("%s.json" % name)).read_text())
    frr_lab.apply_netdevs(NS, name, config_db)
    d = frr_dir(name)
    with open(os.path.join(d, "bgpd.conf"), "w") as handle:
        handle.write((configs / ("%s.bgpd.conf" % name)).read_text().rstrip("\n") + "\n")
    ns_run(name, "/usr/lib/frr/frr-reload.py", "--daemon", "bgpd", "--vty_socket", d,
           "--bindir", "/usr/bin", "--confdir", d, "--rundir", d, "--reload",
           os.path.join(d, "bgpd.conf"))
    stage = os.path.join(LAB_DIR, NS + name, "stage")
    os.makedirs(stage, exist_ok=True)
    with open(os.path.join(stage, "config_db.json"), "w") as handle:
        handle.write(json.dumps(config_db, indent=4, sort_keys=True) + "\n")
    # and the deployed-state record the role keeps on the controller (the change plan's baseline)
    record = work / "intended" / "deployed" / "configs"
    record.mkdir(parents=True, exist_ok=True)
    for suffix in (".json", ".bgpd.conf"):
        shutil.copy(configs / (name + suffix), record / (name + suffix))


def _converged(devices, timeout_s=90):
    plan = {"devices": devices}
    deadline = time.time() + timeout_s
    while True:
        bad = {}
        for name, dev in devices.items():
            if dev["kind"] != "switch":
                continue
            summary = ns_run(name, "vtysh", "--vty_socket", frr_dir(name), "-c",
                             "show bgp ipv4 unicast summary json").stdout
            routes = ns_run(name, "ip", "-j", "route", "show").stdout
            result = verify.check(plan_targets.targets(name, plan), json.loads(summary),
                                  json.loads(routes))
            if not result["ok"]:
                bad[name] = result["summary"]
        if not bad or time.time() > deadline:
            return bad
        time.sleep(2)


class DrainWatcher(threading.Thread):
    """Reads the watched switches' FRR running config every 0.2 s; remembers which were ever
    drained, and with ``route`` ((switch, prefix)) the fewest next hops that switch's kernel
    route to the prefix had (a drained spine leaves the leaves' ECMP sets)."""

    def __init__(self, names=LEAVES, route=None):
        super().__init__(daemon=True)
        self.names, self.route = names, route
        self.drained, self.reads, self.stop = set(), 0, threading.Event()
        self.fewest_nexthops = None

    def run(self):
        while not self.stop.is_set():
            for name in self.names:
                out = ns_run(name, "vtysh", "--vty_socket", frr_dir(name), "-c",
                             "show running-config", check=False).stdout
                self.reads += 1
                if "bgp graceful-shutdown" in out:
                    self.drained.add(name)
            if self.route:
                width = nexthops(*self.route)
                self.fewest_nexthops = min(width, self.fewest_nexthops or width)
            time.sleep(0.2)


def nexthops(switch, prefix):
    """How many next hops ``switch``'s kernel route to ``prefix`` has (0: no route)."""
    rows = json.loads(ns_run(switch, "ip", "-j", "route", "show", prefix, check=False).stdout
                      or "[]")
    return len(rows[0].get("nexthops") or [rows[0]]) if rows else 0


def roll_under_ping(work, devices, change, group="leaf_pair1", run=("leaf", "leaf_pair1"),
                    watcher=None):
    """Write ``group``'s change, roll it (--tags, --limit ``run``) under a ping stream gpu1 ->
    gpu3 while watching for a drain; (result, ping statistics, switches seen drained, watcher
    reads)."""
    (work / "inventory" / "group_vars" / group).mkdir(exist_ok=True)
    (work / "inventory" / "group_vars" / group / "change.yml").write_text(change)
    src = devices["gpu1"]["nics"][0]
    dst = devices["gpu3"]["nics"][0]["address"].split("/")[0]
    assert src["leaf"] == "leaf1a" and devices["gpu3"]["nics"][0]["leaf"] == "leaf2a"
    stream = subprocess.Popen(["ip", "netns", "exec", NS + "gpu1", "ping", "-q", "-i", "0.05",
                               "-w", "240", "-I", src["address"].split("/")[0], dst],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    watcher = watcher or DrainWatcher()
    watcher.start()
    try:
        time.sleep(1)
        result = playbook(work, "site.yml", "--tags", run[0], "--limit", run[1])
        time.sleep(1)
    finally:
        watcher.stop.set()
        watcher.join()
        stream.send_signal(signal.SIGINT)          # ping prints its statistics on SIGINT
        out = stream.communicate(timeout=10)[0]
    print("%s: ping %s; FRR running config read %d times, drained: %s" % (
        change.replace("\n", " "), " ".join(out.rsplit("---", maxsplit=1)[-1].split()), watcher.reads,
        sorted(watcher.drained) or "never"))
    return result, out, watcher.drained, watcher.reads


def task_output(folded, name):
    """What the run printed for the switch_deploy task starting with ``name``, in every wave."""
    marker = "TASK [roce.fabric.switch_deploy : " + name
    assert marker in folded, name
    return " ".join(part.split("TASK [", 1)[0] for part in folded.split(marker)[1:])


def _loss(out):
    transmitted = int(out.split(" packets transmitted", maxsplit=1)[0].split()[-1])
    received = int(out.split(" received", maxsplit=1)[0].split()[-1])
    return transmitted, received


def test_a_hitless_change_rolls_without_a_drain_and_loses_nothing(lab):
    work, devices = lab
    result, out, drained, reads = roll_under_ping(
        work, devices, "roce_lossless:\n  ecn: {pmax: 0.1}\n")
    assert result.returncode == 0, result.folded[-4000:]
    assert "leaf1a hitless WRED_PROFILE ~1" in result.folded
    assert "leaf1a: hitless in this run's change plan (WRED_PROFILE ~1) -> apply, verify " \
           "(no drain)" in result.folded
    # the pair rule: one leaf of the pair per wave
    assert "wave 3 of 4: leaf1a verified" in result.folded
    assert "wave 4 of 4: leaf1b verified" in result.folded
    # no drain: never seen in FRR, the drained copy never staged, the Drain task never ran
    assert reads > 20 and drained == set(), (reads, drained)
    for leaf in LEAVES:
        assert not os.path.exists(os.path.join(frr_dir(leaf), "bgpd.roce-fabric-drain.conf"))
    assert "changed:" not in task_output(result.folded, "Drain (RFC 8326")
    # what the roll deployed: the new marking probability, recorded as deployed
    with open(os.path.join(LAB_DIR, NS + "leaf1a", "stage", "config_db.json")) as handle:
        wred = json.load(handle)["WRED_PROFILE"]
    assert set(p["green_drop_probability"] for p in wred.values()) == {"10"}
    # ... and in the deployed-state record, for the rolled pair only: the next change plan's
    # baseline (the next test's change record holds SWITCH_HASH alone because of it)
    record = work / "intended" / "deployed" / "configs"
    for leaf in LEAVES:
        recorded = json.loads((record / (leaf + ".json")).read_text())["WRED_PROFILE"]
        assert set(p["green_drop_probability"] for p in recorded.values()) == {"10"}
    other = json.loads((record / "leaf2a.json").read_text())["WRED_PROFILE"]
    assert "10" not in set(p["green_drop_probability"] for p in other.values())
    transmitted, received = _loss(out)
    assert transmitted > 50 and received == transmitted and " 0% packet loss" in out, out


def test_a_traffic_affecting_change_rolls_drained_and_loses_nothing(lab):
    work, devices = lab
    result, out, drained, reads = roll_under_ping(
        work, devices, "roce_lossless:\n  ecn: {pmax: 0.1}\n"
        "roce_ecmp: {hash_fields: [src_ip, dst_ip, l4_src_port, l4_dst_port]}\n")
    assert result.returncode == 0, result.folded[-4000:]
    assert "leaf1a traffic-affecting SWITCH_HASH ~1;" in result.folded      # SWITCH_HASH alone
    assert "leaf1a: traffic-affecting in this run's change plan (SWITCH_HASH ~1) -> drain, " \
           "apply, verify, undrain" in result.folded
    drain_task = task_output(result.folded, "Drain (RFC 8326")
    assert "changed: [leaf1a]" in drain_task and "changed: [leaf1b]" in drain_task
    assert drained == set(LEAVES), (reads, drained)           # drained during the roll ...
    for leaf in LEAVES:                                       # ... and undrained after it
        running = ns_run(leaf, "vtysh", "--vty_socket", frr_dir(leaf), "-c",
                         "show running-config").stdout
        assert "bgp graceful-shutdown" not in running
    transmitted, received = _loss(out)
    assert transmitted > 50 and received == transmitted and " 0% packet loss" in out, out


# Issue 28: bgpd objects another team configured on leaf1a - a border neighbour with its
# route-map and prefix-list, typed in vtysh (running only).
FOREIGN_BGPD = ["ip prefix-list STORAGE-IN seq 5 permit 10.20.0.0/16 le 24",
                "route-map STORAGE-IN permit 10", "match ip address prefix-list STORAGE-IN",
                "exit", "router bgp %d", "neighbor 10.0.0.9 remote-as 65000",
                "address-family ipv4 unicast", "neighbor 10.0.0.9 route-map STORAGE-IN in"]
FOREIGN_NAMES = ["neighbor 10.0.0.9", "route-map STORAGE-IN", "ip prefix-list STORAGE-IN"]


def _bgpd(name):
    return ns_run(name, "vtysh", "--vty_socket", frr_dir(name), "-c",
                  "show running-config bgpd").stdout


def test_a_forced_roll_refuses_to_delete_foreign_bgpd_objects_until_named(lab):
    work, devices = lab
    asn = devices["leaf1a"]["bgp"]["asn"]
    argv = ["vtysh", "--vty_socket", frr_dir("leaf1a"), "-c", "configure terminal"]
    for line in FOREIGN_BGPD:
        argv += ["-c", line.replace("%d", str(asn))]
    ns_run("leaf1a", *argv)
    before = _bgpd("leaf1a")
    assert "neighbor 10.0.0.9 remote-as 65000" in before and "route-map STORAGE-IN" in before
    persistent = open(os.path.join(frr_dir("leaf1a"), "bgpd.conf")).read()
    (work / "inventory" / "group_vars" / "leaf_pair1" / "change.yml").write_text("---\n")
    refused = playbook(work, "site.yml", "--tags", "leaf", "--limit", "leaf_pair1",
                       "-e", "switch_deploy_force=true")
    assert refused.returncode != 0, refused.folded[-3000:]
    assert "leaf1a: nothing was applied" in refused.folded, refused.folded[-3000:]
    for name in FOREIGN_NAMES:
        assert 'bgpd "%s"' % name in refused.folded, name
    assert 'switch_deploy_frr_remove' in refused.folded
    # nothing applied: bgpd's running config byte for byte as before, the file untouched
    assert _bgpd("leaf1a") == before
    assert open(os.path.join(frr_dir("leaf1a"), "bgpd.conf")).read() == persistent
    named = playbook(work, "site.yml", "--tags", "leaf", "--limit", "leaf_pair1",
                     "-e", "switch_deploy_force=true",
                     "-e", json.dumps({"switch_deploy_frr_remove": FOREIGN_NAMES}))
    assert named.returncode == 0, named.folded[-4000:]
    after = _bgpd("leaf1a")
    assert "10.0.0.9" not in after and "STORAGE-IN" not in after, after


def test_a_spine_roll_drains_each_spine_and_loses_nothing(lab):
    """Issue 29, item 3: spines drain like leaves (switch_deploy_drain defaults to true for every
    role). A spine-only ECMP hash change (SWITCH_HASH: traffic-affecting) rolled with
    --tags spine --limit spines: each spine in turn is seen drained, leaf1a's route to gpu3's
    subnet drops to one next hop while a spine is drained (traffic leaves it before it is
    touched) and is back at two after the roll; 0 packets lost."""
    work, devices = lab
    subnet = devices["gpu3"]["nics"][0]["address"]
    prefix = str(__import__("ipaddress").ip_interface(subnet).network)
    assert nexthops("leaf1a", prefix) == 2
    watcher = DrainWatcher(names=("spine1", "spine2"), route=("leaf1a", prefix))
    result, out, drained, reads = roll_under_ping(
        work, devices, "roce_ecmp: {hash_fields: [src_ip, dst_ip, l4_src_port, l4_dst_port]}\n",
        group="spines", run=("spine", "spines"), watcher=watcher)
    assert result.returncode == 0, result.folded[-4000:]
    for spine in ("spine1", "spine2"):
        assert ("%s: traffic-affecting in this run's change plan (SWITCH_HASH ~1) -> drain, "
                "apply, verify, undrain" % spine) in result.folded
        running = ns_run(spine, "vtysh", "--vty_socket", frr_dir(spine), "-c",
                         "show running-config").stdout
        assert "bgp graceful-shutdown" not in running               # undrained after it
    assert drained == {"spine1", "spine2"}, (reads, drained)
    assert watcher.fewest_nexthops == 1, watcher.fewest_nexthops
    assert nexthops("leaf1a", prefix) == 2
    transmitted, received = _loss(out)
    assert transmitted > 50 and received == transmitted and " 0% packet loss" in out, out


def _recorded_hash(work, name):
    record = work / "intended" / "deployed" / "configs" / (name + ".json")
    return json.loads(record.read_text()).get("SWITCH_HASH")


def test_a_fabric_roll_goes_in_waves_stops_after_a_failed_wave_and_resumes(lab):
    """Issue 29, item 4: a change of every leaf (an ECMP hash field: traffic-affecting) rolled
    with --tags leaf and no --limit goes in the plan's waves - wave 3 of 4 (leaf1a, leaf2a),
    then wave 4 (leaf1b, leaf2b), never both leaves of a pair. Once wave 3 is verified and
    recorded, spine1 shuts its BGP session to leaf2b (a fault outside the roll): wave 4's
    verify fails on both its leaves (leaf2b's session is down, leaf1b reaches leaf2b's hosts
    over one spine, not two), each rolls back to its old config (config_db and record as
    before, bgpd undrained), and the rollout stops naming them. With the session back, the rerun
    says wave 3 is verified already and resumes at wave 4."""
    work, devices = lab
    change = "roce_ecmp: {hash_fields: [src_ip, dst_ip, l4_src_port, l4_dst_port, in_port]}\n"
    (work / "inventory" / "group_vars" / "leaves").mkdir(exist_ok=True)
    (work / "inventory" / "group_vars" / "leaves" / "change.yml").write_text(change)
    host_vars = work / "inventory" / "host_vars"
    host_vars.mkdir(exist_ok=True)
    for name in ("leaf1b", "leaf2b"):
        (host_vars / (name + ".yml")).write_text("switch_deploy_verify_retries: 5\n")
    wave4 = ("leaf1b", "leaf2b")
    before = dict((n, _recorded_hash(work, n)) for n in wave4)
    stages = dict((n, os.path.join(LAB_DIR, NS + n, "stage", "config_db.json")) for n in wave4)
    deployed = dict((n, open(path).read()) for n, path in stages.items())
    port = [p for p in devices["leaf2b"]["ports"] if p.get("peer") == "spine1"][0]
    session = ["router bgp %d" % devices["spine1"]["bgp"]["asn"],
               "neighbor %s shutdown" % port["address"].split("/")[0]]
    fault = threading.Thread(target=_after_wave_3, args=(work, session), daemon=True)
    fault.start()
    try:
        failed = playbook(work, "site.yml", "--tags", "leaf")
    finally:
        fault.join(timeout=5)
        _spine1_config(session[:1] + ["no " + session[1]])      # the repair
    text = failed.folded
    assert failed.returncode != 0, text[-4000:]
    assert "rollout: 2 wave(s) of the plan's 4 (4 switch(es))" in text, text[-4000:]
    assert "wave 3 of 4: leaf1a, leaf2a verified" in text, text[-4000:]
    assert "wave 4 of 4:" not in text                    # no switch of wave 4 verified
    for name in wave4:
        assert ('%s: deploy failed at "Verify BGP sessions and ECMP width against the plan"'
                % name) in text, text[-4000:]
        # at its old config: its deployed config_db and its record as before, undrained
        with open(stages[name]) as handle:
            assert handle.read() == deployed[name], name
        assert _recorded_hash(work, name) == before[name]
        assert "bgp graceful-shutdown" not in ns_run(
            name, "vtysh", "--vty_socket", frr_dir(name), "-c", "show running-config").stdout
    assert ("Rollout: stopped in wave 4 of 4 - the waves before it verified; the other "
            "switches of this wave finish their roll; 0 later wave(s)") in text
    progress = json.loads((work / "intended" / "deployed" / "rollout-progress.json").read_text())
    assert sorted(progress["verified"]) == ["leaf1a", "leaf2a"]
    for name in ("leaf1a", "leaf2a"):                     # wave 3: at the new config, recorded
        assert "IN_PORT" in json.dumps(_recorded_hash(work, name)), name
    assert not _converged(devices), "the fabric converges again with the session back"
    resumed = playbook(work, "site.yml", "--tags", "leaf")
    text = resumed.folded
    assert resumed.returncode == 0, text[-4000:]
    assert ("rollout: 1 wave(s) of the plan's 4 (2 switch(es)); waves 3 verified already by "
            "the stopped rollout: resuming at wave 4") in text, text[-3000:]
    assert "wave 3 of 4" not in text and "wave 4 of 4: leaf1b, leaf2b verified" in text
    for name in wave4:
        assert "IN_PORT" in json.dumps(_recorded_hash(work, name)), name
    # the rollout finished: its progress is gone, so the next run rolls every wave again
    assert not (work / "intended" / "deployed" / "rollout-progress.json").exists()


def _spine1_config(lines):
    argv = ["vtysh", "--vty_socket", frr_dir("spine1"), "-c", "configure terminal"]
    for line in lines:
        argv += ["-c", line]
    ns_run("spine1", *argv)


def _after_wave_3(work, lines, timeout_s=240):
    """The fault: once wave 3's leaves are in the record with the new hash, spine1 applies
    ``lines`` (before wave 4 has drained anything: its first tasks take seconds)."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        try:
            done = all("IN_PORT" in json.dumps(_recorded_hash(work, n)) for n in ("leaf1a",
                                                                                  "leaf2a"))
        except (OSError, ValueError):
            done = False
        if done:
            _spine1_config(lines)
            return
        time.sleep(0.1)
