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
plane i mod planes. Inventory variables:

* ``roce_fabric`` (normally in group_vars/all): the fabric-wide design, see FABRIC_DEFAULTS.
* switches: ``roce_asic``, ``roce_platform`` (sonic|eos), and optional ``roce_asn``,
  ``roce_loopback``, ``roce_port_count``, ``roce_qos``, ``roce_pfc_watchdog``, ``roce_ecmp``,
  ``roce_mtu``, ``roce_link_overrides`` ({port: {cable_m, speed_gbps, media, mtu_bytes, address,
  state, headroom_bytes}}), ``roce_asic_overrides``, ``roce_lossless``.
* GPU hosts: optional ``roce_nic_names``, ``roce_rail_group`` and ``roce_nic_overrides``
  ({nic index: {name, leaf, port, cable_m, address, mtu_bytes, qos}}).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.roce.fabric.plugins.module_utils import (
    catalog, errors, fabric_numbers, fabric_tiers)

PLATFORMS = ("sonic", "eos")
# What a switch's ports face, by tier (the peer_kind of its down- and uplinks).
DOWNLINK = {"leaf": "host", "spine": "leaf", "superspine": "spine"}
UPLINK = {"leaf": "spine", "spine": "superspine"}
DESIGNS = ("rail_optimized", "classic")
SPINE_ASN_SCHEMES = ("shared", "unique")
ADVERTISE = ("specific", "default")

FABRIC_DEFAULTS = {
    "name": "fabric",
    "design": "rail_optimized",
    "nics_per_host": 8,
    "rail_group_leaves": None,          # leaves per rail group; default min(nics, leaves)
    "groups": {"spines": "spines", "leaves": "leaves", "hosts": "gpu_hosts",
               "leaf_pairs": "leaf_pairs", "superspines": "superspines", "pods": "pods",
               "planes": "planes"},
    "addressing": {"loopbacks": "198.18.0.0/24", "fabric_p2p": "198.18.8.0/21",
                   "host_p2p": "198.18.64.0/18"},
    # RFC 7938: spines share one ASN, every leaf has its own; a spine then never accepts a
    # path through another spine, which keeps routing valley-free (lossless-math.md §4.1).
    # Three tiers: the spines of a pod share spine + pod index, super-spines share one ASN.
    "asn": {"spine": 65100, "spine_scheme": "shared", "leaf_first": 65101, "allowas_in": False,
            "superspine": 65000, "superspine_scheme": "shared"},
    "routing": {"advertise": "specific", "maximum_paths": 64},
    "host_link": {"speed_gbps": 400, "cable_m": 3, "media": "dac"},
    "fabric_link": {"speed_gbps": 400, "cable_m": 30, "media": "fiber"},
    "superspine_link": {"speed_gbps": 400, "cable_m": 100, "media": "fiber"},
    "links_per_leaf_spine": None,       # default: enough for 1:1 (ceil(host ports / spines))
    "links_per_spine_superspine": None,  # default: enough for max_oversubscription_above_pod
    "switch_ports": 64,
    "port_name_step": {"sonic": 8, "eos": 1},
    "mtu": {"host": 9000, "leaf": 9216, "spine": 9216, "superspine": 9216},
    # DSCP 26 -> priority 3 lossless, CNP DSCP 48 -> priority 6 strict (host-nic.md §1.1).
    # pfc_priorities / ecn_queues default to lossless_priorities; dscp_to_tc adds map entries.
    "qos": {"roce_dscp": 26, "roce_priority": 3, "cnp_dscp": 48, "cnp_priority": 6,
            "lossless_priorities": [3], "trust": "dscp", "pfc_priorities": None,
            "ecn_queues": None, "dscp_to_tc": {}, "cnp_scheduler": "strict"},
    # SONiC pfcwd defaults 200/200 ms; restoration 2 x detection like `pfcwd start` (§4.3).
    "pfc_watchdog": {"enabled": True, "poll_ms": 200, "detection_ms": 200,
                     "restoration_ms": 400, "action": "drop"},
    "ecmp": {"hash_fields": ["src_ip", "dst_ip", "ip_protocol", "l4_src_port", "l4_dst_port"],
             "seeds": {"leaf": 10, "spine": 25, "superspine": 40}, "adaptive_routing": False,
             "qps_per_connection": 4},
    "max_oversubscription": 1.0,            # leaf tier: host ports vs spine uplinks
    "max_oversubscription_above_pod": 1.0,  # spine tier: leaf ports vs super-spine uplinks
    # Host side (host-nic.md §3, §4): loose RPF and ARP settings for several RDMA NICs, the
    # frontend interface NCCL bootstraps over.
    "host": {"sysctls": {"net.ipv4.conf.all.arp_ignore": 2, "net.ipv4.conf.all.arp_announce": 2,
                         "net.ipv4.conf.all.rp_filter": 2},
             "socket_ifname": "eth0"},
}
FREE_FORM = ("dscp_to_tc", "sysctls")
LINK_OVERRIDE_KEYS = ("cable_m", "speed_gbps", "media", "mtu_bytes", "address", "state",
                      "headroom_bytes", "lanes", "alias")
