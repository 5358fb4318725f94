"""EOS: the ownership model, the gate's grammar and the guard on real running configs.

The real configs are read from ../shared/running-configs/eos (never copied here); their tests
skip with one line when it is absent and are required with ROCE_REQUIRE_SONIC_YANG=1. A roll is
replayed on the stand-in eAPI's session model (tests/integration/eos_eapi.py) with exactly the
commands arista.eos's eos_config would send (deploy/eos/stream.py, sent)."""
import importlib.util
import os
import re

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.deploy import drain
from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import (
    candidate, grammar, ownership, secrets, session, stream)
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "running-configs", "eos")
REAL = ["composite-ai-leaf-mgmt.cfg", "kr1-leaf2b-veos-4.27.2F.cfg",
        "site2-l3-veos-4.32.2F.cfg", "avd-dc1-spine1.cfg"]
SECRETS = ("$6$", "071B245F5A", "SNMP-COMMUNITY-3", "telarista")

_spec = importlib.util.spec_from_file_location(
    "eos_eapi", os.path.join(ROOT, "tests", "integration", "eos_eapi.py"))
eapi = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(eapi)


def real(name):
    path = os.path.join(SHARED, name)
    if not os.path.exists(path):
        if os.environ.get("ROCE_REQUIRE_SONIC_YANG") == "1":
            pytest.fail("%s missing: required here (ROCE_REQUIRE_SONIC_YANG=1)" % path)
        pytest.skip("%s not found: real running-config tests skipped" % SHARED)
    with open(path) as handle:
        return handle.read()


def _leaf2a(example, base=None):
    groups, hostvars = example
    if base is not None:
        hostvars["leaf2a"]["roce_eos_base_config"] = base
    return plan.build_plan(groups, hostvars)["devices"]["leaf2a"]


def commit(state, lines):
    """Send ``lines`` as eos_config (match none, httpapi) sends them, then commit; the session
    diff the switch showed before the commit."""
    device = eapi.Device(str(state), "leaf2a")
    device.run("configure session roce", "text")
    for cmd in stream.sent("\n".join(lines)):
        device.run({"cmd": cmd[0], "input": cmd[1]} if isinstance(cmd, tuple) else cmd, "text")
    diff = device.run("show session-config diffs", "text")["output"]
    device.run("commit", "text")
    return diff


def _bgp(text):
    return [line for line in text.splitlines() if line.startswith("router bgp ")][0]


@pytest.mark.parametrize("name", REAL)
def test_a_roll_on_a_real_running_config_keeps_every_line_the_plan_does_not_own(
        example, tmp_path, name):
    """Deploy, drain, undrain and restore on the real config: every section the plan does not
    own is byte for byte as it was after each commit; the session diffs touch only what the
    plan owns; a second run sends nothing; the restore returns the config byte for byte."""
    text = real(name)
    rendered = eos.eos_config(_leaf2a(example))
    remove = [_bgp(text)]
    (tmp_path / "running-config").write_text(text)
    assert eapi.show(eapi.parse(text)) == text           # the stand-in prints it as it came
    result = candidate.plan_deploy(text, rendered, remove, drain=True)
    assert result["refusals"] == []
    own = ownership.Ownership(ownership.split_rendered(rendered)[0])
    kept = [b for b in grammar.read(text) if own.owner(b[0]) is None]
    assert result["kept_sections"] == len(kept) and result["kept"] > 30
    for step in ("drain", "apply", "undrain"):
        before = (tmp_path / "running-config").read_text()
        diff = commit(tmp_path, result[step])
        if step != "drain":
            assert session.session_risks(before, diff, rendered, remove) == []
        after = (tmp_path / "running-config").read_text()
        blocks = dict((grammar.head_key(h), b) for h, b in grammar.read(after))
        assert [h for h, b in kept if blocks.get(grammar.head_key(h)) != b] == []
        sent = "\n".join(result[step])
        assert not [s for s in SECRETS if s in sent]
    after = (tmp_path / "running-config").read_text()
    assert candidate.plan_deploy(after, rendered)["check"] == []          # second run: nothing
    commit(tmp_path, candidate.restore(after, text))
    restored = (tmp_path / "running-config").read_text()
    blocks = dict((grammar.head_key(h), b) for h, b in grammar.read(restored))
    assert [h for h, b in kept if blocks.get(grammar.head_key(h)) != b] == []
    # the plan's sections come back with the same lines (EOS prints them in its own order)
    assert sorted(grammar.read(restored)) != [] and sorted(
        (grammar.head_key(h), sorted(grammar.items(b))) for h, b in grammar.read(restored)) == sorted(
        (grammar.head_key(h), sorted(grammar.items(b))) for h, b in grammar.read(text))


