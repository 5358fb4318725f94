# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The input schema: every inventory variable the collection reads, as JSON Schema (2020-12).

One document per kind of host: variables every host may carry (``roce_fabric``, run knobs),
switch variables and GPU-host variables. Unknown keys are errors at every level
(``additionalProperties: false``); names use the grammars of names.py; numbers carry ranges and
units. The fabric defaults (``fabric_defaults()``) and the input table of
docs/fabric-and-checks.md are generated from this one document. Extra keywords ``x-unit``,
``x-grammar`` and ``x-allowed`` annotate messages and docs (JSON Schema ignores them).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    catalog, models, platforms)
from ansible_collections.roce.fabric.plugins.module_utils.inputs import names

PLATFORMS = platforms.NAMES      # the one list of platform names (hardware/platforms.py)
DESIGNS = ("rail_optimized", "classic")
ASN_SCHEMES = ("shared", "unique")
HEADROOM_MODELS = ("ieee", "sonic-nvidia", "sonic-sku")
SONIC_VERSIONS = ("202305", "202311", "202405", "202411", "202505", "202511", "202605")
TRIGGER_MODES = ("dynamic", "static")
# Hash fields a platform may render (SONiC SWITCH_HASH names in render/sonic/config_db.py
# HASH_FIELDS; EOS renders none: hardware/capabilities.py).
HASH_FIELDS = ("src_ip", "dst_ip", "ip_protocol", "l4_src_port", "l4_dst_port", "in_port")
WATCHDOG_ACTIONS = ("drop", "forward", "alert")
MAX_BUFFER_BYTES = 64 * 2 ** 30
MAX_ASN = 4294967295
MAX_CABLE_M = 2000             # longest cable class in SONiC ini tables (Dell Z9332f, SN §1.4)
# MTUs up to the largest any platform takes (SONiC YANG PORT.mtu: 9216); the model stage refuses
# a port above its own platform's maximum (hardware/platforms.py mtu_max_bytes: EOS 9214).
MTU_BYTES = (1500, max(p.mtu_max_bytes for p in platforms.PLATFORMS.values()))
# A switch tier's default MTU: the largest every platform takes (9214, the EOS maximum), so a
# link between two platforms has one MTU at both ends; above the host's IP MTU (9000), which
# is all a routed hop must carry (checks/links.py, mtu-path).
SWITCH_MTU_DEFAULT = min(p.mtu_max_bytes for p in platforms.PLATFORMS.values())
# Revisions of SONiC's buffer_headroom_mellanox.lua that change the numbers ("current": the
# newest); lossless/headroom.py documents each.
SONIC_LUA_REVISIONS = ("18913fa", "pr3235", "pr4757", "pr4797")

# A JSON Schema (sub-)document.
Schema = Dict[str, Any]


def _int(lo: int, hi: int, desc: str, unit: str = "", default: Any = None) -> Schema:
    out: Schema = {"type": "integer", "minimum": lo, "maximum": hi, "description": desc}
    return _annotate(out, unit, default)


def _num(lo: float, hi: float, desc: str, unit: str = "", default: Any = None,
         above: bool = False) -> Schema:
    out: Schema = {"type": "number", "maximum": hi, "description": desc}
    out["exclusiveMinimum" if above else "minimum"] = lo
    return _annotate(out, unit, default)


def _annotate(out: Schema, unit: str, default: Any) -> Schema:
    if unit:
        out["x-unit"] = unit
    if default is not None:
        out["default"] = default
    return out


def _enum(values: Iterable[Any], desc: str, default: Any = None) -> Schema:
    out: Schema = {"enum": list(values), "description": desc}
    return _annotate(out, "", default)


def _bool(desc: str, default: Optional[bool] = None) -> Schema:
    return _annotate({"type": "boolean", "description": desc}, "", default)


def _name(grammar: str, desc: str, default: Optional[str] = None) -> Schema:
    out: Schema = {"type": "string", "pattern": names.pattern(grammar), "x-grammar": grammar,
                   "description": desc}
    return _annotate(out, "", default)