NIC_OVERRIDE_KEYS = ("name", "leaf", "port", "cable_m", "address", "mtu_bytes", "qos")
SWITCH_VARS = ("roce_asn", "roce_loopback", "roce_port_count", "roce_qos", "roce_pfc_watchdog",
               "roce_ecmp", "roce_mtu", "roce_link_overrides")


def _merge(base, override, field, host):
    """Deep-merge ``override`` into a copy of ``base``; unknown keys are errors."""
    if override is None:
        return copy.deepcopy(base)
    return _merged(base, override, field, host)


def _shared(base, override, field, host):
    """``base`` itself when there is no override (switches share the fabric's settings, like
    NICs share their QoS: one object for thousands of devices), else the merged copy."""
    return base if override is None else _merged(base, override, field, host)


def _merged(base, override, field, host):
    errors.mapping(field, override, base.keys(), host)
    out = copy.deepcopy(base)
    for key, value in override.items():
        if key in FREE_FORM or base.get(key) == {}:   # qos.dscp_to_tc, host.sysctls
            errors.mapping("%s.%s" % (field, key), value, value.keys(), host)
            out[key] = dict(base.get(key) or {})
            out[key].update(value)
        elif isinstance(base.get(key), dict) and isinstance(value, dict):
            out[key] = _merge(base[key], value, "%s.%s" % (field, key), host)
        else:
            out[key] = value
    return out


class Port:
    """One switch port and what is on the other end."""
    __slots__ = ("switch", "name", "index", "peer_kind", "peer", "peer_port", "speed_gbps",
                 "cable_m", "media", "mtu_bytes", "address", "peer_address", "up",
                 "headroom_bytes", "lanes", "alias")

    def __init__(self, switch, name, index):
        self.switch, self.name, self.index = switch, name, index
        self.peer_kind = self.peer = self.peer_port = None
        self.speed_gbps = self.cable_m = self.media = self.mtu_bytes = None
        self.address = self.peer_address = None
        self.up = True
        self.headroom_bytes = self.lanes = self.alias = None


class Switch:
    __slots__ = ("name", "role", "index", "platform", "asn", "loopback", "pair", "port_count",
                 "ports", "vars", "qos", "pfc_watchdog", "ecmp", "mtu_bytes", "serdes_gbps",
                 "pod", "plane")

    def __init__(self, name, role, index, hostvars):
        self.name, self.role, self.index, self.vars = name, role, index, hostvars
        self.ports = {}
        self.pair = self.pod = None
        self.plane = 0


class Nic:
    __slots__ = ("host", "index", "name", "leaf", "leaf_port", "address", "gateway", "mtu_bytes",
                 "speed_gbps", "cable_m", "media", "rail", "qos")

    def __init__(self, host, index, name):
        self.host, self.index, self.name = host, index, name
        self.leaf = self.leaf_port = self.address = self.gateway = self.mtu_bytes = None
        self.speed_gbps = self.cable_m = self.media = self.rail = self.qos = None


