"""Live state of a Cumulus switch as NVUE reports it (deploy/verify.py, deploy/roll.py): BGP
neighbours from GET /vrf/default/router/bgp/neighbor, ECMP width from the IPv4 RIB and the
next-hop groups (GET /router/nexthop), ports from GET /interface."""
import json

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy import roll, verify

TARGETS = {
    "device": "leaf1a",
    "neighbors": [{"address": "198.18.8.0", "name": "spine1"},
                  {"address": "198.18.8.2", "name": "spine1"},
                  {"address": "198.18.8.16", "name": "spine2"}],
    "routes": {"198.18.65.0/31": 4, "198.18.66.0/31": 4},
}

ALL_UP = {"nvue": {"198.18.8.0": {"state": "established", "remote-as": 65100},
                   "198.18.8.2": {"state": "established"},
                   "198.18.8.16": {"state": "established"}}}


def route(group, selected=True, protocol="bgp"):
    flags = {"selected": {}, "installed": {}, "fib-selected": {}} if selected else {}
    return {"route-entry": {"1": {"protocol": protocol, "nexthop-group-id": group,
                                  "flags": flags}}}


def via(*hops):
    return {"resolved-via": dict((h, {"type": "ip", "vrf": "default",
                                      "flags": {"active": {}, "installed": {}}}) for h in hops)}


# Group 108: four next hops listed directly; group 200: none of its own, two child groups of
# one hop each and one of two (depends); group 300: a child that depends on a grandchild.
NEXTHOP = {"rib": {
    "108": via("198.18.8.0", "198.18.8.2", "198.18.8.16", "198.18.8.18"),
    "200": {"depends": {"201": {}, "202": {}, "203": {}}},
    "201": via("198.18.8.0"), "202": via("198.18.8.2"),
    "203": via("198.18.8.16", "198.18.8.18"),
    "300": {"depends": {"301": {}}}, "301": {"depends": {"302": {}}},
    "302": via("198.18.8.0", "198.18.8.2", "198.18.8.16", "198.18.8.18"),
    "400": via("198.18.8.0", "198.18.8.2"),
}}


def rows(result, check):
    return [(r["item"], r["expected"], r["actual"], r["ok"]) for r in result["rows"]
            if r["check"] == check]


def test_established_neighbours_and_full_width_pass():
    routes = {"nvue": {"rib": {"198.18.65.0/31": route(108), "198.18.66.0/31": route(200)},
                       "nexthop": NEXTHOP}}
    result = verify.check(TARGETS, ALL_UP, routes)
    assert result["ok"] is True
    assert rows(result, "bgp") == [("198.18.8.0 (spine1)", "Established", "Established", True),
                                   ("198.18.8.2 (spine1)", "Established", "Established", True),
                                   ("198.18.8.16 (spine2)", "Established", "Established", True)]
    assert rows(result, "ecmp") == [("198.18.65.0/31", 4, 4, True), ("198.18.66.0/31", 4, 4, True)]
    assert result["summary"] == ("leaf1a: 3/3 BGP sessions Established, 2/2 host prefixes at "
                                 "plan ECMP width")


def test_idle_and_absent_neighbours_fail():
    summary = {"nvue": {"198.18.8.0": {"state": "established"}, "198.18.8.2": {"state": "idle"}}}
    routes = {"nvue": {"rib": {}, "nexthop": {}}}
    result = verify.check(TARGETS, summary, routes, prefixes="present")
    assert rows(result, "bgp") == [("198.18.8.0 (spine1)", "Established", "Established", True),
                                   ("198.18.8.2 (spine1)", "Established", "Idle", False),
                                   ("198.18.8.16 (spine2)", "Established", "absent", False)]
    assert result["ok"] is False
    assert [r["item"] for r in result["failed"]] == ["198.18.8.2 (spine1)", "198.18.8.16 (spine2)"]


def test_connect_is_not_established_but_is_configured():
    summary = {"nvue": {"198.18.8.0": {"state": "connect"}, "198.18.8.2": {"state": "established"},
                        "198.18.8.16": {"state": "idle"}}}
    routes = {"nvue": {"rib": {}, "nexthop": {}}}
    assert not verify.check(TARGETS, summary, routes, prefixes="present")["ok"]
    configured = verify.check(TARGETS, summary, routes, sessions="configured", prefixes="present")
    assert configured["ok"] is True
    assert [r["actual"] for r in configured["rows"]] == ["Connect", "Established", "Idle"]


def test_an_empty_neighbour_list_fails_every_session():
    result = verify.check(TARGETS, {"nvue": None}, {"nvue": {"rib": None, "nexthop": None}},
                          prefixes="present")
    assert [r["actual"] for r in result["rows"]] == ["absent"] * 3


@pytest.mark.parametrize("group, width", [(108, 4), (200, 4), (300, 4), (400, 2), ("400", 2),
                                          (999, 0)])
def test_ecmp_width_counts_resolved_via_and_follows_child_groups(group, width):
    routes = {"nvue": {"rib": {"198.18.65.0/31": route(group)}, "nexthop": NEXTHOP}}
    assert verify.routes_list(routes)[0]["dst"] == "198.18.65.0/31"
    assert len(verify.routes_list(routes)[0]["nexthops"]) == width
    result = verify.check(dict(TARGETS, routes={"198.18.65.0/31": 4}), ALL_UP, routes)
    assert rows(result, "ecmp") == [("198.18.65.0/31", 4, width, width == 4)]


