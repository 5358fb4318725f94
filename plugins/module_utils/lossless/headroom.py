# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""PFC headroom per (port, lossless priority group): what must fit after XOFF is sent.

Two models:

* ``ieee``: docs/lossless-math.md "Model R" (reference LM §1.2), summed from IEEE 802.3 delays
  and rounded up to whole ASIC cells.
* ``sonic-nvidia``: an exact replica of SONiC's cfgmgr/buffer_headroom_mellanox.lua, quirks
  included (SN §1.3). ``revision="current"`` follows the upstream lua described in SN §1.3
  (sonic-swss e6b0c5b); ``revision="18913fa"`` the older lua replicated in LM §1.3.

Both return a dict of byte counts: ``xoff_bytes`` (headroom that absorbs in-flight data),
``xon_bytes``, ``size_bytes`` (what the PG reserves), plus the ``terms`` they were summed from.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Dict, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog, models
from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema

PFC_FRAME_BYTES = 64 + 20      # LM §1.1 #2: minimum frame plus preamble/SFD and IFG
FRAME_OVERHEAD_BYTES = 20      # LM §1.1 #1: preamble/SFD 8 B + IFG 12 B
QUANTUM_BYTES = 64             # one pause quantum = 512 bit times
MODELS = ("ieee", "sonic-nvidia", "sonic-sku")

# SONiC lua constants (SN §1.3).
SONIC_SPEED_OF_LIGHT_M_S = 198000000
SONIC_MIN_PACKET_BYTES = 64
SONIC_HEADROOM_COMPENSATION = 2048     # sonic-swss #4757
# Revisions of buffer_headroom_mellanox.lua that change the numbers (issue 13 research):
# 18913fa (2023): /8192 cable term, cell/64 factor, 8-lane pipeline latency x2 - 1 KiB;
# pr3235 (2024-09, backported to 202405): /8000, ceil(cell/64), byte-based small-packet share,
#   8-lane pipeline latency x2, kb_on_tile on Spectrum-4/5;
# pr4757 (2026-07): + 2 KiB when the configured xoff is 2 KiB short of the worst case;
# pr4797 (2026-07): + 18 KiB xoff on Spectrum-6 (the ASIC_TABLE's xoff_extra_kb here).
SONIC_REVISIONS = schema.SONIC_LUA_REVISIONS
# The revision each SONiC release branch carries (#3235 via #3342 in 202405; #4757 and #4797
# tested on 202605).
SONIC_VERSIONS = {"202305": "18913fa", "202311": "18913fa", "202405": "pr3235",
                  "202411": "pr3235", "202505": "pr3235", "202511": "pr3235",
                  "202605": "pr4797"}
DEFAULT_SONIC_VERSION = "202605"


def _ceil_to(value: float, unit: int) -> int:
    return int(math.ceil(value / unit - 1e-9)) * unit


def bytes_in_flight(time_ns: float, speed_gbps: float) -> float:
    """Bytes a ``speed_gbps`` link puts on the wire in ``time_ns``: t * r / 8."""
    return time_ns * speed_gbps / 8.0


