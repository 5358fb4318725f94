# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""SONiC buffer tables of one switch in its vendor's structure, sized by the plan's carve.

NVIDIA Spectrum (the SN4700-O28 / SN5600 dynamic sample structure, sonic.md §1.3): an ingress
pool that lossless and lossy PGs share, an egress lossy pool of the same size and an egress
lossless pool spanning the buffer; per-port profile lists; lossy queues on q_lossy_profile.
Broadcom (Arista-7060X6-64PE-O128S2 buffers_defaults_t1.j2 @a63e1151): one ingress lossless
pool carrying the shared headroom pool as its xoff, one egress pool, lossy profiles inside the
lossless pools, no profile lists.

Pool sizes are always written, also in the dynamic model: a pool with a configured size is not
resized by buffermgrd. They are what SONiC's buffer_pool_mellanox.lua computes for this config
(lossless/carve.py), so the switch runs the plan's carve and the lua's at once.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Optional, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.lossless import carve
from ansible_collections.roce.fabric.plugins.module_utils.records import Buffer, Headroom

# the size the carve accounts for (buffer_pool_mellanox.lua counts it per egress profile list)
NVIDIA_EGRESS_LOSSY_BYTES = carve.NVIDIA_EGRESS_LOSSY_BYTES
BROADCOM_EGRESS_LOSSY_CELLS = 7         # O128S2 template: egress_lossy_profile size 1778 = 7 x 254
PATTERN_KEY = "AZURE"                   # the one row buffermgrd reads (LOSSLESS_TRAFFIC_PATTERN)


def dynamic(buf: Buffer) -> bool:
    return (buf.get("sonic") or {}).get("buffer_model") == "dynamic"


def tables(buf: Buffer) -> Dict[str, Any]:
    """BUFFER_POOL, the switch-wide BUFFER_PROFILE rows and, in the dynamic model, the traffic
    pattern and default threshold buffermgrd computes headroom with."""
    shared = str(buf["shared_pool_bytes"])
    total = str(buf["total_buffer_bytes"])
    if buf["vendor"] == "nvidia":
        pools = {
            "ingress_lossless_pool": {"type": "ingress", "mode": "dynamic", "size": shared},
            "egress_lossless_pool": {"type": "egress", "mode": "dynamic", "size": total},
            "egress_lossy_pool": {"type": "egress", "mode": "dynamic", "size": shared},
        }
        profiles = {
            "ingress_lossless_profile": _profile("ingress_lossless_pool", 0, dynamic_th=7),
            "ingress_lossy_profile": _profile("ingress_lossless_pool", 0, dynamic_th=3),
            "egress_lossless_profile": _profile("egress_lossless_pool", 0, dynamic_th=7),
            "egress_lossy_profile": _profile("egress_lossy_pool", NVIDIA_EGRESS_LOSSY_BYTES,
                                             dynamic_th=7),
            "q_lossy_profile": _profile("egress_lossy_pool", 0, dynamic_th=3),
        }
    else:
        pools = {
            "ingress_lossless_pool": {"type": "ingress", "mode": "dynamic", "size": shared},
            "egress_lossless_pool": {"type": "egress", "mode": "dynamic", "size": shared},
        }
        if buf["shared_headroom_pool_bytes"]:
            pools["ingress_lossless_pool"]["xoff"] = str(buf["shared_headroom_pool_bytes"])
        # static_th at the pool size, as the O128S2 template: a lossy PG or queue is limited
        # by its ITM (lossless/carve.py), whatever the threshold; the -B SKUs' templates halve
        # it for SAI 14.x (sonic-buildimage #25451 55d88e875b), a SAI the plan does not know
        profiles = {
            "ingress_lossy_profile": _profile("ingress_lossless_pool", 0, static_th=shared),
            "egress_lossless_profile": _profile("egress_lossless_pool", 0, static_th=shared),
            "egress_lossy_profile": _profile(
                "egress_lossless_pool", BROADCOM_EGRESS_LOSSY_CELLS * (buf["cell_bytes"] or 254),
                dynamic_th=0),
        }
    out = {"BUFFER_POOL": pools, "BUFFER_PROFILE": profiles}
    if dynamic(buf):
        # the dynamic model is SONiC's: its settings and the switch's pause trigger are set
        sonic, trig = cast(Dict[str, Any], buf["sonic"]), cast(Dict[str, Any], buf["trigger"])
        pattern = sonic["traffic_pattern"]
        out["LOSSLESS_TRAFFIC_PATTERN"] = {PATTERN_KEY: {
            "mtu": str(pattern["lossless_mtu_bytes"]),
            "small_packet_percentage": str(pattern["small_packet_pct"])}}
        out["DEFAULT_LOSSLESS_BUFFER_PARAMETER"] = {PATTERN_KEY: {
            "default_dynamic_th": str(trig["dynamic_th"])}}
    return out


