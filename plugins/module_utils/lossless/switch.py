# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""One switch's lossless numbers: headroom per port, the buffer budget, the PFC trigger and ECN.

Ties headroom.py, thresholds.py and ecn.py together in the order the buffer is carved up
(LM §2.3): headroom (or the shared headroom pool) and reserved buffer come off the top, what is
left is the shared pool B_s, and B_s sets where PGs pause and so where ECN must mark.
Headroom is computed once per (speed, cable class, MTU, lanes) class, so cost grows with
distinct port classes, not ports. Each port comes out finished (``LosslessProfile``): its real
cable and the class its profile is sized and named for, the headroom, ECN with the switch's
overrides applied, whether the platform's table has a row for it, and what its link really needs.
``plan_switch`` is the plan's entry: a modelled switch and its ports in, its whole lossless plan
out.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import (Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple)

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog, sku_tables
from ansible_collections.roce.fabric.plugins.module_utils.lossless import (
    buffer_model, carve, ecn, headroom, pause as thresholds)
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Port, Switch

DEFAULT_LOSSLESS_PGS = (3,)       # RoCE on priority 3 (host-nic.md; CL-ROCE)
SETTINGS_KEYS = ("model", "lossless_pgs", "trigger_fraction", "trigger_mode",
                 "over_subscribe_ratio", "lossy_reserved_per_port_bytes", "sonic", "ecn", "sku",
                 "xon_offset_bytes", "release", "lossless_pool_percent")
Row = Tuple[str, "PortClass", Dict[str, Any]]       # (port name, its class, its headroom)


def _pinned(hr: Dict[str, Any], xoff_bytes: int, asic: catalog.AsicProfile,
            port: str) -> Dict[str, Any]:
    """A port's headroom with its xoff pinned by the inventory: the PG reserves the pinned xoff
    instead (Spectrum), or draws it from the shared headroom pool (Broadcom)."""
    shp = asic.value("headroom_semantics") == "shared_headroom_pool"
    size = hr["size_bytes"] if shp else hr["size_bytes"] - hr["xoff_bytes"] + xoff_bytes
    return dict(hr, xoff_bytes=xoff_bytes, size_bytes=size, raw_bytes=xoff_bytes,
                source="roce_link_overrides.%s.headroom_bytes" % port)


class PortClass(NamedTuple):
    """What a port's headroom depends on: ports of one class share one computation."""
    speed_gbps: int
    cable_m: float                     # the class: the length the profile is sized for
    mtu_bytes: int
    peer_mtu_bytes: Optional[int]
    lanes: Optional[int]
    media: str
    headroom_bytes: Optional[int]      # xoff pinned by the inventory