def _list(items: Schema, desc: str, min_items: int = 1, max_items: Optional[int] = None,
          default: Optional[List[Any]] = None) -> Schema:
    out: Schema = {"type": "array", "items": items, "minItems": min_items,
                   "uniqueItems": True, "description": desc}
    if max_items:
        out["maxItems"] = max_items
    return _annotate(out, "", default)


def _nullable(schema: Schema) -> Schema:
    """The same schema that also accepts null (null: derive the value)."""
    out = dict(schema)
    out["type"] = [schema["type"], "null"]
    return out


def _obj(props: Dict[str, Schema], desc: str, required: Sequence[str] = ()) -> Schema:
    out: Schema = {"type": "object", "properties": props, "additionalProperties": False,
                   "description": desc}
    if required:
        out["required"] = list(required)
    return out


def _map(keys: Schema, values: Schema, desc: str) -> Schema:
    """A mapping whose keys follow ``keys`` (a string schema) and values ``values``."""
    return {"type": "object", "propertyNames": keys, "additionalProperties": values,
            "description": desc}


_PRIO = _int(0, 7, "priority / traffic class")
_DSCP = _int(0, 63, "DSCP")
_SPEED = _enum(catalog.SPEEDS_GBPS, "port speed in Gb/s")
_CABLE = _num(0, MAX_CABLE_M, "cable length", "m", above=True)
_MEDIA = _enum(sorted(catalog.PROPAGATION_NS_PER_M), "cable medium (propagation delay)")
_MTU = _int(MTU_BYTES[0], MTU_BYTES[1], "MTU", "bytes")
_P2P: Schema = {"type": "string", "pattern": r"^([0-9]{1,3}\.){3}[0-9]{1,3}/31$",
                "x-allowed": "an IPv4 /31 such as 198.18.8.1/31 (IPv6 is not supported)",
                "description": "an IPv4 /31"}
_LOOPBACK: Schema = {"type": "string", "pattern": r"^([0-9]{1,3}\.){3}[0-9]{1,3}/32$",
                     "x-allowed": "an IPv4 /32 such as 198.18.0.1/32 (IPv6 is not supported)",
                     "description": "an IPv4 /32"}


def _link(desc: str, speed: int, cable: float, media: str) -> Schema:
    return _obj({"speed_gbps": dict(_SPEED, default=speed), "cable_m": dict(_CABLE, default=cable),
                 "media": dict(_MEDIA, default=media)}, desc)


QOS = _obj({
    "roce_dscp": dict(_DSCP, description="DSCP the NICs mark RoCE with", default=26),
    "roce_priority": dict(_PRIO, description="lossless priority / TC of RoCE", default=3),
    "cnp_dscp": dict(_DSCP, description="DSCP of congestion notification packets", default=48),
    "cnp_priority": dict(_PRIO, description="strict, lossy priority / TC of CNPs", default=6),
    "lossless_priorities": _list(_PRIO, "priorities with PFC headroom", max_items=8,
                                 default=[3]),
    "trust": _enum(("dscp", "pcp"), "what switches classify on", "dscp"),
    "pfc_priorities": _nullable(_list(_PRIO, "PFC-enabled priorities (null: the lossless "
                                      "priorities)", max_items=8)),
    "ecn_queues": _nullable(_list(_PRIO, "ECN-marking queues (null: the lossless priorities)",
                                  max_items=8)),
    "dscp_to_tc": _map({"type": "string", "pattern": r"^([0-9]|[1-5][0-9]|6[0-3])$",
                        "x-allowed": "a DSCP 0-63", "description": "a DSCP 0-63"}, _PRIO,
                       "extra DSCP -> TC entries (every other DSCP goes to TC 0, or the lowest "
                       "lossy class, written out for all 64 DSCPs)"),
    "cnp_scheduler": _enum(("strict", "dwrr"), "scheduler of the CNP queue", "strict"),
}, "QoS plan: DSCP -> TC, lossless, PFC and ECN classes, CNP queue (host-nic.md §1.1)")
QOS["properties"]["dscp_to_tc"]["default"] = {}
QOS["properties"]["pfc_priorities"]["default"] = None
QOS["properties"]["ecn_queues"]["default"] = None

