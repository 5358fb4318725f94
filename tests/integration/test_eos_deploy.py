"""The EOS deploy path of site.yml, run with the real arista.eos modules (httpapi) against
eos_eapi.py, a stand-in eAPI endpoint with EOS configuration-session semantics (no EOS runs here)
that refuses what EOS refuses (unknown keywords, ports the model lacks, a sixth pending session:
error 1002, proven in test_eos_standin.py), so every command the deploy sends is one EOS takes.
leaf2a of the example fabric (leaf_pair2 is EOS) is deployed; leaf2b stays offline.

Shows: --check --diff prints the session diff (redacted) and changes nothing; a roll drains,
commits the plan's sections still drained, verifies, undrains and saves, each commit a session
that starts from the running config and carries only plan-owned commands; a second run changes
nothing; a failed verify restores the previous running config, saves nothing and names the pairs;
without a base config every section the plan does not own stays byte for byte; on the real
running configs of ../shared/running-configs (skipped when absent) a roll keeps every line the
plan does not own byte for byte, no exec command runs inside a session and no secret is
printed."""
import json
import os
import re
import shutil
import subprocess
import sys

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


def _rendered(inventory_data, inventory):
    """leaf2a's config as the plan renders it from this inventory (base config included)."""
    from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
    from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos
    return eos.eos_config(plan.build_plan(*inventory_data(str(inventory / "hosts.yml")))
                          ["devices"]["leaf2a"])


@pytest.fixture
def eos_lab(tmp_path, inventory_data):
    state = tmp_path / "leaf2a"
    state.mkdir()
    inventory = tmp_path / "inventory"
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), inventory)
    (inventory / "host_vars").mkdir(exist_ok=True)
    (inventory / "host_vars" / "leaf2a.yml").write_text(
        "roce_eos_base_config: |\n" + "".join("  " + line + "\n" for line in BASE.splitlines()))
    rendered = _rendered(inventory_data, inventory)
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
    lab = {"state": state, "inventory": inventory, "output": tmp_path / "intended",
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


def test_failed_verify_restores_the_previous_config(eos_lab):
    summary = json.loads((eos_lab["state"] / "show-ip-bgp-summary.json").read_text())
    for peer in summary["vrfs"]["default"]["peers"].values():   # bgpd down: sessions Idle
        peer.update(peerState="Idle", prefixReceived=0, prefixAccepted=0)
    (eos_lab["state"] / "show-ip-bgp-summary.json").write_text(json.dumps(summary))
    result = roll(eos_lab, "-e", "switch_deploy_verify_retries=1",
                  "-e", "switch_deploy_verify_delay_s=0")
    assert result.returncode != 0
    assert 'deploy failed at "Verify BGP sessions and ECMP width against the plan"' in result.text
    assert "Previous running config restored" in result.text
    assert "rolled back - leaf2a+leaf2b; untouched - leaf1a+leaf1b" in result.text
    assert len(committed(result)) == 3          # drain, apply (drained), restore
    assert running(eos_lab) == eos_lab["previous"] == running(eos_lab, "startup-config")


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


@pytest.mark.parametrize("name", ["composite-ai-leaf-mgmt.cfg", "kr1-leaf2b-veos-4.27.2F.cfg",
                                  "site2-l3-veos-4.32.2F.cfg", "avd-dc1-spine1.cfg"])
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
    # a base config that says what the switch already runs (its Management1 and eAPI blocks)
    host_vars = eos_lab["inventory"] / "host_vars" / "leaf2a.yml"
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar
    base = "".join("%s\n%s!\n" % (h, "".join(line + "\n" for line in b))
                   for h, b in grammar.read(text)
                   if h in ("interface Management1", "management api http-commands"))
    host_vars.write_text("roce_eos_base_config: |\n" + "".join(
        "  " + line + "\n" for line in base.splitlines()) + "\n".join(
        line for line in host_vars.read_text().splitlines()
        if line.startswith(("roce_deploy", "ansible_"))) + "\n")
    refused = roll(eos_lab)
    assert refused.returncode != 0 and "router bgp %s" % asn in refused.text
    assert "switch_deploy_eos_remove" in refused.text and committed(refused) == []
    result = roll(eos_lab, "-e", '{"switch_deploy_eos_remove": ["router bgp %s"]}' % asn)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    after = (eos_lab["state"] / "running-config").read_text()
    kept, changed = kept_blocks(text, after, eos_lab["rendered_text"])
    assert changed == [], changed
    assert len(kept) >= 30
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