def switch_lossless(asic: catalog.AsicProfile, ports: Sequence[Mapping[str, Any]],
                    settings: Optional[Mapping[str, Any]] = None, host: Optional[str] = None,
                    strict: bool = True,
                    table_classes: Optional[Callable[[int], Optional[Tuple[int, ...]]]] = None
                    ) -> Dict[str, Any]:
    """Compute the lossless plan of one switch.

    ``asic``: catalog.AsicProfile. ``ports``: mappings with ``name``, ``speed_gbps``,
    ``cable_m`` (the real cable) and optional ``cable_class_m`` (the length its profile is sized
    and named for, default the cable), ``mtu_bytes`` (default 9216), ``peer_mtu_bytes``,
    ``lanes``, ``media``, ``headroom_bytes`` (xoff pinned by the inventory). ``settings``: see
    SETTINGS_KEYS (all optional; ``ecn`` overrides the marks, ``xon_offset_bytes`` the XON,
    ``release`` the SONiC release whose buffer_pool_mellanox.lua carves a Spectrum buffer).
    ``table_classes(speed)``: the cable lengths the platform's profile table has a row for (None
    or absent: any length). With ``strict=False`` a buffer that cannot hold the headroom is reported
    (``budget_error``, trigger and ECN None) instead of raised, and ECN overrides are taken as
    given for the fabric-wide checks to judge. Ports and settings come from the plan, whose
    inputs passed the gate (inputs/schema.py): they are trusted here.
    """
    cfg = dict(settings or {})
    model = cfg.get("model", "ieee")
    pgs = sorted(set(cfg.get("lossless_pgs", DEFAULT_LOSSLESS_PGS)))
    total = asic.require("total_buffer_bytes", host)
    classes, rows = _headroom_by_class(asic, ports, cfg, model, host)
    semantics = asic.value("headroom_semantics")
    per_pg = len(pgs)
    carved = carve.carve(asic, [(name, cls.lanes or headroom.default_lanes(asic, cls.speed_gbps),
                                 hr) for name, cls, hr in rows],
                         per_pg, cfg.get("over_subscribe_ratio", 1),
                         cfg.get("lossy_reserved_per_port_bytes"), host, cfg.get("release"))
    shared = carved["shared_pool_bytes"]
    trigger, marks_by_class, budget_error = _pause_and_marks(carved, rows, cfg, per_pg, host,
                                                             strict)
    out_ports = _finished(asic, ports, rows, marks_by_class, cfg, table_classes, host)
    return {
        "budget_error": budget_error,
        "asic": asic.name,
        "model": model,
        "lossless_pgs": pgs,
        "headroom_semantics": semantics,
        "cell_bytes": asic.value("cell_bytes"),
        "total_buffer_bytes": total,
        "reserved_headroom_bytes": carved["reserved_headroom_bytes"],
        "shared_headroom_pool_bytes": carved["shared_headroom_pool_bytes"],
        "shared_headroom_pool_required_bytes": carved["shared_headroom_pool_required_bytes"],
        "lossy_reserved_bytes": carved["lossy_reserved_bytes"],
        "shared_pool_bytes": shared,
        "itms": carved["itms"],
        "itm_pool_bytes": carved["itm_pool_bytes"],
        "itms_source": carved["itms_source"],
        "pool_accounting": carved["accounting"],
        "carve": [list(item) for item in carved["items"]],
        "total_buffer_source": carved["total_source"],
        "vendor": asic.value("vendor"),
        "trigger": trigger,
        "ports": out_ports,
        "port_classes": len(classes),
        "unverified_facts": asic.unverified(),
        "caveat": asic.value("caveat"),
    }


def _finished(asic: catalog.AsicProfile, ports: Sequence[Mapping[str, Any]],
              rows: Sequence[Row], marks_by_class: Dict[Tuple[int, int], Dict[str, Any]],
              cfg: Mapping[str, Any],
              table_classes: Optional[Callable[[int], Optional[Tuple[int, ...]]]],
              host: Optional[str]) -> List[Dict[str, Any]]:
    """Each port's finished record, in the order of ``ports``: the real cable beside the class
    its profile is sized for (a SKU row's own class, else the class given), whether the
    platform's table has that row, and the headroom its actual link needs by the switch's
    formula (a SKU table row is checked against the formula it stands for) beside the xoff the
    rendered profile carries (a pinned xoff is rendered as such)."""
    physical = buffer_model.physical_model(cfg.get("model", "ieee"), asic.value("family"))
    knobs = buffer_model.physical_knobs(physical, cfg.get("sonic") or {})
    out: List[Dict[str, Any]] = []
    required: Dict[Tuple[Any, ...], int] = {}       # one need per link class
    tables: Dict[int, Tuple[int, ...]] = {}          # one table per speed
    for port, (name, cls, hr) in zip(ports, rows):
        cable_class = hr.get("cable_class_m", cls.cable_m)
        speed, cable = cls.speed_gbps, port["cable_m"]
        if speed not in tables:
            tables[speed] = (table_classes(speed) if table_classes else None) or ()
        key = (speed, cable, cls.mtu_bytes, cls.peer_mtu_bytes, cls.media, cls.lanes)
        if key not in required:
            required[key] = headroom.port_headroom(
                asic, speed, cable, cls.mtu_bytes, cls.peer_mtu_bytes, model=physical,
                sonic=knobs, media=cls.media, host=host, port=name,
                lanes=cls.lanes)["xoff_bytes"]
        # table_row: the buffer manager has a row for the class (SONiC's traditional model: a
        # pg_profile_lookup.ini row; else the SONiC renderer pins the profile, CABLE_LENGTH 0m,
        # sonic-swss buffermgr.cpp L159)
        out.append({"name": name, "speed_gbps": speed, "cable_m": cable,
                    "mtu_bytes": cls.mtu_bytes, "headroom": hr,
                    "ecn": marks_by_class.get((speed, cls.mtu_bytes)),
                    "cable_class_m": cable_class, "table_row": cable_class in tables[speed],
                    "headroom_required_bytes": required[key],
                    "headroom_configured_bytes": hr["xoff_bytes"]})
    return out