WATCHDOG = _obj({
    "enabled": _bool("PFC watchdog on every lossless queue", True),
    "poll_ms": _int(1, 60000, "watchdog poll interval", "ms", 200),
    "detection_ms": _int(1, 60000, "storm detection time", "ms", 200),
    "restoration_ms": _int(1, 60000, "restoration time", "ms", 400),
    "action": _enum(WATCHDOG_ACTIONS, "action on a storm (EOS renders drop or alert as "
                    "notify-only)", "drop"),
}, "PFC watchdog (SONiC pfcwd defaults 200/200 ms; restoration 2 x detection)")

ECMP = _obj({
    "hash_fields": _list(_enum(HASH_FIELDS, "hash field"), "ECMP hash fields (SONiC renders "
                         "them; EOS keeps its default hash: no sourced `ip load-sharing` line)",
                         default=["src_ip", "dst_ip", "ip_protocol", "l4_src_port",
                                  "l4_dst_port"]),
    "seeds": _obj({"leaf": _int(0, 5, "leaf hash seed", default=1),
                   "spine": _int(0, 5, "spine hash seed", default=2),
                   "superspine": _int(0, 5, "super-spine hash seed", default=3)},
                  "hash seed per tier against polarization, rendered by no platform today: "
                  "SONiC derives its own from the switch type, EOS keeps its default (no "
                  "sourced `ip load-sharing` seed command)"),
    "adaptive_routing": _bool("dynamic load balancing / adaptive routing where the platform "
                              "renders it", False),
    "qps_per_connection": _int(1, 128, "NCCL QPs per connection", default=4),
}, "ECMP hashing and load balancing")

