# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""One switch's lossless numbers: headroom per port, the buffer budget, the PFC trigger and ECN.

Ties headroom.py, thresholds.py and ecn.py together in the order the buffer is carved up
(LM §2.3): headroom (or the shared headroom pool) and reserved buffer come off the top, what is
left is the shared pool B_s, and B_s sets where PGs pause and so where ECN must mark.
Headroom is computed once per (speed, cable, MTU, lanes) class, so cost grows with distinct
port classes, not ports.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import NamedTuple, Optional

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.lossless import (
    carve, ecn, headroom, pause as thresholds)

DEFAULT_LOSSLESS_PGS = (3,)       # RoCE on priority 3 (host-nic.md; CL-ROCE)
SETTINGS_KEYS = ("model", "lossless_pgs", "trigger_fraction", "trigger_mode",
                 "over_subscribe_ratio", "lossy_reserved_per_port_bytes", "sonic", "ecn", "sku")


def _pinned(hr, xoff_bytes, asic, port):
    """A port's headroom with its xoff pinned by the inventory: the PG reserves the pinned xoff
    instead (Spectrum), or draws it from the shared headroom pool (Broadcom)."""
    shp = asic.value("headroom_semantics") == "shared_headroom_pool"
    size = hr["size_bytes"] if shp else hr["size_bytes"] - hr["xoff_bytes"] + xoff_bytes
    return dict(hr, xoff_bytes=xoff_bytes, size_bytes=size, raw_bytes=xoff_bytes,
                source="roce_link_overrides.%s.headroom_bytes" % port)


class PortClass(NamedTuple):
    """What a port's headroom depends on: ports of one class share one computation."""
    speed_gbps: int
    cable_m: float
    mtu_bytes: int
    peer_mtu_bytes: Optional[int]
    lanes: Optional[int]
    media: str
    headroom_bytes: Optional[int]      # xoff pinned by the inventory


def switch_lossless(asic, ports, settings=None, host=None, strict=True):
    """Compute the lossless plan of one switch.

    ``asic``: catalog.AsicProfile. ``ports``: list of dicts with ``name``, ``speed_gbps``,
    ``cable_m`` and optional ``mtu_bytes`` (default 9216), ``peer_mtu_bytes``, ``lanes``,
    ``media``, ``headroom_bytes`` (xoff pinned by the inventory). ``settings``: see
    SETTINGS_KEYS (all optional). With ``strict=False`` a buffer that cannot hold the headroom
    is reported (``budget_error``, trigger and ECN None) instead of raised, so a fabric-wide
    check can list it with the other findings. Ports and settings come from the plan, whose
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
                         cfg.get("lossy_reserved_per_port_bytes"), host)
    shared = carved["shared_pool_bytes"]
    trigger, marks_by_class, budget_error = _pause_and_marks(carved, rows, cfg, per_pg, host,
                                                             strict)
    out_ports = []
    for name, cls, hr in rows:
        out_ports.append({"name": name, "speed_gbps": cls.speed_gbps, "cable_m": cls.cable_m,
                          "mtu_bytes": cls.mtu_bytes, "headroom": hr,
                          "ecn": marks_by_class.get((cls.speed_gbps, cls.mtu_bytes))})
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
        "carve": [list(item) for item in carved["items"]],
        "total_buffer_source": carved["total_source"],
        "vendor": asic.value("vendor"),
        "trigger": trigger,
        "ports": out_ports,
        "port_classes": len(classes),
        "unverified_facts": asic.unverified(),
        "caveat": asic.value("caveat"),
    }


def _headroom_by_class(asic, ports, cfg, model, host):
    """({PortClass: headroom}, [(port name, its class, its headroom)]): one headroom
    computation per class of ports, shared by its ports."""
    classes = {}
    rows = []
    for port in ports:
        name = port["name"]
        cls = PortClass(port["speed_gbps"], port["cable_m"], port.get("mtu_bytes", 9216),
                        port.get("peer_mtu_bytes"), port.get("lanes"), port.get("media", "fiber"),
                        port.get("headroom_bytes"))
        if cls not in classes:
            classes[cls] = headroom.port_headroom(
                asic, cls.speed_gbps, cls.cable_m, cls.mtu_bytes, cls.peer_mtu_bytes,
                model=model, lanes=cls.lanes, sonic=cfg.get("sonic"), media=cls.media,
                host=host, port=name, sku=cfg.get("sku"))
            if cls.headroom_bytes is not None:
                classes[cls] = _pinned(classes[cls], cls.headroom_bytes, asic, name)
        rows.append((name, cls, classes[cls]))
    return classes, rows


def _pause_and_marks(carved, rows, cfg, per_pg, host, strict):
    """(trigger, {(speed, MTU): ECN marks}, budget error): where the lossless PGs pause and
    where ECN marks, once the carve has left a shared pool; a buffer that cannot hold the
    headroom raises, or with ``strict=False`` is reported as the budget error."""
    marks_by_class = {}
    try:
        if carved["budget_error"]:
            raise errors.RoceInputError(
                "ports", "%d ports" % len(rows), "more headroom than buffer: %s; shorten "
                "cables, use fewer lossless PGs or a larger over_subscribe_ratio"
                % carved["budget_error"], host)
        trigger = thresholds.xoff_trigger(
            carved["shared_pool_bytes"],
            cfg.get("trigger_fraction", thresholds.DEFAULT_TRIGGER_FRACTION),
            cfg.get("trigger_mode", "dynamic"), congested_pgs=per_pg * len(rows),
            mtu_bytes=max([cls.mtu_bytes for _name, cls, _hr in rows] or [0]), host=host)
        # LM §3.1-3.2: under incast every lossless queue of the switch may sit at Kmin.
        trigger["incast_fanout_ports"] = len(rows)
        trigger["incast_pause_bytes"] = int(thresholds.incast_kmin_bound(trigger, len(rows),
                                                                         per_pg))
        for _name, cls, _hr in rows:
            # ECN depends on speed and MTU only (the trigger is per switch): once per class.
            if (cls.speed_gbps, cls.mtu_bytes) not in marks_by_class:
                marks_by_class[(cls.speed_gbps, cls.mtu_bytes)] = ecn.ecn_thresholds(
                    cls.speed_gbps, trigger["trigger_one_pg_bytes"], cls.mtu_bytes,
                    cfg.get("ecn"), host=host, incast_bound_bytes=trigger["incast_pause_bytes"])
    except errors.RoceInputError as exc:
        if strict or exc.field not in ("ports", "shared_pool_bytes", "xoff_trigger_bytes"):
            raise
        return None, {}, str(exc)
    return trigger, marks_by_class, None
