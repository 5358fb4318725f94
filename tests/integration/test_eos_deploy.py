"""The EOS deploy path of site.yml, run with the real arista.eos modules (httpapi) against
eos_eapi.py, a stand-in eAPI endpoint with EOS configuration-session semantics (no EOS runs here)
that refuses what EOS refuses (unknown keywords, ports the model lacks, a sixth pending session:
error 1002, proven in test_eos_standin.py), so every command the deploy sends is one EOS takes.
leaf2a of the example fabric (leaf_pair2 is EOS) is deployed; leaf2b stays offline.

Shows: --check --diff prints the session diff (redacted) and changes nothing; a roll drains,
commits the plan's sections still drained, verifies, undrains and saves, each commit a session
that starts from the running config and carries only plan-owned commands; a second run changes
nothing; a failed verify restores the previous running config, saves nothing and says where the
rollout stopped;
without a base config every section the plan does not own stays byte for byte; on the real
running configs of ../shared/running-configs (skipped when absent) a roll keeps every line the
plan does not own byte for byte, no exec command runs inside a session and no secret is
printed - and so after every commit of the roll (drain, apply, undrain; drain, apply, restore
after a failed verify), replayed from the roll's own requests (stages()), also with their BGP
instance the plan's, where every foreign neighbour, peer group and their route-maps is byte for
byte in every stage; each kind of shared object (a foreign peer with its own outbound policy, a
plan port in a LAG or a VRF, a service sourced from Loopback0) is refused naming both before
any commit. A connection lost in the apply's commit (before or after it commits, eos_eapi.py's
fault.json) ends at the previous config with no session left pending, and a switch lost after it
is named at its new config, drained, and rolled to the plan by a rerun once it answers."""
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(sys.executable)
FIXTURES = os.path.join(ROOT, "tests", "unit", "fixtures", "eos")


SHARED = os.path.join(os.path.dirname(ROOT), "shared", "running-configs", "eos")
REQUIRED = os.environ.get("ROCE_REQUIRE_SONIC_YANG") == "1"


def shared_config(name):
    """A real running config from ../shared/running-configs/eos (never copied into the repo)."""
    path = os.path.join(SHARED, name)
    if not os.path.exists(path):
        if REQUIRED:
            pytest.fail("%s missing: required here (ROCE_REQUIRE_SONIC_YANG=1)" % path)
        pytest.skip("%s not found: real running-config tests skipped" % SHARED)
    with open(path) as handle:
        return handle.read()


def flat(text):
    """Config lines without indentation, comments and 'end', sorted (EOS prints sections in its
    own order; what matters is what the switch holds)."""
    return sorted(line.strip() for line in text.splitlines()
                  if line.strip() and not line.strip().startswith("!") and line.strip() != "end")


# leaf2a's management plane as EOS prints it (the unit tests' fixture): management VRF and
# interface, default route, eAPI and SSH in the VRF, a user, AAA, NTP.
with open(os.path.join(FIXTURES, "management-base.cfg")) as _handle:
    BASE = _handle.read()


def _rendered(inventory_data, inventory, record=None):
    """leaf2a's config as the plan renders it from this inventory (base config included); with
    ``record``, every other switch's configs written there as the deployed-state record (the
    rest of the fabric runs the plan; leaf2a runs an older config and has no record)."""
    from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
    from ansible_collections.roce.fabric.plugins.module_utils.render import outputs
    from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos
    built = plan.build_plan(*inventory_data(str(inventory / "hosts.yml")))
    for name, dev in built["devices"].items() if record else ():
        if dev["kind"] == "switch" and name != "leaf2a":
            for rel, text in outputs.render_switch(dev, ("configs",)).items():
                os.makedirs(os.path.dirname(os.path.join(record, rel)), exist_ok=True)
                with open(os.path.join(record, rel), "w") as handle:
                    handle.write(text)
    return eos.eos_config(built["devices"]["leaf2a"])