Row = Dict[str, str]


def port_rows(buf: Buffer) -> Tuple[Row, Row, Optional[Row], Optional[Row]]:
    """Rows every port repeats: (lossy PG row, lossy queue row, ingress list row or None,
    egress list row or None)."""
    if buf["vendor"] == "nvidia":
        return ({"profile": "ingress_lossy_profile"}, {"profile": "q_lossy_profile"},
                {"profile_list": "ingress_lossless_profile"},
                {"profile_list": "egress_lossless_profile,egress_lossy_profile"})
    return ({"profile": "ingress_lossy_profile"}, {"profile": "egress_lossy_profile"}, None, None)


def pinned(hr: Headroom) -> bool:
    """Whether the inventory pinned this headroom (roce_link_overrides.<port>.headroom_bytes)."""
    return hr.get("source", "").startswith("roce_link_overrides")


def lossless_pg_profile(hr: Headroom, trig: Optional[Dict[str, Any]],
                        buf: Buffer) -> Optional[Dict[str, Any]]:
    """The profile of one (speed, cable) class, or None in the dynamic model, where the PG row
    is "NULL" and buffermgrd computes the same numbers (buffer_model.py). A pinned headroom in
    the dynamic model is SONiC's headroom override: a profile with its own xon/xoff/size and
    the pool's threshold mode, which buffermgrdyn runs as it is (sonic-swss cfgmgr/
    buffermgrdyn.cpp @e6b0c5b handleSingleBufferPgEntry L3164-3212: a PG naming a profile
    other than "NULL" is a headroom override, not dynamically calculated; handleBufferProfileTable
    L2790-2792, L2843-2868: a profile with xoff is lossless and, not "dynamic", goes to APPL_DB
    as configured (doUpdateBufferProfileForSize); refreshPgsForPort L1533-1538 runs it).
    ``trig`` (the plan's buffer trigger) is None only in a plan with a buffer error."""
    if dynamic(buf) and not pinned(hr):
        return None
    trig = cast(Dict[str, Any], trig)
    prof = {"pool": "ingress_lossless_pool", "xon": str(hr["xon_bytes"]),
            "xoff": str(hr["xoff_bytes"]), "size": str(hr["size_bytes"])}
    if trig["mode"] == "dynamic":
        prof["dynamic_th"] = str(trig["dynamic_th"])
    else:
        prof["static_th"] = str(trig["static_th_bytes"])
    if buf["headroom_semantics"] == "shared_headroom_pool":
        prof["xon_offset"] = str(trig["xon_offset_bytes"])
    return prof


def _profile(pool: str, size: int, dynamic_th: Optional[int] = None,
             static_th: Optional[str] = None) -> Row:
    prof = {"pool": pool, "size": str(size)}
    if dynamic_th is not None:
        prof["dynamic_th"] = str(dynamic_th)
    else:
        prof["static_th"] = str(static_th)
    return prof
