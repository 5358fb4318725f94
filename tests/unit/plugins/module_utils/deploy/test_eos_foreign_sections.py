"""EOS: of the QoS, PFC, buffer and hardware-FIB families the plan owns only the commands it
renders. A running line of those families that the plan does not render - a forwarding-table
partition, a FIB optimisation, another team's QoS profile - is kept byte for byte; a change to
one (through the base config) is classed as needing the forwarding agent's restart."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.deploy import drain
from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import (
    candidate, grammar, ownership)
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import changes
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos

FOREIGN = [
    # EOS User Manual (IPv4 route scale; UFT partition), AVD platform_settings examples
    "platform trident forwarding-table partition 2",
    "ip hardware fib optimize prefix-length 24",
    "ipv6 hardware fib optimize prefixes profile internet",
    "qos map cos 3 to traffic-class 3",
    "ip load-sharing trident fields ip source-ip destination-ip",
]
FOREIGN_BLOCK = ("qos profile STORAGE", ["   qos trust cos", "   tx-queue 1",
                                         "      bandwidth percent 10"])


@pytest.fixture
def rendered(example):
    return eos.eos_config(plan.build_plan(*example)["devices"]["leaf2a"])


def _running(rendered, extra):
    """What a switch that ran the plan once, plus other teams' lines, shows."""
    lines = rendered.splitlines()
    at = lines.index("service routing protocols model multi-agent")
    return "\n".join(lines[:at] + extra + lines[at:]) + "\n"


def test_family_lines_the_plan_does_not_render_are_kept(rendered):
    extra = FOREIGN + [FOREIGN_BLOCK[0]] + FOREIGN_BLOCK[1] + ["!"]
    running = _running(rendered, extra)
    result = candidate.plan_deploy(running, rendered)
    assert result["refusals"] == []
    sent = "\n".join(result["check"])
    for line in FOREIGN + [FOREIGN_BLOCK[0]]:
        assert line not in sent, line               # neither removed nor touched
    assert result["check"] == []                    # the plan's own lines are as they run
    own = ownership.Ownership(ownership.split_rendered(rendered)[0])
    assert [own.owner(line) for line in FOREIGN + [FOREIGN_BLOCK[0]]] == [None] * 6


def test_the_plans_own_commands_in_those_families_are_still_its(rendered):
    own = ownership.Ownership(ownership.split_rendered(rendered)[0])
    # another value of a command the plan renders, and an older plan profile: the plan's
    for line in ("qos map dscp 5 to traffic-class 4",
                 "platform trident mmu headroom-pool limit cells 1000",
                 "priority-flow-control pause watchdog action errdisable",
                 "qos profile ROCE_100_1000"):
        assert own.owner(line) is not None, line
    # a second map line for DSCP 5 (someone's) beside the plan's: removed, the plan's kept
    running = _running(rendered, ["qos map dscp 5 to traffic-class 4"])
    assert candidate.plan_deploy(running, rendered)["check"] == [
        "no qos map dscp 5 to traffic-class 4"]


def test_the_base_config_gate_still_refuses_every_family_line(example):
    groups, hostvars = example
    hostvars["leaf2a"]["roce_eos_base_config"] = "qos map cos 3 to traffic-class 3"
    with pytest.raises(Exception) as exc:
        plan.build_plan(groups, hostvars)
    assert "roce_eos_base_config" in str(exc.value)


@pytest.mark.parametrize("line", FOREIGN[:3])
def test_a_change_that_restarts_the_forwarding_agent_is_classed_so(line):
    parts = changes.eos_parts("hostname x\n", "hostname x\n%s\n" % line)
    assert len(parts) == 1
    assert parts[0]["class"] == change_classes.REASONS["agent-restart"][0] == "reload"
    assert grammar.head_key(line)


# A foreign eBGP peer with its own outbound policy, and a peer group with one, inside the plan's
# router bgp (what the issue found: the drain replaced the route-map, the undrain removed it).
FOREIGN_PEER = ["   neighbor 203.0.113.1 remote-as 64999",
                "   neighbor 203.0.113.1 route-map EXTERNAL-OUT out",
                "   neighbor EXT peer group",
                "   neighbor EXT route-map EXT-OUT out"]


def _with_foreign_peers(rendered):
    lines = rendered.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("router bgp ")) + 1
    return "\n".join(lines[:at] + FOREIGN_PEER + lines[at:]) + "\n"