@pytest.fixture
def eos_lab(tmp_path, inventory_data):
    state = tmp_path / "leaf2a"
    state.mkdir()
    inventory = tmp_path / "inventory"
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), inventory)
    (inventory / "host_vars").mkdir(exist_ok=True)
    (inventory / "host_vars" / "leaf2a.yml").write_text(
        "roce_eos_base_config: |\n" + "".join("  " + line + "\n" for line in BASE.splitlines()))
    rendered = _rendered(inventory_data, inventory, tmp_path / "intended" / "deployed")
    # The switch runs an older config (one port still at MTU 1500, no drain policy yet) and its
    # management plane, printed the way EOS prints a running config (indented).
    first_mtu = [line for line in flat(rendered) if line.startswith("mtu ")][0]
    previous_text = "".join(
        line.replace(first_mtu, "mtu 1500") + "\n" for line in rendered.splitlines()
        if "RF-DRAIN-IN" not in line and "GSHUT" not in line)
    previous = flat(previous_text)
    (state / "running-config").write_text(previous_text)
    (state / "startup-config").write_text(previous_text)
    for name in ("show-ip-bgp-summary.json", "show-ip-route.json"):
        shutil.copy(os.path.join(FIXTURES, "leaf2a-" + name), state / name)
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "eos_eapi.py"), str(state),
                               "leaf2a"], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    with open(inventory / "host_vars" / "leaf2a.yml", "a") as handle:
        handle.write("roce_deploy: true\nansible_connection: ansible.netcommon.httpapi\n"
                     "ansible_network_os: arista.eos.eos\nansible_host: 127.0.0.1\n"
                     "ansible_httpapi_port: %d\nansible_httpapi_use_ssl: false\n"
                     "ansible_user: admin\nansible_password: lab\n" % port)
    lab = {"state": state, "inventory": inventory, "output": tmp_path / "intended", "port": port,
           "previous": previous, "rendered": flat(rendered), "first_mtu": first_mtu,
           "rendered_text": rendered}
    yield lab
    server.kill()
    server.wait()


