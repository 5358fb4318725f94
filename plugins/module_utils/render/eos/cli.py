# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Arista EOS CLI from one switch's plan intent.

The lines are those of eos-and-avd.md §2 (verified by rendering with pyavd 6.4.0): the DSCP map,
a QoS profile per ECN class with trust, PFC no-drop and the watchdog, per-queue ECN, strict CNP
queue, DWRR RoCE/lossy queues, the Trident-family MMU profile on Broadcom XGS ASICs, DLB, and
router bgp with maximum-paths; interfaces at the plan's MTU (at most EOS's 9214, refused above it
in the model stage: hardware/platforms.py). Numbers come from the plan; nothing is recomputed here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, cast

from ansible_collections.roce.fabric.plugins.module_utils.hardware import platforms
from ansible_collections.roce.fabric.plugins.module_utils.plan import qos as plan_qos
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    EcnMarks, LosslessProfile, PortIntent, QosIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.render import policy

# Lane-qualified speeds EOS accepts (valid values of AVD's ethernet_interfaces.speed, pyavd 6.4.0).
LANE_SPEEDS = frozenset(("50g-1", "50g-2", "100g-1", "100g-2", "100g-4", "200g-1", "200g-2",
                         "200g-4", "400g-2", "400g-4", "400g-8", "800g-4", "800g-8", "40g-4"))
# RFC 8326 drain, the same policy FRR/SONiC devices get: peers' routes tagged GRACEFUL_SHUTDOWN
# (EOS keyword GSHUT; arista.eos route_maps templates) get local preference 0 on receipt.
GSHUT_LIST = "RF-GSHUT"
DRAIN_IN = "RF-DRAIN-IN"


def _wd_action(wd: Dict[str, Any]) -> str:
    """EOS's keyword for the plan's watchdog action: alert is notify-only (the platform's
    watchdog_actions, hardware/platforms.py; the model stage refuses the others)."""
    return cast(Dict[str, str], platforms.EOS.watchdog_actions)[wd["action"]]


def _seconds(ms: int) -> str:
    return ("%.3f" % (ms / 1000.0)).rstrip("0").rstrip(".")


def _speed(port: PortIntent) -> str:
    lane_speed = "%dg-%d" % (port["speed_gbps"], port["lanes_per_port"])
    return lane_speed if lane_speed in LANE_SPEEDS else "%dg" % port["speed_gbps"]


def qos_profile_name(port: PortIntent) -> str:
    """The qos profile of lossless ``port``: its ECN class (marks None only in a plan with a
    buffer error)."""
    e = cast(EcnMarks, cast(LosslessProfile, port["lossless"])["ecn"])
    return "ROCE_%d_%d" % (e["kmin_bytes"], e["kmax_bytes"])


# where eos_config's text is written (render/eos/platform.py), relative to the output root
CONFIG_PATH = "configs/%s.cfg"


def eos_config(dev: SwitchIntent) -> str:
    """Full EOS configuration text for switch intent ``dev``."""
    out = ["! roce.fabric: %s (%s, %s) - rendered from the plan, do not edit"
           % (dev["name"], dev["role"], dev["asic"]),
           "hostname %s" % dev["name"], "!"]
    base_config = dev.get("base_config")
    if base_config:
        # the inventory's base config (management, users, AAA, NTP): kept by every replace
        out += ["! base config (roce_eos_base_config)"] + base_config + ["!"]
    out += ["service routing protocols model multi-agent", "!"]
    out += _qos(dev) + _mmu(dev) + _load_sharing(dev) + _interfaces(dev) + _routing(dev)
    return "\n".join(out) + "\n"


