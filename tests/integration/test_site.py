"""The Ansible path: `ansible-playbook site.yml` on the example inventory, clean and with faults.

These run the real ansible-playbook (offline, nothing is contacted) and compare its plan with the
pure-Python core, so the two paths cannot drift apart.
"""
import json
import os
import subprocess
import sys

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import inventory

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)


def run_site(*args):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    return subprocess.run([os.path.join(BIN, "ansible-playbook"), "site.yml"] + list(args),
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def test_site_plans_every_switch_and_matches_the_core():
    result = run_site()
    assert result.returncode == 0, result.stdout + result.stderr
    for host in ("spine1", "spine2", "leaf1a", "leaf1b", "leaf2a", "leaf2b"):
        assert '"%s ' % host in result.stdout
    inv = run_inventory()
    hosts = inv["roce_switches"]
    plan = inventory.fabric_lossless(hosts, {h: inv["_meta"]["hostvars"][h] for h in hosts})
    # The summary line printed by Ansible carries the core's numbers for that switch.
    line = [ln for ln in result.stdout.splitlines() if '"leaf1a ' in ln][0]
    assert "%.2f" % (plan["leaf1a"]["shared_pool_bytes"] / 1e6) in line
    assert "sonic-nvidia" in line


def run_inventory():
    out = subprocess.run([os.path.join(BIN, "ansible-inventory"), "--list"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)

    def members(group):
        """Hosts of ``group`` and of every group below it."""
        node = data.get(group, {})
        found = list(node.get("hosts", []))
        for child in node.get("children", []):
            found += members(child)
        return found
    data["roce_switches"] = sorted(set(members("roce_switches")))
    return data


def test_limit_still_plans_the_whole_fabric():
    result = run_site("--limit", "leaf2a")
    assert result.returncode == 0, result.stdout + result.stderr
    for host in ("spine1", "leaf1a", "leaf2b"):
        assert '"%s ' % host in result.stdout


@pytest.mark.parametrize("extra,expected", [
    ('{"roce_ports": [{"name": "Ethernet0", "speed_gbps": 400, "cable_m": -3}]}',
     "Ethernet0.cable_m = -3 is not valid"),
    ('{"roce_asic": "tomahawk9"}', "roce_asic = 'tomahawk9' is not valid: one of"),
    ('{"roce_ports": [{"name": "Ethernet0", "speed_gbps": 37, "cable_m": 5}]}',
     "Ethernet0.speed_gbps = 37 is not valid"),
    ('{"roce_lossless": {"ecn": {"kmin_bytes": 600000, "kmax_bytes": 999999999}}}',
     "roce_ecn.kmax_bytes = 999999999 is not valid"),
    ('{"roce_ports": [{"name": "Ethernet0", "speed_gbps": 400, "cable_m": 5, "mtu_bytes": 65000}]}',
     "mtu_bytes = 65000 is not valid"),
])
def test_bad_inventory_fails_clearly(extra, expected):
    result = run_site("-e", extra)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert expected in output
    assert "host " in output and "Traceback" not in output