class Fabric:
    """The whole fabric: settings, switches by name, hosts by name, links."""

    def __init__(self, settings):
        self.settings = settings
        self.spines = []
        self.leaves = []
        self.superspines = []
        self.pairs = []
        self.pods = []           # [{"name", "plane", "spines", "leaves"}], one per plane in 2 tiers
        self.planes = 1
        self.hosts = []
        self.switches = {}
        self.links = []          # (kind, Port a, Port-or-Nic b); fabric links: a is the upper tier

    def all_switches(self):
        """Spines, leaves, super-spines: the order addresses and loopbacks are given in."""
        return self.spines + self.leaves + self.superspines

    @property
    def tiers(self):
        return 3 if self.superspines else 2


def port_name(platform, index, step):
    """SONiC names ports by first lane (Ethernet0, Ethernet8, ...); EOS by front panel."""
    if platform == "eos":
        return "Ethernet%d/1" % (index + 1)
    return "Ethernet%d" % (index * step)


def _fabric_settings(groups, hostvars):
    first = None
    for group in ("roce_switches", "all"):
        for host in groups.get(group, []):
            if "roce_fabric" in hostvars.get(host, {}):
                first = host
                break
        if first:
            break
    raw = hostvars[first]["roce_fabric"] if first else {}
    return _merge(FABRIC_DEFAULTS, raw, "roce_fabric", first)


def _members(groups, name, field):
    if name not in groups or not groups[name]:
        raise errors.RoceInputError(field, name, "an inventory group with at least one host")
    return list(groups[name])


def _pairs(groups, leaves, pair_group):
    """Leaf pairs from the children of the leaf_pairs group, else consecutive leaves."""
    children = groups.get("_children", {}).get(pair_group)
    if children:
        pairs = [list(groups[child]) for child in children]
    else:
        pairs = [leaves[i:i + 2] for i in range(0, len(leaves), 2)]
    seen = {}
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


def _switch(fab, name, role, index, hostvars):
    hv = hostvars.get(name, {})
    sw = Switch(name, role, index, hv)
    s = fab.settings
    sw.platform = errors.choice("roce_platform", hv.get("roce_platform", "sonic"), PLATFORMS, name)
    asic = catalog.asic_profile(hv.get("roce_asic"), hv.get("roce_asic_overrides"), name)
    sw.serdes_gbps = asic.value("serdes_lane_gbps") or 50
    sw.port_count = errors.number("roce_port_count", hv.get("roce_port_count", s["switch_ports"]),
                                  2, 1024, "ports", name, integer=True)
    sw.qos = _shared(s["qos"], hv.get("roce_qos"), "roce_qos", name)
    sw.pfc_watchdog = _shared(s["pfc_watchdog"], hv.get("roce_pfc_watchdog"),
                              "roce_pfc_watchdog", name)
    sw.ecmp = _shared(s["ecmp"], hv.get("roce_ecmp"), "roce_ecmp", name)
    sw.mtu_bytes = errors.number("roce_mtu", hv.get("roce_mtu", s["mtu"][role]), 1500, 9216,
                                 "bytes", name, integer=True)
    if sw.qos is not s["qos"]:           # the fabric's own are checked once in build_fabric
        check_qos("roce_qos", sw.qos, name)
    if sw.pfc_watchdog is not s["pfc_watchdog"]:
        _check_watchdog("roce_pfc_watchdog", sw.pfc_watchdog, name)
    if sw.ecmp is not s["ecmp"]:
        _check_ecmp("roce_ecmp", sw.ecmp, name)
    return sw


def _priorities(field, value, host, allow_none=False):
    if value is None and allow_none:
        return
    if not isinstance(value, list) or not value:
        raise errors.RoceInputError(field, value, "a non-empty list of priorities 0-7", host)
    for prio in value:
        errors.choice(field, prio, range(8), host)


