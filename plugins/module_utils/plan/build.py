# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan: fabric model -> per-device intent (switches and hosts) plus the list of violations.

One pure computation for the whole fabric; renderers and deployers only read its output. The
intent is platform-neutral: every lossless number per port, QoS maps and queues, BGP and ECMP,
PFC watchdog, and each host NIC's settings.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import functools
import gc
import operator
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    models, platforms as hardware_platforms)
from ansible_collections.roce.fabric.plugins.module_utils.inputs import eos_base
from ansible_collections.roce.fabric.plugins.module_utils.lossless import (
    buffer_model, switch as lossless)
from ansible_collections.roce.fabric.plugins.module_utils.model import fabric
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import (
    Fabric, Nic, Port, Switch)
from ansible_collections.roce.fabric.plugins.module_utils.plan import bgp_limits, platforms, qos
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    BgpIntent, Device, HostIntent, SwitchIntent)

Ends = Dict[Port, Tuple[Optional[int], int]]     # switch port -> (peer MTU, cable class)
Lossless = Tuple[Any, Dict[str, Any], Dict[str, Any]]  # (ASIC profile, plan, its ports by name)

ECT0 = 2          # ECN-capable transport codepoint ORed into the ToS byte (host-nic.md §1.1)
HOST_ETS_BW = 50  # RoCE class share of host ETS, as the switches' DWRR (Cumulus RoCE: 50/50)
ROUTE_TABLE_BASE = 100  # per-NIC policy routing tables 100 + rail (host-nic.md §4)


def _switch_lossless(sw: Switch, ordered: Sequence[Port], ends: Ends,
                     memo: Dict[Tuple[Any, ...], Lossless]) -> Lossless:
    """Headroom, budget, trigger and ECN for every up port of ``sw`` (lossless/switch.py).

    Switches with the same ASIC, platform, settings and ports (name, state, speed, cable and
    its class, lanes, MTUs, media, headroom override) get the same answer: it is computed once
    per such shape and shared, so a fabric of thousands of identical leaves costs a handful of
    computations (read-only)."""
    hv = sw.vars
    # every port's fields (a down port's too: a key can only be stricter), tupled in C
    key = (sw.asic, repr(hv.get("roce_asic_overrides")), repr(hv.get("roce_lossless")),
           tuple(sw.qos["lossless_priorities"]), sw.model, sw.platform,
           tuple(map(_PORT_SHAPE, ordered)), tuple(map(ends.__getitem__, ordered)))
    if key not in memo:
        asic, result = lossless.plan_switch(sw, ordered, ends, _hardware(sw))
        memo[key] = (asic, result, dict((p["name"], p) for p in result["ports"]))
    return memo[key]


_INDEX = operator.attrgetter("index")      # a switch's ports in port-map order
# what a port's lossless numbers depend on, with the peer's MTU and the cable class (ends)
_PORT_SHAPE = operator.attrgetter("name", "up", "speed_gbps", "cable_m", "mtu_bytes",
                                  "lanes_per_port", "media", "headroom_bytes")


def _bgp(fab: Fabric, sw: Switch, ordered: Sequence[Port]) -> BgpIntent:
    s = fab.settings
    switches, above = fab.switches, fabric.UPLINK.get(sw.role)
    neighbors: List[Any] = []
    per_peer: Dict[str, int] = {}
    uplinks = 0
    for p in ordered:
        if not p.up:
            continue
        if p.peer_kind == above:
            uplinks += 1
        if p.peer_kind in _FABRIC_PEERS:
            peer = switches[p.peer]
            # a wired fabric port has both halves of its /31 (model/links.py pair_addresses)
            neighbors.append({"port": p.name, "peer_port": p.peer_port,
                              "address": cast(str, p.peer_address).split("/")[0],
                              "local_address": cast(str, p.address).split("/")[0],
                              "asn": peer.asn, "name": peer.name,
                              # set once every switch is planned (plan/bgp_limits.py)
                              "routes": 0, "max_routes": 0})
            per_peer[peer.name] = per_peer.get(peer.name, 0) + 1
    # The widest ECMP set: a leaf spreads over every uplink, a three-tier spine over its
    # super-spine uplinks (other pods); otherwise over the parallel links to one peer below.
    width = uplinks or min(per_peer.values() or [0])
    return {"asn": sw.asn, "router_id": sw.loopback.split("/")[0],
            "maximum_paths": s["routing"]["maximum_paths"],
            "ecmp_width": width, "neighbors": neighbors,
            "allowas_in": bool(s["asn"]["allowas_in"]),
            "advertise": s["routing"]["advertise"],
            # the leaf's block of host /31s, announced alone (routing.advertise aggregate)
            "aggregate": sw.host_aggregate,
            # one value fabric-wide, rendered on every session (rule bgp-timers compares ends)
            "keepalive_s": s["routing"]["keepalive_s"], "hold_s": s["routing"]["hold_s"],
            "bfd": bool(s["routing"]["bfd"])}