_GROUP = names.pattern("group")
FABRIC = _obj({
    "name": _name("device", "fabric name", "fabric"),
    "design": _enum(DESIGNS, "host wiring: NIC i to rail leaf i, or all NICs on one leaf pair",
                    "rail_optimized"),
    "nics_per_host": _int(1, 16, "RoCE NICs per GPU host", default=8),
    "rail_group_leaves": _nullable(_int(1, 4096, "leaves per rail group (null: min(NICs, "
                                        "leaves))")),
    "groups": _obj(dict((key, _name("group", "inventory group of the %s" % what, default))
                        for key, what, default in (
                            ("spines", "spines", "spines"), ("leaves", "leaves", "leaves"),
                            ("hosts", "GPU hosts", "gpu_hosts"),
                            ("leaf_pairs", "leaf pairs (child groups)", "leaf_pairs"),
                            ("superspines", "super-spines", "superspines"),
                            ("pods", "pods (child groups)", "pods"),
                            ("planes", "planes (child groups)", "planes"))),
                   "inventory group names"),
    "addressing": _obj({
        "loopbacks": _name("ipv4_prefix", "pool of switch loopbacks (/32 each)",
                           "198.18.0.0/24"),
        "fabric_p2p": _name("ipv4_prefix", "pool of switch-switch /31s", "198.18.8.0/21"),
        "host_p2p": _name("ipv4_prefix", "pool of leaf-NIC /31s", "198.18.64.0/18"),
    }, "IPv4 address pools"),
    "asn": _obj({
        "spine": _int(1, MAX_ASN, "spine ASN (three tiers: + pod index)", default=65100),
        "spine_scheme": _enum(ASN_SCHEMES, "spines share one ASN (RFC 7938) or one each",
                              "shared"),
        "leaf_first": _int(1, MAX_ASN, "ASN of the first leaf (+ leaf index)", default=65101),
        "allowas_in": _bool("neighbor allowas-in 1 on every session", False),
        "superspine": _int(1, MAX_ASN, "super-spine ASN", default=65000),
        "superspine_scheme": _enum(ASN_SCHEMES, "super-spines share one ASN or one each",
                                   "shared"),
    }, "eBGP ASN plan"),
    "routing": _obj({
        # aggregate: each leaf's host /31s come from one aligned block it announces alone
        # (summary-only); a NIC has one link, so no path is lost with its /31 (model/numbering.py)
        "advertise": _enum(("specific", "aggregate"), "what leaves announce: loopback and each "
                           "host /31 (specific), or loopback and one aligned block holding "
                           "the leaf's host /31s (aggregate, summary-only)", "specific"),
        "maximum_paths": _int(1, 512, "BGP maximum-paths", default=64),
        # one value fabric-wide: both ends of a link get the same timers (rule bgp-timers);
        # 3/9 is what the FRR render always used (RFC 4271 4.4: keepalive a third of hold)
        "keepalive_s": _int(1, 3600, "BGP keepalive interval of every fabric session", "s", 3),
        "hold_s": _int(3, 10800, "BGP hold time of every fabric session (at least 3 x "
                       "keepalive_s)", "s", 9),
        "bfd": _bool("BFD on every fabric BGP session (platform default intervals: 300 ms x 3)",
                     True),
    }, "BGP routing"),
    "host_link": _link("leaf-NIC links", 400, 3, "dac"),
    "fabric_link": _link("leaf-spine links", 400, 30, "fiber"),
    "superspine_link": _link("spine-super-spine links", 400, 100, "fiber"),
    "links_per_leaf_spine": _nullable(_int(1, 64, "parallel links per leaf-spine pair "
                                           "(null: enough for 1:1)")),
    "links_per_spine_superspine": _nullable(_int(1, 64, "parallel links per spine-super-spine "
                                                 "pair (null: from the oversubscription)")),
    "mtu": _obj(dict((tier, dict(_MTU, description="%s MTU" % tier, default=default))
                     for tier, default in (("host", 9000), ("leaf", SWITCH_MTU_DEFAULT),
                                           ("spine", SWITCH_MTU_DEFAULT),
                                           ("superspine", SWITCH_MTU_DEFAULT))),
                "MTU per tier (IP MTU; a switch's at most its platform's maximum: EOS 9214, "
                "SONiC 9216)"),
    "qos": QOS,
    "pfc_watchdog": WATCHDOG,
    "ecmp": ECMP,
    "max_oversubscription": _num(1, 64, "leaf tier: host Gb/s over uplink Gb/s", ":1", 1.0),
    "max_oversubscription_above_pod": _num(1, 64, "spine tier: leaf Gb/s over super-spine "
                                           "Gb/s", ":1", 1.0),
    # the what-if sweep's target (checks/failure_budget.py): the sweep proves k <= 2 per
    # class (pods and planes k = 1), so a larger budget is refused at the gate
    "failure_budget": _obj(dict(
        [(key, _int(0, 1 if key in ("pods", "planes") else 2, "%s the fabric must survive "
                    "failing at once, losslessly and within failure_budget.oversubscription"
                    % what, default=0))
         for key, what in (("links", "fabric links"), ("leaves", "leaves"),
                           ("spines", "spines"), ("superspines", "super-spines"),
                           ("pods", "pods (three tiers)"), ("planes", "planes"))] +
        [("oversubscription", _num(1, 64, "the worst leaf's host Gb/s over surviving uplink "
                                   "Gb/s allowed with the budgeted failures", ":1", 1.0))]),
        "failures the fabric must survive (rule failure-budget; fabric/failures.md)"),
    "host": _obj({
        "sysctls": _map({"type": "string", "pattern": names.pattern("sysctl"),
                         "x-grammar": "sysctl", "description": "a sysctl name"},
                        {"type": ["integer", "string"], "pattern": names.pattern("sysctl_value"),
                         "x-grammar": "sysctl_value", "description": "a sysctl value"},
                        "sysctls of every GPU host (merged over the defaults)"),
        "socket_ifname": _nullable(_name(
            "netdev", "interface NCCL bootstraps over (null: the host's default-route interface, "
            "else NCCL picks)")),
    }, "GPU host settings"),
}, "the fabric-wide design (group_vars/all)")
FABRIC["properties"]["host"]["properties"]["sysctls"]["default"] = {
    "net.ipv4.conf.all.arp_ignore": 2, "net.ipv4.conf.all.arp_announce": 2,
    "net.ipv4.conf.all.rp_filter": 2}
