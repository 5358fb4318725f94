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

import math

from ansible_collections.roce.fabric.plugins.module_utils import (
    ecn, errors, headroom, thresholds)

DEFAULT_LOSSLESS_PGS = (3,)       # RoCE on priority 3 (host-nic.md; CL-ROCE)
LOSSY_RESERVED_FALLBACK = 9216    # [P] one jumbo frame per port when pipeline latency is unknown
SETTINGS_KEYS = ("model", "lossless_pgs", "trigger_fraction", "trigger_mode",
                 "over_subscribe_ratio", "lossy_reserved_per_port_bytes", "sonic", "ecn")


def _port_field(port, key, host, name):
    if key not in port:
        raise errors.RoceInputError("%s.%s" % (name, key), None, "required port field", host)
    return port[key]


def switch_lossless(asic, ports, settings=None, host=None, strict=True):
    """Compute the lossless plan of one switch.

    ``asic``: catalog.AsicProfile. ``ports``: list of dicts with ``name``, ``speed_gbps``,
    ``cable_m`` and optional ``mtu_bytes`` (default 9216), ``peer_mtu_bytes``, ``lanes``,
    ``media``. ``settings``: see SETTINGS_KEYS (all optional). With ``strict=False`` a buffer
    that cannot hold the headroom is reported (``budget_error``, trigger and ECN None) instead
    of raised, so a fabric-wide check can list it with the other findings.
    """
    cfg = dict(errors.mapping("roce_lossless", settings or {}, SETTINGS_KEYS, host))
    model = cfg.get("model", "ieee")
    pgs = cfg.get("lossless_pgs", list(DEFAULT_LOSSLESS_PGS))
    if not isinstance(pgs, (list, tuple)) or not pgs:
        raise errors.RoceInputError("roce_lossless.lossless_pgs", pgs,
                                    "a non-empty list of priorities 0-7", host)
    pgs = sorted(set(errors.choice("roce_lossless.lossless_pgs", p, range(8), host) for p in pgs))
    ratio = errors.number("roce_lossless.over_subscribe_ratio", cfg.get("over_subscribe_ratio", 1),
                          1, 64, "", host)
    total = asic.require("total_buffer_bytes", host)
    lossy_default = asic.value("pipeline_latency_bytes") or LOSSY_RESERVED_FALLBACK
    lossy = errors.number("roce_lossless.lossy_reserved_per_port_bytes",
                          cfg.get("lossy_reserved_per_port_bytes", lossy_default),
                          0, 10 ** 7, "bytes", host)
    if not isinstance(ports, list) or not ports:
        raise errors.RoceInputError("ports", ports, "a non-empty list of port mappings", host)

    classes = {}
    rows = []
    max_mtu = 0
    names = set()
    for i, port in enumerate(ports):
        label = "ports[%d]" % i
        errors.mapping(label, port, ("name", "speed_gbps", "cable_m", "mtu_bytes",
                                     "peer_mtu_bytes", "lanes", "media"), host)
        name = _port_field(port, "name", host, label)
        if name in names:
            raise errors.RoceInputError(label + ".name", name, "a port name used once", host)
        names.add(name)
        key = (port.get("speed_gbps"), port.get("cable_m"), port.get("mtu_bytes", 9216),
               port.get("peer_mtu_bytes"), port.get("lanes"), port.get("media", "fiber"))
        if key not in classes:
            classes[key] = headroom.port_headroom(
                asic, _port_field(port, "speed_gbps", host, name),
                _port_field(port, "cable_m", host, name), key[2], key[3], model=model,
                lanes=key[4], sonic=cfg.get("sonic"), media=key[5], host=host, port=name)
        max_mtu = max(max_mtu, key[2])
        rows.append((name, key, classes[key]))

    semantics = asic.value("headroom_semantics")
    per_pg = len(pgs)
    reserved_headroom = per_pg * sum(row[2]["size_bytes"] for row in rows)
    reserved_lossy = lossy * len(rows)
    shp = shp_required = 0
    if semantics == "shared_headroom_pool":
        # LM §2.3: the pool must hold sum(xoff) / over_subscribe_ratio.
        shp_required = int(math.ceil(per_pg * sum(row[2]["xoff_bytes"] for row in rows)
                                     / float(ratio)))
        shp = asic.value("shared_headroom_pool_bytes") or shp_required
    shared = total - reserved_headroom - reserved_lossy - shp
    trigger = None
    budget_error = None
    marks_by_class = {}
    try:
        if shared <= 0:
            raise errors.RoceInputError(
                "ports", "%d ports" % len(rows),
                "more headroom than buffer: %s has %d B; headroom %d B + shared headroom pool "
                "%d B + lossy reserve %d B leave %d B for the shared pool (must be > 0); shorten "
                "cables, use fewer lossless PGs or a larger over_subscribe_ratio"
                % (asic.name, total, reserved_headroom, shp, reserved_lossy, shared), host)
        trigger = thresholds.xoff_trigger(
            shared, cfg.get("trigger_fraction", thresholds.DEFAULT_TRIGGER_FRACTION),
            cfg.get("trigger_mode", "dynamic"), congested_pgs=per_pg * len(rows),
            mtu_bytes=max_mtu, host=host)
        # LM §3.1-3.2: under incast every lossless queue of the switch may sit at Kmin.
        trigger["incast_fanout_ports"] = len(rows)
        trigger["incast_pause_bytes"] = int(thresholds.incast_kmin_bound(trigger, len(rows),
                                                                         per_pg))
        for name, key, hr in rows:
            # ECN depends on speed and MTU only (the trigger is per switch): once per class.
            if (key[0], key[2]) not in marks_by_class:
                marks_by_class[(key[0], key[2])] = ecn.ecn_thresholds(
                    key[0], trigger["trigger_one_pg_bytes"], key[2], cfg.get("ecn"), host=host,
                    incast_bound_bytes=trigger["incast_pause_bytes"])
    except errors.RoceInputError as exc:
        if strict or exc.field not in ("ports", "shared_pool_bytes", "xoff_trigger_bytes"):
            raise
        budget_error = str(exc)
        trigger = None
        marks_by_class = {}
    out_ports = []
    for name, key, hr in rows:
        out_ports.append({"name": name, "speed_gbps": key[0], "cable_m": key[1],
                          "mtu_bytes": key[2], "headroom": hr,
                          "ecn": marks_by_class.get((key[0], key[2]))})
    return {
        "budget_error": budget_error,
        "asic": asic.name,
        "model": model,
        "lossless_pgs": pgs,
        "headroom_semantics": semantics,
        "cell_bytes": asic.value("cell_bytes"),
        "total_buffer_bytes": total,
        "reserved_headroom_bytes": reserved_headroom,
        "shared_headroom_pool_bytes": shp,
        "shared_headroom_pool_required_bytes": shp_required,
        "lossy_reserved_bytes": reserved_lossy,
        "shared_pool_bytes": shared,
        "trigger": trigger,
        "ports": out_ports,
        "port_classes": len(classes),
        "unverified_facts": asic.unverified(),
        "caveat": asic.value("caveat"),
    }