_FABRIC_PEERS = frozenset(("spine", "leaf", "superspine"))


def _check_timers(routing: Dict[str, Any]) -> None:
    """RFC 4271 4.4: a hold time of at least three keepalives (one lost keepalive is no reason
    to drop a session)."""
    if routing["hold_s"] < 3 * routing["keepalive_s"]:
        raise errors.RoceInputError("roce_fabric.routing.hold_s", routing["hold_s"],
                                    "at least 3 x roce_fabric.routing.keepalive_s (%d): raise "
                                    "hold_s or lower keepalive_s" % (3 * routing["keepalive_s"]))


def _once(shared: Dict[Tuple[Any, ...], Any], key: Tuple[Any, ...],
          make: Callable[[], Any]) -> Any:
    """One object per key for all switches (keys hold ids of objects the plan keeps alive)."""
    if key not in shared:
        shared[key] = make()
    return shared[key]


def _switch_intent(fab: Fabric, sw: Switch, ordered: Sequence[Port], lossless: Lossless,
                   shared: Dict[Tuple[Any, ...], Any]) -> SwitchIntent:
    """``ordered``: the switch's ports by index; ``lossless``: (asic, result, result's ports by
    name) from _switch_lossless."""
    asic, lossless_result, by_name = lossless
    ports: List[Any] = []
    below, above = fabric.DOWNLINK[sw.role], fabric.UPLINK.get(sw.role)
    down = up = 0
    speeds = set()          # of the up fabric ports: where adaptive routing would run
    for p in ordered:
        if p.up:
            if p.peer_kind in _FABRIC_PEERS:
                speeds.add(p.speed_gbps)
            if p.peer_kind == below:
                down += p.speed_gbps
            elif p.peer_kind == above:
                up += p.speed_gbps
        ports.append({
            "name": p.name, "index": p.index, "up": p.up, "peer_kind": p.peer_kind,
            "peer": p.peer, "peer_port": p.peer_port, "speed_gbps": p.speed_gbps,
            "cable_m": p.cable_m, "media": p.media, "mtu_bytes": p.mtu_bytes,
            "address": p.address, "peer_address": p.peer_address,
            "lanes": p.lanes, "alias": p.alias, "cage": p.cage,
            "lanes_per_port": p.lanes_per_port,
            "lossless": by_name.get(p.name),
        })
    fabric_speeds = frozenset(speeds)
    return {
        "kind": "switch", "name": sw.name, "role": sw.role, "platform": sw.platform,
        "oversubscription": down / float(up) if up else None,
        "asic": asic.name, "asic_family": asic.value("family"), "pair": sw.pair,
        "loopback": sw.loopback, "hardware": _hardware(sw),
        "pod": fab.pods[sw.pod]["name"] if sw.pod is not None else None, "plane": sw.plane,
        "qos": _once(shared, ("qos", id(sw.qos)), lambda: qos.qos_intent(sw.qos, sw.name)),
        "pfc_watchdog": sw.pfc_watchdog,
        "ecmp": _once(shared, ("ecmp", id(sw.ecmp), sw.role, sw.platform, asic.value("family"),
                               fabric_speeds),
                      lambda: dict(sw.ecmp, seed=sw.ecmp["seeds"][sw.role],
                                   rendered=hardware_platforms.PLATFORMS[sw.platform].ecmp(
                                       asic.value("family"), sw.role, sw.ecmp, fabric_speeds))),
        "bgp": _bgp(fab, sw, ordered), "ports": ports,
        "base_config": _base_config(sw),
        "buffer": _once(shared, ("buffer", id(lossless_result)), lambda: dict(
            (k, v) for k, v in lossless_result.items() if k != "ports")),
        "unverified_facts": _once(shared, ("asic", id(asic)), asic.unverified),
    }