for _key in ("rail_group_leaves", "links_per_leaf_spine", "links_per_spine_superspine"):
    FABRIC["properties"][_key]["default"] = None
FABRIC["properties"]["host"]["properties"]["socket_ifname"]["default"] = None

_ASIC_TABLE = _obj({
    "cell_size": _int(32, 1024, "cell size", "bytes"),
    "pipeline_latency_kb": _num(0, 1024, "pipeline latency", "KiB", above=True),
    "mac_phy_delay_kb": _num(0, 64, "MAC/PHY delay", "KiB"),
    "peer_response_time_kb": _num(0, 64, "peer response (speeds without pause quanta)", "KiB"),
    "kb_on_tile": _bool("Spectrum-4/5 tile term"),
    "xoff_extra_kb": _num(0, 1024, "extra xoff (Spectrum-6)", "KiB"),
}, "SONiC STATE_DB ASIC_TABLE of a Spectrum ASIC", required=("cell_size", "pipeline_latency_kb",
                                                             "mac_phy_delay_kb"))

ASIC_OVERRIDES = _obj({
    "vendor": _enum(("broadcom", "nvidia"), "ASIC vendor"),
    "total_buffer_bytes": _int(1, MAX_BUFFER_BYTES, "packet buffer", "bytes"),
    "cell_bytes": _int(32, 1024, "buffer cell", "bytes"),
    "headroom_semantics": _enum(sorted(catalog.HEADROOM_SEMANTICS), "how headroom is reserved"),
    "pipeline_latency_bytes": _num(0, 1048576, "pipeline latency", "bytes"),
    "mac_phy_delay_bytes": _num(0, 1048576, "MAC/PHY delay", "bytes"),
    "serdes_lane_gbps": _enum((10, 25, 50, 100, 200), "SerDes lane rate in Gb/s"),
    "port_speeds_gbps": _list(_SPEED, "supported port speeds"),
    "caveat": _name("text", "a note shown in the device document"),
    "sonic_asic_table": _ASIC_TABLE,
    "shared_headroom_pool_bytes": _int(1, MAX_BUFFER_BYTES, "shared headroom pool", "bytes"),
}, "catalog facts of this switch's ASIC, replaced (the override becomes the fact's source)")

LOSSLESS = _obj({
    "model": _enum(HEADROOM_MODELS, "headroom model (default: sonic-sku on a SONiC HWSKU with "
                   "a pg_profile_lookup.ini, sonic-nvidia with the dynamic buffer model, else "
                   "ieee)"),
    "trigger_fraction": _num(0, 0.99, "shared-pool fill at which one PG pauses", above=True,
                             default=2.0 / 3),
    "trigger_mode": _enum(TRIGGER_MODES, "dynamic (alpha) or static threshold", "dynamic"),
    "over_subscribe_ratio": _num(1, 64, "shared headroom pool over-subscription", ":1", 1),
    "lossy_reserved_per_port_bytes": _int(0, 10 ** 7, "lossy reservation per port", "bytes"),
    "sonic": _obj({
        "buffer_model": _enum(("traditional", "dynamic"), "SONiC buffer model (dynamic: "
                              "Spectrum only)", "traditional"),
        "version": _enum(SONIC_VERSIONS, "SONiC release: the headroom formula revision",
                         "202605"),
        "lossless_mtu_bytes": _int(64, 9216, "traffic pattern: lossless MTU (default 1024)",
                                   "bytes"),
        "small_packet_pct": _int(0, 100, "traffic pattern: small packets (default 100 "
                                 "traditional, as the SKU tables; 50 dynamic, SONiC's)", "%"),
    }, "SONiC buffer manager settings (SONiC switches only)"),
    "nvue": _obj({
        "lossless_pool_percent": _int(1, 99, "share of the shared buffer for the lossless "
                                      "pool (default-lossless memory-percent; default 50, "
                                      "NVIDIA's Flow Control Buffers example); the lossy pool "
                                      "takes the rest", "%"),
    }, "Cumulus Linux (NVUE) buffer pools (Cumulus switches only)"),
    "ecn": _obj({
        "kmin_bytes": _int(1, 2 ** 31, "ECN Kmin", "bytes"),
        "kmax_bytes": _int(1, 2 ** 31, "ECN Kmax", "bytes"),
        "pmax": _num(0.01, 1, "marking probability at Kmax (whole percent on the wire)"),
    }, "ECN overrides (checked against the pause points)"),
    "xon_offset_bytes": _int(0, 16 * 2 ** 20, "XON hysteresis below the pause point", "bytes"),
}, "lossless buffer settings of this switch")