@pytest.mark.parametrize("name", REAL)
def test_a_foreign_bgp_instance_is_refused_until_named(example, name):
    text = real(name)
    refusals = candidate.plan_deploy(text, eos.eos_config(_leaf2a(example)))["refusals"]
    assert len(refusals) == 1 and _bgp(text) in refusals[0]
    assert "switch_deploy_eos_remove" in refusals[0]


def test_the_banner_and_event_handler_bodies_survive_byte_for_byte(example, tmp_path):
    text = real("composite-ai-leaf-mgmt.cfg")
    rendered = eos.eos_config(_leaf2a(example))
    (tmp_path / "running-config").write_text(text)
    result = candidate.plan_deploy(text, rendered, [_bgp(text)], drain=True)
    for step in ("drain", "apply", "undrain"):
        commit(tmp_path, result[step])
    after = (tmp_path / "running-config").read_text()
    for block in ("banner motd\n.         Switch       : $(hostname)",
                  "!!! Unauthorized access prohibited !!!\nEOF\n",
                  "   action bash\n      if [ 15 -gt 10 ]\n      then\n        echo \"a is "
                  "greater than 10\"\n      fi\n      EOF\n",
                  "alias wr copy running-config startup-config\n"):
        assert block in after


def test_what_eos_config_would_send_loses_banner_lines(example):
    """Why kept sections are never sent: through arista.eos a banner as EOS prints it loses its
    '!' lines and indentation, and an event-handler body is typed as commands."""
    text = real("composite-ai-leaf-mgmt.cfg")
    banner = [b for b in grammar.read(text) if b[0] == "banner motd"][0]
    lines = [banner[0]] + banner[1]
    risks = stream.stream_risks(lines)
    assert any("!!! Unauthorized" in r for r in risks)
    assert any("Authorized access only" in r for r in risks)
    handler = [b for b in grammar.read(text) if b[0] == "event-handler trigger-on-boot"][0]
    assert any("multi-line body" in r for r in stream.stream_risks([handler[0]] + handler[1]))


def test_the_sent_stream_is_what_arista_eos_sends():
    src = "interface Ethernet1/1\n   mtu 9216\n   end\ncopy running-config startup-config\n" \
          "banner motd\n  hello\n! not sent\nEOF\n"
    assert stream.sent(src) == ["interface Ethernet1/1", "mtu 9216", "end",
                                "copy running-config startup-config", ("banner motd", "hello")]
    assert "end" not in stream.sent(src, "network_cli")
    risks = stream.stream_risks(src.splitlines())
    assert any('"end"' in r and "exec command" in r for r in risks)
    assert any("copy running-config" in r for r in risks)
    assert stream.stream_risks(["banner motd", "hello"]) == [
        '"banner motd": no EOF line - every later line would become banner text']


@pytest.mark.parametrize("line", ["banner login", "Banner MOTD", "eof", "banner"])
def test_a_banner_line_that_would_start_another_banner_is_refused(example, line):
    body = ["banner login", "Welcome", line, "Authorized use only", "EOF"]
    risks = stream.stream_risks(body)
    assert risks == ['"%s" in "banner login": a banner line reading "%s" ends this banner there '
                     'and starts another (arista.eos/netcommon split banners at such lines): one '
                     'banner would be cut short and the other overwritten; reword the line '
                     '(e.g. "- %s -")' % (line, line, line)]
    with pytest.raises(RoceInputError) as exc:
        _leaf2a(example, "\n".join(body))
    assert "leaf2a" in str(exc.value) and "line 3: " in str(exc.value) and \
        '"banner login"' in str(exc.value)
    assert stream.stream_risks(["banner login", "Welcome - banner login -", "EOF"]) == []


def test_a_base_config_identical_to_the_running_one_sends_nothing_outside_the_plan(example):
    text = real("composite-ai-leaf-mgmt.cfg")
    mgmt = [b for b in grammar.read(text) if b[0] in ("interface Management1",
                                                      "management ssh", "banner motd")]
    base = "\n".join(grammar.render(mgmt).splitlines()).rstrip("!\n")
    rendered = eos.eos_config(_leaf2a(example, base))
    result = candidate.plan_deploy(text, rendered, [_bgp(text)])
    assert result["refusals"] == []
    assert not [line for line in result["check"] if "Management1" in line or "banner" in line
                or "ssh" in line]


def test_a_base_config_changing_the_management_plane_is_refused_with_secrets_redacted(example):
    text = real("composite-ai-leaf-mgmt.cfg")
    base = ("username admin privilege 15 role network-admin secret sha512 $6$new$hash\n"
            "interface Management1\n   vrf MGMT\n   ip address 192.168.200.199/24")
    rendered = eos.eos_config(_leaf2a(example, base))
    refusals = candidate.plan_deploy(text, rendered, [_bgp(text)])["refusals"]
    assert any('management interface "interface Management1": changed' in r for r in refusals)
    assert any("local user" in r for r in refusals)
    assert not [r for r in refusals if "$6$" in r]
    allowed = candidate.plan_deploy(text, rendered, [_bgp(text)], allow_management_change=True)
    assert allowed["refusals"] == [] and allowed["secrets"]


