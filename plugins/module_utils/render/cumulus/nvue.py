# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cumulus Linux startup.yaml from one switch's plan intent: the NVUE tree the plan owns, as the
list of ``set`` documents NVUE saves (NVUE-CLI.md: ``/etc/nvue.d/startup.yaml``; `nv config
patch <file>` takes it as is).

Every key is one of the Cumulus Linux 5.14 NVUE commands, the command path read as the tree's
path ("The path through the tree is similar to a filesystem path", NVUE-API.md): the sources
and ranges are in hardware/cumulus.py. Numbers come from the plan; nothing is recomputed here.

QoS is configured key by key rather than with `nv set qos roce`: the RoCE profile sets trust
``pcp,dscp``, ECN on TC 0 and 3 at fixed thresholds and one cable length for every port, and
NVIDIA documents no way to override its ECN or scheduler once set. The explicit keys are each
documented: trust l3 and all 64 DSCPs, the queue map, the scheduler, the pools, a PFC profile
per cable length (NVUE sizes each port's headroom from it), an ECN profile per mark class, the
watchdog. NVUE's own numbers (headroom, xon/xoff, pool thresholds) are not rendered.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Callable, Dict, List, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import document
from ansible_collections.roce.fabric.plugins.module_utils.hardware import cumulus, models
from ansible_collections.roce.fabric.plugins.module_utils.plan import qos as plan_qos
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    EcnMarks, PortIntent, QosIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.render import policy

Tree = document.Tree
CONFIG_PATH = "configs/%s.yaml"           # relative to the output root (render/cumulus/platform.py)
GSHUT_LIST = "RF-GSHUT"                   # the names SONiC's bgpd.conf and EOS use too
DRAIN_IN = "RF-DRAIN-IN"
ON, OFF = "on", "off"                     # 5.14 switches (5.15: enabled/disabled)


# Subtrees switches and ports hold alike, one object each (document.Shared: written once per
# indent); keyed by their content, bounded.
_PARTS: Dict[Any, document.Shared] = {}


def _part(key: Tuple[Any, ...], make: Callable[..., Tree]) -> document.Shared:
    """The shared subtree ``make(*key[1:])`` (key[0] names the kind of part)."""
    part = _PARTS.get(key)
    if part is None:
        if len(_PARTS) > 100000:
            _PARTS.clear()
        part = _PARTS[key] = document.Shared(make(*key[1:]))
    return part


def pfc_profile(cable_class_m: int) -> str:
    """The PFC profile of lossless ports on ``cable_class_m`` cables (NVUE sizes their headroom
    from its cable-length)."""
    return "RF-PFC-%dM" % cable_class_m


def ecn_profile(marks: EcnMarks) -> str:
    return "RF-ECN-%d-%d" % (marks["kmin_bytes"], marks["kmax_bytes"])


def cable_length(port: PortIntent) -> int:
    """The PFC profile's cable length: the port's real cable in whole metres, rounded up
    (1-100000). Not the cable class a SONiC peer's SKU table rounds the link to: NVUE computes
    the headroom from the length itself."""
    return max(cumulus.PFC_CABLE_M[0], int(math.ceil(port["cable_m"])))


def nvue_document(dev: SwitchIntent) -> List[Tree]:
    """The plan-owned NVUE tree of switch ``dev`` as startup.yaml's operations: one ``set``."""
    tree: Tree = {"interface": _interfaces(dev), "qos": _qos(dev), "router": _router(dev),
                  "system": {"forwarding": _forwarding(dev)}, "vrf": {"default": {
                      "router": {"bgp": _bgp(dev)}}}}
    return [{"set": tree}]


def nvue_yaml(dev: SwitchIntent) -> str:
    """configs/<switch>.yaml: the document as NVUE's YAML (block style, ids quoted as NVUE
    writes them: '26':)."""
    return document.dump(nvue_document(dev), [
        "roce.fabric: %s (%s, %s) - rendered from the plan, do not edit"
        % (dev["name"], dev["role"], dev["asic"]),
        "Cumulus Linux %s NVUE; the plan's part of the tree: roce.fabric.nvue_config patches "
        "it into a revision (nv config patch takes it too)" % cumulus.RELEASE])


# -- interfaces ---------------------------------------------------------------------------------

def _interfaces(dev: SwitchIntent) -> Tree:
    """lo with the loopback; each broken-out cage's breakout; each port's description, link, /31,
    QoS profiles, watchdog and adaptive routing."""
    out: Tree = {"lo": {"type": "loopback", "ip": {"address": {dev["loopback"]: {}}}}}
    ar = dev["ecmp"]["rendered"]["adaptive_routing"]
    wd = dev["pfc_watchdog"]["enabled"]
    per_cage = _per_cage(dev)
    for port in dev["ports"]:
        # 1x: the default, said - a cage split before is joined
        joined = per_cage == 1 and bool(port["cage"])
        link = _part(("link", port["mtu_bytes"], port["speed_gbps"], port["up"], joined), _link)
        if per_cage > 1 and port["cage"]:
            out.setdefault("swp%d" % port["cage"], {"type": "swp", "link": _part(
                ("breakout", per_cage), _breakout)})
        entry: Tree = {"type": "swp", "description": "%s:%s" % (port["peer"], port["peer_port"]),
                       "link": link}
        if port["address"]:
            entry["ip"] = {"address": {port["address"]: {}}}
        if port["lossless"]:
            ecn = port["lossless"]["ecn"]
            entry["qos"] = _part(("qos", pfc_profile(cable_length(port)),
                                  ecn and ecn_profile(ecn), wd), _port_qos)
        if ar and port["peer_kind"] != "host":
            entry["router"] = _part(("ar",), _port_ar)
        out[port["name"]] = entry
    return out


def _link(mtu: int, speed: int, up: bool, joined: bool) -> Tree:
    link: Tree = {"mtu": mtu, "speed": "%dG" % speed, "state": {("up" if up else "down"): {}}}
    if joined:
        link["breakout"] = {"1x": {}}
    return link


def _breakout(per_cage: int) -> Tree:
    return {"breakout": {"%dx" % per_cage: {}}}


def _port_ar() -> Tree:
    return {"adaptive-routing": {"enable": ON}}


def _port_qos(pfc: str, ecn: Any, wd: bool) -> Tree:
    qos: Tree = {"pfc": {"profile": pfc}}
    if ecn:
        qos["congestion-control"] = {"profile": ecn}
    if wd:
        qos["pfc-watchdog"] = {"state": "enable"}
    return qos


def _per_cage(dev: SwitchIntent) -> int:
    """Ports per cage of the switch's breakout (the model's mode: 2x400G -> 2); 1 without a
    model."""
    hw = dev.get("hardware") or {}
    modes = [m for m in models.MODELS[hw["model"]]["modes"] if m.name == hw["breakout"]] \
        if hw else []
    return modes[0].ports if modes else 1


# -- QoS ----------------------------------------------------------------------------------------

def _qos(dev: SwitchIntent) -> Tree:
    q = dev["qos"]
    lossless = q["pfc_priorities"]
    dscp = tuple(sorted(plan_qos.dscp_map(q).items()))
    out: Tree = {
        # trust l3: "Accept incoming DSCP IP header marking" (QoS _index.md); all 64 DSCPs, so
        # no other traffic falls on a lossless class by NVUE's default map (plan/qos.py)
        "mapping": _part(("mapping", dscp), _mapping),
        "egress-queue-mapping": _part(("queues", egress_queues(q)), _queues),
        "egress-scheduler": {"default-global": {"traffic-class": _scheduler(dev)}},
        "traffic-pool": _pools(dev),
        "pfc": _pfc_profiles(dev, lossless),
        "congestion-control": _ecn_profiles(dev),
    }
    wd = dev["pfc_watchdog"]
    if wd["enabled"]:
        out["pfc-watchdog"] = {"polling-interval": wd["poll_ms"],
                               "robustness": watchdog_robustness(wd)}
    return out


def _mapping(dscp: Tuple[Tuple[int, int], ...]) -> Tree:
    return {"default-global": {"trust": "l3", "dscp": dict(
        (str(d), {"switch-priority": tc}) for d, tc in dscp)}}


def egress_queues(q: QosIntent) -> Tuple[int, ...]:
    """The egress queue of each switch priority: the plan's for the priorities its DSCP map,
    PFC and CNP use; best effort's for the others, so that traffic another port's own QoS map
    puts there (a storage bond's PCP) lands in best effort, never in a strict class that carries
    nothing of the plan's (as `nv set qos roce` maps "other switch priority to traffic class 0",
    RoCE page)."""
    queue = q["tc_to_queue"]
    used = set(plan_qos.dscp_map(q).values()) | set(q["pfc_priorities"]) | {q["cnp_tc"]}
    return tuple(queue[sp] if sp in used else queue[q["dscp_default_tc"]] for sp in range(8))


def _queues(queues: Tuple[int, ...]) -> Tree:
    return {"default-global": {"switch-priority": dict(
        (str(sp), {"traffic-class": tc}) for sp, tc in enumerate(queues))}}


def watchdog_robustness(wd: Dict[str, Any]) -> int:
    """Polling intervals before the watchdog acts: the plan's detection time in whole intervals,
    rounded up (at most 1000)."""
    return min(cumulus.WATCHDOG_ROBUSTNESS[1],
               max(cumulus.WATCHDOG_ROBUSTNESS[0], -(-wd["detection_ms"] // wd["poll_ms"])))


def _scheduler(dev: SwitchIntent) -> Tree:
    """Best effort and the lossless classes share the link by DWRR (50/50, as every platform of
    the plan), CNP strict. NVUE keeps its default 12/13 % on a class not set and takes at most
    100 % in all, so every class is set: those no switch priority maps to (egress_queues) are
    strict and carry nothing."""
    q = dev["qos"]
    queue = q["tc_to_queue"]
    dwrr = set([queue[0]] + [queue[tc] for tc in q["lossless_priorities"]])
    if q["cnp_scheduler"] == "dwrr":
        dwrr.add(queue[q["cnp_tc"]])
    share = cumulus.DWRR_TOTAL_PERCENT // len(dwrr)
    return dict((str(tc), {"mode": "dwrr", "bw-percent": share} if tc in dwrr
                 else {"mode": "strict"}) for tc in range(8))


def _pools(dev: SwitchIntent) -> Tree:
    view = dev["buffer"].get("nvue") or {}
    lossless = set(dev["qos"]["pfc_priorities"])
    return {"default-lossless": {"memory-percent": view["lossless_pool_percent"],
                                 "switch-priority": dict((str(sp), {}) for sp in sorted(lossless))},
            "default-lossy": {"memory-percent": view["lossy_pool_percent"],
                              "switch-priority": dict((str(sp), {}) for sp in range(8)
                                                      if sp not in lossless)}}


def _pfc_profiles(dev: SwitchIntent, priorities: List[int]) -> Tree:
    """One PFC profile per cable length of the lossless ports: PFC on the plan's priorities
    only, sent and honoured; NVUE sizes xoff, xon and the port buffer from the cable length."""
    out: Tree = {}
    for port in dev["ports"]:
        if port["lossless"]:
            length = cable_length(port)
            out.setdefault(pfc_profile(length), {
                "switch-priority": dict((str(sp), {}) for sp in priorities),
                "tx": "enable", "rx": "enable", "cable-length": length})
    return out


def _ecn_profiles(dev: SwitchIntent) -> Tree:
    """One congestion-control profile per ECN mark class: ECN on the plan's queues with its
    thresholds (bytes) and probability, off on the queue NVUE's default profile marks."""
    q = dev["qos"]
    out: Tree = {}
    for port in dev["ports"]:
        ecn = port["lossless"] and port["lossless"]["ecn"]
        if not ecn or ecn_profile(ecn) in out:
            continue
        tcs: Tree = dict((str(tc), {"ecn": "disable"}) for tc in cumulus.DEFAULT_ECN_QUEUES
                         if tc not in q["ecn_queues"])
        for tc in q["ecn_queues"]:
            tcs[str(tc)] = {"ecn": "enable", "min-threshold": ecn["kmin_bytes"],
                            "max-threshold": ecn["kmax_bytes"],
                            "probability": ecn["pmax_percent"], "red": "disable"}
        out[ecn_profile(ecn)] = {"traffic-class": dict(sorted(tcs.items()))}
    return out


# -- routing ------------------------------------------------------------------------------------

def _forwarding(dev: SwitchIntent) -> Tree:
    """Every hash field NVUE has, on where the plan asks for it; the seed (setting it restarts
    switchd: render/cumulus/changes.py)."""
    rendered = dev["ecmp"]["rendered"]
    fields = set(rendered["hash_fields"])
    return {"ecmp-hash": dict((key, ON if name in fields else OFF) for name, key in
                              sorted(cumulus.ECMP_HASH_FIELDS.items(), key=lambda kv: kv[1])),
            "hash-seed": rendered["seed"]}


def _router(dev: SwitchIntent) -> Tree:
    bgp = dev["bgp"]
    out: Tree = {"bgp": {"autonomous-system": bgp["asn"], "router-id": bgp["router_id"],
                         "enable": ON}}
    if dev["ecmp"]["rendered"]["adaptive_routing"]:
        out["adaptive-routing"] = {"enable": ON}
    prefixes = dict(("%d" % (5 * (i + 1)), {"action": "permit", "match": {prefix: {}}})
                    for i, prefix in enumerate(policy.connected_prefixes(dev)))
    out["policy"] = {
        "prefix-list": {policy.CONNECTED: {"type": "ipv4", "rule": prefixes}},
        "community-list": {GSHUT_LIST: {"rule": {"5": {
            "action": "permit", "community": {cumulus.GSHUT_COMMUNITY: {}}}}}},
        "route-map": {
            policy.CONNECTED: {"rule": {"10": {"action": {"permit": {}}, "match": {
                "type": "ipv4", "ip-prefix-list": policy.CONNECTED}}}},
            # RFC 8326: a draining peer's routes carry GRACEFUL_SHUTDOWN; least preferred here
            DRAIN_IN: {"rule": {"10": {"action": {"permit": {}},
                                       "match": {"type": "ipv4", "community-list": GSHUT_LIST},
                                       "set": {"local-preference": 0}},
                                "20": {"action": {"permit": {}}}}}},
    }
    return out


def _bgp(dev: SwitchIntent) -> Tree:
    bgp = dev["bgp"]
    family: Tree = {"enable": ON, "multipaths": {"ebgp": bgp["maximum_paths"]},
                    "redistribute": {"connected": {"enable": ON,
                                                   "route-map": policy.CONNECTED}}}
    if bgp.get("aggregate"):
        family["aggregate-route"] = {bgp["aggregate"]: {"summary-only": ON}}
    neighbors: Tree = {}
    for n in bgp["neighbors"]:
        af: Tree = {"enable": ON, "policy": {"inbound": {"route-map": DRAIN_IN}},
                    "prefix-limits": {"inbound": {"maximum": n["max_routes"]}}}
        if bgp["allowas_in"]:
            af["aspath"] = {"allow-my-asn": {"enable": ON, "occurrences": 1}}
        entry: Tree = {"remote-as": n["asn"], "type": "numbered",
                       "description": "%s:%s" % (n["name"], n["peer_port"]),
                       "timers": {"keepalive": bgp["keepalive_s"], "hold": bgp["hold_s"]},
                       "address-family": {"ipv4-unicast": af}}
        if bgp["bfd"]:
            entry["bfd"] = {"enable": ON}
        neighbors[n["address"]] = entry
    return {"enable": ON, "path-selection": {"multipath": {"aspath-ignore": ON}},
            "address-family": {"ipv4-unicast": family}, "neighbor": neighbors}
