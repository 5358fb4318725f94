"""deploy/sonic_secrets: every SONiC and FRR secret form is redacted from what the deploy prints.

The secret leaves are enumerated from SONiC's own YANG models in ../shared/sonic-yang (a leaf
named like a password, passkey, key or CAK), the secrets of a real running CONFIG_DB
(../shared/running-configs: a TACACS+ passkey, an SNMP community) are looked for in the
redacted text, and the FRR forms are written here as FRR's user guide spells them."""
import json
import os
import re

import pytest
import shared_data
from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.filter import switch as switch_filters
from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic_secrets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
YANG = os.path.join(SHARED, "sonic-yang")
RUNNING = os.path.join(SHARED, "running-configs", "sonic", "leaf1a-sn5600-running.json")
# A leaf whose name says it holds a secret (not "password_authentication", a flag).
SECRET_NAME = re.compile(r"^\s*leaf\s+(\w*(?:passw(?:or)?d|passkey|secret|_cak|psk)\w*)\s*\{",
                         re.IGNORECASE)


def yang_secret_leaves():
    found = set()
    for name in sorted(os.listdir(shared_data.need(YANG, "SONiC YANG secret leaves"))):
        if name.endswith(".yang"):
            with open(os.path.join(YANG, name)) as handle:
                for line in handle:
                    match = SECRET_NAME.match(line)
                    if match:
                        found.add(match.group(1))
    return found


def test_every_secret_leaf_of_the_yang_models_is_redacted():
    leaves = yang_secret_leaves()
    assert {"auth_password", "primary_cak", "fallback_cak"} <= leaves    # the models hold them
    assert leaves <= sonic_secrets.SECRET_FIELDS, leaves - sonic_secrets.SECRET_FIELDS
    db = {"BGP_NEIGHBOR": {"10.0.0.1": {"asn": "65001", "auth_password": "s3cr3t-bgp"}},
          "MACSEC_PROFILE": {"p1": {"primary_cak": "0123abcd" * 8, "primary_ckn": "77" * 16}}}
    text = json.dumps(db, indent=2)
    out = sonic_secrets.redact_text(text)
    assert "s3cr3t-bgp" not in out and "0123abcd" not in out
    assert '"asn": "65001"' in out and "77" * 16 in out      # the CKN names the key, kept
    assert sonic_secrets.redact_db(db)["BGP_NEIGHBOR"]["10.0.0.1"] == {
        "asn": "65001", "auth_password": "<redacted>"}


def realistic():
    with open(shared_data.need(RUNNING, "the real running CONFIG_DB")) as handle:
        return json.load(handle)


@pytest.mark.parametrize("indent", [None, 1])
def test_a_real_config_db_printed_back_keeps_no_secret(indent):
    db = realistic()
    passkey = db["TACPLUS"]["global"]["passkey"]
    communities = list(db["SNMP_COMMUNITY"])
    out = sonic_secrets.redact_text(json.dumps(db, indent=indent))
    assert passkey not in out
    for community in communities:
        assert '"%s"' % community not in out
    assert json.loads(out)["TACPLUS"]["global"]["src_intf"] == "Loopback1"    # the rest kept
    assert json.loads(out)["SNMP_COMMUNITY"] == {"<redacted>": {"TYPE": "RO"}}
    redacted = sonic_secrets.redact_db(db)
    assert redacted["TACPLUS"]["global"]["passkey"] == "<redacted>"
    assert passkey not in json.dumps(redacted) and db["TACPLUS"]["global"]["passkey"] == passkey


@pytest.mark.parametrize("text, secret", [
    ("Error: removing /SNMP_COMMUNITY/public failed", "public"),
    ("SNMP_COMMUNITY|private: leafref", "private"),
    ("set TACPLUS_SERVER|10.0.0.8 passkey=hunter2 timeout=5", "hunter2"),
    ("RADIUS_SERVER 10.0.0.9 passkey: rad-key-9", "rad-key-9"),
    ('{"SNMP_USER": {"ops": {"SNMP_USER_AUTH_PASSWORD": "auth-pw", '
     '"SNMP_USER_ENCRYPTION_PASSWORD": "priv-pw"}}}', "-pw"),
    ('{"LDAP": {"global": {"bind_password": "ldap\\"pw"}}}', "ldap"),
])
def test_command_output_forms(text, secret):
    assert secret not in sonic_secrets.redact_text(text)


