# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which headroom a switch gets, so that the plan equals what the switch computes.

SONiC has two buffer models (sonic.md §1.1). Traditional: buffermgrd pins each lossless PG to
the HWSKU's pg_profile_lookup.ini row for the port's speed and CABLE_LENGTH; the plan's default
headroom is that row (model ``sonic-sku``), and a profile computed otherwise states the traffic
pattern it was sized for. Dynamic (Spectrum only: the Mellanox plugin): buffermgrd computes the
headroom from the port, CABLE_LENGTH and LOSSLESS_TRAFFIC_PATTERN with the lua of its release;
the plan computes the same formula (``sonic-nvidia``) at the release's revision and the
rendered pattern. EOS and switches without a SKU table get Model R (``ieee``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.lossless import headroom
from ansible_collections.roce.fabric.plugins.module_utils.hardware import models, sku_tables

# SONiC's own LOSSLESS_TRAFFIC_PATTERN default (buffers_config.j2, 50 % since PR #20632).
DYNAMIC_PATTERN = {"lossless_mtu_bytes": 1024, "small_packet_pct": 50}


def choose(sw, asic, given, hardware):
    """(headroom model, knobs for headroom.port_headroom, SKU, SONiC intent or None, model of
    the physical headroom a port needs) for switch ``sw`` and its roce_lossless ``given``."""
    sonic_cfg = dict(given.get("sonic") or {})
    if sw.platform != "sonic":
        if sonic_cfg:
            raise errors.RoceInputError("roce_lossless.sonic", sonic_cfg, "not set: it configures "
                                        "SONiC's buffer manager and %s runs %s"
                                        % (sw.name, sw.platform), sw.name)
        model = given.get("model", "ieee")
        if model == "sonic-sku":
            raise errors.RoceInputError("roce_lossless.model", model, "ieee or sonic-nvidia on "
                                        "EOS (no SONiC SKU tables)", sw.name)
        return model, {}, None, None, model
    spectrum = asic.value("family") == "spectrum"
    buffer_model = sonic_cfg.get("buffer_model", "traditional")
    version = sonic_cfg.get("version", headroom.DEFAULT_SONIC_VERSION)
    hwsku = (hardware or {}).get("hwsku")
    table = sku_tables.pg_table(hwsku)
    if buffer_model == "dynamic":
        if not spectrum:
            raise errors.RoceInputError("roce_lossless.sonic.buffer_model", buffer_model,
                                        "traditional: SONiC's dynamic buffer model computes "
                                        "headroom only on Spectrum (its Mellanox plugin; "
                                        "sonic.md §1.1)", sw.name)
        if given.get("trigger_mode") == "static":
            raise errors.RoceInputError("roce_lossless.trigger_mode", "static", "dynamic: "
                                        "SONiC's dynamic buffer model gives every lossless PG "
                                        "a dynamic threshold (DEFAULT_LOSSLESS_BUFFER_PARAMETER "
                                        "default_dynamic_th)", sw.name)
        default = "sonic-nvidia"
    else:
        default = "sonic-sku" if table else "ieee"
    model = given.get("model", default)
    if buffer_model == "dynamic" and model != "sonic-nvidia":
        raise errors.RoceInputError("roce_lossless.model", model, "sonic-nvidia: with the "
                                    "dynamic buffer model the switch computes the headroom with "
                                    "that formula, and the plan must match it", sw.name)
    if model == "sonic-sku" and not table:
        raise errors.RoceInputError("roce_lossless.model", model, "ieee or sonic-nvidia: the "
                                    "model data has no pg_profile_lookup.ini for %s"
                                    % (hwsku or "this switch (no roce_model)"), sw.name)
    pattern = dict(DYNAMIC_PATTERN if buffer_model == "dynamic" else
                   dict((k, v) for k, v in models.SKU_TABLE_PATTERN.items()
                        if k != "port_mtu_bytes"))
    pattern.update((k, sonic_cfg[k]) for k in ("lossless_mtu_bytes", "small_packet_pct")
                   if k in sonic_cfg)
    revision = headroom.SONIC_VERSIONS[version]
    knobs = dict(pattern, revision=revision) if model == "sonic-nvidia" else {}
    intent = {"buffer_model": buffer_model, "version": version, "revision": revision,
              "hwsku": hwsku, "traffic_pattern": pattern if model != "ieee" else None}
    physical = model
    if model == "sonic-sku":
        physical = "sonic-nvidia" if spectrum else "ieee"
    return model, knobs, (sw.model, hwsku) if table else None, intent, physical


def physical_knobs(model, knobs):
    """Knobs for the headroom a link physically needs: the SKU tables' pattern for sonic-sku
    switches on Spectrum, else the switch's own."""
    if model == "sonic-nvidia" and not knobs:
        pattern = dict(models.SKU_TABLE_PATTERN)
        pattern.pop("port_mtu_bytes")
        return dict(pattern, revision=headroom.SONIC_VERSIONS[headroom.DEFAULT_SONIC_VERSION])
    return knobs


def cable_classes(sw, speed_gbps):
    """The CABLE_LENGTH values (metres) SONiC's traditional buffer manager has a
    pg_profile_lookup.ini row for on a port of ``sw`` at ``speed_gbps``; None where the switch
    takes any length (EOS, SONiC's dynamic model) and () where its HWSKU publishes no table."""
    if sw.platform != "sonic" or sw.model is None:
        return None
    sonic_cfg = (sw.vars.get("roce_lossless") or {}).get("sonic") or {}
    if sonic_cfg.get("buffer_model", "traditional") == "dynamic":
        return None
    return sku_tables.cable_classes(models.hwsku(sw.model, sw.portmap.mode.name), speed_gbps)


def link_class(cable_m, options):
    """One cable class for both ends of a link (``options``: each end's cable_classes, None
    for any length): the smallest length at least ``cable_m`` at which every end that has a
    table row that long takes exactly that row; the cable in whole metres where no table has a
    row that long. An end whose table lacks the class computes its headroom at it and pins its
    profile (CABLE_LENGTH 0m)."""
    tables = [o for o in options if o]
    cls = cable_m
    while True:
        picks = [min(c for c in t if c >= cls) for t in tables if max(t) >= cls]
        new = max(picks) if picks else int(-(-cls // 1))
        if new == cls:
            return int(new)
        cls = new