def _acl_refusals(example, acl, controller, transport="httpapi"):
    """The refusals of a deploy (management changes allowed) whose base config changes the
    control-plane ACL CPP-MGMT the real composite config applies in VRF MGMT."""
    text = real("composite-ai-leaf-mgmt.cfg")
    rendered = eos.eos_config(_leaf2a(example, "ip access-list CPP-MGMT\n" + acl))
    return candidate.plan_deploy(text, rendered, [_bgp(text)], transport,
                                 allow_management_change=True, controller=controller)["refusals"]


def test_an_acl_denying_management_is_refused(example):
    refusals = _acl_refusals(example, "   5 deny tcp any any eq ssh\n   10 permit ip any any",
                             "192.168.200.10", "network_cli")
    assert refusals == ['"5 deny tcp any any eq ssh" in "ip access-list CPP-MGMT": the ACL is '
                        'applied to system control-plane and denies the deploy\'s SSH session '
                        '(TCP 22 from 192.168.200.10); permit it before any deny (EOS ends every '
                        'ACL with an implicit deny)']
    # the same ACL lets the eAPI session (443) through: over httpapi nothing is refused
    assert _acl_refusals(example, "   5 deny tcp any any eq ssh\n   10 permit ip any any",
                         "192.168.200.10") == []


@pytest.mark.parametrize("acl,controller,verdict", [
    # permit-only, not covering the controller: EOS's implicit deny drops the session
    ("   10 permit tcp 10.9.0.0/16 any eq ssh https", "192.168.200.10", "implicit deny"),
    ("   10 permit udp any any eq ntp snmp\n   20 permit icmp any any", "192.168.200.10",
     "implicit deny"),
    # an explicit deny before the permit that covers it
    ("   5 deny ip host 192.168.200.10 any\n   10 permit tcp 192.168.200.0/24 any eq https",
     "192.168.200.10", "5 deny ip host 192.168.200.10 any"),
    # the composite's own rules, from a controller outside 192.168.200.0/24
    ("   10 permit tcp 192.168.200.0/24 any eq ssh https\n   40 permit tcp any any eq bgp",
     "10.1.1.1", "implicit deny"),
    # no controller address known: a source-restricted permit cannot be judged
    ("   10 permit tcp 192.168.200.0/24 any eq ssh https", "", "implicit deny"),
])
def test_an_acl_not_permitting_the_deploy_is_refused(example, acl, controller, verdict):
    refusals = _acl_refusals(example, acl, controller)
    assert len(refusals) == 1 and refusals[0].startswith('"%s" in "ip access-list CPP-MGMT"'
                                                         % verdict), refusals


@pytest.mark.parametrize("acl,controller", [
    ("   10 permit tcp 192.168.200.0/24 any eq ssh https", "192.168.200.10"),
    ("   10 permit tcp host 192.168.200.10 any eq 443", "192.168.200.10"),
    ("   10 permit tcp 192.168.0.0 0.0.255.255 any range 400 500", "192.168.200.10"),
    ("   5 deny ip host 10.1.1.1 any\n   10 permit tcp 192.168.200.0/24 any eq https",
     "192.168.200.10"),
    ("   10 permit ip any any", ""),
])
def test_an_acl_permitting_the_deploy_is_accepted(example, acl, controller):
    assert _acl_refusals(example, acl, controller) == []


def test_the_plan_time_gate_refuses_only_what_denies_every_controller(example):
    with pytest.raises(RoceInputError) as exc:
        _leaf2a(example, "vrf instance MGMT\nip access-list CPP\n   10 permit udp any any eq ntp"
                "\nsystem control-plane\n   ip access-group CPP vrf MGMT in")
    assert "line 2: implicit deny" in str(exc.value) and "may not deny management" in \
        str(exc.value)
    _leaf2a(example, "vrf instance MGMT\nip access-list CPP\n   10 permit tcp 10.0.0.0/8 any "
            "eq ssh https\nsystem control-plane\n   ip access-group CPP vrf MGMT in")


def test_a_session_diff_changing_a_kept_section_is_refused():
    text = real("composite-ai-leaf-mgmt.cfg")
    rendered = open(os.path.join(ROOT, "tests", "golden", "example", "configs",
                                 "leaf2a.cfg")).read()
    diff = "--- system:/running-config\n+++ session:/session-config\n" + "".join(
        "@@ -%d,1 +%d,0 @@\n-%s\n" % (i, i, line) for i, line in
        enumerate(text.splitlines(), 1) if line.startswith("daemon TerminAttr"))
    risks = session.session_risks(text, diff, rendered)
    assert any('"daemon TerminAttr"' in r for r in risks)
    assert session.session_risks(text, "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-nonsense\n+x\n",
                                 rendered)[0].startswith("the session diff does not apply")


