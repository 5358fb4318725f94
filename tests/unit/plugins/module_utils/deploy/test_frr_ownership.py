"""Which bgpd objects the split-mode FRR deploy does not own (issue 28).

The running-config texts are real: captured from FRR 8.4.4 (zebra + bgpd in a network
namespace, as molecule/fabric/lab.py runs them) with `vtysh -d bgpd -c 'show running-config'`
(byte for byte what frr-reload.py --daemon bgpd reads, `show running-config bgpd`: compared in
the lab) after loading tests/golden/sonic-dynamic leaf1a's bgpd.conf (PLAIN: the full `show
running-config`, less zebra's two `no ip(v6) forwarding` lines, the only difference to bgpd's),
the plain file plus objects typed in vtysh (FOREIGN), and its drained copy (DRAINED). Loading
the drained file with frr-reload there deleted every one of those foreign objects: the bug.
"""
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy import drain, frr_ownership

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))
with open(os.path.join(ROOT, "tests", "golden", "sonic-dynamic", "intended", "configs",
                       "leaf1a.bgpd.conf")) as _handle:
    RENDERED = _handle.read()

PLAIN = """Building configuration...

Current configuration:
!
frr version 8.4.4
frr defaults datacenter
hostname leaf1a
hostname vm
service integrated-vtysh-config
!
router bgp 65101
 bgp router-id 198.18.0.2
 bgp bestpath as-path multipath-relax
 neighbor 198.18.8.0 remote-as 65100
 neighbor 198.18.8.0 description spine1:Ethernet0
 neighbor 198.18.8.0 bfd
 neighbor 198.18.8.0 timers 3 9
 neighbor 198.18.8.2 remote-as 65100
 neighbor 198.18.8.2 description spine2:Ethernet0
 neighbor 198.18.8.2 bfd
 neighbor 198.18.8.2 timers 3 9
 !
 address-family ipv4 unicast
  redistribute connected route-map RF-CONNECTED
  neighbor 198.18.8.0 maximum-prefix 1008
  neighbor 198.18.8.0 route-map RF-DRAIN-IN in
  neighbor 198.18.8.2 maximum-prefix 1008
  neighbor 198.18.8.2 route-map RF-DRAIN-IN in
  maximum-paths 64
 exit-address-family
exit
!
ip prefix-list RF-CONNECTED seq 5 permit 198.18.0.2/32
ip prefix-list RF-CONNECTED seq 10 permit 198.18.64.0/31
ip prefix-list RF-CONNECTED seq 15 permit 198.18.64.4/31
!
bgp community-list standard RF-GSHUT seq 5 permit graceful-shutdown
!
route-map RF-CONNECTED permit 10
 match ip address prefix-list RF-CONNECTED
exit
!
route-map RF-DRAIN-IN permit 10
 match community RF-GSHUT
 set local-preference 0
exit
!
route-map RF-DRAIN-IN permit 20
exit
!
end
"""

# What FRR 8.4.4 printed after loading the drained file: PLAIN with `bgp graceful-shutdown`
# after the router-id (captured in the same lab; the line is where FRR puts it).
DRAINED = PLAIN.replace(" bgp router-id 198.18.0.2\n",
                        " bgp router-id 198.18.0.2\n bgp graceful-shutdown\n", 1)