def _qos(dev: SwitchIntent) -> List[str]:
    """The DSCP map, the PFC watchdog defaults and one qos profile per ECN class."""
    q = dev["qos"]
    wd = dev["pfc_watchdog"]
    # all 64 DSCPs: one left to EOS's own map could land on the lossless class (plan/qos.py)
    out = ["qos map dscp %d to traffic-class %d" % (dscp, tc)
           for dscp, tc in sorted(plan_qos.dscp_map(q).items())] + ["!"]
    if wd["enabled"]:
        out += ["priority-flow-control pause watchdog default timeout %s"
                % _seconds(wd["detection_ms"]),
                "priority-flow-control pause watchdog default polling-interval %s"
                % _seconds(wd["poll_ms"]),
                "priority-flow-control pause watchdog default recovery-time %s"
                % _seconds(wd["restoration_ms"]),
                "priority-flow-control pause watchdog action %s" % _wd_action(wd), "!"]
    profiles: Dict[str, Optional[EcnMarks]] = {}
    for port in dev["ports"]:
        if port["lossless"]:
            profiles.setdefault(qos_profile_name(port), port["lossless"]["ecn"])
    for name, ecn in sorted(profiles.items()):
        out += ["qos profile %s" % name, "   qos trust dscp", "   priority-flow-control on"]
        out += ["   priority-flow-control priority %d no-drop" % p for p in q["pfc_priorities"]]
        if wd["enabled"]:
            out += ["   priority-flow-control pause watchdog",
                    "   priority-flow-control pause watchdog port action %s" % _wd_action(wd)]
        out += _tx_queues(q, cast(EcnMarks, ecn),
                          (dev.get("hardware") or {}).get("eos_tx_queue", "tx-queue")) + ["!"]
    return out


def _tx_queues(q: QosIntent, ecn: EcnMarks, keyword: str) -> List[str]:
    """The queue blocks of a qos profile; ``keyword`` is the model's queue command
    (hardware/models.py: ``uc-tx-queue`` on Tomahawk, else ``tx-queue``)."""
    out: List[str] = []
    for queue in range(8):
        if queue in q["ecn_queues"]:
            out += ["   !", "   %s %d" % (keyword, queue), "      bandwidth percent 50",
                    "      no priority",
                    # bytes: the plan's exact thresholds, never rounded (AVD qos_profiles
                    # tx_queues units include bytes; eos-and-avd.md §2)
                    "      random-detect ecn minimum-threshold %d bytes maximum-threshold "
                    "%d bytes max-mark-probability %d"
                    % (ecn["kmin_bytes"], ecn["kmax_bytes"], ecn["pmax_percent"])]
        elif queue == q["cnp_tc"]:
            out += ["   !", "   %s %d" % (keyword, queue),
                    "      priority strict" if q["cnp_scheduler"] == "strict"
                    else "      no priority"]
        elif queue == 0:
            out += ["   !", "   %s 0" % keyword, "      bandwidth percent 50",
                    "      no priority"]
    return out


def _mmu(dev: SwitchIntent) -> List[str]:
    """The Trident-family MMU profile of a Broadcom XGS switch: the lossless PGs' reserved bytes
    and alpha threshold, the headroom-pool limit (the plan's buffer.eos_mmu, as it is)."""
    buf = dev["buffer"]
    mmu = buf.get("eos_mmu")
    if not mmu:
        return []
    trig = cast(Dict[str, Any], buf["trigger"])    # set where eos_mmu is (buffer_model.py)
    out = ["platform trident mmu queue profile ROCE"]
    for pg in dev["qos"]["lossless_priorities"]:
        out += ["   ingress priority-group %d reserved bytes %d" % (pg, mmu["pg_reserved_bytes"]),
                "   ingress priority-group %d threshold %s"
                % (pg, trig["eos_threshold"])]
    out += ["!", "platform trident mmu queue profile ROCE apply"]
    if mmu["headroom_pool_cells"]:
        out.append("platform trident mmu headroom-pool limit cells %d"
                   % mmu["headroom_pool_cells"])
    return out + ["!"]


