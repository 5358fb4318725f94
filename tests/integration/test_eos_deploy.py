"""The EOS deploy path of site.yml, run with the real arista.eos modules (httpapi) against
eos_eapi.py, a stand-in eAPI endpoint with EOS configuration-session semantics (no EOS runs here).
leaf2a of the example fabric (leaf_pair2 is EOS) is deployed; leaf2b stays offline.

Shows: --check --diff prints the session diff and changes nothing; a roll drains the previous
config, commits the new one drained, verifies, undrains and saves; a second run changes nothing;
a failed verify restores the previous running config, saves nothing and names the pairs."""
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


def flat(text):
    """Config lines as eos_config sends them to a session (no indentation, comments, 'end')."""
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("!") and line.strip() != "end"]


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
           "previous": previous, "rendered": flat(rendered), "first_mtu": first_mtu}
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
    """Config of every committed session, in order: lines sent after 'rollback clean-config'."""
    staged, done = {}, []
    for cmds in result.requests:
        cmds = [c["cmd"] if isinstance(c, dict) else c for c in cmds]
        if cmds[0].startswith("configure session ") and "rollback clean-config" in cmds:
            staged[cmds[0]] = cmds[cmds.index("rollback clean-config") + 1:]
        elif cmds[0].startswith("configure session ") and cmds[-1] == "commit":
            done.append([c for c in staged[cmds[0]] if c != "end"])
    return done


def recap(result, host):
    return dict((k, int(v)) for k, v in
                re.findall(r"(\w+)=(\d+)", result.text.split("%s :" % host)[-1].split(host)[0])[:8])


def test_check_diff_shows_the_session_diff_and_changes_nothing(eos_lab):
    result = roll(eos_lab, "--check", "--diff")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "-mtu 1500" in result.stdout and "+%s" % eos_lab["first_mtu"] in result.stdout
    assert "+neighbor 198.18.8.64 route-map RF-DRAIN-IN in" in result.stdout
    assert committed(result) == [] and ["copy running-config startup-config"] not in result.requests
    assert running(eos_lab) == eos_lab["previous"]
    assert not os.path.exists(eos_lab["output"] / "configs" / "leaf2a.cfg")   # check: scratch only


def test_roll_drains_applies_verifies_undrains_and_saves(eos_lab):
    result = roll(eos_lab)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    drain, applied, undrain = committed(result)
    neighbors = [line.split()[1] for line in eos_lab["rendered"]
                 if line.startswith("neighbor ") and " remote-as " in line]
    assert len(neighbors) == 16
    for config in (drain, applied):
        assert "set community GSHUT" in config
        assert ["neighbor %s route-map RF-DRAIN-OUT out" % n for n in neighbors] == [
            line for line in config if line.endswith("RF-DRAIN-OUT out")]
    assert "mtu 1500" in drain and "mtu 1500" not in applied   # drained first, then changed
    assert undrain == eos_lab["rendered"]
    assert ["show ip bgp summary ", "show ip route "] in result.requests   # verified
    assert running(eos_lab) == eos_lab["rendered"] == running(eos_lab, "startup-config")
    assert recap(result, "leaf2a")["failed"] == 0

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
    """Every committed config (drained, applied, undrained) carries the base config, and the
    running config ends with the management plane exactly as before."""
    result = roll(eos_lab)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    configs = committed(result)
    assert len(configs) == 3
    for config in configs:
        for line in flat(BASE):
            assert line in config
    text = (eos_lab["state"] / "running-config").read_text()
    for block in BASE.split("!\n"):
        assert block in text


def test_a_config_that_drops_the_management_plane_is_refused_before_commit(eos_lab):
    host_vars = eos_lab["inventory"] / "host_vars" / "leaf2a.yml"
    host_vars.write_text("\n".join(line for line in host_vars.read_text().splitlines()
                                   if line.startswith(("roce_deploy", "ansible_"))) + "\n")
    for args in (["--check", "--diff"], []):
        result = roll(eos_lab, *args)
        assert result.returncode != 0
        assert 'management interface "interface Management1": removed' in result.text
        assert 'static route "ip route vrf MGMT 0.0.0.0/0 192.0.2.1": removed' in result.text
        assert 'management service (eAPI, SSH, ...) "management api http-commands": removed' \
            in result.text
        assert "Nothing was committed" in result.text
        assert committed(result) == [] and not [r for r in result.requests
                                                if "configure session" in str(r)]
        assert running(eos_lab) == eos_lab["previous"]