def _headroom_by_class(asic: catalog.AsicProfile, ports: Sequence[Mapping[str, Any]],
                       cfg: Mapping[str, Any], model: str, host: Optional[str]
                       ) -> Tuple[Dict[PortClass, Dict[str, Any]], List[Row]]:
    """({PortClass: headroom}, [(port name, its class, its headroom)]): one headroom
    computation per class of ports, shared by its ports."""
    classes: Dict[PortClass, Dict[str, Any]] = {}
    rows: List[Row] = []
    for port in ports:
        name = port["name"]
        cls = PortClass(port["speed_gbps"], port.get("cable_class_m", port["cable_m"]),
                        port.get("mtu_bytes", 9216), port.get("peer_mtu_bytes"),
                        port.get("lanes"), port.get("media", "fiber"), port.get("headroom_bytes"))
        if cls not in classes:
            classes[cls] = headroom.port_headroom(
                asic, cls.speed_gbps, cls.cable_m, cls.mtu_bytes, cls.peer_mtu_bytes,
                model=model, lanes=cls.lanes, sonic=cfg.get("sonic"), media=cls.media,
                host=host, port=name, sku=cfg.get("sku"))
            if cls.headroom_bytes is not None:
                classes[cls] = _pinned(classes[cls], cls.headroom_bytes, asic, name)
        rows.append((name, cls, classes[cls]))
    return classes, rows


def _pause_and_marks(carved: Dict[str, Any], rows: Sequence[Row], cfg: Mapping[str, Any],
                     per_pg: int, host: Optional[str], strict: bool
                     ) -> Tuple[Optional[Dict[str, Any]], Dict[Tuple[int, int], Dict[str, Any]],
                                Optional[str]]:
    """(trigger, {(speed, MTU): ECN marks}, budget error): where the lossless PGs pause and
    where ECN marks, once the carve has left a shared pool; a buffer that cannot hold the
    headroom raises, or with ``strict=False`` is reported as the budget error."""
    marks_by_class: Dict[Tuple[int, int], Dict[str, Any]] = {}
    try:
        if carved["budget_error"]:
            raise errors.RoceInputError(
                "ports", "%d ports" % len(rows), "more headroom than buffer: %s; shorten "
                "cables, use fewer lossless PGs or a larger over_subscribe_ratio"
                % carved["budget_error"], host)
        # the pool one PG's threshold works on: the shared pool, or one ITM's share of it -
        # all of it, or the lossless pool's share where the switch splits it (NVUE)
        trigger = thresholds.xoff_trigger(
            carved["itm_pool_bytes"] * cfg.get("lossless_pool_percent", 100) // 100,
            cfg.get("trigger_fraction", thresholds.DEFAULT_TRIGGER_FRACTION),
            cfg.get("trigger_mode", "dynamic"), congested_pgs=per_pg * len(rows),
            mtu_bytes=max([cls.mtu_bytes for _name, cls, _hr in rows] or [0]), host=host)
        # LM §3.1-3.2: under incast every lossless queue of the switch may sit at Kmin.
        trigger["incast_fanout_ports"] = len(rows)
        trigger["incast_pause_bytes"] = int(thresholds.incast_kmin_bound(trigger, len(rows),
                                                                         per_pg))
        xon_offset = cfg.get("xon_offset_bytes")
        if xon_offset is not None:      # XON a fixed distance below the pause point
            trigger["xon_offset_bytes"] = xon_offset
            trigger["xon_bytes"] = trigger["trigger_n_pgs_bytes"] - xon_offset
        for _name, cls, _hr in rows:
            # ECN depends on speed and MTU only (the trigger is per switch): once per class.
            if (cls.speed_gbps, cls.mtu_bytes) not in marks_by_class:
                marks_by_class[(cls.speed_gbps, cls.mtu_bytes)] = ecn.ecn_thresholds(
                    cls.speed_gbps, trigger["trigger_one_pg_bytes"], cls.mtu_bytes,
                    cfg.get("ecn"), host=host, incast_bound_bytes=trigger["incast_pause_bytes"],
                    strict=strict)
    except errors.RoceInputError as exc:
        if strict or exc.field not in ("ports", "shared_pool_bytes", "xoff_trigger_bytes"):
            raise
        return None, {}, str(exc)
    return trigger, marks_by_class, None