def ieee_headroom(speed_gbps: int, cable_m: float, mtu_bytes: int = 9216,
                  peer_mtu_bytes: Optional[int] = None, cell_bytes: int = 254,
                  occupancy: float = 1.0, media: str = "fiber", gearbox_ns: float = 0,
                  interface_delay_bt: Optional[float] = None, shared_headroom: bool = False,
                  host: Optional[str] = None, port: Optional[str] = None) -> Dict[str, Any]:
    """Model R (LM §1.2). ``mtu_bytes`` is this port's largest MTU (any class), ``peer_mtu_bytes``
    the link partner's lossless MTU (defaults to ``mtu_bytes``). ``occupancy`` runs from 1
    (large packets) to cell/64 (every cell holds one 64 B packet, LM §1.2). Arguments passed the
    input gate or the filter's guard (inputs/schema.py ranges); they are trusted here."""
    mtu_r = mtu_bytes
    mtu_s = mtu_r if peer_mtu_bytes is None else peer_mtu_bytes
    cell = cell_bytes
    d_intf = catalog.interface_delay_bt(speed_gbps, host) if interface_delay_bt is None else \
        interface_delay_bt
    ns_per_m = catalog.PROPAGATION_NS_PER_M[media].value
    # LM §3.5 #4: the receiver's frame ahead of the PFC is the larger of the two ends' MTU.
    mtu_r = max(mtu_r, mtu_s)
    terms = {
        "frame_at_receiver": mtu_r + FRAME_OVERHEAD_BYTES,
        "pfc_frame": PFC_FRAME_BYTES,
        "interface_delay": 2 * d_intf / 8.0,
        "cable_round_trip": 2 * bytes_in_flight(cable_m * ns_per_m, speed_gbps),
        "peer_response": catalog.pause_quanta(speed_gbps) * QUANTUM_BYTES,
        "frame_at_sender": mtu_s + FRAME_OVERHEAD_BYTES,
        "gearbox": 2 * bytes_in_flight(gearbox_ns, speed_gbps),
    }
    raw = sum(terms.values())
    xoff = _ceil_to(raw * occupancy, cell)
    # LM §1.4 (DCQCN §5): resume 2 x MTU below the pause point, in whole cells.
    xon = _ceil_to(2 * mtu_s, cell)
    return {
        "model": "ieee",
        "raw_bytes": raw,
        "xoff_bytes": xoff,
        "xon_bytes": xon,
        "size_bytes": xon if shared_headroom else xon + xoff,
        "cells": xoff // cell,
        "cell_bytes": cell,
        "terms": terms,
    }


def sonic_nvidia_headroom(speed_gbps: int, cable_m: float, asic_table: Dict[str, Any],
                          port_mtu_bytes: int = 9100, lossless_mtu_bytes: int = 1024,
                          small_packet_pct: float = 50, gearbox_ns: float = 0, lanes: int = 4,
                          shared_headroom: bool = False, revision: str = "pr4797",
                          host: Optional[str] = None,
                          port: Optional[str] = None) -> Dict[str, Any]:
    """Replica of buffer_headroom_mellanox.lua (SN §1.3). Defaults are SONiC's own: port MTU
    9100, LOSSLESS_TRAFFIC_PATTERN mtu 1024 and small_packet_percentage 50 (SN §1.1).
    Arguments are trusted (the input gate or the filter's guard checked them)."""
    table = asic_table
    port_mtu, lossless_mtu, spp = port_mtu_bytes, lossless_mtu_bytes, small_packet_pct
    revision = "pr4797" if revision == "current" else revision

    speed_mbps = speed_gbps * 1000
    cell = table["cell_size"]
    eight_lane = lanes == 8
    pipeline = table["pipeline_latency_kb"] * 1024
    mac_phy = table["mac_phy_delay_kb"] * 1024
    quanta = catalog.PAUSE_QUANTA_SONIC.get(speed_gbps)
    peer_response = quanta * 512 / 8.0 if quanta else table["peer_response_time_kb"] * 1024
    gearbox = speed_mbps * gearbox_ns / (8 * 1024.0) if gearbox_ns else 0

    if revision == "18913fa":
        # Old lua: uncapped cell ratio, /8192 cable quirk, 8-lane latency x2 - 1 KiB.
        worst = cell / 64.0 if cell > 2 * SONIC_MIN_PACKET_BYTES else 2.0 * cell / (1 + cell)
        occupancy = (100 - spp + spp * worst) / 100.0
        cable = 2 * cable_m * speed_mbps * 1e9 / SONIC_SPEED_OF_LIGHT_M_S / (8 * 1024)
        tile: float = 0
        if eight_lane:
            pipeline = pipeline * 2 - 1024
    else:
        worst = math.ceil(cell / 64.0) if cell > 2 * SONIC_MIN_PACKET_BYTES \
            else math.ceil(2.0 * cell / (1 + cell))
        # Quirk kept as upstream computes it: the "by byte" share of small packets.
        spp_by_byte = 100.0 * 64 / ((spp * 64 + (100 - spp) * lossless_mtu) / 100.0)
        occupancy = (100 - spp_by_byte + spp_by_byte * worst) / 100.0
        cable = 2 * cable_m * speed_mbps * 1e9 / SONIC_SPEED_OF_LIGHT_M_S / 8000
        tile = speed_mbps / 1000.0 * 120 / 8 if table.get("kb_on_tile") else 0
        if eight_lane:
            pipeline = pipeline * 2

    terms = {"port_mtu": port_mtu, "cable_round_trip": cable, "gearbox": 2 * gearbox,
             "mac_phy_delay": mac_phy, "peer_response": peer_response, "kb_on_tile": tile}
    propagation = sum(terms.values())
    extra = table.get("xoff_extra_kb", 0) * 1024 if revision == "pr4797" else 0
    xoff = _ceil_to(lossless_mtu + propagation * occupancy, 1024) + extra
    compensated = False
    if revision in ("pr4757", "pr4797") and not shared_headroom and spp != 100:
        worst_xoff = _ceil_to(lossless_mtu + propagation * worst, 1024) + extra
        if xoff + SONIC_HEADROOM_COMPENSATION < worst_xoff:
            xoff += SONIC_HEADROOM_COMPENSATION
            compensated = True
    xon = _ceil_to(pipeline, 1024)
    if shared_headroom:
        size = xon
    else:
        size = _ceil_to(xoff + xon + (port_mtu if eight_lane else 0), 1024)
    return {
        "model": "sonic-nvidia",
        "revision": revision,
        "raw_bytes": lossless_mtu + propagation * occupancy,
        "xoff_bytes": int(xoff),
        "xon_bytes": int(xon),
        "size_bytes": int(size),
        "cell_occupancy": occupancy,
        "headroom_compensation": compensated,
        "terms": terms,
    }


