"""EOS secret redaction (deploy/eos/secrets.py): every secret form EOS prints, as Arista's AVD
renders it in its eos_cli_config_gen intended configs, is hidden; the words around it are kept.

Each row: (line as EOS prints it, the line redacted, where the form comes from). AVD is
aristanetworks/avd at commit 3cac535c16 (the commit the shared avd-dc1-spine1.cfg comes from);
the EOS SDK option syntax is aristanetworks/EosSdk examples/HelloWorld.cpp."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import secrets

AVD = ("https://github.com/aristanetworks/avd/blob/3cac535c16978abb099f159b0bd6839536a9108c/"
       "ansible_collections/arista/avd/molecule/eos_cli_config_gen/intended/configs/")
EOSSDK = "https://github.com/aristanetworks/EosSdk/blob/master/examples/HelloWorld.cpp"
R = "<redacted>"
S1 = "$1c$mNvaIXPetcQ3hy7oUnTU3w=="
NTP8A = "$BYk2Sjahe+D9T7uDgIItSA==$JTw5JOAPcYEo0O2hsvsxFQ==$C7wmpXOo"

FORMS = [
    ("enable password sha512 $6$nXycSRhVPaxRINPL$tM1MNjjRCbFD5di4",
     "enable password sha512 " + R, AVD + "enable-password.cfg"),
    ("aaa root secret sha512 dsakjlhfqwereDSAFWE346543dfgsG",
     "aaa root secret sha512 " + R, AVD + "aaa.cfg"),
    ("username ansible privilege 15 role network-admin secret sha512 $6$.I7/ZR/zlLIUv8fr$vR",
     "username ansible privilege 15 role network-admin secret sha512 " + R, AVD + "aaa.cfg"),
    ("radius-server host 10.10.10.157 vrf mgt key 7 071B245F5A",
     "radius-server host 10.10.10.157 vrf mgt key 7 " + R, AVD + "aaa.cfg"),
    ("tacacs-server host 10.10.10.249 timeout 23 key 7 071B245F5A",
     "tacacs-server host 10.10.10.249 timeout 23 key 7 " + R, AVD + "aaa.cfg"),
    ("boot secret 5 a153de6290ff1409257a", "boot secret 5 " + R, AVD + "boot.cfg"),
    ("ntp authentication-key 1 md5 7 044F0E151B", "ntp authentication-key 1 md5 7 " + R,
     AVD + "ntp.cfg"),
    ("ntp authentication-key 3 sha1 8a " + NTP8A, "ntp authentication-key 3 sha1 8a " + R,
     AVD + "ntp.cfg"),
    ("ntp authentication-key 2 sha1 15060E1F10", "ntp authentication-key 2 sha1 " + R,
     AVD + "dns-ntp.cfg"),
    ("   ip ospf authentication-key 7 asfddja23452", "   ip ospf authentication-key 7 " + R,
     AVD + "ethernet-interfaces.cfg"),
    ("   ip ospf message-digest-key 1 sha512 7 asfddja23452",
     "   ip ospf message-digest-key 1 sha512 7 " + R, AVD + "ethernet-interfaces.cfg"),
    ("   ip ospf message-digest-key 55 md5 7 ABCDEFGHIJKLMNOPQRSTUVWXYZ",
     "   ip ospf message-digest-key 55 md5 7 " + R, AVD + "router-ospf.cfg"),
    ("   isis authentication key 7 asfddja23452", "   isis authentication key 7 " + R,
     AVD + "ethernet-interfaces.cfg"),
    ("   isis authentication key 0 password3 level-1",
     "   isis authentication key 0 " + R + " level-1", AVD + "vlan-interfaces.cfg"),
    ("   authentication key-id 3 algorithm sha-512 rfc-5310 key 0 password1",
     "   authentication key-id 3 algorithm sha-512 rfc-5310 key 0 " + R,
     AVD + "router-isis-new.cfg"),
    ("   neighbor 172.31.255.0 password 7 test1234", "   neighbor 172.31.255.0 password 7 " + R,
     AVD + "router-bgp-v4-evpn.cfg"),
    ("   neighbor IPV4-UNDERLAY password 7 dt5J2fw8tymeDFPyoYLB3w==",
     "   neighbor IPV4-UNDERLAY password 7 " + R, AVD + "router-bgp-v4-v6-evpn.cfg"),
    ("      shared-key 7 12312312313213AA", "      shared-key 7 " + R, AVD + "ip-security.cfg"),
    ("      passphrase 7 1048080A01", "      passphrase 7 " + R, AVD + "dot1x.cfg"),
    ("      passphrase 0 1048080A02", "      passphrase 0 " + R, AVD + "dot1x.cfg"),
    # management security shared-secret profiles: the keys BFD, IS-IS and BGP reference
    ("      secret Secret1 7 %s receive-lifetime 12/20/2024 10:00:00" % S1,
     "      secret Secret1 7 %s receive-lifetime 12/20/2024 10:00:00" % R,
     AVD + "management-security.cfg"),
    ("      secret Secret4 0 name1_secret receive-lifetime infinite",
     "      secret Secret4 0 %s receive-lifetime infinite" % R, AVD + "management-security.cfg"),
    ("      key 1234c 7 10195F4C5144405A fallback", "      key 1234c 7 %s fallback" % R,
     AVD + "mac-security-eth-po-entropy.cfg"),
    ("snmp-server community SNMP-COMMUNITY-1 ro onur", "snmp-server community %s ro onur" % R,
     AVD + "snmp.cfg"),
    ("snmp-server user USER-WRITE GRP-READ-WRITE v3 auth sha clearPassword priv aes clearPass2",
     "snmp-server user USER-WRITE GRP-READ-WRITE v3 auth sha %s priv aes %s" % (R, R),
     AVD + "snmp.cfg"),
    ("snmp-server user U GRP-READ-ONLY v3 localized 424242424242424242 auth sha 8da526cd35b9",
     "snmp-server user U GRP-READ-ONLY v3 localized 424242424242424242 auth sha " + R,
     AVD + "snmp.cfg"),
    ("      redis password 7 070E334ddD1D18", "      redis password 7 " + R, AVD + "cvx.cfg"),
    ("      username test1 password 7 131112011F5D", "      username test1 password 7 " + R,
     AVD + "monitor-telemetry-influx.cfg"),
    ("   password 7 encrypted_password", "   password 7 " + R, AVD + "vmtracer-sessions.cfg"),
    ("   exec /usr/bin/TerminAttr -cvaddr=10.10.10.8:9910 -cvauth=key,magickey -cvvrf=mgt "
     "-cvproxy=http://arista:arista@10.10.10.1:3128 -grpcreadonly",
     "   exec /usr/bin/TerminAttr -cvaddr=10.10.10.8:9910 -cvauth=key,%s -cvvrf=mgt "
     "-cvproxy=http://arista:%s@10.10.10.1:3128 -grpcreadonly" % (R, R),
     AVD + "terminattr-extra-flags.cfg"),
    ("   exec /usr/bin/TerminAttr -cvopt DC1.addr=10.20.20.1:9910 -cvopt DC1.auth=key,arista",
     "   exec /usr/bin/TerminAttr -cvopt DC1.addr=10.20.20.1:9910 -cvopt DC1.auth=key," + R,
     AVD + "terminattr-multi-cluster.cfg"),
    # a daemon's own arguments and options (syntax: daemons.cfg 'exec ...', EosSdk 'option')
    ("   exec /usr/bin/agent -config /etc/a.yml --api-key=abc123 -password s3cr3t -v",
     "   exec /usr/bin/agent -config /etc/a.yml --api-key=%s -password %s -v" % (R, R),
     AVD + "daemons.cfg"),
    ("   option apitoken value abc 123", "   option apitoken value " + R, EOSSDK),
]

# Lines that carry no secret and stay as they are.
KEPT = [
    ("   secret hash md5", AVD + "management-defaults.cfg"),
    ("   neighbor EVPN-OVERLAY-PEERS password shared-secret profile profile2 algorithm "
     "aes-128-cmac-96", AVD + "router-bgp-evpn.cfg"),
    ("   authentication protocol keyboard-interactive password public-key",
     AVD + "management-ssh.cfg"),
    ("   exec /usr/bin/TerminAttr -cvauth=token,/tmp/token -cvvrf=mgt",
     AVD + "terminattr-onprem-token.cfg"),
    ("   option name value Bruce Wayne", EOSSDK),
    ("   set community GSHUT", "route-map (the drain, deploy/drain.py)"),
]


@pytest.mark.parametrize("line,want,source", FORMS, ids=[f[2].rsplit("/", 1)[-1] + ":" +
                                                         f[0].split()[0] for f in FORMS])
def test_every_eos_secret_form_is_redacted(line, want, source):
    assert secrets.redact(line) == want, source
    # the same in a diff line (what eos_redact shows of a session diff)
    assert secrets.redact_text("+" + line) == "+" + want


@pytest.mark.parametrize("line,source", KEPT)
def test_lines_without_a_secret_are_kept(line, source):
    assert secrets.redact(line) == line, source
