# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan's records: the shapes of what the plan hands to the checks and the renderers.

Declarations only (``typing.TypedDict``), for type hints and for the reader: a record's keys and
what they hold, in one place. The records stay plain dicts at run time, not dataclasses: the
plan crosses Ansible's JSON boundary (the plan action's registered result is passed, as JSON, to
the render action, which reads plain dicts back) and the structured YAML is rendered from those
dicts and must stay byte-identical, key for key and in order. A TypedDict costs nothing at run
time (it is ``dict``) and changes no output.

``total=False`` marks records whose keys are not all present; every other record has all its
keys (a value may still be None where its type says Optional).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, NotRequired, Optional, TypedDict, Union

# -- checks -----------------------------------------------------------------------------------

# errors.finding(): one violation of one rule.
Finding = TypedDict("Finding", {
    "rule": str,                 # rule id (checks/registry.py)
    "severity": str,             # "ERROR" or "WARN"
    "device": str,               # switch or host name
    "location": str,             # port, NIC, path ... on that device
    "message": str,              # what is wrong
    "hint": str,                 # how to fix it
    "numbers": Dict[str, Any],   # the numbers behind the finding
})

# -- lossless: one port's numbers (lossless/switch.py, finished there) ---------------------------

# lossless/headroom.py port_headroom(): the keys depend on the model (ieee, sonic-nvidia,
# sonic-sku) and on a pinned xoff (source).
Headroom = TypedDict("Headroom", {
    "model": str,
    "raw_bytes": Union[int, float],
    "xoff_bytes": int,
    "xon_bytes": int,
    "size_bytes": int,
    "cells": int,
    "cell_bytes": int,
    "terms": Dict[str, Any],
    "revision": str,
    "cell_occupancy": float,
    "headroom_compensation": Any,
    "cable_class_m": int,
    "sku_row": List[int],               # the table row (size, xon, xoff) the headroom replaced
    "source": str,
}, total=False)

# lossless/ecn.py ecn_thresholds() with the switch's roce_lossless.ecn overrides applied.
EcnMarks = TypedDict("EcnMarks", {
    "kmin_bytes": int,
    "kmax_bytes": int,
    "pmax": float,
    "pmax_percent": int,
    "xoff_trigger_bytes": int,
    "clamped": bool,
    "overridden": List[str],
    "warnings": List[str],
})

# A port's "lossless": switch_lossless()'s finished port record, carried by the plan as it is.
LosslessProfile = TypedDict("LosslessProfile", {
    "name": str,
    "speed_gbps": int,
    "cable_m": float,                   # the real cable, not the class
    "mtu_bytes": int,
    "headroom": Headroom,               # one object per port class (shared)
    "ecn": Optional[EcnMarks],          # None when the buffer cannot hold the headroom
    "cable_class_m": int,
    "table_row": bool,                  # the SKU's pg_profile_lookup.ini has (speed, class)
    "headroom_required_bytes": int,     # what the link needs by the switch's formula
    "headroom_configured_bytes": int,   # what the rendered profile carries
})

# A switch's "buffer": lossless/switch.py plan_switch()'s result without "ports": the math, what
# the platform's buffer manager is told (SONiC's buffer settings, EOS's MMU units) and the ECN
# overrides.
Buffer = TypedDict("Buffer", {
    "budget_error": Optional[str],
    "asic": str,
    "model": str,
    "lossless_pgs": List[int],
    "headroom_semantics": str,
    "cell_bytes": int,
    "total_buffer_bytes": int,
    "reserved_headroom_bytes": int,
    "shared_headroom_pool_bytes": int,
    "shared_headroom_pool_required_bytes": int,
    "lossy_reserved_bytes": int,
    "shared_pool_bytes": int,
    "itms": int,                        # the MMU's memory buffers (ITMs) a PG or queue lives in
    "itm_pool_bytes": int,              # one ITM's share of the shared pool: what a PG reaches
    "itms_source": str,
    "pool_accounting": str,             # whose accounting the carve is (lossless/carve.py)
    "carve": List[List[Any]],
    "total_buffer_source": str,
    "vendor": str,
    "trigger": Optional[Dict[str, Any]],      # lossless/pause.py xoff_trigger()
    "port_classes": int,
    "unverified_facts": List[str],
    "caveat": Optional[str],
    "sonic": Optional[Dict[str, Any]],
    # EOS on a Broadcom XGS chip: {pg_reserved_bytes, headroom_pool_cells}, else None
    "eos_mmu": Optional[Dict[str, Any]],
    "ecn_overrides": Dict[str, Any],
    # Cumulus: NVUE's pools as rendered and what it computes itself (buffer_model.py _nvue_view);
    # only on Cumulus switches
    "nvue": NotRequired[Dict[str, Any]],
})

# -- switch intent (plan/build.py _switch_intent) -----------------------------------------------

# plan/build.py _qos(): shared by switches and NICs without an override.
QosIntent = TypedDict("QosIntent", {
    "trust": str,
    "roce_dscp": int,
    "roce_tc": int,
    "cnp_dscp": int,
    "cnp_tc": int,
    "dscp_to_tc": Dict[int, int],          # the DSCPs the inventory maps (RoCE, CNP, dscp_to_tc)
    "dscp_default_tc": int,                # every other DSCP, written out: plan/qos.py dscp_map
    "lossless_dscps": List[int],           # the DSCPs the plan puts on a lossless/PFC class
    "tc_to_pg": Dict[int, int],
    "tc_to_queue": Dict[int, int],
    "lossless_priorities": List[int],
    "pfc_priorities": List[int],
    "ecn_queues": List[int],
    "cnp_scheduler": str,
})

