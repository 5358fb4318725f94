# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fabric model: super-spines, pods of spines and leaf pairs, planes, GPU hosts with N NICs,
links, addresses and ASNs.

Input is plain data (the inventory's groups and host variables); the model derives everything a
two- or three-tier Clos needs and lets any derived value be overridden for one device or link.
Every step is linear in devices and links.

Tiers: leaves (hosts below), spines, and optionally super-spines (group ``superspines``). With
super-spines the leaves and spines are split into pods (the child groups of ``pods``); spine j
of every pod connects to super-spine group j of its plane (fat-tree wiring, lossless-math.md §6).
Planes (the child groups of ``planes``) are independent fabrics: NIC i of every host attaches to
plane i mod planes. The inventory variables are those of inputs/schema.py; build_fabric checks
them there first, so everything below reads plain, well-typed values.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, TypedDict, cast

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.model import (
    links as fabric_links, numbering as fabric_numbers, tiers as fabric_tiers)
from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    catalog, models, platforms, ports as port_names)
from ansible_collections.roce.fabric.plugins.module_utils.inputs import port_map, schema, validate

# What a switch's ports face, by tier (the peer_kind of its down- and uplinks).
DOWNLINK = {"leaf": "host", "spine": "leaf", "superspine": "spine"}
UPLINK = {"leaf": "spine", "spine": "superspine"}
FABRIC_DEFAULTS = schema.fabric_defaults()
FREE_FORM = ("dscp_to_tc", "sysctls")      # merged key by key, not replaced
# roce_fabric.host_link, fabric_link, superspine_link (inputs/schema.py _link): one tier's links
LinkSettings = TypedDict("LinkSettings", {"speed_gbps": int, "cable_m": float, "media": str})
# _wire_hosts's free ports, per leaf: the next index to try, the indices wired
_Free = Tuple[Dict[str, int], Dict[str, Set[int]]]