LINK_OVERRIDE = _obj({
    "cable_m": dict(_CABLE, description="cable length of this link (both ends)"),
    "speed_gbps": dict(_SPEED, description="speed of this link (both ends)"),
    "media": dict(_MEDIA, description="medium of this link (both ends)"),
    "mtu_bytes": dict(_MTU, description="MTU of this link (both ends of a switch link; "
                      "a host link: the leaf's end)"),
    "address": dict(_P2P, description="this end's /31 (the other end takes the other half)"),
    "state": _enum(("up", "down"), "admin state of this end"),
    "headroom_bytes": _int(1, 16 * 2 ** 20, "headroom (xoff) pinned on this port", "bytes"),
}, "one link, named by this switch's port")

GROUP_LINK_OVERRIDE: Dict[str, Schema] = {
    key: dict(LINK_OVERRIDE["properties"][key])
    for key in ("cable_m", "speed_gbps", "media", "mtu_bytes")}

NIC_OVERRIDE = _obj({
    "name": _name("netdev", "interface name"),
    "leaf": _name("device", "leaf this NIC is cabled to"),
    "port": _name("port", "leaf port this NIC is cabled to"),
    "cable_m": dict(_CABLE, description="cable length to the leaf"),
    "address": dict(_P2P, description="the NIC's /31 (the leaf takes the other half)"),
    "mtu_bytes": dict(_MTU, description="NIC MTU"),
    "qos": QOS,
}, "one NIC, by index")

# The ports of a switch of no model, as its vendor publishes them (hardware/ports.py): a list in
# front-panel order, or the text of a SONiC HWSKU's port_config.ini. Names follow the
# platform's grammar, each name, alias and lane once (checked at the model stage, which knows
# the platform).
PORT_MAP_ENTRY = _obj({
    "name": _name("port", "port name as the switch names it (SONiC Ethernet<n>, EOS "
                  "Ethernet<cage>/<lane>)"),
    "lanes": _name("lanes", "the port's SerDes lanes"),
    "alias": _name("alias", "SONiC alias (default: the name, as SONiC reads port_config.ini; "
                   "EOS has none)"),
    "index": _int(1, 1024, "front-panel cage, SONiC PORT index (default: the entry's "
                  "position, 1-based)"),
    "speed_gbps": dict(_SPEED, description="the port's speed in the vendor's map: links on it "
                       "run at most this (default: no limit but the ASIC's)"),
}, "one front-panel port", required=("name", "lanes"))
PORT_MAP: Schema = {
    "type": ["array", "string"], "items": PORT_MAP_ENTRY, "minItems": 2, "maxItems": 1024,
    "maxLength": 262144,
    "x-allowed": "a list of 2-1,024 ports ({name, lanes, alias, index, speed_gbps}, in "
                 "front-panel order), or the text of a SONiC port_config.ini (at most 256 KiB)",
    "description": "the ports of a switch of no roce_model, as its vendor publishes them: a "
                   "list, or its SONiC HWSKU's port_config.ini text (e.g. lookup('file', ...)); "
                   "required with roce_asic (docs/rendering.md)"}

