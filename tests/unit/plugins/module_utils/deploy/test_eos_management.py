"""EOS: the base config the plan does not own is merged into the rendered config, and a replace
that would remove or change the running config's management plane is named before any commit."""
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import management
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError
from ansible_collections.roce.fabric.plugins.module_utils.inputs import eos_base
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos

# A management plane as EOS prints it (AVD templates and a cEOS 4.30 running-config,
# eos-and-avd.md): management VRF, interface, default route, eAPI and SSH in the VRF, a user,
# AAA and NTP.
FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))), "fixtures")
with open(os.path.join(FIXTURES, "eos", "management-base.cfg")) as _handle:
    BASE = _handle.read().rstrip("\n")


def _leaf2a(example, base=BASE):
    groups, hostvars = example
    if base is not None:
        hostvars["leaf2a"]["roce_eos_base_config"] = base
    return plan.build_plan(groups, hostvars)["devices"]["leaf2a"]


def test_the_base_config_is_rendered_after_the_hostname(example):
    text = eos.eos_config(_leaf2a(example))
    assert BASE in text
    assert text.index("hostname leaf2a") < text.index("vrf instance MGMT") < \
        text.index("router bgp")
    eos_base.parse_blocks(text)                # still one well-formed EOS config


def test_a_replace_carrying_the_base_config_keeps_the_management_plane(example):
    rendered = eos.eos_config(_leaf2a(example))
    running = "! device: leaf2a (DCS-7060X6-64PE, EOS-4.32.2F)\n!\nhostname leaf2a\n!\n" + \
        BASE + "\n!\nend\n"
    assert management.lockout_risks(running, rendered) == []


def test_a_replace_without_it_names_everything_it_would_remove(example):
    rendered = eos.eos_config(_leaf2a(example, base=None))
    risks = management.lockout_risks("hostname leaf2a\n" + BASE + "\nend\n", rendered)
    for expected in ('management interface "interface Management1": removed',
                     'VRF "vrf instance MGMT": removed',
                     'static route "ip route vrf MGMT 0.0.0.0/0 192.0.2.1": removed',
                     'management service (eAPI, SSH, ...) "management api http-commands": '
                     'removed',
                     'local user "username admin privilege 15 role network-admin secret '
                     'sha512 <redacted>": removed',
                     'AAA "aaa authorization exec default local": removed',
                     'NTP "ntp server vrf MGMT 192.0.2.5 prefer iburst": removed'):
        assert expected in risks
    assert not [r for r in risks if "router bgp" in r or "interface Ethernet" in r]


def test_a_changed_management_address_is_named_with_both_lines(example):
    rendered = eos.eos_config(_leaf2a(example, BASE.replace("192.0.2.21/24", "192.0.2.99/24")))
    risks = management.lockout_risks(BASE, rendered)
    assert risks == ['management interface "interface Management1": changed '
                     '(-ip address 192.0.2.21/24, +ip address 192.0.2.99/24)']


@pytest.mark.parametrize("line", ["router bgp 65001", "interface Ethernet1/1", "ip routing",
                                  "hostname other", "qos map dscp 26 to traffic-class 1",
                                  "interface Loopback0", "end"])
def test_the_base_config_may_not_hold_what_the_plan_renders(example, line):
    with pytest.raises(RoceInputError) as exc:
        _leaf2a(example, BASE + "\n" + line)
    assert "leaf2a" in str(exc.value) and "roce_eos_base_config" in str(exc.value)
    assert line in str(exc.value)


def test_a_port_the_plan_does_not_use_may_be_configured(example):
    text = eos.eos_config(_leaf2a(example, BASE + "\ninterface Ethernet60/1\n   shutdown"))
    assert "interface Ethernet60/1\n   shutdown" in text


def test_the_base_config_must_be_well_formed_eos(example):
    with pytest.raises(RoceInputError) as exc:
        _leaf2a(example, "interface Management1\n\tvrf MGMT")
    assert "tab" in str(exc.value)


def test_the_base_config_is_eos_only(example):
    with pytest.raises(RoceInputError) as exc:
        groups, hostvars = example
        hostvars["leaf1a"]["roce_eos_base_config"] = BASE
        plan.build_plan(groups, hostvars)
    assert "leaf1a" in str(exc.value) and "sonic" in str(exc.value)