# FRR's user guide (doc/user): bgp.rst, ospfd.rst, ospf6d.rst, isisd.rst, ripd.rst, key chains,
# vtysh/daemon passwords.
FRR_LINES = [
    (" neighbor 10.0.0.1 password bgp-md5-key", " neighbor 10.0.0.1 password "),
    (" neighbor SPINES password two words", " neighbor SPINES password "),
    (" ip ospf authentication-key ospfkey1", " ip ospf authentication-key "),
    (" ip ospf message-digest-key 1 md5 ospfmd5", " ip ospf message-digest-key 1 md5 "),
    (" ipv6 ospf6 authentication key-id 1 hash-algo hmac-sha-256 key o6key",
     " ipv6 ospf6 authentication key-id 1 hash-algo hmac-sha-256 key "),
    (" isis password md5 isiskey", " isis password md5 "),
    (" area-password clear areakey", " area-password clear "),
    (" domain-password domkey", " domain-password "),
    (" ip rip authentication string ripkey", " ip rip authentication string "),
    ("  key-string chainkey", "  key-string "),
    ("password zebrapw", "password "),
    ("enable password enablepw", "enable password "),
]


@pytest.mark.parametrize("line, kept", FRR_LINES)
def test_every_frr_secret_form(line, kept):
    out = sonic_secrets.redact_frr(line)
    assert out == kept + "<redacted>"
    assert sonic_secrets.redact_frr("-" + line) == "-" + kept + "<redacted>"   # in a diff


@pytest.mark.parametrize("line", [
    " neighbor 10.0.0.1 remote-as 65001", " neighbor 10.0.0.1 description password-team",
    " neighbor 10.0.0.1 timers 3 9", "router bgp 65101", " bgp graceful-shutdown",
    "route-map RF-DRAIN-IN permit 10", "--- bgpd.conf (on the switch)"])
def test_lines_without_a_secret_stay_as_they_are(line):
    assert sonic_secrets.redact_frr(line) == line


def test_the_bgpd_diff_the_deploy_shows_is_redacted():
    before = "router bgp 65101\n neighbor 10.9.9.9 remote-as 65500\n" \
             " neighbor 10.9.9.9 password storage-team-key\n"
    after = "router bgp 65101\n neighbor 198.18.64.1 remote-as 65001\n"
    lines = switch_filters.frr_diff(after, before, "/etc/sonic/frr/bgpd.conf")
    assert "- neighbor 10.9.9.9 password <redacted>" in lines
    assert "+ neighbor 198.18.64.1 remote-as 65001" in lines
    assert not [line for line in lines if "storage-team-key" in line]
    assert switch_filters.frr_diff(after, after) == []
    with pytest.raises(AnsibleFilterError):
        switch_filters.frr_diff(None, before)


def test_the_deploy_never_prints_bgpd_conf_unredacted():
    """The check-mode copy of bgpd.conf would print the switch's file in its diff: it runs with
    diff off and the diff is shown through frr_diff."""
    import yaml
    with open(os.path.join(ROOT, "roles", "switch_deploy", "tasks", "frr_flow.yml")) as handle:
        tasks = yaml.safe_load(handle)
    copies = [t for t in tasks if "ansible.builtin.copy" in t and
              "bgpd.conf" in t["ansible.builtin.copy"]["dest"]]
    assert copies and all(t.get("diff") is False for t in copies)
    shown = [t for t in tasks if "ansible.builtin.debug" in t and
             "frr_diff" in t["ansible.builtin.debug"]["msg"]]
    assert len(shown) == 1 and "ansible_diff_mode" in shown[0]["when"]