def default_lanes(asic: catalog.AsicProfile, speed_gbps: int) -> int:
    """Lanes a port of ``speed_gbps`` uses: speed over the ASIC's SerDes lane rate, at most 8."""
    lane = asic.value("serdes_lane_gbps") or 50
    return min(8, max(1, int(math.ceil(speed_gbps / float(lane)))))


def port_headroom(asic: catalog.AsicProfile, speed_gbps: int, cable_m: float,
                  mtu_bytes: int = 9216, peer_mtu_bytes: Optional[int] = None,
                  model: str = "ieee", lanes: Optional[int] = None,
                  sonic: Optional[Dict[str, Any]] = None, media: str = "fiber",
                  host: Optional[str] = None, port: Optional[str] = None,
                  sku: Optional[Tuple[Optional[str], Optional[str]]] = None) -> Dict[str, Any]:
    """Headroom of one lossless PG of a port on ``asic`` (an AsicProfile), by ``model``.

    ``sonic`` holds sonic-nvidia knobs (lossless_mtu_bytes, small_packet_pct, revision);
    ``sku`` the (model, HWSKU) whose pg_profile_lookup.ini the ``sonic-sku`` model reads."""
    shp = asic.value("headroom_semantics") == "shared_headroom_pool"
    supported = asic.value("port_speeds_gbps")
    errors.choice("%sspeed_gbps" % (port + "." if port else ""), speed_gbps,
                  supported or catalog.SPEEDS_GBPS, host)
    if model == "sonic-sku":
        return sku_headroom(asic, speed_gbps, cable_m, mtu_bytes, peer_mtu_bytes, lanes, sku,
                            media, host, port)
    if model == "ieee":
        return ieee_headroom(speed_gbps, cable_m, mtu_bytes, peer_mtu_bytes,
                             asic.require("cell_bytes", host), media=media,
                             shared_headroom=shp, host=host, port=port)
    table = asic.value("sonic_asic_table")
    if not table:
        raise errors.RoceInputError(
            "roce_headroom_model", model,
            "needs a Spectrum ASIC_TABLE (cell_size, pipeline_latency, mac_phy_delay); %s has "
            "none: use 'ieee' or set roce_asic_overrides.sonic_asic_table" % asic.name, host)
    knobs = dict(sonic or {})
    knobs.setdefault("revision", SONIC_VERSIONS[DEFAULT_SONIC_VERSION])
    return sonic_nvidia_headroom(
        speed_gbps, cable_m, table, port_mtu_bytes=mtu_bytes,
        lanes=lanes if lanes is not None else default_lanes(asic, speed_gbps),
        shared_headroom=shp, host=host, port=port, **knobs)


