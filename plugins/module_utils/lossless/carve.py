# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The buffer carve of one switch, in its vendor's accounting.

NVIDIA Spectrum (SONiC's buffer_pool_mellanox.lua, sonic.md §1.3): each lossless PG reserves
its whole headroom (size = xon + xoff) outside the pools, as do a lossy PG per port (the
pipeline latency, twice on 8-lane ports), a 256 KiB management pool and 10 KiB of egress mirror
headroom per port; what is left is the shared ingress pool, which lossless and lossy PGs share
(the SN4700-O28 / SN5600-C224O8 structure), with an egress lossy pool of the same size and the
egress lossless pool spanning the whole buffer (dynamic).

Broadcom (sonic.md §1.4; sonic-buildimage #28657): a lossless PG reserves only its minimum
(size); its xoff is drawn from the shared headroom pool (the ingress pool's xoff), sized
sum(xoff) / over_subscribe_ratio; pool size, headroom pool and the per-PG minimums are separate
regions of one MMU, so together they must fit the chip (#28657: size + xoff above the chip left
lossless PGs unprogrammed).

Both: the shared pool is what the lossless PGs' dynamic threshold works on (thresholds.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Dict, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog

MGMT_POOL_BYTES = 256 * 1024        # buffer_pool_mellanox.lua: management pool (SN §1.3)
MIRROR_HEADROOM_BYTES = 10 * 1024   # buffer_pool_mellanox.lua: egress mirror, per port (SN §1.3)
LOSSY_RESERVED_FALLBACK = 9216      # [P] one jumbo frame per port where no pipeline latency is known


def lossy_reservation(asic: catalog.AsicProfile, lanes: Optional[int]) -> int:
    """Bytes a port's lossy PG reserves: Spectrum's pipeline latency (doubled on 8-lane ports
    since sonic-swss #3235, SN §1.3), else one jumbo frame."""
    pipeline = asic.value("pipeline_latency_bytes")
    if not pipeline:
        return LOSSY_RESERVED_FALLBACK
    return int(pipeline) * (2 if lanes == 8 else 1)


def carve(asic: catalog.AsicProfile, rows: Sequence[Tuple[str, Optional[int], Dict[str, Any]]],
          per_pg: int, ratio: float, lossy_override: Optional[int] = None,
          host: Optional[str] = None) -> Dict[str, Any]:
    """The carve of a switch whose ``rows`` are (port name, lanes, headroom) of its up lossless
    ports. Returns {items: [(key, bytes, what, source)], shared_headroom_pool_bytes,
    shared_headroom_pool_required_bytes, shared_pool_bytes, budget_error}."""
    total = asic.require("total_buffer_bytes", host)
    shp_semantics = asic.value("headroom_semantics") == "shared_headroom_pool"
    ports = len(rows)
    headroom = per_pg * sum(row[2]["size_bytes"] for row in rows)
    if lossy_override is not None:
        lossy = lossy_override * ports
    else:
        lossy = sum(lossy_reservation(asic, row[1]) for row in rows)
    items = [("lossless_headroom", headroom,
              "%d lossless PG(s) x %d ports: %s" % (per_pg, ports, "minimum (size)"
                                                    if shp_semantics else "xon + xoff"),
              "the ports' headroom profiles"),
             ("lossy_reserved", lossy, "lossy PG reservation of %d ports" % ports,
              "pipeline latency (SN §1.3)" if asic.value("pipeline_latency_bytes")
              else "[P] one jumbo frame per port")]
    shp = required = 0
    if shp_semantics:
        required = int(math.ceil(per_pg * sum(row[2]["xoff_bytes"] for row in rows)
                                 / float(ratio)))
        shp = asic.value("shared_headroom_pool_bytes") or required
        items.append(("shared_headroom_pool", shp, "shared headroom pool: sum(xoff) / %g"
                      % ratio, "SN §1.4 (the ingress pool's xoff)"))
    elif asic.value("vendor") == "nvidia":
        items += [("management_pool", MGMT_POOL_BYTES, "management pool",
                   "buffer_pool_mellanox.lua (SN §1.3)"),
                  ("mirror_headroom", MIRROR_HEADROOM_BYTES * ports,
                   "egress mirror headroom of %d ports" % ports,
                   "buffer_pool_mellanox.lua (SN §1.3)")]
    reserved = sum(item[1] for item in items)
    shared = total - reserved
    error = None
    if shared <= 0:
        error = ("%s has %d B of buffer; %s take %d B: overdrawn by %d B" % (
            asic.name, total, " + ".join("%s %d B" % (item[0], item[1]) for item in items),
            reserved, -shared + 1))
    return {"items": items, "total_buffer_bytes": total, "reserved_bytes": reserved,
            "total_source": asic.facts["total_buffer_bytes"].source,
            "reserved_headroom_bytes": headroom, "lossy_reserved_bytes": lossy,
            "shared_headroom_pool_bytes": shp, "shared_headroom_pool_required_bytes": required,
            "shared_pool_bytes": shared, "budget_error": error}


def check_override(asic: catalog.AsicProfile, host: Optional[str]) -> None:
    """A shared headroom pool override is only meaningful where headroom is pooled."""
    if asic.facts["shared_headroom_pool_bytes"].value is not None and \
            asic.value("headroom_semantics") != "shared_headroom_pool":
        raise errors.RoceInputError(
            "roce_asic_overrides.shared_headroom_pool_bytes",
            asic.value("shared_headroom_pool_bytes"), "not set: %s reserves headroom per PG "
            "(no shared headroom pool)" % asic.name, host)