def _base_config(sw: Switch) -> Optional[List[str]]:
    """The inventory's base config lines (what the plan does not own), checked; only where the
    platform's deploy merges them (plan/platforms.py)."""
    text = sw.vars.get(eos_base.FIELD)
    if text is not None and not platforms.PLATFORMS[sw.platform].base_config:
        raise errors.RoceInputError(eos_base.FIELD, "(%d characters)" % len(text), "not set: "
                                    "%s runs %s, whose deploy patches only the plan's tables"
                                    % (sw.name, sw.platform), sw.name)
    return eos_base.base_config(sw.name, sw.ports, text) if text is not None else None


def _hardware(sw: Switch) -> Optional[Dict[str, Any]]:
    """Model, breakout and ports of a switch, with what its platform adds (plan/platforms.py:
    SONiC's platform and HWSKU, EOS's tx-queue keyword); None without a model."""
    if sw.model is None:
        return None
    model, mode = models.MODELS[sw.model], sw.portmap.breakout
    out = {"model": sw.model, "product": model["product"], "breakout": mode.name,
           "ports": sw.port_count}
    out.update(platforms.PLATFORMS[sw.platform].hardware(model, mode))
    return out


def _host_intent(fab: Fabric, host: str, nics: Sequence[Nic],
                 qos_cache: Dict[int, Tuple[Any, ...]], shared: Dict[Tuple[Any, ...], Any],
                 fabric_ar: bool = False) -> HostIntent:
    s = fab.settings
    out: List[Any] = []
    settings: List[Any] = []
    for nic in nics:
        if id(nic.qos) not in qos_cache:   # NICs share the fabric's QoS unless overridden
            # the same intent object as switches without an override (a link check skips
            # ends that share one)
            q = _once(shared, ("qos", id(nic.qos)), functools.partial(qos.qos_intent, nic.qos, host))
            # host ETS as the switches schedule: CNP strict, RoCE / rest DWRR
            ets = {"roce_priority": q["roce_tc"], "cnp_priority": q["cnp_tc"],
                   "roce_bw": HOST_ETS_BW, "default_bw": 100 - HOST_ETS_BW}
            # the NIC's DSCP table: the planned DSCPs, and one priority for every other DSCP
            # (the nic module writes all 64: plan/qos.py)
            qos_cache[id(nic.qos)] = (nic.qos, q, (q["roce_dscp"] << 2) | ECT0,
                                      dict(q["dscp_to_tc"]), ets)
        q, tos, dscp_prio, ets = qos_cache[id(nic.qos)][1:]
        gateway = cast(str, nic.gateway).split("/")[0]    # every wired NIC has its gateway
        table = ROUTE_TABLE_BASE + nic.rail
        out.append({
            "name": nic.name, "rail": nic.rail, "leaf": nic.leaf, "leaf_port": nic.leaf_port,
            "address": nic.address, "gateway": gateway,
            "mtu_bytes": nic.mtu_bytes, "speed_gbps": nic.speed_gbps, "cable_m": nic.cable_m,
            "qos": q, "roce_tos": tos, "dscp_prio": dscp_prio,
            "dscp_default_prio": q["dscp_default_tc"],
            "pfc_priorities": q["pfc_priorities"], "global_pause": "off",
            "route_table": table,
        })
        # The same NIC in roce.fabric.nic's argument form (nic role, host role and roce-check).
        settings.append({"name": nic.name, "mtu_bytes": nic.mtu_bytes, "dscp_prio": dscp_prio,
                         "dscp_default_prio": q["dscp_default_tc"],
                         "pfc_priorities": q["pfc_priorities"], "roce_tos": tos,
                         "cable_m": nic.cable_m, "ets": ets,
                         "address": nic.address, "gateway": gateway, "route_table": table,
                         "cnp_dscp": q["cnp_dscp"], "cnp_priority": q["cnp_tc"],
                         "ecn_priorities": q["lossless_priorities"]})
    first = out[0]["qos"] if out else {}
    return {
        "kind": "host", "name": host, "nics": out, "nic_settings": settings,
        "sysctls": dict(s["host"]["sysctls"]),
        "nccl": {"NCCL_IB_TC": (first.get("roce_dscp", 0) << 2) | ECT0 if out else None,
                 "NCCL_IB_HCA": [n["name"] for n in out],
                 "NCCL_IB_QPS_PER_CONNECTION": s["ecmp"]["qps_per_connection"],
                 # planes are separate fabrics: no ring across them (NCCL defaults to 2)
                 "NCCL_CROSS_NIC": 0 if fab.planes > 1 else None,
                 # NCCL's default on Ethernet is 0; 1 where the fabric renders DLB/AR
                 "NCCL_IB_ADAPTIVE_ROUTING": 1 if fabric_ar else None,
                 "NCCL_SOCKET_IFNAME": s["host"]["socket_ifname"]},
    }


