# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Disruption classes of a change and the reasons behind them, shared by every platform's change
classifier (render/<platform>/changes.py) and the change plan (render/changes.py).

- ``hitless``: applied in place, no drain (ECN/WRED thresholds, PFC watchdog, counters,
  descriptions);
- ``traffic-affecting``: drain first (buffer profiles and pools, QoS maps and schedulers,
  addresses, BGP, hashing);
- ``port-flapping``: the port goes down and up (speed, FEC, MTU, lanes, admin state): drain,
  then check the ports come back at the planned speed;
- ``reload``: takes effect only after ``config reload`` or a reboot (SONiC's buffer model,
  routing config mode, HWSKU, a buffer pool's create-only mode/type; EOS's routing model).

A part's class is the worst of its reasons'. Every class cites its source (``SOURCES``, and
docs/deploy.md "Disruption classes").
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from typing import Any, Dict, Iterable

# the classes are the roll's (deploy/ ships to targets and imports nothing from render/)
from ansible_collections.roce.fabric.plugins.module_utils.deploy.roll import (
    CLASSES, FLAP, HITLESS, NO_BASELINE, RELOAD, TRAFFIC)

Part = Dict[str, Any]     # one changed part: file, part, added, removed, changed, class, reasons

ACTION = {
    HITLESS: "apply without a drain",
    TRAFFIC: "drain first",
    FLAP: "drain; ports flap, check they come back at the planned speed",
    RELOAD: "needs config reload or reboot: refuse unless allowed",
    NO_BASELINE: "no deployed-state record to compare with: treated as changed, rolled as "
                 "traffic-affecting (drain first)",
}

# Reason id -> (class, what it means, source). Sources: [V] read at the cited place, [M] taken
# from the cited place without re-checking the code path on a switch.
REASONS = {
    "ecn": (HITLESS, "ECN/WRED thresholds are set on the existing WRED object in place",
            "sonic-swss qosorch: WRED_PROFILE fields are SAI set attributes of one object; EOS "
            "random-detect ecn is a tx-queue setting applied in the session commit [M]; "
            "Cumulus Linux 5.14 QoS page: a switchd reload \"does not impact traffic "
            "forwarding\" but for buffer and PFC changes [M]"),
    "watchdog": (HITLESS, "PFC watchdog timers and counters", "sonic-swss pfcwdorch; EOS "
                 "priority-flow-control pause watchdog [M]"),
    "cosmetic": (HITLESS, "descriptions, neighbour metadata, counters, comments",
                 "no forwarding state is derived from them"),
    "buffer": (TRAFFIC, "the MMU is re-programmed (buffer pools, profiles, PGs, cable length)",
               "Dell Enterprise SONiC RoCE design: buffer changes under traffic can corrupt "
               "the MMU, drain or reboot [M]; sonic-swss bufferorch applies pool/profile sets "
               "live (sonic-swss #1430) [V]; EOS platform trident mmu queue profile "
               "(eos-and-avd.md) [M]; Cumulus Linux 5.14 QoS page: a switchd reload for a "
               "qos_infra.conf (pools, queue map) or PFC change \"might result in momentary "
               "packet loss\" [V]"),
    "qos": (TRAFFIC, "traffic is re-classified or re-scheduled (DSCP/TC/PG/queue maps, "
            "schedulers, PFC enable)", "SONiC qosorch re-binds the maps on the port; packets "
            "in flight change class [M]"),
    "routing": (TRAFFIC, "BGP sessions, addresses or announced prefixes change",
                "a session reset or a withdrawn prefix drops traffic unless drained (RFC 8326 "
                "graceful shutdown, docs/deploy.md)"),
    "bgp-session": (HITLESS, "a BGP neighbour's timers, BFD or route limit (the plan's limit "
                    "is above what the peer sends: rule bgp-route-limit)",
                    "RFC 4271 4.2: the hold time is agreed in the OPEN message, so new timers "
                    "apply when a session next opens; FRR bgp.rst: maximum-prefix tears a "
                    "session down only past the limit; RFC 5882 3.2: a BFD session coming up "
                    "does not reset the BGP session [M]"),
    "hash": (TRAFFIC, "ECMP hashing changes: flows move to other links (reordering)",
             "SWITCH_HASH / ip load-sharing re-hash every flow [M]"),
    "port": (FLAP, "a port attribute that re-initialises the link (speed, FEC, MTU, lanes, "
             "admin state, breakout)", "sonic-swss portsorch sets a port admin down to change "
             "its speed (sonic-swss #716, #764) [V]; FEC re-config flaps the link (sonic-swss "
             "#4056) [V]; EOS interface speed re-negotiates the link [M]"),
    "reload": (RELOAD, "read only when the services start", "DEVICE_METADATA buffer_model "
               "picks buffermgrd's mode at start (SONiC dynamic buffer HLD) [M]; "
               "docker_routing_config_mode is read when the bgp container starts "
               "(sonic-utilities #4680) [V]; a BUFFER_POOL's mode/type and a BUFFER_PROFILE's "
               "pool are SAI create-only, skipped on update (sonic-swss #1430) [V]; EOS "
               "service routing protocols model needs a reload [M]"),
    "agent-restart": (RELOAD, "takes effect only when EOS's forwarding agent restarts, which "
                      "deletes and re-adds every route", "EOS User Manual, IPv4 'Configuring "
                      "IPv4 Route Scale': ip hardware fib optimize prints 'Please restart layer "
                      "3 forwarding agent' and agent SandL3Unicast terminate re-adds all routes "
                      "[M]; AVD eos_designs docs: 'All forwarding agents will be restarted' "
                      "when platform trident forwarding-table partition is applied [M]"),
    "switchd-restart": (FLAP, "NVUE restarts switchd: every port of the switch resets",
                        "Cumulus Linux 5.14 ECMP page: configuring the hash seed \"restarts the "
                        "switchd service, which causes all network ports to reset\" [V]"),
    "adaptive-routing": (TRAFFIC, "adaptive routing on or off: switchd reloads and flows are "
                         "re-steered", "Cumulus Linux 5.14 ECMP page: \"Enabling or disabling "
                         "adaptive routing ... reloads the switchd service\" [V]"),
    "frr-restart": (TRAFFIC, "the BGP ASN: NVUE restarts FRR, every session resets",
                    "Cumulus Linux 5.14 Basic BGP Configuration: changing the ASN restarts the "
                    "FRR service, \"which might impact traffic\" [V]"),
    "unknown": (TRAFFIC, "a part this plan has no rule for: treated as traffic-affecting",
                "conservative default"),
}

# router bgp / bgpd.conf lines of reason bgp-session: a neighbour's timers, bfd, route limit
BGP_SESSION = re.compile(r"^\s*neighbor \S+ (timers|bfd|maximum-routes|maximum-prefix)( |$)")

SOURCES = {cls: [(rid, what, src) for rid, (c, what, src) in sorted(REASONS.items()) if c == cls]
           for cls in CLASSES}


def worst(classes: Iterable[str]) -> str:
    """The most disruptive of ``classes`` (hitless when empty)."""
    return max(classes, key=CLASSES.index, default=HITLESS)


def part(file_kind: str, name: str, added: int, removed: int, changed: int,
         reasons: Iterable[str]) -> Part:
    """One changed part of a config file, classed by its reasons (REASONS ids)."""
    cls = worst(REASONS[r][0] for r in reasons)
    return {"file": file_kind, "part": name, "added": added, "removed": removed,
            "changed": changed, "class": cls, "reasons": sorted(reasons)}