@pytest.mark.parametrize("line,why", [
    ("banner motd\nhello", "no EOF"),
    ("interface Management1\n   vrf MGMT\n   end\n   ip address 192.0.2.9/24", "line 4:    end"),
    ("copy running-config startup-config", "exec command"),
    ("write memory", "exec command"),
    ("interface Management1\n   reload", "exec command"),
    ("interface Et1/1\n   description x", "Et1/1"),
    ("interface ethernet1/1\n   mtu 1500", "ethernet1/1"),
    ("interface Ethernet 1/1\n   mtu 1500", "Ethernet 1/1"),
    ("Router bgp 65001", "Router bgp"),
    ("HOSTNAME other", "HOSTNAME"),
    ("interface Ethernet1/1-4\n   shutdown", "one interface per block"),
    ("ip access-list CPP\n   10 deny ip any any\nsystem control-plane\n   ip access-group CPP in",
     "may not deny management"),
])
def test_the_gate_refuses_with_one_line_naming_the_line(example, line, why):
    with pytest.raises(RoceInputError) as exc:
        _leaf2a(example, "vrf instance MGMT\n" + line)
    message = str(exc.value)
    assert why in message and "leaf2a" in message and len(message.splitlines()) == 1


def test_the_gate_takes_eos_as_it_prints_it(example):
    text = real("composite-ai-leaf-mgmt.cfg")
    blocks = [b for b in grammar.read(text) if b[0].startswith((
        "event-handler", "banner", "alias", "daemon", "role", "management", "ip access-list",
        "system control-plane", "snmp-server", "no snmp-server", "tacacs-server", "dns"))]
    base = grammar.render(blocks).rstrip("!\n")
    device = _leaf2a(example, base)
    assert "      if [ 15 -gt 10 ]" in device["base_config"]


def test_secrets_are_redacted():
    for line, want in (
            ("username a secret sha512 $6$x$y", "username a secret sha512 <redacted>"),
            ("tacacs-server host 10.1.1.1 vrf MGMT key 7 071B245F5A",
             "tacacs-server host 10.1.1.1 vrf MGMT key 7 <redacted>"),
            ("snmp-server community SNMP-COMMUNITY-3 ro SNMP-MGMT",
             "snmp-server community <redacted> ro SNMP-MGMT"),
            ("snmp-server host 10.6.75.121 vrf MGMT version 2c SNMP-COMMUNITY-3",
             "snmp-server host 10.6.75.121 vrf MGMT version 2c <redacted>"),
            ("   neighbor 1.1.1.1 password 7 abc", "   neighbor 1.1.1.1 password 7 <redacted>"),
            ("   exec /usr/bin/TerminAttr -cvauth=key,telarista -cvvrf=MGMT",
             "   exec /usr/bin/TerminAttr -cvauth=key,<redacted> -cvvrf=MGMT"),
            ("   set community GSHUT", "   set community GSHUT")):
        assert secrets.redact(line) == want
    text = real("composite-ai-leaf-mgmt.cfg")
    assert not [s for s in SECRETS if s in secrets.redact_text(text)]


def test_interface_names_are_canonical():
    for name in ("Et1/1", "et1/1", "eth1/1", "ethernet1/1", "Ethernet 1/1", "ETHERNET1/1"):
        assert grammar.canonical_interface(name) == "Ethernet1/1"
    assert grammar.canonical_interface("Ma1") == "Management1"
    assert grammar.canonical_interface("Po10") == "Port-Channel10"


def test_drain_leaves_banners_and_vrf_neighbours_alone():
    text = real("site2-l3-veos-4.32.2F.cfg")
    drained = drain.eos_drained(text)
    added = [line for line in drained.splitlines() if "RF-DRAIN-OUT" in line]
    assert "      neighbor 10.222.251.45 route-map RF-DRAIN-OUT out" not in added
    assert "   neighbor EVPN-OVERLAY-PEERS route-map RF-DRAIN-OUT out" in added
    assert re.sub(r".*RF-DRAIN-OUT.*\n|   set community GSHUT\n!\n", "", drained) == text


def test_each_aggregate_address_is_a_setting_of_its_own():
    """The plan's aggregate-address never stands for another prefix's (kept as it runs)."""
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import ownership
    plan = ownership.child_key("aggregate-address 198.18.64.0/30 summary-only")
    assert plan == ownership.child_key("aggregate-address 198.18.64.0/30")
    assert plan != ownership.child_key("aggregate-address 10.50.0.0/16 summary-only")
