# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The buffer carve of one switch, in its vendor's accounting.

NVIDIA Spectrum: what SONiC's cfgmgr/buffer_pool_mellanox.lua takes off the buffer for the
config the SONiC renderer writes (render/sonic/buffers.py, config_db.py), in the SONiC release
the plan targets (``MELLANOX_POOL_LUA``); what is left is the ingress pool, which lossless and
lossy PGs share (the SN4700-O28 / SN5600-C224O8 structure), with an egress lossy pool of the same
size and the egress lossless pool spanning the whole buffer (the lua's mmu_size). Every row
names the lua's variable; tests/unit/plugins/module_utils/render/test_pool_lua.py replays the
lua over every rendered config_db.json.

Broadcom (sonic.md §1.4; sonic-buildimage #28657): a lossless PG reserves only its minimum
(size); its xoff is drawn from the shared headroom pool (the ingress pool's xoff), sized
sum(xoff) / over_subscribe_ratio; pool size, headroom pool and the per-PG minimums are separate
regions of one MMU, so together they must fit the chip (#28657: size + xoff above the chip left
lossless PGs unprogrammed). An MMU of several memory buffers (ITMs: Tomahawk 3/4/5) holds a PG
or queue in one of them, and a pool's SAI size is the per-buffer size times their number
(catalog.py memory_buffers, FBOSS): a PG's threshold works on one ITM's share.

Both: the pool the lossless PGs' dynamic threshold works on (``itm_pool_bytes``) is what the
pause points are computed from (pause.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog
from ansible_collections.roce.fabric.plugins.module_utils.lossless import headroom

Item = Tuple[str, int, str, str]            # (key, bytes, what, source)
LOSSY_RESERVED_FALLBACK = 9216      # [P] one jumbo frame per port where no pipeline latency is known

# What the SONiC renderer writes per admin-up port besides its lossless PGs (render/sonic/
# config_db.py _shared_rows, buffers.py port_rows), which the lua counts: one lossy PG
# (BUFFER_PG <port>|0 on ingress_lossy_profile) and, on NVIDIA, the egress profile list
# "egress_lossless_profile,egress_lossy_profile".
LOSSY_PGS_PER_PORT = 1
NVIDIA_EGRESS_LOSSY_BYTES = 9216    # ACS-MSN2700 buffers_defaults_objects.j2: one jumbo frame


class PoolLua(NamedTuple):
    """sonic-swss cfgmgr/buffer_pool_mellanox.lua on one release branch."""
    commit: str          # the commit that last changed it on the branch
    spc6: bool           # has #3948/#4005: SN6000+ reserve descriptors, no mirror headroom


# The lua per SONiC release (the branches of sonic-net/sonic-swss; 202511 = master in content).
# Every supported release counts the management PG and mirror headroom per admin-up port
# (since #1910, 202111; every PORT entry before). Lines below are 202511's (L = line); the
# same rules sit at other lines on older branches (the replay test cites each).
MELLANOX_POOL_LUA = {
    "202305": PoolLua("81b5b4cf4", False), "202311": PoolLua("3b953ae73", False),
    "202405": PoolLua("42e9feaa8", False), "202411": PoolLua("d264a8aec", False),
    "202505": PoolLua("d264a8aec", False), "202511": PoolLua("83be94fbd", True),
    "202605": PoolLua("2ed250d4f", True),
}
MGMT_POOL_BYTES = 256 * 1024              # L23 mgmt_pool_size, taken once (L405)
MIRROR_HEADROOM_BYTES = 10 * 1024         # L24 egress_mirror_headroom per admin-up port (L404)
DESCRIPTORS_POOL_BYTES = 32 * 1024 * 1024  # L201 modification_descriptors_pool_size (SN6000+)
SPC6_SERIES = 6000                        # L195-200: "sn(%d+)" model number >= 6000


def lossy_reservation(asic: catalog.AsicProfile, lanes: Optional[int]) -> int:
    """Bytes a port's lossy PG reserves: Spectrum's lossypg_reserved, the pipeline latency, and
    (2 x pipeline - 1 KiB) on 8-lane ports (buffer_pool_mellanox.lua L293-294, L358-360,
    L378-380); elsewhere one jumbo frame ([P], no vendor figure)."""
    pipeline = asic.value("pipeline_latency_bytes")
    if not pipeline:
        return LOSSY_RESERVED_FALLBACK
    return int(pipeline) * 2 - 1024 if lanes == 8 else int(pipeline)


def carve(asic: catalog.AsicProfile, rows: Sequence[Tuple[str, Optional[int], Dict[str, Any]]],
          per_pg: int, ratio: float, lossy_override: Optional[int] = None,
          host: Optional[str] = None, release: Optional[str] = None) -> Dict[str, Any]:
    """The carve of a switch whose ``rows`` are (port name, lanes, headroom) of its up lossless
    ports (every admin-up port), ``release`` the SONiC release whose buffer_pool_mellanox.lua
    accounts a Spectrum switch (default headroom.DEFAULT_SONIC_VERSION). Returns {items: [(key,
    bytes, what, source)], shared_headroom_pool_bytes, shared_headroom_pool_required_bytes,
    shared_pool_bytes, itms, itm_pool_bytes, budget_error, ...}."""
    total = asic.require("total_buffer_bytes", host)
    shp_semantics = asic.value("headroom_semantics") == "shared_headroom_pool"
    headroom_bytes = per_pg * sum(row[2]["size_bytes"] for row in rows)
    shp = required = 0
    if asic.value("vendor") == "nvidia" and not shp_semantics:
        if lossy_override is not None:
            raise errors.RoceInputError(
                "roce_lossless.lossy_reserved_per_port_bytes", lossy_override,
                "not set: on %s SONiC's buffer_pool_mellanox.lua reserves the pipeline latency "
                "(%d B) per lossy PG, and the pool the plan renders is what the lua computes"
                % (asic.name, asic.value("pipeline_latency_bytes")), host)
        items, accounting = _mellanox_lua(asic, rows, per_pg, release or
                                          headroom.DEFAULT_SONIC_VERSION)
    else:
        items, accounting = _shared_headroom(asic, rows, per_pg, headroom_bytes, lossy_override)
        if shp_semantics:
            required = int(math.ceil(per_pg * sum(row[2]["xoff_bytes"] for row in rows)
                                     / float(ratio)))
            shp = asic.value("shared_headroom_pool_bytes") or required
            items.append(("shared_headroom_pool", shp, "shared headroom pool: sum(xoff) / %g"
                          % ratio, "SN §1.4 (the ingress pool's xoff)"))
    reserved = sum(item[1] for item in items)
    shared = total - reserved
    error = None
    if shared <= 0:
        error = ("%s has %d B of buffer; %s take %d B: overdrawn by %d B" % (
            asic.name, total, " + ".join("%s %d B" % (item[0], item[1]) for item in items),
            reserved, -shared + 1))
    itms = asic.value("memory_buffers") or 1
    return {"items": items, "total_buffer_bytes": total, "reserved_bytes": reserved,
            "total_source": asic.facts["total_buffer_bytes"].source, "accounting": accounting,
            "reserved_headroom_bytes": headroom_bytes,
            "lossy_reserved_bytes": sum(i[1] for i in items if i[0] == "lossy_reserved"),
            "shared_headroom_pool_bytes": shp, "shared_headroom_pool_required_bytes": required,
            "shared_pool_bytes": shared, "itms": itms, "itm_pool_bytes": shared // itms,
            "itms_source": asic.source("memory_buffers"), "budget_error": error}


def _mellanox_lua(asic: catalog.AsicProfile,
                  rows: Sequence[Tuple[str, Optional[int], Dict[str, Any]]], per_pg: int,
                  release: str) -> Tuple[List[Item], str]:
    """What buffer_pool_mellanox.lua of ``release`` takes off mmu_size for the rendered config
    (every row an admin-up port with ``per_pg`` lossless PGs, one lossy PG, the egress profile
    list): accumulative_occupied_buffer (L350-405) with no shared headroom pool (no pool
    ``xoff``, no over_subscribe_ratio, every profile's size >= xon + xoff: L260-281, L385-389).
    The pool is mmu_size minus it (L445-447; one ingress pool without a configured size, L414-424;
    mmu_size = the egress_lossless_pool size without BUFFER_MAX_PARAM_TABLE, L258, L283-288)."""
    lua = MELLANOX_POOL_LUA[release]
    src = "sonic-swss %s cfgmgr/buffer_pool_mellanox.lua @%s" % (release, lua.commit)
    pipeline = int(asic.value("pipeline_latency_bytes"))     # L291, L293: ASIC_TABLE, KiB
    ports = len(rows)
    eight = sum(1 for row in rows if row[1] == 8)
    # L293-294 lossypg_reserved, lossypg_reserved_8lanes: a PG of an 8-lane port (L241-242)
    # takes 2 x pipeline - 1 KiB
    per_port = sum(lossy_reservation(asic, row[1]) for row in rows)
    spc6 = lua.spc6 and (asic.value("sn_series") or 0) >= SPC6_SERIES
    mirror = 0 if spc6 else MIRROR_HEADROOM_BYTES                   # L202
    detail = "%d B each (pipeline latency)" % pipeline
    if eight:
        detail = "%d B on %d port(s), (2 x %d - 1) KiB = %d B on %d 8-lane port(s)" % (
            pipeline, ports - eight, pipeline // 1024, 2 * pipeline - 1024, eight)
    items: List[Item] = [
        # L353-376: every profile's size x the PGs referencing it (L32-91: a range "3-4" is 2)
        ("lossless_headroom", per_pg * sum(row[2]["size_bytes"] for row in rows),
         "%d lossless PG(s) x %d ports: each profile's size (xon + xoff)" % (per_pg, ports),
         "%s: profile size x PGs (the ports' headroom profiles)" % src),
        # L358-360: a lossy ingress profile (no xoff) on a PG adds lossypg_reserved; L77-81,
        # L378-380: lossypg_extra_for_8lanes on 8-lane ports
        ("lossy_reserved", LOSSY_PGS_PER_PORT * per_port,
         "%d lossy PG x %d ports: %s" % (LOSSY_PGS_PER_PORT, ports, detail),
         "%s: lossypg_reserved, lossypg_extra_for_8lanes" % src),
        # L399-401: accumulative_management_pg, per admin-up port (L248-254)
        ("management_pg", per_port, "management PG of %d admin-up ports: %s" % (ports, detail),
         "%s: accumulative_management_pg" % src),
        # L93-137, L337-341: each profile of an egress profile list counts once per port
        ("egress_lossy_profile", NVIDIA_EGRESS_LOSSY_BYTES * ports,
         "egress_lossy_profile (%d B) in %d ports' egress profile lists"
         % (NVIDIA_EGRESS_LOSSY_BYTES, ports),
         "%s: profile size x list references" % src)]
    if mirror:
        items.append(("mirror_headroom", mirror * ports,
                      "egress mirror headroom of %d admin-up ports (%d B each)" % (ports, mirror),
                      "%s: accumulative_egress_mirror_overhead" % src))
    items.append(("management_pool", MGMT_POOL_BYTES, "management pool",
                  "%s: mgmt_pool_size" % src))
    if spc6:
        items.append(("descriptors_pool", DESCRIPTORS_POOL_BYTES,
                      "modification descriptors pool (SN%d series)" % asic.value("sn_series"),
                      "%s: modification_descriptors_pool_size (#3948)" % src))
    return items, "SONiC %s buffer_pool_mellanox.lua" % release


def _shared_headroom(asic: catalog.AsicProfile,
                     rows: Sequence[Tuple[str, Optional[int], Dict[str, Any]]], per_pg: int,
                     headroom_bytes: int, lossy_override: Optional[int]) -> Tuple[List[Item], str]:
    """Broadcom's MMU (and any ASIC without the lua): the PG minimums and a lossy PG per port."""
    ports = len(rows)
    shp = asic.value("headroom_semantics") == "shared_headroom_pool"
    if lossy_override is not None:
        lossy, lossy_src = lossy_override * ports, "roce_lossless.lossy_reserved_per_port_bytes"
    else:
        lossy = sum(lossy_reservation(asic, row[1]) for row in rows)
        lossy_src = ("pipeline latency (SN §1.3)" if asic.value("pipeline_latency_bytes")
                     else "[P] one jumbo frame per port")
    items: List[Item] = [
        ("lossless_headroom", headroom_bytes, "%d lossless PG(s) x %d ports: %s" % (
            per_pg, ports, "minimum (size)" if shp else "xon + xoff"),
         "the ports' headroom profiles"),
        ("lossy_reserved", lossy, "lossy PG reservation of %d ports" % ports, lossy_src)]
    itms = asic.value("memory_buffers") or 1
    return items, "%s %sMMU" % (asic.value("vendor").capitalize(),
                                "%d-ITM " % itms if itms > 1 else "")


def check_override(asic: catalog.AsicProfile, host: Optional[str]) -> None:
    """A shared headroom pool override is only meaningful where headroom is pooled."""
    if asic.facts["shared_headroom_pool_bytes"].value is not None and \
            asic.value("headroom_semantics") != "shared_headroom_pool":
        raise errors.RoceInputError(
            "roce_asic_overrides.shared_headroom_pool_bytes",
            asic.value("shared_headroom_pool_bytes"), "not set: %s reserves headroom per PG "
            "(no shared headroom pool)" % asic.name, host)