def _load_sharing(dev: SwitchIntent) -> List[str]:
    """DLB where adaptive routing is rendered. No `ip load-sharing` line: its hash-field keywords
    and seed range have no primary source (hardware/capabilities.py eos_ecmp), so the switch
    keeps its own hash and the plan lists the requested fields and seed as not rendered."""
    if dev["ecmp"]["rendered"]["adaptive_routing"]:
        return ["ip hardware fib load-balance distribution dynamic", "!"]
    return []


def _interfaces(dev: SwitchIntent) -> List[str]:
    """The interfaces' lines; a port's block is one string of several lines (one format per
    port: a 100k-GPU fabric renders a few hundred thousand EOS ports)."""
    out = ["interface Loopback0", "   ip address %s" % dev["loopback"], "!"]
    profiles: Dict[int, str] = {}      # ports of one ECN class share the marks object
    for port in dev["ports"]:
        out.append(_PORT % (port["name"], port["peer"], port["peer_port"], port["mtu_bytes"],
                            _speed(port), port["address"]))
        if port["lossless"]:
            ecn = port["lossless"]["ecn"]
            line = profiles.get(id(ecn))
            if line is None:
                line = profiles[id(ecn)] = "   service-profile %s" % qos_profile_name(port)
            out.append(line)
        out.append("   no shutdown\n!" if port["up"] else "   shutdown\n!")
    return out


_PORT = "\n".join(("interface %s", "   description %s:%s", "   mtu %d", "   speed %s",
                   "   no switchport", "   ip address %s"))


def _routing(dev: SwitchIntent) -> List[str]:
    """ip routing, the announced prefixes, the drain policy peers honour and router bgp."""
    bgp = dev["bgp"]
    out = ["ip routing", "!", "ip prefix-list %s" % policy.CONNECTED]
    out += ["   seq %d permit %s" % (10 * (i + 1), prefix)
            for i, prefix in enumerate(policy.connected_prefixes(dev))]
    out += ["!", "route-map %s permit 10" % policy.CONNECTED,
            "   match ip address prefix-list %s" % policy.CONNECTED, "!"]
    out += ["ip community-list %s permit GSHUT" % GSHUT_LIST, "!",
            "route-map %s permit 10" % DRAIN_IN, "   match community %s" % GSHUT_LIST,
            "   set local-preference 0", "!", "route-map %s permit 20" % DRAIN_IN, "!",
            "router bgp %d" % bgp["asn"],
            "   router-id %s" % bgp["router_id"],
            "   maximum-paths %d ecmp %d" % (bgp["maximum_paths"], bgp["maximum_paths"]),
            "   bgp bestpath as-path multipath-relax"]
    for nbr in bgp["neighbors"]:
        out += ["   neighbor %s remote-as %d" % (nbr["address"], nbr["asn"]),
                "   neighbor %s description %s" % (nbr["address"], nbr["name"]),
                "   neighbor %s send-community" % nbr["address"],
                "   neighbor %s route-map %s in" % (nbr["address"], DRAIN_IN),
                # the plan's timers (EOS's own default is 60/180: the two ends of a SONiC-EOS
                # link must agree, rule bgp-timers) and its route limit (plan/bgp_limits.py)
                "   neighbor %s timers %d %d"
                % (nbr["address"], bgp["keepalive_s"], bgp["hold_s"]),
                "   neighbor %s maximum-routes %d" % (nbr["address"], nbr["max_routes"])]
        if bgp["bfd"]:
            out.append("   neighbor %s bfd" % nbr["address"])
        if bgp["allowas_in"]:
            out.append("   neighbor %s allowas-in 1" % nbr["address"])
    out.append("   redistribute connected route-map %s" % policy.CONNECTED)
    # routing.advertise aggregate: the leaf's block of host /31s alone, router bgp mode
    # (arista.eos eos_bgp_global: aggregate-address PREFIX [as-set] [summary-only] ...)
    if bgp.get("aggregate"):
        out.append("   aggregate-address %s summary-only" % bgp["aggregate"])
    return out + ["!", "end"]