# Variables and keys no longer read, with what replaced them (the gate's error says it).
RETIRED = {
    "roce_roll_batch": "site.yml rolls the plan's rollout waves, one serial batch per wave "
                       "(fabric/rollout.md, docs/deploy.md \"Rollout waves\")",
    "roce_roll_spine_batch": "site.yml rolls the plan's rollout waves, one serial batch per "
                             "wave (fabric/rollout.md, docs/deploy.md \"Rollout waves\")",
    "roce_port_count": "the ports of a switch follow from roce_model or roce_port_map",
    "roce_fabric.switch_ports": "the ports of a switch follow from its roce_model or "
                                "roce_port_map",
    "roce_fabric.port_name_step": "port names follow from roce_model or roce_port_map",
    "roce_link_overrides.*.lanes": "lanes follow from the switch's roce_model or roce_port_map",
    "roce_link_overrides.*.alias": "aliases follow from the switch's roce_model or "
                                   "roce_port_map",
}

COMMON_VARS: Dict[str, Schema] = {
    "roce_fabric": FABRIC,
    "roce_deploy": _bool("touch devices (false: plan, check and render only)", False),
}
SWITCH_VARS: Dict[str, Schema] = {
    "roce_model": _enum(models.names(), "switch model: its ASIC, cages, lanes, breakouts and "
                        "port names (docs/rendering.md)"),
    "roce_asic": _enum(sorted(catalog.ASICS), "switch ASIC, when no roce_model is given "
                       "(then roce_port_map is required)"),
    "roce_port_map": PORT_MAP,
    "roce_platform": _enum(PLATFORMS, "network OS rendered for"),
    "roce_asn": _int(1, MAX_ASN, "this switch's ASN (default from roce_fabric.asn)"),
    "roce_loopback": dict(_LOOPBACK, description="this switch's loopback /32"),
    "roce_qos": dict(QOS, description="QoS overrides merged over roce_fabric.qos"),
    "roce_pfc_watchdog": dict(WATCHDOG, description="watchdog overrides merged over "
                              "roce_fabric.pfc_watchdog"),
    "roce_ecmp": dict(ECMP, description="ECMP overrides merged over roce_fabric.ecmp"),
    "roce_mtu": dict(_MTU, description="MTU of every port (default roce_fabric.mtu per tier)"),
    "roce_link_overrides": _map(_name("port", "a port of this switch"), LINK_OVERRIDE,
                                "per-link overrides by this switch's port name"),
    "roce_uplink_overrides": _obj(GROUP_LINK_OVERRIDE, "link properties of every link of this "
                                  "switch towards the tier above (a leaf pair's uplinks: set it "
                                  "in the pair's group_vars); both ends, a port's own "
                                  "roce_link_overrides wins; refused on the top tier, which "
                                  "has no uplinks"),
    "roce_downlink_overrides": _obj(GROUP_LINK_OVERRIDE, "link properties of every link of this "
                                    "switch towards the tier below (a spine's leaf links, a "
                                    "leaf's host links: their MTU sets the leaf's end, the NIC "
                                    "keeps its own); both ends, a port's own "
                                    "roce_link_overrides wins"),
    "roce_asic_overrides": ASIC_OVERRIDES,
    "roce_lossless": LOSSLESS,
    "roce_eos_base_config": {"type": "string", "maxLength": 262144,
                             "x-allowed": "EOS CLI text (at most 256 KiB)",
                             "description": "EOS only: the configuration the plan does not own "
                             "(management interface, VRF and routes, users, AAA, NTP, logging, "
                             "eAPI), merged into the rendered config (docs/deploy.md)"},
}
HOST_VARS: Dict[str, Schema] = {
    "roce_nic_names": {"type": "array", "items": _name("netdev", "interface name"),
                       "uniqueItems": True, "minItems": 1,
                       "description": "RoCE interface names in NIC order (default rdma0..)"},
    "roce_rail_group": _int(0, 4095, "rail group of this host (default by host order)"),
    "roce_nic_overrides": _map({"type": "string", "pattern": r"^[0-9]{1,2}$",
                                "x-allowed": "a NIC index 0-15", "description": "a NIC index"},
                               NIC_OVERRIDE,
                               "per-NIC overrides by index"),
}
REQUIRED_SWITCH_VARS = ("roce_platform",)