# -- the plan's entry: a modelled switch -------------------------------------------------------

def plan_switch(sw: Switch, ordered: Sequence[Port],
                ends: Mapping[Port, Tuple[Optional[int], int]],
                hardware: Optional[Dict[str, Any]]) -> Tuple[catalog.AsicProfile, Dict[str, Any]]:
    """(ASIC profile, lossless plan) of switch ``sw``: every up port of ``ordered`` (its ports
    by index) with its link's cable class and peer MTU (``ends``), by the buffer manager of its
    platform (buffer_model.py). ``hardware``: the switch's model, breakout and HWSKU."""
    hv = sw.vars
    asic = catalog.asic_profile(sw.asic, hv.get("roce_asic_overrides"), sw.name)
    _sku_total(asic, hardware, hv.get("roce_asic_overrides") or {})
    settings = dict(hv.get("roce_lossless") or {})       # checked at the gate (schema LOSSLESS)
    given = dict(settings)
    manager = buffer_model.manager(sw.platform)
    choice = buffer_model.choose(sw, asic, settings, hardware)
    settings.update(manager.imposes(sw, given))      # what the switch fixes itself
    # sorted: the same plan whatever order the inventory (or ansible-inventory) gave the keys
    ecn_over = dict(sorted((settings.get("ecn") or {}).items()))
    settings.update(model=choice.model, sonic=choice.knobs, sku=choice.sku, ecn=ecn_over,
                    lossless_pgs=sw.qos["lossless_priorities"],
                    release=(choice.intent or {}).get("version"))
    ports = []
    for p in ordered:
        if not p.up:
            continue
        peer_mtu, cls = ends[p]     # the link's class, the same at both ends (link_class)
        ports.append({"name": p.name, "speed_gbps": p.speed_gbps, "cable_m": p.cable_m,
                      "cable_class_m": cls, "mtu_bytes": p.mtu_bytes,
                      "peer_mtu_bytes": peer_mtu, "media": p.media, "lanes": p.lanes_per_port})
        if p.headroom_bytes is not None:
            # SONiC's dynamic model too: a PG on a profile of its own is a headroom override
            # (sonic-swss cfgmgr/buffermgrdyn.cpp handleSingleBufferPgEntry), rendered so
            ports[-1]["headroom_bytes"] = p.headroom_bytes
    result = switch_lossless(asic, ports, settings, sw.name, strict=False,
                             table_classes=lambda speed: buffer_model.cable_classes(sw, speed))
    result["sonic"] = choice.intent
    result["eos_mmu"] = manager.mmu(result)
    result["ecn_overrides"] = ecn_over
    view = manager.view(result, given)
    if view is not None:        # what the switch computes itself (Cumulus: NVUE's pools)
        result["nvue"] = view
    return asic, result


def _sku_total(asic: catalog.AsicProfile, hardware: Optional[Dict[str, Any]],
               overrides: Mapping[str, Any]) -> None:
    """A SKU whose vendor template sizes the buffer below the chip's figure is carved at the
    template's total (hardware/sku_tables.py TEMPLATES), the source saying so; an inventory
    override still wins."""
    template = sku_tables.template((hardware or {}).get("hwsku"))
    total = asic.value("total_buffer_bytes")
    if template and "total_buffer_bytes" not in overrides and total and \
            template["total"] < total:
        asic.facts["total_buffer_bytes"] = catalog.Fact(
            template["total"], "%s: pools %d B, below %s's %d B (%s)" % (
                template["source"], template["total"], asic.name, total,
                asic.source("total_buffer_bytes")), True)