FOREIGN = """Building configuration...

Current configuration:
!
frr version 8.4.4
frr defaults datacenter
hostname leaf1a
hostname vm
service integrated-vtysh-config
!
router bgp 65101
 bgp router-id 198.18.0.2
 bgp bestpath as-path multipath-relax
 neighbor STOR peer-group
 neighbor STOR remote-as external
 neighbor 10.0.1.1 peer-group STOR
 neighbor 10.0.0.9 remote-as 65000
 neighbor 10.0.0.9 description border1
 neighbor 198.18.8.0 remote-as 65100
 neighbor 198.18.8.0 description spine1:Ethernet0
 neighbor 198.18.8.0 bfd
 neighbor 198.18.8.0 timers 3 9
 neighbor 198.18.8.2 remote-as 65100
 neighbor 198.18.8.2 description spine2:Ethernet0
 neighbor 198.18.8.2 bfd
 neighbor 198.18.8.2 timers 3 9
 !
 address-family ipv4 unicast
  network 10.99.0.0/16
  redistribute connected route-map RF-CONNECTED
  neighbor 10.0.0.9 route-map STORAGE-IN in
  neighbor 198.18.8.0 maximum-prefix 1008
  neighbor 198.18.8.0 route-map RF-DRAIN-IN in
  neighbor 198.18.8.2 maximum-prefix 1008
  neighbor 198.18.8.2 route-map RF-DRAIN-IN in
  maximum-paths 64
 exit-address-family
exit
!
router bgp 65101 vrf STORAGE
 neighbor 10.1.0.1 remote-as 65200
exit
!
ip prefix-list RF-CONNECTED seq 5 permit 198.18.0.2/32
ip prefix-list RF-CONNECTED seq 10 permit 198.18.64.0/31
ip prefix-list RF-CONNECTED seq 15 permit 198.18.64.4/31
ip prefix-list STORAGE-IN seq 5 permit 10.20.0.0/16 le 24
!
ipv6 prefix-list V6-OUT seq 5 permit 2001:db8::/32
!
bgp as-path access-list BORDER seq 5 permit ^65000_
!
bgp community-list standard NOEXP seq 5 permit no-export
bgp community-list standard RF-GSHUT seq 5 permit graceful-shutdown
bgp large-community-list standard LC1 seq 5 permit 65000:1:1
!
route-map RF-CONNECTED permit 10
 match ip address prefix-list RF-CONNECTED
exit
!
route-map RF-DRAIN-IN permit 10
 match community RF-GSHUT
 set local-preference 0
exit
!
route-map RF-DRAIN-IN permit 20
exit
!
route-map STORAGE-IN permit 10
 match ip address prefix-list STORAGE-IN
exit
!
route-map STORAGE-IN deny 20
exit
!
end
"""

# What `write file` keeps of a route-map + prefix-list another team saved (vtysh's format,
# written here by hand from FOREIGN's lines).
SAVED = RENDERED + """ip prefix-list STORAGE-IN seq 5 permit 10.20.0.0/16 le 24
!
route-map STORAGE-IN permit 10
 match ip address prefix-list STORAGE-IN
exit
!
route-map STORAGE-IN deny 20
exit
!
"""


def _ids(messages):
    return sorted(m.split('"')[1] for m in messages)


def test_the_plans_own_config_and_frrs_own_lines_are_not_reported():
    # PLAIN has FRR's header (frr version, frr defaults, hostname vm, service
    # integrated-vtysh-config, end) and lacks the render's `no bgp ebgp-requires-policy`
    assert "hostname vm" in PLAIN and "service integrated-vtysh-config" in PLAIN
    assert frr_ownership.foreign(PLAIN, RENDERED, RENDERED) == []
    assert frr_ownership.foreign(PLAIN, "", RENDERED) == []


def test_a_drained_switch_is_not_reported():
    assert " bgp graceful-shutdown" in DRAINED
    assert frr_ownership.foreign(DRAINED, RENDERED, RENDERED) == []
    assert frr_ownership.foreign(PLAIN, RENDERED, drain.frr_drained(RENDERED)) == []


def test_objects_typed_in_vtysh_are_reported_as_running_only():
    messages = frr_ownership.foreign(FOREIGN, RENDERED, RENDERED)
    assert _ids(messages) == [
        "address-family ipv4 unicast: network 10.99.0.0/16",
        "bgp as-path access-list BORDER", "bgp community-list NOEXP",
        "bgp large-community-list LC1", "ip prefix-list STORAGE-IN", "ipv6 prefix-list V6-OUT",
        "neighbor 10.0.0.9", "neighbor 10.0.1.1", "neighbor STOR", "route-map STORAGE-IN",
        "router bgp 65101 vrf STORAGE"]
    border = [m for m in messages if '"neighbor 10.0.0.9"' in m][0]
    assert "neighbour in router bgp 65101" in border
    assert "runs only" in border and "frr-reload would delete it" in border
    assert 'name "neighbor 10.0.0.9" in switch_deploy_frr_remove' in border
    assert "peer-group" in [m for m in messages if '"neighbor STOR"' in m][0]