def host_schema(kind: str) -> Dict[str, Any]:
    """The JSON Schema of one host's roce_* variables: ``kind`` is switch or host."""
    props = dict(COMMON_VARS)
    props.update(SWITCH_VARS if kind == "switch" else HOST_VARS)
    out = _obj(props, "roce_* variables of a %s"
               % ("switch" if kind == "switch" else "GPU host"),
               REQUIRED_SWITCH_VARS if kind == "switch" else ())
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return out


def defaults(schema: Dict[str, Any]) -> Any:
    """The default value a schema documents: ``default``, or an object of its children's."""
    if "default" in schema:
        return copy.deepcopy(schema["default"])
    if schema.get("type") == "object" and "properties" in schema:
        return dict((key, defaults(child)) for key, child in schema["properties"].items()
                    if "default" in child or child.get("type") == "object")
    return None


def fabric_defaults() -> Dict[str, Any]:
    return defaults(FABRIC)


def variables() -> List[Tuple[str, Dict[str, Any], str]]:
    """(variable, schema, applies to) of every top-level variable, in documentation order."""
    out = [(k, v, "all hosts") for k, v in COMMON_VARS.items()]
    out += [(k, v, "switches") for k, v in SWITCH_VARS.items()]
    out += [(k, v, "GPU hosts") for k, v in HOST_VARS.items()]
    return out


# The arguments of the lossless filter plugins (plugins/filter/lossless.py), an entry point of
# their own that bypasses the inventory gate: the same ranges as the inventory's, by name.
FILTER_ARGS: Dict[str, Schema] = {
    "port": _obj({
        "name": _name("port", "port name"),
        "speed_gbps": _SPEED,
        "cable_m": _CABLE,
        "mtu_bytes": _MTU,
        "peer_mtu_bytes": _MTU,
        "lanes": _enum((1, 2, 4, 8), "SerDes lanes of the port"),
        "media": _MEDIA,
    }, "one port", required=("speed_gbps", "cable_m")),
    "roce_asic": SWITCH_VARS["roce_asic"],
    "roce_headroom_model": LOSSLESS["properties"]["model"],
    "roce_asic_overrides": ASIC_OVERRIDES,
    "roce_sonic_buffer": _obj({
        "lossless_mtu_bytes": LOSSLESS["properties"]["sonic"]["properties"]["lossless_mtu_bytes"],
        "small_packet_pct": LOSSLESS["properties"]["sonic"]["properties"]["small_packet_pct"],
        "revision": _enum(SONIC_LUA_REVISIONS + ("current",), "buffer_headroom_mellanox.lua "
                          "revision"),
    }, "sonic-nvidia traffic pattern and formula revision"),
    "shared_pool_bytes": _int(1, MAX_BUFFER_BYTES, "shared pool", "bytes"),
    "roce_pfc_trigger_fraction": LOSSLESS["properties"]["trigger_fraction"],
    "roce_pfc_trigger_mode": LOSSLESS["properties"]["trigger_mode"],
    "congested_pgs": _int(1, 100000, "congested priority groups"),
    "mtu_bytes": _MTU,
    "speed_gbps": _SPEED,
    "xoff_trigger_bytes": _num(0, MAX_BUFFER_BYTES, "PFC pause point of one PG", "bytes",
                               above=True),
    "roce_ecn": LOSSLESS["properties"]["ecn"],
}