def sku_headroom(asic: catalog.AsicProfile, speed_gbps: int, cable_m: float, mtu_bytes: int,
                 peer_mtu_bytes: Optional[int], lanes: Optional[int],
                 sku: Optional[Tuple[Optional[str], Optional[str]]], media: str,
                 host: Optional[str], port: Optional[str]) -> Dict[str, Any]:
    """SONiC's traditional buffer model: the HWSKU's pg_profile_lookup.ini row for the shortest
    table cable at least ``cable_m`` long (SONiC's CABLE_LENGTH class). A row below what the
    formula the table stands for puts in flight on a cable of its class (Spectrum: the Mellanox
    formula at the tables' traffic pattern and this port's MTU; Broadcom: Model R) is not used:
    the formula's headroom is, at the row's class, and ``source`` says so with both numbers.
    Beyond the table, that formula at the real cable and this port's MTU (what the
    headroom-covers-flight check holds it to); ``source`` says which."""
    hwsku = sku[1] if sku else None
    row = models.pg_row(hwsku, speed_gbps, cable_m) if sku else None
    if row is not None:
        cable, (size, xon, xoff) = row
        src = "%s pg_profile_lookup.ini row %d %dm" % (hwsku, speed_gbps * 1000, cable)
        need = _table_formula(asic, speed_gbps, cable, mtu_bytes, mtu_bytes, peer_mtu_bytes,
                              lanes, media, host, port)
        if xoff >= need["xoff_bytes"]:
            return {"model": "sonic-sku", "xoff_bytes": xoff, "xon_bytes": xon,
                    "size_bytes": size, "cable_class_m": cable, "raw_bytes": xoff,
                    "sku_row": [size, xon, xoff], "source": src}
        return dict(need, model="sonic-sku", cable_class_m=cable, sku_row=[size, xon, xoff],
                    source="%s: xoff %d B is below the %d B the %s formula puts in flight on "
                           "%d m at %dG (docs/lossless-math.md §1.3): the formula's headroom"
                           % (src, xoff, need["xoff_bytes"], need["model"], cable, speed_gbps))
    out = _table_formula(asic, speed_gbps, cable_m, mtu_bytes, mtu_bytes,
                         peer_mtu_bytes, lanes, media, host, port)
    out = dict(out, model="sonic-sku", source="%s: no pg_profile_lookup.ini row for %dG at %g m; "
               "%s" % (sku[1] if sku else "no HWSKU", speed_gbps, cable_m, out["model"]))
    return out


def _table_formula(asic: catalog.AsicProfile, speed_gbps: int, cable_m: float,
                   spectrum_port_mtu: int, mtu_bytes: int, peer_mtu_bytes: Optional[int],
                   lanes: Optional[int], media: str, host: Optional[str],
                   port: Optional[str]) -> Dict[str, Any]:
    """The formula a SKU table was sized with: Spectrum, the Mellanox lua at the tables'
    pattern (port MTU ``spectrum_port_mtu``); Broadcom, Model R."""
    if asic.value("sonic_asic_table"):
        pattern = models.SKU_TABLE_PATTERN
        return sonic_nvidia_headroom(
            speed_gbps, cable_m, asic.value("sonic_asic_table"),
            port_mtu_bytes=spectrum_port_mtu,
            lossless_mtu_bytes=pattern["lossless_mtu_bytes"],
            small_packet_pct=pattern["small_packet_pct"],
            lanes=lanes if lanes is not None else default_lanes(asic, speed_gbps),
            host=host, port=port)
    return ieee_headroom(speed_gbps, cable_m, mtu_bytes, peer_mtu_bytes,
                         asic.require("cell_bytes", host), media=media,
                         shared_headroom=asic.value("headroom_semantics")
                         == "shared_headroom_pool", host=host, port=port)