def test_a_drain_never_replaces_a_foreign_peers_outbound_policy(rendered):
    running = _with_foreign_peers(rendered)
    drained = drain.eos_drained(running)
    for peer in ("203.0.113.1", "EXT"):
        assert "   neighbor %s route-map RF-DRAIN-OUT out" % peer not in drained
    assert "   neighbor 198.18.8.64 route-map RF-DRAIN-OUT out" in drained   # the plan's peers
    refusals = candidate.plan_deploy(running, rendered, drain=True)["refusals"]
    assert [r for r in refusals if "203.0.113.1" in r and "EXTERNAL-OUT" in r]
    assert [r for r in refusals if "neighbor EXT " in r and "EXT-OUT" in r]
    # without a drain the foreign peer's lines stay exactly as they run
    result = candidate.plan_deploy(running, rendered, drain=False)
    assert not [r for r in result["refusals"] if "EXTERNAL-OUT" in r]
    sent = "\n".join(result["apply"])
    assert "203.0.113.1" not in sent and "EXT-OUT" not in sent


def _real_with(example, extra_top=(), port_lines=()):
    """composite-ai-leaf-mgmt.cfg (../shared/running-configs) with lines another team added:
    top-level lines, and lines in the block of a port the plan wires on leaf2a."""
    from test_eos_ownership import real
    text = real("composite-ai-leaf-mgmt.cfg")
    rendered = eos.eos_config(plan.build_plan(*example)["devices"]["leaf2a"])
    port = next(line for line in rendered.splitlines() if line.startswith("interface Ethernet"))
    block = [port] + list(port_lines) + ["!"] if port_lines else []
    return text.rstrip("\n").replace("\nend", "") + "\n" + "\n".join(
        list(extra_top) + block) + "\nend\n", rendered, port.split()[1]


@pytest.mark.parametrize("line,what", [("   channel-group 10 mode active", "Port-Channel 10"),
                                       ("   vrf MGMT", "VRF MGMT")])
def test_a_plan_port_in_a_lag_or_a_vrf_is_refused_naming_both(example, line, what):
    running, rendered, port = _real_with(example, port_lines=["   no switchport", line])
    refusals = candidate.plan_deploy(running, rendered)["refusals"]
    mine = [r for r in refusals if port in r and what in r]
    assert mine and line.strip() in mine[0] and "no " + line.strip() in mine[0]


def test_a_loopback_a_service_sources_from_is_not_readdressed_silently(example):
    running, rendered, _port = _real_with(
        example, extra_top=["ip tacacs vrf MGMT source-interface Loopback0",
                            "logging source-interface Lo0"])
    refusals = candidate.plan_deploy(running, rendered)["refusals"]
    for service in ("ip tacacs vrf MGMT source-interface Loopback0",
                    "logging source-interface Lo0"):
        assert [r for r in refusals if service in r and "Loopback0" in r and
                "10.255.0.7/32" in r], service
    # the plan keeps the loopback's address: nothing to refuse
    same = running.replace("ip address 10.255.0.7/32", next(
        ln.strip() for ln in rendered.split("interface Loopback0", 1)[1].splitlines()
        if ln.strip().startswith("ip address")))
    assert not [r for r in candidate.plan_deploy(same, rendered)["refusals"]
                if "source address" in r]


def test_a_peer_group_is_drained_by_one_line_and_undrained_by_one(rendered):
    """kr1-leaf2b's MLAG peer group (../shared/running-configs) as a foreign group of the
    plan's instance: its "peer group" and "remote-as" lines both name it; one drain line, one
    undrain line (a second "no ... out" is what a session prints as a stray line)."""
    lines = rendered.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("router bgp ")) + 1
    running = "\n".join(lines[:at] + ["   neighbor MLAG peer group",
                                      "   neighbor MLAG remote-as 65102",
                                      "   neighbor MLAG send-community"] + lines[at:]) + "\n"
    assert drain.eos_drained(running).count("neighbor MLAG route-map RF-DRAIN-OUT out") == 1
    result = candidate.plan_deploy(running, rendered, drain=True)
    assert result["refusals"] == []
    assert result["drain"].count("   neighbor MLAG route-map RF-DRAIN-OUT out") == 1
    assert result["undrain"].count("   no neighbor MLAG route-map RF-DRAIN-OUT out") == 1


def test_a_bgp_session_sourced_from_the_loopback_is_not_readdressed_silently(example):
    """A foreign peer group of the plan's instance takes its session address from Loopback0
    (kr1-leaf2b's EVPN "Overlay" group): readdressing the loopback is refused naming both; with
    the foreign instance removed by name nothing sources from it any more."""
    running, rendered, _port = _real_with(example)
    overlay = "   neighbor OVERLAY update-source Loopback0"
    same = running.replace("router bgp 65107\n", "router bgp 65103\n   neighbor OVERLAY peer "
                           "group\n%s\n" % overlay)
    refusals = candidate.plan_deploy(same, rendered)["refusals"]
    assert [r for r in refusals if overlay.strip() in r and "10.255.0.7/32" in r
            and "Loopback0" in r]
    other = running.replace("router bgp 65107\n", "router bgp 65107\n%s\n" % overlay)
    refusals = candidate.plan_deploy(other, rendered, remove=["router bgp 65107"])["refusals"]
    assert not [r for r in refusals if "source address" in r]