def test_a_saved_route_map_and_prefix_list_are_reported_with_where_they_are():
    messages = frr_ownership.foreign(PLAIN, SAVED, RENDERED)
    assert _ids(messages) == ["ip prefix-list STORAGE-IN", "route-map STORAGE-IN"]
    assert all("saved in the persistent bgpd.conf but does not run" in m for m in messages)
    both = frr_ownership.foreign(FOREIGN, SAVED, RENDERED)
    route_map = [m for m in both if '"route-map STORAGE-IN"' in m][0]
    assert "runs and is saved in the persistent bgpd.conf" in route_map


def test_another_vrf_instance_is_one_object():
    vrf = PLAIN.replace("end\n", "router bgp 65101 vrf STORAGE\n neighbor 10.1.0.1 remote-as "
                        "65200\n address-family ipv4 unicast\n  network 10.2.0.0/16\n "
                        "exit-address-family\nexit\n!\nend\n")
    assert _ids(frr_ownership.foreign(vrf, RENDERED, RENDERED)) == [
        "router bgp 65101 vrf STORAGE"]


def test_objects_named_in_remove_are_not_reported():
    remove = ["neighbor 10.0.0.9", "route-map  STORAGE-IN", "ip prefix-list STORAGE-IN",
              "router bgp 65101 vrf STORAGE"]
    left = _ids(frr_ownership.foreign(FOREIGN, SAVED, RENDERED, remove))
    assert not set(" ".join(r.split()) for r in remove) & set(left)
    assert "neighbor STOR" in left


@pytest.mark.parametrize("change", [
    ("maximum-paths 64", "maximum-paths 32"),                       # a setting the plan replaces
    ("route-map RF-DRAIN-IN permit 20", "route-map RF-OLD permit 20"),  # an RF-* the plan dropped
])
def test_what_the_plan_changes_is_not_reported(change):
    previous = PLAIN.replace(*change)
    assert frr_ownership.foreign(previous, RENDERED, RENDERED) == []


def test_a_neighbour_the_plan_dropped_is_the_plans_when_it_was_deployed():
    # the plan no longer has spine2: its neighbour was the plan's when the last deploy loaded it
    rendered = "\n".join(line for line in RENDERED.splitlines() if "198.18.8.2" not in line)
    assert _ids(frr_ownership.foreign(PLAIN, RENDERED, rendered)) == ["neighbor 198.18.8.2"]
    assert frr_ownership.foreign(PLAIN, RENDERED, rendered, deployed_text=RENDERED) == []


def test_contexts_are_read_as_frr_reload_reads_them():
    # indentation is ignored and exit/exit-address-family leave one context (frr-reload.py)
    flat = "router bgp 65101\nneighbor 10.0.0.9 remote-as 65000\naddress-family ipv4 unicast\n" \
           "network 10.99.0.0/16\nexit-address-family\nexit\nip prefix-list X seq 5 permit any\n"
    assert _ids(frr_ownership.foreign(flat, "", RENDERED)) == [
        "address-family ipv4 unicast: network 10.99.0.0/16", "ip prefix-list X",
        "neighbor 10.0.0.9"]


def test_a_foreign_aggregate_is_its_own_object_beside_the_plans():
    """routing.advertise aggregate renders one aggregate-address; another on the switch (a
    storage block someone announces) is not the plan's setting replaced but an object of its
    own, reported until named."""
    line = "  redistribute connected route-map RF-CONNECTED\n"
    plan = line + "  aggregate-address 198.18.64.0/30 summary-only\n"
    rendered = RENDERED.replace(line, plan)
    assert rendered != RENDERED
    running = PLAIN.replace(line, plan + "  aggregate-address 10.50.0.0/16 summary-only\n")
    assert _ids(frr_ownership.foreign(running, "", rendered)) == [
        "address-family ipv4 unicast: aggregate-address 10.50.0.0/16 summary-only"]
    assert frr_ownership.foreign(PLAIN.replace(line, plan), "", rendered) == []