def roll(lab, *args):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0", ANSIBLE_DEPRECATION_WARNINGS="0")
    (lab["state"] / "requests.log").write_text("")
    result = subprocess.run(
        [os.path.join(BIN, "ansible-playbook"), "site.yml", "-i", str(lab["inventory"] / "hosts.yml"),
         "--tags", "leaf", "--limit", "leaf_pair2", "-e", "switch_output_dir=%s" % lab["output"]]
        + list(args), cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    result.requests = [json.loads(line) for line in
                       (lab["state"] / "requests.log").read_text().splitlines()]
    result.text = re.sub(r"\s+", " ", result.stdout + result.stderr)
    return result


def running(lab, name="running-config"):
    return flat((lab["state"] / name).read_text())


def committed(result):
    """Commands of every committed session, in order (banners as 'cmd|input')."""
    staged, done = {}, []
    for cmds in result.requests:
        cmds = [c if not isinstance(c, dict) else c["cmd"] if "input" not in c
                else "%s|%s" % (c["cmd"], c["input"]) for c in cmds]
        cmds = [c for c in cmds if c != "enable"]
        if not cmds or not cmds[0].startswith("configure session "):
            continue
        if "show session-config diffs" in cmds:
            if cmds[-1] == "commit":
                done.append(staged[cmds[0]])
        else:
            staged[cmds[0]] = cmds[1:]
    return done


def deploy_output(result):
    """What the switch_deploy role printed (the render stage's file diffs come before it)."""
    text = result.stdout + result.stderr
    return text[text.find("switch_deploy :"):] if "switch_deploy :" in text else text


def exec_log(lab):
    path = lab["state"] / "exec.log"
    return path.read_text().splitlines() if path.exists() else []


def device_refused(lab):
    """Commands the stand-in refused as EOS would (errors.log): none in a roll that passes."""
    path = lab["state"] / "errors.log"
    return path.read_text().splitlines() if path.exists() else []


def recap(result, host):
    return dict((k, int(v)) for k, v in
                re.findall(r"(\w+)=(\d+)", result.text.split("%s :" % host)[-1].split(host)[0])[:8])


def kept_blocks(before_text, after_text, rendered_text):
    """(blocks of ``before_text`` the plan does not own, those that are not byte for byte in
    ``after_text``)."""
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar, ownership
    own = ownership.Ownership(ownership.split_rendered(rendered_text)[0])
    kept = [b for b in grammar.read(before_text) if own.owner(b[0]) is None]
    after = dict((grammar.head_key(h), b) for h, b in grammar.read(after_text))
    return kept, [h for h, b in kept if after.get(grammar.head_key(h)) != b]


def test_check_diff_shows_the_session_diff_and_changes_nothing(eos_lab):
    result = roll(eos_lab, "--check", "--diff")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "-   mtu 1500" in result.stdout and "+   %s" % eos_lab["first_mtu"] in result.stdout
    assert "+   neighbor 198.18.8.64 route-map RF-DRAIN-IN in" in result.stdout
    assert committed(result) == [] and exec_log(eos_lab) == []
    assert running(eos_lab) == eos_lab["previous"]
    assert not os.path.exists(eos_lab["output"] / "configs" / "leaf2a.cfg")   # check: scratch only
    assert "$6$abc$def" not in deploy_output(result)


def test_roll_drains_applies_verifies_undrains_and_saves(eos_lab):
    result = roll(eos_lab)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    drain, applied, undrain = committed(result)
    neighbors = [line.split()[1] for line in eos_lab["rendered"]
                 if line.startswith("neighbor ") and " remote-as " in line]
    assert len(neighbors) == 16
    # the drain only adds the drain: the GSHUT route-map and one line per neighbour
    assert drain[:2] == ["route-map RF-DRAIN-OUT permit 10", "set community GSHUT"]
    assert sorted(c for c in drain if c.endswith("RF-DRAIN-OUT out")) == sorted(
        "neighbor %s route-map RF-DRAIN-OUT out" % n for n in neighbors)
    assert len(drain) == 3 + len(neighbors)
    # the apply sends only plan-owned sections: the changed MTU, the drain-in policy
    assert eos_lab["first_mtu"] in applied and "mtu 1500" not in applied
    assert not [c for c in applied if "Management1" in c or c.startswith(("username", "ntp"))]
    assert "no route-map RF-DRAIN-OUT permit 10" in undrain
    assert ["show ip bgp summary ", "show ip route "] in result.requests   # verified
    assert running(eos_lab) == eos_lab["rendered"] == running(eos_lab, "startup-config")
    assert recap(result, "leaf2a")["failed"] == 0
    assert [line for line in exec_log(eos_lab) if not line.startswith("exec: ")] == []
    assert device_refused(eos_lab) == []

    again = roll(eos_lab)
    assert again.returncode == 0
    assert committed(again) == [] and recap(again, "leaf2a")["changed"] == 0


def _fail_verify(lab):
    summary = json.loads((lab["state"] / "show-ip-bgp-summary.json").read_text())
    for peer in summary["vrfs"]["default"]["peers"].values():   # bgpd down: sessions Idle
        peer.update(peerState="Idle", prefixReceived=0, prefixAccepted=0)
    (lab["state"] / "show-ip-bgp-summary.json").write_text(json.dumps(summary))


def test_failed_verify_restores_the_previous_config(eos_lab):
    _fail_verify(eos_lab)
    result = roll(eos_lab, "-e", "switch_deploy_verify_retries=1",
                  "-e", "switch_deploy_verify_delay_s=0")
    assert result.returncode != 0
    assert 'deploy failed at "Verify BGP sessions and ECMP width against the plan"' in result.text
    assert "Previous running config restored" in result.text
    assert ("Rollout: stopped in wave 3 of 4 - the waves before it verified; the other switches "
            "of this wave finish their roll; 0 later wave(s) (0 switch(es)) untouched. Rerun to "
            "resume at wave 3.") in result.text
    assert len(committed(result)) == 3          # drain, apply (drained), restore
    assert running(eos_lab) == eos_lab["previous"] == running(eos_lab, "startup-config")


def _lose_the_connection(lab, commit, when, down=False):
    """The stand-in drops the connection of the ``commit``-th committing request (eos_eapi.py,
    fault.json): commit 1 of a roll drains, 2 applies, 3 undrains or restores."""
    (lab["state"] / "fault.json").write_text(json.dumps(
        {"commit": commit, "when": when, "down": down}))


def pending_sessions(lab):
    """The switch's pending configuration sessions, asked over eAPI as arista.eos asks."""
    request = json.dumps({"jsonrpc": "2.0", "method": "runCmds", "id": 1, "params": {
        "version": 1, "format": "json", "cmds": ["show configuration sessions"]}}).encode()
    with urllib.request.urlopen("http://127.0.0.1:%d/command-api" % lab["port"], request) as r:
        sessions = json.loads(r.read())["result"][0]["sessions"]
    return sorted(name for name, s in sessions.items() if s["state"] == "pending")


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_connection_lost_in_the_apply_commit_ends_at_the_old_config_and_a_rerun_resumes(
        eos_lab, when):
    """The answer to the apply's commit never comes - the session staged but not committed
    (before), or committed (after): the rescue reads the switch again, aborts the session the
    roll left pending, restores the running config read first; a rerun rolls it to the plan."""
    _lose_the_connection(eos_lab, 2, when)
    result = roll(eos_lab)
    assert result.returncode != 0
    dropped = (eos_lab["state"] / "dropped.log").read_text().splitlines()
    assert len(dropped) == 1 and dropped[0].startswith(when + " ")
    assert ('leaf2a: deploy failed at "Apply the plan\'s sections (config session from the '
            'running config, commit), still drained on a draining switch"') in result.text
    assert "Previous running config restored" in result.text
    assert ("1 configuration session(s) the failure left pending aborted" in result.text) == (
        when == "before")
    assert "Rollout: stopped in wave 3 of 4" in result.text
    assert running(eos_lab) == eos_lab["previous"] == running(eos_lab, "startup-config")
    assert pending_sessions(eos_lab) == []

    again = roll(eos_lab)
    assert again.returncode == 0, again.stdout[-3000:]
    assert running(eos_lab) == eos_lab["rendered"] == running(eos_lab, "startup-config")
    assert pending_sessions(eos_lab) == []


def test_a_switch_lost_after_the_apply_commit_is_named_drained_at_its_new_config(eos_lab):
    """The switch stops answering as it commits the apply: nothing can be read or restored. The
    run names it, says it runs its old or its new config (here the new one, drained - the
    session commit is atomic) and stops; once it answers, a rerun undrains it at the plan."""
    _lose_the_connection(eos_lab, 2, "after", down=True)
    result = roll(eos_lab)
    assert result.returncode != 0
    assert ("Previous running config NOT restored: the switch did not answer") in result.text
    assert ("It runs its old or its new config, never between (an EOS session commit is atomic), "
            "drained (the drain committed); rerun once it answers") in result.text
    assert "Rollout: stopped in wave 3 of 4" in result.text
    now = running(eos_lab)
    drain = [line for line in now if "RF-DRAIN-OUT" in line or line == "set community GSHUT"]
    assert drain and sorted(set(now) - set(drain)) == sorted(set(eos_lab["rendered"]))
    assert running(eos_lab, "startup-config") == eos_lab["previous"]     # nothing saved

    (eos_lab["state"] / "down").unlink()                                # it answers again
    again = roll(eos_lab)
    assert again.returncode == 0, again.stdout[-3000:]
    assert running(eos_lab) == eos_lab["rendered"] == running(eos_lab, "startup-config")


def test_roll_keeps_the_management_plane(eos_lab):
    """No commit sends a management line, and the running config ends with the management
    plane exactly as before."""
    before = (eos_lab["state"] / "running-config").read_text()
    result = roll(eos_lab)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    for config in committed(result):
        for line in flat(BASE):
            assert line not in config or line in ("no shutdown",)
    text = (eos_lab["state"] / "running-config").read_text()
    for block in BASE.split("!\n"):
        assert block in text
    assert kept_blocks(before, text, eos_lab["rendered_text"])[1] == []


def test_without_a_base_config_everything_not_owned_is_kept(eos_lab):
    """The base config is optional: the management plane the switch runs is never sent, so it
    cannot be removed."""
    host_vars = eos_lab["inventory"] / "host_vars" / "leaf2a.yml"
    host_vars.write_text("\n".join(line for line in host_vars.read_text().splitlines()
                                   if line.startswith(("roce_deploy", "ansible_"))) + "\n")
    before = (eos_lab["state"] / "running-config").read_text()
    result = roll(eos_lab)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    after = (eos_lab["state"] / "running-config").read_text()
    kept, changed = kept_blocks(before, after, eos_lab["rendered_text"])
    assert len(kept) >= 8 and changed == []
    for block in BASE.split("!\n"):
        assert block in after


def _seed(lab, text):
    (lab["state"] / "running-config").write_text(text)
    (lab["state"] / "startup-config").write_text(text)


REAL = ["composite-ai-leaf-mgmt.cfg", "kr1-leaf2b-veos-4.27.2F.cfg", "site2-l3-veos-4.32.2F.cfg",
        "avd-dc1-spine1.cfg"]


@pytest.mark.parametrize("name", REAL)
def test_real_running_configs_keep_every_line_the_plan_does_not_own(eos_lab, name):
    """A real vEOS/AVD running config: the roll (drain, apply, verify, undrain, save) keeps
    every section the plan does not own byte for byte; its own BGP instance is replaced only
    because the inventory names it; a second run sends nothing; no exec command runs inside a
    session; no secret reaches the output."""
    text = shared_config(name)
    _seed(eos_lab, text)
    asn = [line.split()[2] for line in text.splitlines() if line.startswith("router bgp ")][0]
    # the lab's base config (another management address, user, NTP) would change this switch's
    # management plane: refused, naming it, nothing committed, no secret printed
    changed = roll(eos_lab, "-e", '{"switch_deploy_eos_remove": ["router bgp %s"]}' % asn)
    assert changed.returncode != 0 and committed(changed) == []
    assert 'management interface "interface Management1": changed' in changed.text
    assert "$6$" not in deploy_output(changed)
    _real_base(eos_lab, text)       # a base config saying what the switch already runs
    refused = roll(eos_lab)
    assert refused.returncode != 0 and "router bgp %s" % asn in refused.text
    assert "switch_deploy_eos_remove" in refused.text and committed(refused) == []
    result = roll(eos_lab, "-e", '{"switch_deploy_eos_remove": ["router bgp %s"]}' % asn)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    after = (eos_lab["state"] / "running-config").read_text()
    kept, changed = kept_blocks(text, after, eos_lab["rendered_text"])
    assert changed == [], changed
    assert len(kept) >= 30
    staged = stages(eos_lab, result, text)          # and so after each commit of the roll
    assert len(staged) == 3 and "RF-DRAIN-OUT" not in staged[-1]
    for stage, staged_text in zip(("drain", "apply", "undrain"), staged):
        assert kept_blocks(text, staged_text, eos_lab["rendered_text"])[1] == [], stage
    assert after.splitlines()[:2] == text.splitlines()[:2]   # the header as it was
    for config in committed(result):
        assert not [c for c in config if c.split()[0] in ("end", "copy", "write", "reload")]
    assert [line for line in exec_log(eos_lab) if not line.startswith("exec: ")] == []
    assert device_refused(eos_lab) == []
    output = deploy_output(result) + deploy_output(refused)
    for secret in ("$6$", "071B245F5A", "SNMP-COMMUNITY-3", "telarista"):
        assert secret not in output
    again = roll(eos_lab)
    assert again.returncode == 0, again.stdout[-3000:]
    assert committed(again) == [] and recap(again, "leaf2a")["changed"] == 0


def _real_base(lab, text):
    """host_vars whose base config says what this switch already runs (its Management1 and
    eAPI blocks), so its management plane is not changed."""
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar
    host_vars = lab["inventory"] / "host_vars" / "leaf2a.yml"
    base = "".join("%s\n%s!\n" % (h, "".join(line + "\n" for line in b))
                   for h, b in grammar.read(text)
                   if h in ("interface Management1", "management api http-commands"))
    host_vars.write_text("roce_eos_base_config: |\n" + "".join(
        "  " + line + "\n" for line in base.splitlines()) + "\n".join(
        line for line in host_vars.read_text().splitlines()
        if line.startswith(("roce_deploy", "ansible_"))) + "\n")


def _post(port, cmds):
    import urllib.request
    body = json.dumps({"jsonrpc": "2.0", "method": "runCmds", "id": "replay",
                       "params": {"version": 1, "cmds": cmds, "format": "json"}}).encode()
    request = urllib.request.Request("http://127.0.0.1:%d/command-api" % port, data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def stages(lab, result, seed):
    """The running config as ``show running-config`` printed it after each commit of a roll.

    The stand-in keeps only the last running config, and eos_eapi.py is not changed for this, so
    the roll's configuration-session requests (requests.log: every command arista.eos sent, in
    order) are replayed into a second stand-in seeded with the same running config, and its
    running config read after each commit. The replay runs the same code on the same input, and
    its last state must equal what the roll left: checked here, so a replay that drifted fails."""
    replay = lab["state"].parent / "replay"
    shutil.rmtree(str(replay), ignore_errors=True)
    replay.mkdir()
    (replay / "running-config").write_text(seed)
    (replay / "startup-config").write_text(seed)
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "eos_eapi.py"), str(replay),
                               "leaf2a"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        out = []
        for cmds in result.requests:
            plain = [c["cmd"] if isinstance(c, dict) else c for c in cmds]
            plain = [c for c in plain if c != "enable"]
            if not plain or not plain[0].startswith("configure session "):
                continue
            _post(port, cmds)
            if plain[-1] == "commit":
                out.append((replay / "running-config").read_text())
    finally:
        server.kill()
        server.wait()
    assert out and out[-1] == (lab["state"] / "running-config").read_text()
    return out


def foreign_bgp(text, rendered_text):
    """The items (a line and its sub-lines) of the top-level router bgp the plan does not own:
    other neighbours and peer groups, their route-maps, address families, VRFs - the drain's own
    lines left out."""
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar, ownership
    own = ownership.Ownership(ownership.split_rendered(rendered_text)[0])
    body = next((b for h, b in grammar.read(text) if h.startswith("router bgp ")), [])
    return [item for item in grammar.items(body) if not own.owns_bgp_child(item[0])
            and not item[0].strip().endswith("route-map RF-DRAIN-OUT out")]


def assert_kept(seed, text, rendered_text, stage):
    kept, changed = kept_blocks(seed, text, rendered_text)
    assert kept and changed == [], (stage, changed)
    assert foreign_bgp(text, rendered_text) == foreign_bgp(seed, rendered_text), stage


def assert_restored(seed, text, rendered_text):
    """The restore returned the running config: every section in its place, each the plan does
    not own byte for byte (kept_blocks, foreign_bgp), the plan's own with the lines they ran.
    The stand-in prints a line re-entered into a section at the section's end, where EOS prints
    each section's lines in its own fixed order whatever order they were typed in; so the order
    of lines inside a section the restore re-entered is the one thing not compared."""
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar
    assert_kept(seed, text, rendered_text, "restore")
    assert text.splitlines()[:3] == seed.splitlines()[:3]      # the header as it was

    def sections(config):
        return [(h, sorted(tuple(item) for item in grammar.items(b))) for h, b in
                grammar.read(config)]
    assert sections(text) == sections(seed)
    assert flat(text) == flat(seed)


PLAN_LOOPBACK = "   ip address 198.18.0.4/32"     # leaf2a's Loopback0 (inventories/example)


def _loopback(text):
    return re.search(r"\ninterface Loopback0\n(?:   .*\n)*?(   ip address \S+)\n", text).group(1)


def _same_instance(text):
    """The real config with its BGP instance numbered as the plan's (65103): its neighbours,
    peer groups, address families and VRFs become foreign lines inside the instance the plan
    drains and applies (ownership: the plan owns the settings it renders and its neighbours).
    Its Loopback0 already has the plan's address: an EVPN overlay group of these configs takes
    its session address from Loopback0 (update-source), which the plan may not readdress (the
    refusal test below)."""
    asn = [line.split()[2] for line in text.splitlines() if line.startswith("router bgp ")][0]
    text = text.replace("\nrouter bgp %s\n" % asn, "\nrouter bgp 65103\n")
    return text.replace("\ninterface Loopback0\n", "\ninterface Loopback0\n", 1).replace(
        _loopback(text), PLAN_LOOPBACK, 1)


@pytest.mark.parametrize("name", REAL)
def test_every_stage_keeps_every_foreign_line_of_a_real_config(eos_lab, name):
    """A real running config whose BGP instance is the plan's: after the drain commit, after
    the apply (still drained) and after the undrain, every top-level section the plan does not
    own and every line of the instance the plan does not own (other neighbours and peer groups,
    their route-maps, address families, VRFs) is byte for byte as it ran; after the undrain no
    RF-DRAIN-OUT line is left. A failed verify then restores the running config byte for byte:
    drain, apply, restore."""
    seed = _same_instance(shared_config(name))
    _seed(eos_lab, seed)
    _real_base(eos_lab, seed)
    result = roll(eos_lab)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    drained, applied, undrained = stages(eos_lab, result, seed)
    assert foreign_bgp(seed, eos_lab["rendered_text"])
    for stage, text in (("drain", drained), ("apply", applied), ("undrain", undrained)):
        assert_kept(seed, text, eos_lab["rendered_text"], stage)
    assert "route-map RF-DRAIN-OUT out" in drained and "route-map RF-DRAIN-OUT out" in applied
    assert "RF-DRAIN-OUT" not in undrained

    _seed(eos_lab, seed)
    _fail_verify(eos_lab)
    failed = roll(eos_lab, "-e", "switch_deploy_verify_retries=1",
                  "-e", "switch_deploy_verify_delay_s=0")
    assert failed.returncode != 0 and "Previous running config restored" in failed.text
    drained, applied, restored = stages(eos_lab, failed, seed)
    for stage, text in (("drain", drained), ("apply", applied)):
        assert_kept(seed, text, eos_lab["rendered_text"], stage)
    assert_restored(seed, restored, eos_lab["rendered_text"])


def _shared_objects(text):
    """The real config (its instance the plan's, as above, its Loopback0 address its own) with
    every kind of object the plan's objects share, the way another team would add them: (a) a
    peer the plan does not have, with its own outbound route-map, in the instance the plan
    drains; (b) a plan port in a port-channel and (c) another in a VRF; (d) TACACS+, logging
    and NTP taking their source address from Loopback0, which the plan readdresses."""
    own_address = _loopback(text)
    text = _same_instance(text).replace(PLAN_LOOPBACK, own_address, 1)
    lag = re.search(r"\n   (channel-group \d+ mode \w+)\n", text)     # the config's own LAG
    vrf = re.search(r"\nvrf instance (\S+)\n", text)                    # and one of its VRFs
    lines = ["interface Ethernet1/1", "   no switchport",
             "   " + (lag.group(1) if lag else "channel-group 10 mode active"), "!",
             "interface Ethernet1/5", "   no switchport",
             "   vrf " + (vrf.group(1) if vrf else "MGMT"), "   ip address 192.0.2.1/31", "!",
             "ip tacacs source-interface Loopback0", "logging source-interface Loopback0",
             "ntp local-interface Loopback0", "!"]
    text = text.replace("\nrouter bgp 65103\n", "\nrouter bgp 65103\n"
                        "   neighbor 203.0.113.9 remote-as 64999\n"
                        "   neighbor 203.0.113.9 route-map PARTNER-OUT out\n")
    at = text.index("\nrouter bgp 65103\n") + 1
    return text[:at] + "\n".join(lines) + "\n" + text[at:], own_address.split()[-1], \
        lag.group(1) if lag else "channel-group 10 mode active"


@pytest.mark.parametrize("name", REAL)
def test_a_shared_object_is_refused_naming_both_before_any_commit(eos_lab, name):
    """Over each real config, one roll carrying every shared object (_shared_objects): refused,
    each named with what uses it, before anything is committed; the running config byte for
    byte as it ran. All four in one roll: the gate computes every refusal before the first
    commit and reports them together."""
    seed, address, lag = _shared_objects(shared_config(name))
    _seed(eos_lab, seed)
    _real_base(eos_lab, seed)
    result = roll(eos_lab)
    assert result.returncode != 0 and "leaf2a: refused" in result.text
    assert committed(result) == [] and exec_log(eos_lab) == []
    assert (eos_lab["state"] / "running-config").read_text() == seed
    text = result.text
    assert "neighbor 203.0.113.9 has its own outbound route-map PARTNER-OUT" in text
    assert 'Ethernet1/1 is a member of Port-Channel %s ("%s")' % (lag.split()[1], lag) in text
    assert re.search(r"Ethernet1/5 is in VRF \S+ \(\"vrf \S+\"\)", text)
    for service in ("ip tacacs source-interface Loopback0", "logging source-interface Loopback0",
                    "ntp local-interface Loopback0"):
        assert '"%s" takes its source address from Loopback0' % service in text
        assert "(%s -> ip address 198.18.0.4/32)" % ("ip address " + address) in text
    # the real configs' EVPN overlay groups source their sessions from Loopback0 too
    for line in re.findall(r"\n   (neighbor \S+ update-source Loopback0)\n", seed):
        assert '"%s" takes its source address from Loopback0' % line in text


def test_a_foreign_peers_outbound_policy_is_kept_by_a_roll_without_drain(eos_lab):
    """The way to keep a foreign peer's own outbound route-map (which a drain by route-map
    would replace): roll that switch with switch_deploy_drain false - one commit, the peer's
    lines byte for byte."""
    seed = _same_instance(shared_config("composite-ai-leaf-mgmt.cfg")).replace(
        "\nrouter bgp 65103\n", "\nrouter bgp 65103\n   neighbor 203.0.113.9 remote-as 64999\n"
        "   neighbor 203.0.113.9 route-map PARTNER-OUT out\n")
    _seed(eos_lab, seed)
    _real_base(eos_lab, seed)
    result = roll(eos_lab, "-e", "switch_deploy_drain=false")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    (applied,) = stages(eos_lab, result, seed)
    assert "RF-DRAIN-OUT" not in applied
    assert_kept(seed, applied, eos_lab["rendered_text"], "apply")
    assert "   neighbor 203.0.113.9 route-map PARTNER-OUT out" in [
        line for item in foreign_bgp(applied, eos_lab["rendered_text"]) for line in item]