BgpNeighbor = TypedDict("BgpNeighbor", {
    "port": str,
    "peer_port": Optional[str],
    "address": str,            # the peer's, without prefix length
    "local_address": str,
    "asn": int,
    "name": str,
    "routes": int,             # what this peer sends at most (plan/bgp_limits.py)
    "max_routes": int,         # the limit rendered for it (maximum-routes / maximum-prefix)
})

BgpIntent = TypedDict("BgpIntent", {
    "asn": int,
    "router_id": str,
    "maximum_paths": int,
    "ecmp_width": int,
    "neighbors": List[BgpNeighbor],
    "allowas_in": bool,
    "advertise": Any,
    "aggregate": Optional[str],   # a leaf's host /31 block, announced summary-only (or None)
    "keepalive_s": int,        # rendered on every neighbour (timers KEEPALIVE HOLD)
    "hold_s": int,
    "bfd": bool,               # neighbor X bfd; intervals are the platforms' defaults, not rendered
})

PortIntent = TypedDict("PortIntent", {
    "name": str,
    "index": int,
    "up": bool,
    "peer_kind": str,              # "host", "leaf", "spine", "superspine" (every port is cabled)
    "peer": str,
    "peer_port": Optional[str],
    "speed_gbps": int,
    "cable_m": float,
    "media": str,
    "mtu_bytes": int,
    "address": Optional[str],      # this end's /31
    "peer_address": Optional[str],
    "lanes": Optional[str],
    "alias": Optional[str],
    "cage": Optional[int],
    "lanes_per_port": int,         # hardware/ports.py PortMap.port(): always set
    "lossless": Optional[LosslessProfile],   # None on a port that is down
})

SwitchIntent = TypedDict("SwitchIntent", {
    "kind": str,                           # "switch"
    "name": str,
    "role": str,                           # "leaf", "spine", "superspine"
    "platform": str,                       # hardware/platforms.py NAMES
    "oversubscription": Optional[float],
    "asic": str,
    "asic_family": Optional[str],
    "pair": Optional[int],
    "loopback": str,
    "hardware": Optional[Dict[str, Any]],  # model, product, breakout, ports (, SONiC platform)
    "pod": Optional[str],
    "plane": int,
    "qos": QosIntent,
    "pfc_watchdog": Dict[str, Any],
    "ecmp": Dict[str, Any],                # roce_ecmp with seed and "rendered" capabilities
    "bgp": BgpIntent,
    "ports": List[PortIntent],
    "base_config": Optional[List[str]],    # EOS only
    "buffer": Buffer,
    "unverified_facts": List[str],
})

# -- host intent (plan/build.py _host_intent) ---------------------------------------------------

NicIntent = TypedDict("NicIntent", {
    "name": str,
    "rail": int,
    "leaf": str,
    "leaf_port": str,
    "address": str,
    "gateway": str,
    "mtu_bytes": int,
    "speed_gbps": int,
    "cable_m": float,
    "qos": QosIntent,
    "roce_tos": int,
    "dscp_prio": Dict[int, int],
    "dscp_default_prio": int,      # the priority of every DSCP not in dscp_prio
    "pfc_priorities": List[int],
    "global_pause": str,
    "route_table": int,
})

# The same NIC in roce.fabric.nic's argument form.
NicSettings = TypedDict("NicSettings", {
    "name": str,
    "mtu_bytes": int,
    "dscp_prio": Dict[int, int],
    "dscp_default_prio": int,      # the nic module writes all 64 DSCPs
    "pfc_priorities": List[int],
    "roce_tos": int,
    "cable_m": float,
    "ets": Dict[str, int],
    "address": str,
    "gateway": str,
    "route_table": int,
    "cnp_dscp": int,
    "cnp_priority": int,
    "ecn_priorities": List[int],
})

HostIntent = TypedDict("HostIntent", {
    "kind": str,                   # "host"
    "name": str,
    "nics": List[NicIntent],
    "nic_settings": List[NicSettings],
    "sysctls": Dict[str, Any],
    "nccl": Dict[str, Any],        # NCCL_* environment; None values are not set
})

# A device of the plan: tell them apart by "kind".
Device = Union[SwitchIntent, HostIntent]

# -- the plan (pipeline.build_plan) -----------------------------------------------------------

Summary = TypedDict("Summary", {
    "name": str,                        # roce_fabric.name
    "spines": int,
    "leaves": int,
    "leaf_pairs": int,
    "superspines": int,
    "tiers": int,
    "planes": int,
    "pods": Dict[str, List[str]],
    "hosts": int,
    "nics": int,
    "links": int,
    "errors": int,
    "warnings": int,
    "checks": int,
    "pairs": List[List[str]],
})

Plan = TypedDict("Plan", {
    "devices": Dict[str, Device],
    "violations": List[Finding],
    "failures": Dict[str, Any],            # checks/failure_budget.py report(): the what-if
    "summary": Summary,
})