def _merge(base: Dict[str, Any], override: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """A deep copy of ``base`` with ``override`` merged in (both checked by the schema)."""
    return copy.deepcopy(base) if override is None else _merged(base, override)


def _shared(base: Dict[str, Any], override: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """``base`` itself when there is no override (switches share the fabric's settings, like
    NICs share their QoS: one object for thousands of devices), else the merged copy."""
    return base if override is None else _merged(base, override)


def _merged(base: Dict[str, Any], override: Dict[str, Any]) -> Dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if key in FREE_FORM:
            out[key] = dict(base.get(key) or {})
            out[key].update(value)
        elif isinstance(base.get(key), dict) and isinstance(value, dict):
            out[key] = _merged(base[key], value)
        else:
            out[key] = value
    return out


class Port:
    """One switch port and what is on the other end."""
    __slots__ = ("switch", "name", "index", "peer_kind", "peer", "peer_port", "speed_gbps",
                 "cable_m", "media", "mtu_bytes", "address", "peer_address", "up",
                 "headroom_bytes", "lanes", "alias", "cage", "lanes_per_port", "portmap")
    # the slots' types (annotations only: no class attributes beside __slots__)
    switch: str
    name: str
    index: int
    peer_kind: str                  # "host", "leaf", "spine", "superspine"
    peer: str                       # the peer switch or host
    peer_port: Optional[str]        # the peer's port or NIC name; None until cabled
    speed_gbps: int
    cable_m: float
    media: str
    mtu_bytes: int
    address: Optional[str]          # this end's /31; None until numbering.assign
    peer_address: Optional[str]
    up: bool
    headroom_bytes: Optional[int]   # pinned by roce_link_overrides, else None
    lanes: str
    alias: Optional[str]
    cage: int
    lanes_per_port: int
    portmap: port_names.PortMap

    def __init__(self, sw: "Switch", name: str, index: int, link: LinkSettings,
                 peer_kind: str, peer: str, peer_port: Optional[str],
                 lanes: Tuple[str, Optional[str], int, int]) -> None:
        # every slot set once: a 100k-GPU fabric makes 655,360 ports
        self.switch, self.name, self.index, self.portmap = sw.name, name, index, sw.portmap
        self.peer_kind, self.peer, self.peer_port = peer_kind, peer, peer_port
        self.speed_gbps, self.cable_m, self.media = (link["speed_gbps"], link.get("cable_m"),
                                                     link["media"])
        self.mtu_bytes = sw.mtu_bytes
        self.lanes, self.alias, self.cage, self.lanes_per_port = lanes
        self.address = self.peer_address = self.headroom_bytes = None
        self.up = True


class Switch:
    __slots__ = ("name", "role", "index", "platform", "asn", "loopback", "pair", "port_count",
                 "ports", "vars", "qos", "pfc_watchdog", "ecmp", "mtu_bytes",
                 "pod", "plane", "model", "asic", "portmap", "host_aggregate")
    name: str
    role: str                       # "leaf", "spine", "superspine"
    index: int
    platform: str
    asn: int
    loopback: str
    pair: Optional[int]             # a leaf's pair index, else None
    port_count: int
    ports: Dict[str, Port]
    vars: Dict[str, Any]            # the switch's plain roce_* variables
    qos: Dict[str, Any]
    pfc_watchdog: Dict[str, Any]
    ecmp: Dict[str, Any]
    mtu_bytes: int
    pod: Optional[int]              # index into Fabric.pods; None on super-spines
    plane: int
    model: Optional[str]
    asic: str
    portmap: port_names.PortMap
    host_aggregate: Optional[str]   # a leaf's block of host /31s (routing.advertise aggregate)

    def __init__(self, name: str, role: str, index: int, hostvars: Dict[str, Any]) -> None:
        self.name, self.role, self.index, self.vars = name, role, index, hostvars
        self.ports = {}
        self.pair = self.pod = self.host_aggregate = None
        self.plane = 0


class Nic:
    __slots__ = ("host", "index", "name", "leaf", "leaf_port", "address", "gateway", "mtu_bytes",
                 "speed_gbps", "cable_m", "media", "rail", "qos")
    host: str
    index: int
    name: str
    leaf: str
    leaf_port: str
    address: Optional[str]          # None until numbering.assign (unless overridden)
    gateway: Optional[str]          # the leaf port's address; None until numbering.assign
    mtu_bytes: int
    speed_gbps: int
    cable_m: float
    media: str
    rail: int
    qos: Dict[str, Any]

    def __init__(self, host: str, index: int, name: str, port: "Port", mtu_bytes: int,
                 address: Optional[str], qos: Dict[str, Any]) -> None:
        # every slot set once (131,072 NICs at 100k GPUs); the NIC takes its leaf port's link
        self.host, self.index, self.name, self.rail = host, index, name, index
        self.leaf, self.leaf_port = port.switch, port.name
        self.speed_gbps, self.cable_m, self.media = port.speed_gbps, port.cable_m, port.media
        self.mtu_bytes, self.address, self.qos, self.gateway = mtu_bytes, address, qos, None


class Fabric:
    """The whole fabric: settings, switches by name, hosts by name, links."""
    # set by links.pair_addresses: {id(derived address): (host, field it came from)}
    derived_addresses: Dict[int, Tuple[str, str]]

    def __init__(self, settings: Dict[str, Any]) -> None:
        self.settings = settings
        self.spines: List[Switch] = []
        self.leaves: List[Switch] = []
        self.superspines: List[Switch] = []
        self.pairs: List[List[str]] = []
        # [{"name", "plane", "spines", "leaves"}], one per plane in 2 tiers
        self.pods: List[Dict[str, Any]] = []
        self.planes = 1
        self.hosts: List[Tuple[str, List[Nic]]] = []
        self.switches: Dict[str, Switch] = {}
        self.hostvars: Dict[str, Dict[str, Any]] = {}   # plain roce_* variables of every host
        # (kind, Port a, Port-or-Nic b); fabric links: a is the upper tier
        self.links: List[fabric_links.Link] = []

    def all_switches(self) -> List[Switch]:
        """Spines, leaves, super-spines: the order addresses and loopbacks are given in."""
        return self.spines + self.leaves + self.superspines

    def host_vars(self, name: str) -> Dict[str, Any]:
        return self.hostvars.get(name, {})

    @property
    def tiers(self) -> int:
        return 3 if self.superspines else 2


def _fabric_settings(raw: Dict[str, Any]) -> Dict[str, Any]:
    return _merge(FABRIC_DEFAULTS, raw or None)


def _members(groups: Dict[str, Any], name: str, field: str) -> List[str]:
    if name not in groups or not groups[name]:
        raise errors.RoceInputError(field, name, "an inventory group with at least one host")
    return list(groups[name])


def _pairs(groups: Dict[str, Any], leaves: List[str], pair_group: str) -> List[List[str]]:
    """Leaf pairs from the children of the leaf_pairs group, else consecutive leaves."""
    children = groups.get("_children", {}).get(pair_group)
    if children:
        pairs = [list(groups[child]) for child in children]
    else:
        pairs = [leaves[i:i + 2] for i in range(0, len(leaves), 2)]
    seen: Dict[str, int] = {}
    for i, pair in enumerate(pairs):
        if len(pair) != 2:
            raise errors.RoceInputError("leaf_pairs[%d]" % i, pair, "exactly two leaves")
        for leaf in pair:
            if leaf not in leaves:
                raise errors.RoceInputError("leaf_pairs[%d]" % i, leaf,
                                            "a member of the leaves group", leaf)
            if leaf in seen:
                raise errors.RoceInputError("leaf_pairs[%d]" % i, leaf,
                                            "a leaf in one pair only (also in pair %d)"
                                            % seen[leaf], leaf)
            seen[leaf] = i
    missing = [leaf for leaf in leaves if leaf not in seen]
    if missing:
        raise errors.RoceInputError("leaf_pairs", missing[0], "every leaf in a pair", missing[0])
    return pairs


def _switch(fab: Fabric, name: str, role: str, index: int,
            hostvars: Dict[str, Dict[str, Any]]) -> Switch:
    hv = hostvars.get(name, {})
    sw = Switch(name, role, index, hv)
    s = fab.settings
    sw.platform = hv["roce_platform"]
    sw.model = hv.get("roce_model")
    sw.asic = _asic_name(sw, hv)
    asic = catalog.asic_profile(sw.asic, hv.get("roce_asic_overrides"), name)
    catalog.check_platform(asic, sw.platform, name)
    if sw.model is None and port_map.FIELD not in hv:
        raise errors.RoceInputError(
            port_map.FIELD, None, "required with roce_asic %s and no roce_model: a switch of "
            "no model has no ports the plan can name; give %s"
            % (sw.asic, port_map.what_is_needed(sw.platform)), name)
    sw.qos = _shared(s["qos"], hv.get("roce_qos"))
    sw.pfc_watchdog = _shared(s["pfc_watchdog"], hv.get("roce_pfc_watchdog"))
    sw.ecmp = _shared(s["ecmp"], hv.get("roce_ecmp"))
    sw.mtu_bytes = hv.get("roce_mtu", s["mtu"][role])
    fabric_links.check_mtu_value(sw.platform, sw.name, sw.mtu_bytes, name,
                                 "roce_mtu" if "roce_mtu" in hv else "roce_fabric.mtu.%s" % role)
    actions = platforms.PLATFORMS[sw.platform].watchdog_actions    # None: every action
    if actions is not None and sw.pfc_watchdog["action"] not in actions:
        field = "roce_pfc_watchdog.action" if "action" in (hv.get("roce_pfc_watchdog") or {}) \
            else "roce_fabric.pfc_watchdog.action"
        raise errors.RoceInputError(field, sw.pfc_watchdog["action"], "an action %s has: %s"
                                    % (platforms.PLATFORMS[sw.platform].title,
                                       ", ".join(sorted(actions))), name)
    _check_limits(sw, s)
    return sw


def _check_limits(sw: Switch, s: Dict[str, Any]) -> None:
    """Refuse a setting the switch's platform takes only in a narrower range (Platform.limits)."""
    platform = platforms.PLATFORMS[sw.platform]
    values = {"routing.maximum_paths": s["routing"]["maximum_paths"],
              "pfc_watchdog.poll_ms": sw.pfc_watchdog["poll_ms"]}
    for key, (lo, hi, source) in sorted(platform.limits.items()):
        if not lo <= values[key] <= hi:
            own, name = key.split(".", 1)      # a switch's own roce_<block> names it
            field = ("roce_" if name in (sw.vars.get("roce_" + own) or {}) else
                     "roce_fabric.") + key
            raise errors.RoceInputError(field, values[key], "%d to %d on %s (%s)"
                                        % (lo, hi, platform.title, source), sw.name)


def _asic_name(sw: Switch, hv: Dict[str, Any]) -> str:
    """The switch's ASIC: its model's (roce_asic, if also given, must agree), else roce_asic
    (which then needs the switch's port map, _switch: no ports are guessed)."""
    if sw.model is None:
        if "roce_asic" not in hv:
            raise errors.RoceInputError(
                "roce_model", None, "required: %s (with roce_asic, the switch's ASIC)"
                % port_map.what_is_needed(sw.platform), sw.name)
        return hv["roce_asic"]
    model: Dict[str, Any] = models.MODELS[sw.model]
    if sw.platform not in model["platforms"]:
        raise errors.RoceInputError("roce_platform", sw.platform, "a platform the %s runs: %s"
                                    % (model["product"], ", ".join(model["platforms"])), sw.name)
    if hv.get("roce_asic", model["asic"]) != model["asic"]:
        raise errors.RoceInputError("roce_asic", hv["roce_asic"], "%s, the ASIC of the %s (or "
                                    "leave it out)" % (model["asic"], model["product"]), sw.name)
    if port_map.FIELD in hv:
        raise errors.RoceInputError(port_map.FIELD, "(%s)" % _map_size(hv[port_map.FIELD]),
                                    "not set: the %s's ports follow from the model and the port "
                                    "speed" % model["product"], sw.name)
    return model["asic"]


def _map_size(value: Any) -> str:
    """'64 ports' or 'port_config.ini text' for messages (a port map is too long to show)."""
    return "port_config.ini text" if isinstance(value, str) else "%d ports" % len(value)


def _port_speeds(fab: Fabric, sw: Switch) -> List[Tuple[str, int]]:
    """Speeds of a switch's links by tier: one speed per modelled switch (one breakout)."""
    s = fab.settings
    ends = {"leaf": ("host_link", "fabric_link"),
            "spine": ("fabric_link", "superspine_link") if fab.superspines else ("fabric_link",),
            "superspine": ("superspine_link",)}[sw.role]
    return [(key, s[key]["speed_gbps"]) for key in ends]


def _layout(fab: Fabric, sw: Switch) -> None:
    """The switch's port map: its model's cages in the breakout its links' speed takes, or the
    one the inventory gives (roce_port_map)."""
    if sw.model is None:
        given = port_map.given_ports(sw.vars[port_map.FIELD], sw.platform, sw.name)
        sw.port_count = len(given)
        sw.portmap = port_names.PortMap.shared(sw.platform, sw.port_count, None, None, given)
        return
    speeds = _port_speeds(fab, sw)
    if len(set(speed for _key, speed in speeds)) > 1:
        raise errors.RoceInputError(
            "roce_fabric.%s.speed_gbps" % speeds[1][0], speeds[1][1],
            "%dG like roce_fabric.%s: a %s runs one breakout (one port speed) per switch"
            % (speeds[0][1], speeds[0][0], models.MODELS[sw.model]["product"]), sw.name)
    speed = speeds[0][1]
    mode = models.mode_for(sw.model, speed)
    model: Dict[str, Any] = models.MODELS[sw.model]
    if mode is None:
        raise errors.RoceInputError(
            "roce_fabric.%s.speed_gbps" % speeds[0][0], speed, "a speed the %s's ports run: %s"
            % (model["product"], ", ".join("%dG" % x for x in sorted(set(
                v for m in model["modes"] for v in m.speeds)))), sw.name)
    platform = platforms.PLATFORMS[sw.platform]
    if platform.hwsku_per_breakout and mode.name not in model[sw.platform]["hwsku"]:
        raise errors.RoceInputError(
            "roce_fabric.%s.speed_gbps" % speeds[0][0], speed, "a speed of one of the %s's %s "
            "HWSKUs: %s" % (model["product"], platform.title, ", ".join(
                "%s (%s)" % (sku, m) for m, sku in sorted(model[sw.platform]["hwsku"].items()))),
            sw.name)
    sw.port_count = models.port_count(sw.model, mode)
    sw.portmap = port_names.PortMap.shared(sw.platform, sw.port_count, sw.model, mode)


def _port(fab: Fabric, sw: Switch, index: int, link: LinkSettings, peer_kind: str, peer: str,
          peer_port: Optional[str]) -> Port:
    if index >= sw.port_count:
        field = "roce_model" if sw.model else port_map.FIELD
        raise errors.RoceInputError(
            field, sw.model or sw.port_count,
            "a switch with at least %d ports: port %d is needed for %s %s (it has %s)"
            % (index + 1, index, peer_kind, peer, sw.portmap.describe()), sw.name)
    facts = sw.portmap.port(index)     # name, lanes, alias, cage, lanes per port
    name = facts[0]
    if name in sw.ports:
        raise errors.RoceInputError("port", name, "a port wired once (already to %s %s)"
                                    % (sw.ports[name].peer_kind, sw.ports[name].peer), sw.name)
    p = sw.ports[name] = Port(sw, name, index, link, peer_kind, peer, peer_port, facts[1:])
    return p


def _relane(p: Port) -> None:
    """A port after a speed change keeps its lanes: on a model the speed must be one its
    breakout runs (a given port map's speed is checked with every port's, _check_speeds)."""
    pm = p.portmap
    if pm.model is not None:
        mode = cast(models.Mode, pm.mode)      # a model's port map has its breakout mode
        if p.speed_gbps not in mode.speeds:
            raise errors.RoceInputError(
                "roce_link_overrides.%s.speed_gbps" % p.name, p.speed_gbps,
                "a speed this %s port (%s) runs: %s" % (pm.model, mode.name, ", ".join(
                    "%dG" % v for v in mode.speeds)), p.switch)


def build_fabric(groups: Dict[str, Any], hostvars: Dict[str, Dict[str, Any]]) -> Fabric:
    """Build the Fabric from inventory ``groups`` ({group: [hosts]}, optionally
    ``_children`` {group: [child groups]}) and ``hostvars`` ({host: {var: value}}). Every
    roce_* variable goes through the input schema first (inputs/validate.py)."""
    if fabric_numbers.netaddr is None:
        raise errors.RoceInputError("python", "netaddr", "installed on the controller "
                                    "(pip install netaddr)")
    raw, _kinds, hostvars, fabric_host = validate.validate_inventory(groups, hostvars)
    try:
        return _build(groups, hostvars, raw)
    except errors.RoceInputError as exc:
        if exc.host is None and str(exc.field).startswith("roce_fabric"):
            exc.host = fabric_host      # a fabric-wide value: name where roce_fabric is set
        raise


def _build(groups: Dict[str, Any], hostvars: Dict[str, Dict[str, Any]],
           raw: Dict[str, Any]) -> Fabric:
    s = _fabric_settings(raw)
    fab = Fabric(s)
    fab.hostvars = hostvars
    names = s["groups"]
    for i, name in enumerate(_members(groups, names["spines"], "roce_fabric.groups.spines")):
        fab.spines.append(_switch(fab, name, "spine", i, hostvars))
    leaves = _members(groups, names["leaves"], "roce_fabric.groups.leaves")
    fab.pairs = _pairs(groups, leaves, names["leaf_pairs"])
    for p, pair in enumerate(fab.pairs):
        for name in pair:
            sw = _switch(fab, name, "leaf", len(fab.leaves), hostvars)
            sw.pair = p
            fab.leaves.append(sw)
    for i, name in enumerate(groups.get(names["superspines"]) or []):
        fab.superspines.append(_switch(fab, name, "superspine", i, hostvars))
    for sw in fab.all_switches():
        fab.switches[sw.name] = sw
        _layout(fab, sw)
    fabric_tiers.assign_planes(fab, groups)
    fabric_tiers.assign_pods(fab, groups)
    _wire_hosts(fab, groups.get(names["hosts"], []), hostvars, s["nics_per_host"])
    _wire_fabric(fab)
    fabric_tiers.wire_superspines(fab, _cable_up)
    fabric_links.apply_overrides(fab, _relane)
    _check_speeds(fab)
    fabric_links.pair_addresses(fab, fabric_numbers.netaddr)
    fabric_numbers.assign(fab, schema.ASN_SCHEMES)
    return fab


def _tier_link(role: str, peer_kind: str) -> str:
    """The roce_fabric link setting a port's defaults come from."""
    ends = (role, peer_kind)
    return "host_link" if "host" in ends else \
        "superspine_link" if "superspine" in ends else "fabric_link"


def _check_speeds(fab: Fabric) -> None:
    """Every port's speed is one its switch's ASIC supports (catalog port_speeds_gbps) and, on a
    given port map that names the port's speed, at most that speed."""
    cache: Dict[Tuple[str, str], Sequence[int]] = {}
    for sw in fab.all_switches():
        key = (sw.asic, repr(sw.vars.get("roce_asic_overrides")))
        if key not in cache:
            asic = catalog.asic_profile(sw.asic, sw.vars.get("roce_asic_overrides"),
                                        sw.name)
            cache[key] = (asic.value("port_speeds_gbps") or catalog.SPEEDS_GBPS)
        supported = cache[key]
        overrides = sw.vars.get("roce_link_overrides") or {}
        for p in sw.ports.values():
            limit = sw.portmap.speed_mbps(p.index)
            if p.speed_gbps in supported and (limit is None or p.speed_gbps * 1000 <= limit):
                continue
            if "speed_gbps" in overrides.get(p.name, {}):
                field = "roce_link_overrides.%s.speed_gbps" % p.name
            else:
                field = "roce_fabric.%s.speed_gbps" % _tier_link(sw.role, p.peer_kind)
            if p.speed_gbps not in supported:
                raise errors.RoceInputError(field, p.speed_gbps, "a speed %s (%s) has on %s: %s"
                                            % (sw.name, sw.asic, p.name,
                                               ", ".join("%dG" % v for v in supported)), sw.name)
            mbps = cast(int, limit)       # a supported speed fails only above the map's
            raise errors.RoceInputError(field, p.speed_gbps, "at most %s on %s: the speed its "
                                        "roce_port_map gives it (%d Mb/s)"
                                        % (_gbps(mbps), p.name, mbps), sw.name)


def _gbps(mbps: int) -> str:
    return "%gG" % (mbps / 1000.0)


def _rail_layout(fab: Fabric, nics: int) -> Tuple[int, List[Tuple[List[Switch], int, int]]]:
    """Per plane: (its leaves, leaves per rail group, rail groups). NIC i of a host goes to
    plane i mod planes; inside a plane, rail-optimized spreads a host's NICs over a rail group
    of leaves, classic puts them on one leaf pair."""
    s = fab.settings
    planes = fab.planes
    if nics % planes:
        raise errors.RoceInputError("roce_fabric.nics_per_host", nics, "a multiple of the %d "
                                    "planes (NIC i attaches to plane i mod planes)" % planes)
    per_plane = nics // planes
    layout = []
    for p in range(planes):
        leaves = [leaf for leaf in fab.leaves if leaf.plane == p]
        if not leaves:
            raise errors.RoceInputError("planes", p, "a plane with leaves")
        if s["design"] == "rail_optimized":
            size = s["rail_group_leaves"] or min(per_plane, len(leaves))
            size = errors.number("roce_fabric.rail_group_leaves", size, 1, len(leaves),
                                 "leaves", None, integer=True)
            if len(leaves) % size or per_plane % size:
                raise errors.RoceInputError(
                    "roce_fabric.rail_group_leaves", size,
                    "a divisor of both the leaf count %d and the NICs per plane %d"
                    % (len(leaves), per_plane))
        else:
            size = 2
        layout.append((leaves, size, len(leaves) // size))
    return per_plane, layout


def _wire_hosts(fab: Fabric, hosts: Sequence[str], hostvars: Dict[str, Dict[str, Any]],
                nics: int) -> None:
    s = fab.settings
    per_plane, layout = _rail_layout(fab, nics)
    n_groups = min(entry[2] for entry in layout)
    per_group = -(-len(hosts) // n_groups) if hosts else 0
    default_names = ["rdma%d" % i for i in range(nics)]
    # per NIC index: its plane's leaves and the rail group size, and its place in the group
    places = [(layout[i % fab.planes][0], layout[i % fab.planes][1],
               (i // fab.planes) * layout[i % fab.planes][1] // per_plane) for i in range(nics)]
    free: _Free = ({}, {})      # per leaf: the next index to try, the indices wired
    link, mtu, qos = s["host_link"], s["mtu"]["host"], s["qos"]
    for h, name in enumerate(hosts):
        hv = hostvars.get(name, {})
        group = errors.number("roce_rail_group", hv.get("roce_rail_group", h // per_group), 0,
                              n_groups - 1, "", name, integer=True)
        names = hv.get("roce_nic_names") or default_names
        if len(names) != nics:
            raise errors.RoceInputError("roce_nic_names", names, "a list of %d interface names "
                                        "(roce_fabric.nics_per_host)" % nics, name)
        overrides = hv.get("roce_nic_overrides") or {}
        for key in overrides:
            if int(key) >= nics:
                raise errors.RoceInputError("roce_nic_overrides.%s" % key, overrides[key],
                                            "a NIC index 0-%d" % (nics - 1), name)
        host_nics: List[Nic] = []
        seen: Dict[str, int] = {}
        for i in range(nics):
            ov = (overrides.get(str(i)) or _NO_OVERRIDE) if overrides else _NO_OVERRIDE
            nic_name = ov.get("name", names[i])
            if nic_name in seen:
                raise errors.RoceInputError(
                    "roce_nic_overrides.%d.name" % i if "name" in ov else "roce_nic_names",
                    nic_name, "a name used by one NIC only (NIC %d has it too)"
                    % seen[nic_name], name)
            seen[nic_name] = i
            leaves, size, offset = places[i]
            leaf, index = _nic_port(fab, leaves[group * size + offset], ov, name, i, free)
            port = _port(fab, leaf, index, link, "host", name, nic_name)
            # Shared unless overridden: one settings object for thousands of NICs.
            nic = Nic(name, i, nic_name, port, ov.get("mtu_bytes", mtu), ov.get("address"),
                      _merge(qos, ov["qos"]) if "qos" in ov else qos)
            fab.links.append(fabric_links.Link("host", port, nic))
            host_nics.append(nic)
        fab.hosts.append((name, host_nics))


_NO_OVERRIDE: Dict[str, Any] = {}     # read only: a NIC without roce_nic_overrides


def _nic_port(fab: Fabric, leaf: Switch, ov: Dict[str, Any], host: str, i: int,
              free: _Free) -> Tuple[Switch, int]:
    """(leaf, port index) of NIC ``i`` of ``host``: the rail layout's leaf and its next free
    port, unless the NIC's override names the leaf or the port. ``free``: per leaf, the next
    index to try and the indices wired (host ports are a leaf's first)."""
    field = "roce_nic_overrides.%d" % i if ov else None     # str wherever it is read below
    if "leaf" in ov:
        if ov["leaf"] not in fab.switches or fab.switches[ov["leaf"]].role != "leaf":
            raise errors.RoceInputError(cast(str, field) + ".leaf", ov["leaf"],
                                        "a leaf of the inventory: %s"
                                        % ", ".join(sw.name for sw in fab.leaves), host)
        leaf = fab.switches[ov["leaf"]]
    next_port, taken = free
    wired = taken.setdefault(leaf.name, set())
    if "port" in ov:
        index = leaf.portmap.index_of(ov["port"])
        if index is None:
            raise errors.RoceInputError(cast(str, field) + ".port", ov["port"], "a port of %s: %s"
                                        % (leaf.name, leaf.portmap.describe()), host)
    else:
        index = next_port.get(leaf.name, 0)
        while index in wired:
            index += 1
        next_port[leaf.name] = index + 1
    wired.add(index)
    return leaf, index


def _wire_fabric(fab: Fabric) -> None:
    s = fab.settings
    link = s["fabric_link"]
    per = s["links_per_leaf_spine"]
    next_down = dict((spine.name, 0) for spine in fab.spines)
    for pod in fab.pods:
        _check_spine_ports(fab, pod, per)
    for leaf in fab.leaves:
        # two tiers: every spine of the plane (tiers.assign_pods gave every leaf its pod)
        spines = fab.pods[cast(int, leaf.pod)]["spines"]
        down = sum(1 for p in leaf.ports.values() if p.peer_kind == "host")
        m = per or max(1, -(-down // len(spines)))
        m = errors.number("roce_fabric.links_per_leaf_spine", m, 1, 64, "", leaf.name, True)
        _cable_up(fab, leaf, spines, m, link, next_down)


def _host_ports(leaf: Switch) -> int:
    return sum(1 for p in leaf.ports.values() if p.peer_kind == "host")


def _fits(leaves: List[Switch], spines: List[Switch], n: int, even: bool = False) -> bool:
    """Whether ``n`` spines take every leaf's host ports one to one: the leaf has the ports for
    its uplinks and every spine the ports for every leaf's links (``even``: and each leaf's host
    ports split evenly over the spines, or are fewer than them)."""
    need = 0
    for leaf in leaves:
        down = _host_ports(leaf)
        m = max(1, -(-down // n))
        if even and down > n and down % n or down + n * m > leaf.port_count:
            return False
        need += m
    return need <= min(sw.port_count for sw in spines)


def _spine_advice(leaves: List[Switch], spines: List[Switch]) -> str:
    """'at least 8 spines (8, 16, 32 or 64 split each leaf's host ports evenly)', or why no
    spine count fits."""
    fit = [n for n in range(1, 257) if _fits(leaves, spines, n)]
    if not fit:
        return "fewer leaves per pod (no spine count fits them; super-spines, docs/scale.md) " \
            "or larger spines"
    even = ["%d" % n for n in range(fit[0], 257) if _fits(leaves, spines, n, True)][:4]
    return "at least %d spines%s" % (fit[0], " (%s split each leaf's host ports evenly)" % (
        even[0] if len(even) == 1 else ", ".join(even[:-1]) + " or " + even[-1]) if even
        else "")


def _check_spine_ports(fab: Fabric, pod: Dict[str, Any], per: Optional[int]) -> None:
    """A pod's spines have the ports for its leaves' uplinks (1:1 with their host ports unless
    links_per_leaf_spine says otherwise): else one line saying how many spines or links fit."""
    spines, leaves = pod["spines"], pod["leaves"]
    n = len(spines)
    where = "" if fab.tiers == 2 else " (pod %s)" % pod["name"]
    need = 0
    for leaf in leaves:
        need += per or max(1, -(-_host_ports(leaf) // n))
    small = min(spines, key=lambda sw: sw.port_count)
    if need <= small.port_count:
        return
    down = sum(_host_ports(leaf) for leaf in leaves)
    what = "%s %s" % (small.model, cast(models.Mode, small.portmap.mode).name) if small.model else \
        "%s of %d ports" % (port_map.FIELD, small.port_count)
    if per:
        reason = "%d leaves x %d links (roce_fabric.links_per_leaf_spine) = %d ports on each " \
            "spine" % (len(leaves), per, need)
        fix = "lower roce_fabric.links_per_leaf_spine to %d or less (more spines do not help: " \
            "each takes %d links from every leaf), or leave it unset for 1:1" % (
                small.port_count // len(leaves), per)
    else:
        reason = ("the 1:1 rule needs one uplink per host port: %d leaves with %d host ports "
                  "= %d spine ports, %d on each of %d spine%s"
                  % (len(leaves), down, down, need, n, "s" if n > 1 else ""))
        fix = "use %s of %d ports" % (_spine_advice(leaves, spines), small.port_count)
    raise errors.RoceInputError(
        "spines", n, "enough spine ports%s for the leaves' uplinks: %s, and %s has %d (%s); %s"
        % (where, reason, small.name, small.port_count, what, fix), small.name)


def _cable_up(fab: Fabric, lower: Switch, uppers: List[Switch], m: int, link: LinkSettings,
              next_down: Dict[str, int]) -> None:
    """``m`` parallel links from ``lower``'s next free ports to each of ``uppers`` (on each
    upper's next down port, counted in ``next_down``); a fabric link lists its upper end first."""
    first_up = max([p.index for p in lower.ports.values()] + [-1]) + 1
    for u, upper in enumerate(uppers):
        for k in range(m):
            up = _port(fab, lower, first_up + u * m + k, link, upper.role, upper.name, None)
            down = _port(fab, upper, next_down[upper.name], link, lower.role, lower.name,
                         up.name)
            next_down[upper.name] += 1
            up.peer_port = down.name
            fab.links.append(fabric_links.Link("fabric", down, up))