def check_qos(field, q, host):
    """Types and ranges of a merged QoS mapping (fabric qos, roce_qos or a NIC's qos)."""
    for key in ("roce_dscp", "cnp_dscp"):
        errors.number("%s.%s" % (field, key), q[key], 0, 63, "DSCP", host, integer=True)
    for key in ("roce_priority", "cnp_priority"):
        errors.choice("%s.%s" % (field, key), q[key], range(8), host)
    _priorities(field + ".lossless_priorities", q["lossless_priorities"], host)
    _priorities(field + ".pfc_priorities", q["pfc_priorities"], host, allow_none=True)
    _priorities(field + ".ecn_queues", q["ecn_queues"], host, allow_none=True)
    for dscp, tc in q["dscp_to_tc"].items():
        errors.number(field + ".dscp_to_tc", dscp, 0, 63, "DSCP", host, integer=True)
        errors.choice("%s.dscp_to_tc.%s" % (field, dscp), tc, range(8), host)
    errors.choice(field + ".trust", q["trust"], ("dscp", "pcp"), host)
    errors.choice(field + ".cnp_scheduler", q["cnp_scheduler"], ("strict", "dwrr"), host)


def _check_watchdog(field, wd, host):
    errors.choice(field + ".enabled", wd["enabled"], (True, False), host)
    for key in ("poll_ms", "detection_ms", "restoration_ms"):
        errors.number("%s.%s" % (field, key), wd[key], 1, 60000, "ms", host, integer=True)
    errors.choice(field + ".action", wd["action"], ("drop", "forward", "alert"), host)


def _check_ecmp(field, e, host):
    fields = e["hash_fields"]
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise errors.RoceInputError(field + ".hash_fields", fields, "a list of field names "
                                    "such as src_ip, dst_ip, l4_src_port", host)
    for tier in ("leaf", "spine", "superspine"):
        errors.number("%s.seeds.%s" % (field, tier), e["seeds"][tier], 0, 2 ** 32 - 1, "",
                      host, integer=True)
    errors.choice(field + ".adaptive_routing", e["adaptive_routing"], (True, False), host)
    errors.number(field + ".qps_per_connection", e["qps_per_connection"], 1, 128, "", host,
                  integer=True)


def _port(fab, sw, index, link, peer_kind, peer, peer_port):
    if index >= sw.port_count:
        raise errors.RoceInputError(
            "roce_port_count", sw.port_count,
            "at least %d: port %d is needed for %s %s" % (index + 1, index, peer_kind, peer),
            sw.name)
    step = fab.settings["port_name_step"][sw.platform]
    name = port_name(sw.platform, index, step)
    if name in sw.ports:
        raise errors.RoceInputError("port", name, "a port wired once (already to %s %s)"
                                    % (sw.ports[name].peer_kind, sw.ports[name].peer), sw.name)
    p = Port(sw.name, name, index)
    p.peer_kind, p.peer, p.peer_port = peer_kind, peer, peer_port
    p.speed_gbps, p.cable_m, p.media = link["speed_gbps"], link.get("cable_m"), link["media"]
    p.mtu_bytes = sw.mtu_bytes
    p.lanes, p.alias = _lane_map(sw.platform, index, step, p.speed_gbps, sw.serdes_gbps, name)
    sw.ports[name] = p
    return p


_LANE_MAPS = {}