def test_the_selected_route_entry_is_counted():
    rib = {"198.18.65.0/31": {"route-entry": {
        "1": {"protocol": "ospf", "nexthop-group-id": 400, "flags": {}},
        "2": {"protocol": "bgp", "nexthop-group-id": 108, "flags": {"selected": {}}}}}}
    routes = {"nvue": {"rib": rib, "nexthop": NEXTHOP}}
    assert verify.routes_list(routes) == [{"dst": "198.18.65.0/31", "nexthops": [
        "198.18.8.0", "198.18.8.2", "198.18.8.16", "198.18.8.18"]}]


def test_a_group_listing_its_next_hops_is_not_counted_again_through_its_children():
    # Router-Nexthop.md: group 108 lists four next hops in resolved-via and depends on the four
    # singleton groups 65 90 96 109: four-way ECMP, not eight
    nexthop = {"rib": {"108": dict(via("198.18.8.0", "198.18.8.2", "198.18.8.16", "198.18.8.18"),
                                   depends={"65": {}, "90": {}, "96": {}, "109": {}}),
                       "65": via("198.18.8.0"), "90": via("198.18.8.2"),
                       "96": via("198.18.8.16"), "109": via("198.18.8.18")}}
    routes = {"nvue": {"rib": {"198.18.65.0/31": route(108)}, "nexthop": nexthop}}
    assert len(verify.routes_list(routes)[0]["nexthops"]) == 4


def test_child_groups_that_depend_on_each_other_end():
    nexthop = {"rib": {"1": {"depends": {"2": {}, "3": {}}}, "2": {"depends": {"1": {}}},
                       "3": via("198.18.8.2")}}
    routes = {"nvue": {"rib": {"198.18.65.0/31": route(1)}, "nexthop": nexthop}}
    assert verify.routes_list(routes)[0]["nexthops"] == ["198.18.8.2"]


def test_a_narrow_prefix_fails_and_an_absent_one_fails_with_all():
    routes = {"nvue": {"rib": {"198.18.65.0/31": route(400)}, "nexthop": NEXTHOP}}
    result = verify.check(TARGETS, ALL_UP, routes)
    assert rows(result, "ecmp") == [("198.18.65.0/31", 4, 2, False), ("198.18.66.0/31", 4, 0, False)]
    assert result["ok"] is False


def test_a_prefix_not_yet_announced_is_skipped_with_present():
    routes = {"nvue": {"rib": {"198.18.65.0/31": route(108)}, "nexthop": NEXTHOP}}
    result = verify.check(TARGETS, ALL_UP, routes, prefixes="present")
    assert rows(result, "ecmp") == [("198.18.65.0/31", 4, 4, True)]
    assert result["ok"] is True
    assert result["summary"] == ("leaf1a: 3/3 BGP sessions Established, 1/1 host prefixes at "
                                 "plan ECMP width")


# -- ports ------------------------------------------------------------------------------------

INTERFACES = {
    "swp1s0": {"type": "swp", "link": {"oper-status": "up", "admin-status": "up", "mtu": 9214,
                                       "speed": "400G"}},
    "swp1s1": {"type": "swp", "link": {"oper-status": "down", "admin-status": "up", "mtu": 9214}},
    "swp9s0": {"type": "swp", "link": {"oper-status": "up", "mtu": 9216, "speed": "200G"}},
    "eth0": {"type": "eth", "link": {"oper-status": "up", "mtu": 1500, "speed": "1G"}},
    "lo": {"type": "loopback", "link": {"oper-status": "unknown", "mtu": 65536}},
    "swp2": {"type": "swp"},
}


def test_ports_nvue_reads_oper_status_mtu_and_speed():
    assert roll.ports_nvue(INTERFACES) == {
        "swp1s0": {"up": True, "mtu": 9214, "speed_gbps": 400},
        "swp1s1": {"up": False, "mtu": 9214, "speed_gbps": None},
        "swp9s0": {"up": True, "mtu": 9216, "speed_gbps": 200},
        "eth0": {"up": True, "mtu": 1500, "speed_gbps": 1},
        "lo": {"up": False, "mtu": 65536, "speed_gbps": None},
        "swp2": {"up": False, "mtu": None, "speed_gbps": None},
    }
    assert roll.ports_nvue(json.dumps(INTERFACES)) == roll.ports_nvue(INTERFACES)
    assert roll.ports_nvue(None) == {}


def test_port_problems_on_nvue_ports():
    planned = {"swp1s0": {"mtu": 9214, "speed_gbps": 400}, "swp1s1": {"mtu": 9214, "speed_gbps": 400},
               "swp9s0": {"mtu": 9214, "speed_gbps": 400}, "swp3s0": {"mtu": 9214, "speed_gbps": 400}}
    assert roll.port_problems(planned, roll.ports_nvue(INTERFACES)) == [
        "swp1s1: down",
        "swp3s0: not found",
        "swp9s0: mtu 9216, planned 9214",
        "swp9s0: 200G, planned 400G",
    ]