def _link_ends(fab: Fabric) -> Ends:
    """{switch Port: (the peer's MTU, the cable class)} for every switch end of every link.
    One class per cable, chosen from the pg_profile_lookup.ini lengths of the switch ends
    (buffer_model.link_class), so both ends size and name their headroom for the same length.
    Keyed by the Port object itself: a million ends, no key tuples."""
    out: Ends = {}
    memo: Dict[Tuple[Any, ...], int] = {}
    tables: Dict[Tuple[str, int], Optional[Tuple[int, ...]]] = {}
    for kind, a, b in fab.links:
        # a switch's table at a speed: looked up once, not per link
        key_a = (a.switch, a.speed_gbps)
        if key_a not in tables:
            tables[key_a] = buffer_model.cable_classes(fab.switches[a.switch], a.speed_gbps)
        options: Tuple[Optional[Tuple[int, ...]], ...]
        if kind == "host":
            options = (tables[key_a],)
        else:
            key_b = (b.switch, b.speed_gbps)
            if key_b not in tables:
                tables[key_b] = buffer_model.cable_classes(fab.switches[b.switch], b.speed_gbps)
            options = (tables[key_a], tables[key_b])
        key = (a.cable_m, options)
        cls = memo.get(key)
        if cls is None:
            cls = memo[key] = buffer_model.link_class(a.cable_m, options)
        out[a] = (b.mtu_bytes, cls)
        if kind != "host":
            out[b] = (a.mtu_bytes, cls)
    return out


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building millions of acyclic dicts: its
    full collections scan the growing heap again and again (half the planning time of a
    100k-GPU fabric). What outlives the pause (the plan) is long-lived, so it is frozen
    (gc.freeze: out of the collector's generations) before the collector resumes; else the
    first collections after it scan those millions of objects again (0.9 s at 131,072 GPUs).
    Reference counting still frees everything; only cycles among frozen objects would stay
    (the plan has none). Nested pauses leave it to the outermost."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.enable()


def build_intent(groups: Dict[str, Any], hostvars: Dict[str, Dict[str, Any]]
                 ) -> Tuple[Fabric, Dict[str, Device]]:
    """The fabric model and every device's intent: (fabric, {name: intent}). Raises
    RoceInputError (naming host, field, value and what is allowed) on invalid inventory. The
    checks run over this in pipeline.build_plan."""
    fab = fabric.build_fabric(groups, hostvars)
    _check_timers(fab.settings["routing"])
    ends = _link_ends(fab)
    devices: Dict[str, Device] = {}
    # identical switches share computed, read-only intent parts
    memo: Dict[Tuple[Any, ...], Lossless] = {}
    shared: Dict[Tuple[Any, ...], Any] = {}
    switches: List[SwitchIntent] = []
    for sw in fab.all_switches():
        ordered = sorted(sw.ports.values(), key=_INDEX)
        lossless = _switch_lossless(sw, ordered, ends, memo)
        switches.append(_switch_intent(fab, sw, ordered, lossless, shared))
        devices[sw.name] = switches[-1]
    bgp_limits.assign(dict((d["name"], d) for d in switches))
    qos_cache: Dict[int, Tuple[Any, ...]] = {}
    # NCCL_IB_ADAPTIVE_ROUTING only where every leaf and spine renders adaptive routing
    fabric_ar = all(d["ecmp"]["rendered"]["adaptive_routing"] for d in switches
                    if d["role"] in ("leaf", "spine"))
    for host, nics in fab.hosts:
        devices[host] = _host_intent(fab, host, nics, qos_cache, shared, fabric_ar)
    return fab, devices