def _lane_map(platform, index, step, speed_gbps, serdes_gbps, name):
    """Default port map: lanes from the first lane the name encodes, as many as the speed needs
    at the ASIC's SerDes rate; alias etpN. SONiC names a port by its first lane, so lanes cannot
    reach the next name; EOS front-panel ports (OSFP) carry up to 8 lanes. A platform's real map
    goes in roce_link_overrides. Cached: every switch of a model has the same map."""
    key = (platform, index, step, speed_gbps, serdes_gbps)
    if key not in _LANE_MAPS:
        span = step if platform == "sonic" else 8
        width = max(1, min(span, -(-speed_gbps // serdes_gbps))) if speed_gbps else 1
        _LANE_MAPS[key] = (",".join(str(index * span + k) for k in range(width)),
                           "etp%d" % (index + 1) if platform == "sonic" else name)
    return _LANE_MAPS[key]


def _apply_link_overrides(fab):
    for sw in fab.switches.values():
        overrides = sw.vars.get("roce_link_overrides") or {}
        errors.mapping("roce_link_overrides", overrides, sw.ports.keys(), sw.name)
        for pname, ov in overrides.items():
            field = "roce_link_overrides.%s" % pname
            errors.mapping(field, ov, LINK_OVERRIDE_KEYS, sw.name)
            p = sw.ports[pname]
            for key, value in ov.items():
                if key == "state":
                    p.up = errors.choice(field + ".state", value, ("up", "down"), sw.name) == "up"
                else:
                    setattr(p, key, value)


def _check_link(p, field, checked):
    key = (p.cable_m, p.speed_gbps, p.media, p.mtu_bytes)
    if key in checked:     # the same values are valid on every port (a few combinations)
        return
    _check_link_values(p, field)
    checked.add(key)


def _check_link_values(p, field):
    if p.cable_m is None:
        raise errors.RoceInputError(field + ".cable_m", None,
                                    "a cable length: set it per link or in roce_fabric's "
                                    "host_link/fabric_link", p.switch)
    errors.number(field + ".cable_m", p.cable_m, 0, 2000, "metres", p.switch, lo_open=True)
    errors.choice(field + ".speed_gbps", p.speed_gbps, catalog.SPEEDS_GBPS, p.switch)
    errors.choice(field + ".media", p.media, catalog.PROPAGATION_NS_PER_M, p.switch)
    errors.number(field + ".mtu_bytes", p.mtu_bytes, 1500, 9216, "bytes", p.switch, integer=True)


def build_fabric(groups, hostvars):
    """Build the Fabric from inventory ``groups`` ({group: [hosts]}, optionally
    ``_children`` {group: [child groups]}) and ``hostvars`` ({host: {var: value}})."""
    if fabric_numbers.netaddr is None:
        raise errors.RoceInputError("python", "netaddr", "installed on the controller "
                                    "(pip install netaddr)")
    s = _fabric_settings(groups, hostvars)
    fab = Fabric(s)
    names = s["groups"]
    errors.choice("roce_fabric.design", s["design"], DESIGNS)
    errors.choice("roce_fabric.asn.spine_scheme", s["asn"]["spine_scheme"], SPINE_ASN_SCHEMES)
    errors.choice("roce_fabric.routing.advertise", s["routing"]["advertise"], ADVERTISE)
    nics = errors.number("roce_fabric.nics_per_host", s["nics_per_host"], 1, 16, "", None, True)
    check_qos("roce_fabric.qos", s["qos"], None)
    _check_watchdog("roce_fabric.pfc_watchdog", s["pfc_watchdog"], None)
    _check_ecmp("roce_fabric.ecmp", s["ecmp"], None)
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
        if sw.name in fab.switches:
            raise errors.RoceInputError("inventory", sw.name, "a host in one tier only", sw.name)
        fab.switches[sw.name] = sw
    fabric_tiers.assign_planes(fab, groups)
    fabric_tiers.assign_pods(fab, groups)
    _wire_hosts(fab, groups.get(names["hosts"], []), hostvars, nics)
    _wire_fabric(fab)
    fabric_tiers.wire_superspines(fab, _cable_up)
    _apply_link_overrides(fab)
    checked = set()
    for sw in fab.switches.values():
        for p in sw.ports.values():
            _check_link(p, "link %s" % p.name, checked)
    fabric_numbers.assign(fab, SPINE_ASN_SCHEMES)
    return fab


def _rail_layout(fab, nics):
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


def _wire_hosts(fab, hosts, hostvars, nics):
    s = fab.settings
    per_plane, layout = _rail_layout(fab, nics)
    n_groups = min(entry[2] for entry in layout)
    per_group = -(-len(hosts) // n_groups) if hosts else 0
    next_port = {}
    for h, name in enumerate(hosts):
        hv = hostvars.get(name, {})
        group = errors.number("roce_rail_group", hv.get("roce_rail_group", h // per_group), 0,
                              n_groups - 1, "", name, integer=True)
        names = hv.get("roce_nic_names") or ["rdma%d" % i for i in range(nics)]
        if not isinstance(names, list) or len(names) != nics:
            raise errors.RoceInputError("roce_nic_names", names, "a list of %d interface names"
                                        % nics, name)
        overrides = hv.get("roce_nic_overrides") or {}
        errors.mapping("roce_nic_overrides", overrides, range(nics), name)
        host_nics = []
        for i in range(nics):
            ov = overrides.get(i) or {}
            field = "roce_nic_overrides.%d" % i
            errors.mapping(field, ov, NIC_OVERRIDE_KEYS, name)
            nic = Nic(name, i, ov.get("name", names[i]))
            leaves, size = layout[i % fab.planes][:2]
            leaf = leaves[group * size + (i // fab.planes) * size // per_plane]
            if "leaf" in ov:
                if ov["leaf"] not in fab.switches or fab.switches[ov["leaf"]].role != "leaf":
                    raise errors.RoceInputError(field + ".leaf", ov["leaf"], "a leaf of the "
                                                "inventory: %s" % ", ".join(
                                                    sw.name for sw in fab.leaves), name)
                leaf = fab.switches[ov["leaf"]]
            link = dict(s["host_link"])
            if "cable_m" in ov:
                link["cable_m"] = ov["cable_m"]
            if "port" in ov:
                index = _port_index(leaf, ov["port"], field + ".port", name,
                                    s["port_name_step"][leaf.platform])
            else:
                index = next_port.get(leaf.name, 0)
                while port_name(leaf.platform, index,
                                fab.settings["port_name_step"][leaf.platform]) in leaf.ports:
                    index += 1
                next_port[leaf.name] = index + 1
            port = _port(fab, leaf, index, link, "host", name, nic.name)
            nic.leaf, nic.leaf_port, nic.rail = leaf.name, port.name, i
            nic.speed_gbps, nic.cable_m, nic.media = port.speed_gbps, port.cable_m, port.media
            mtu = ov.get("mtu_bytes", s["mtu"]["host"])
            nic.mtu_bytes = errors.number(field + ".mtu_bytes", mtu, 1500, 9216, "bytes", name,
                                          integer=True)
            nic.address = ov.get("address")
            # Shared unless overridden: one settings object for thousands of NICs.
            if "qos" in ov:
                nic.qos = _merge(s["qos"], ov["qos"], field + ".qos", name)
                check_qos(field + ".qos", nic.qos, name)
            else:
                nic.qos = s["qos"]
            fab.links.append(("host", port, nic))
            host_nics.append(nic)
        fab.hosts.append((name, host_nics))


def _port_index(leaf, pname, field, host, step):
    for index in range(leaf.port_count):
        if port_name(leaf.platform, index, step) == pname:
            return index
    raise errors.RoceInputError(field, pname, "a port of %s (%s .. %s)" % (
        leaf.name, port_name(leaf.platform, 0, step),
        port_name(leaf.platform, leaf.port_count - 1, step)), host)


def _wire_fabric(fab):
    s = fab.settings
    link = s["fabric_link"]
    per = s["links_per_leaf_spine"]
    next_down = dict((spine.name, 0) for spine in fab.spines)
    for leaf in fab.leaves:
        spines = fab.pods[leaf.pod]["spines"]     # two tiers: every spine of the plane
        down = sum(1 for p in leaf.ports.values() if p.peer_kind == "host")
        m = per or max(1, -(-down // len(spines)))
        m = errors.number("roce_fabric.links_per_leaf_spine", m, 1, 64, "", leaf.name, True)
        _cable_up(fab, leaf, spines, m, link, next_down)


def _cable_up(fab, lower, uppers, m, link, next_down):
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
            fab.links.append(("fabric", down, up))
