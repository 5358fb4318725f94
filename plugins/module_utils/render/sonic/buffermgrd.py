# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What SONiC's buffer daemons do with a rendered config_db.json, replayed in Python.

Written from sonic-net/sonic-swss @e6b0c5b (2026-08-21); every rule cites its lines:

* ``traditional``: cfgmgr/buffermgr.cpp, BufferMgr::doSpeedUpdateTask (L146-308) run for every
  port once PORT, CABLE_LENGTH and PORT_QOS_MAP are loaded (doCableTask L101-113,
  doPortQosTableTask L416-462). It reads the HWSKU's pg_profile_lookup.ini
  (readPgProfileLookupFile L52-99; an unreadable file leaves the table empty, L58-63).
* ``dynamic``: cfgmgr/buffermgrdyn.cpp - a lossless PG whose profile is "NULL" gets the
  profile the vendor lua computes for (speed, CABLE_LENGTH, port MTU, lanes), named by
  getDynamicProfileName (L485-520); CABLE_LENGTH 0m removes the lossless PG (L1495-1511). A PG
  naming a lossless profile (one with xoff) is a headroom override, run as configured whatever
  the cable (handleSingleBufferPgEntry L3164-3212, handleBufferProfileTable L2790-2792,
  L2843-2868, refreshPgsForPort L1533-1538). The traditional manager skips every table then
  (buffermgr.cpp L390-402, L476-480).
* ``create_only``: orchagent/bufferorch.cpp - fields set only when the SAI object is created and
  skipped on a later SET: a pool's ``type`` (L433-441) and ``mode`` (L466-471), a profile's
  ``pool`` (L654-661) and threshold mode ``dynamic_th`` / ``static_th`` (L692-715); an object
  still referenced is not removed (L560-563, L837-840). Written in deploy/buffers.py (the
  deploy needs it and may import nothing from here) and re-exported.

The result is the CONFIG_DB the switch ends with plus its log; tests hold every rendered
config a fixed point (nothing changes, nothing logged at ERROR) and every lossless PG on the
plan's numbers.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy import buffers as deploy_buffers
from ansible_collections.roce.fabric.plugins.module_utils.hardware import sku_tables

Log = List[Tuple[str, str]]         # (level, message) as the daemon logs it
# the vendor lua: (speed Mb/s, cable m, port MTU, lanes) -> xon/xoff/size bytes
HeadroomOf = Callable[[int, int, int, int], Mapping[str, Any]]
INGRESS_LOSSLESS_POOL = "ingress_lossless_pool"     # INGRESS_LOSSLESS_PG_POOL_NAME
ADMIN_DOWN_RECLAIM = ("mellanox", "barefoot")       # buffermgr.cpp L206
DEFAULT_MTU = "9100"                                 # buffermgrdyn.h L16 DEFAULT_MTU_STR


def _bitmap_keys(pfc_enable: str) -> List[str]:
    """PG keys from PORT_QOS_MAP pfc_enable: a bitmap (L187-202) turned into id ranges
    (generateIdListFromMap, L204): "3,4" -> ["3-4"], "3" -> ["3"], "1,3" -> ["1", "3"]."""
    ids = set()
    for pg in pfc_enable.split(","):
        try:
            ids.add(int(pg))
        except ValueError:          # L197-201: invalid values are ignored
            continue
    out: List[List[int]] = []
    run: List[int] = []
    for i in sorted(ids):
        if run and i != run[-1] + 1:
            out.append(run)
            run = []
        run.append(i)
    if run:
        out.append(run)
    return [str(r[0]) if len(r) == 1 else "%d-%d" % (r[0], r[-1]) for r in out]


def traditional(db: Dict[str, Any], pg_table: Dict[Tuple[int, int], sku_tables.Row],
                asic_vendor: str) -> Tuple[Dict[str, Any], Log]:
    """CONFIG_DB after buffermgrd's traditional model processed every port of ``db``
    (``pg_table``: the HWSKU's ini rows, sku_tables.pg_table; ``asic_vendor``: ASIC_VENDOR)."""
    out = copy.deepcopy(db)
    log = []     # type: Log
    meta = db.get("DEVICE_METADATA", {}).get("localhost", {})
    if meta.get("buffer_model") == "dynamic":           # L390-402, L476-480
        return out, log
    cables = db.get("CABLE_LENGTH", {}).get("AZURE", {})
    qos = db.get("PORT_QOS_MAP", {})
    for port, row in sorted(db.get("PORT", {}).items()):
        _speed_update(out, log, port, row, cables.get(port), qos.get(port, {}).get("pfc_enable"),
                      pg_table, asic_vendor)
    return out, log


def _speed_update(db: Dict[str, Any], log: Log, port: str, port_row: Dict[str, Any],
                  cable: Optional[str], pfc_enable: Optional[str],
                  pg_table: Dict[Tuple[int, int], sku_tables.Row], vendor: str) -> None:
    """doSpeedUpdateTask (buffermgr.cpp L146-308) for one port."""
    if cable is None:                                   # L152-156: retried, INFO
        log.append(("INFO", "Unable to create/update PG profile for port %s. Cable length is "
                            "not set" % port))
        return
    if cable == "0m":                                   # L159-163
        log.append(("NOTICE", "Not creating/updating PG profile for port %s. Cable length is "
                              "set to 0m" % port))
        return
    if pfc_enable is None:                              # L173-179
        return
    speed = port_row.get("speed", "")
    profile = "pg_lossless_%s_%s_profile" % (speed, cable)       # L183-185
    keys = ["%s|%s" % (port, pg) for pg in _bitmap_keys(pfc_enable)]
    pgs = db.setdefault("BUFFER_PG", {})
    if port_row.get("admin_status", "down") == "down" and vendor in ADMIN_DOWN_RECLAIM:
        for key in keys:                                # L206-236
            if key in pgs and pgs[key].get("profile") == profile:
                log.append(("NOTICE", "Removing PG %s from port %s which is administrative "
                                      "down" % (key, port)))
                del pgs[key]
            elif key in pgs:
                log.append(("NOTICE", "Not default profile %s is configured on PG %s, won't "
                                      "reclaim buffer" % (pgs[key].get("profile"), key)))
        return
    try:
        row = pg_table.get((int(speed) // 1000, int(cable[:-1])))
    except ValueError:
        row = None
    if row is None or int(speed) % 1000:                # L238-243
        log.append(("ERROR", "Unable to create/update PG profile for port %s. No PG profile "
                             "configured for speed %s and cable length %s" % (port, speed, cable)))
        return
    profiles = db.setdefault("BUFFER_PROFILE", {})
    if profile not in profiles:                         # L245-275
        mode = db.get("BUFFER_POOL", {}).get(INGRESS_LOSSLESS_POOL, {}).get("mode")
        if not mode:                                    # L253-259: retried
            log.append(("INFO", "PG lossless pool is not yet created"))
            return
        size, xon, xoff, threshold, xon_offset = row
        prof = {"pool": INGRESS_LOSSLESS_POOL, "xon": str(xon)}
        if xon_offset is not None:                      # L266-270
            prof["xon_offset"] = str(xon_offset)
        prof.update(xoff=str(xoff), size=str(size))
        prof[mode + "_th"] = str(threshold)             # L261-273
        profiles[profile] = prof
        log.append(("NOTICE", "Creating new profile '%s'" % profile))
    else:                                               # L276-279
        log.append(("NOTICE", "Reusing existing profile '%s'" % profile))
    for key in keys:                                    # L281-306
        if pgs.get(key, {}).get("profile") != profile:
            pgs[key] = {"profile": profile}
            log.append(("NOTICE", "BUFFER_PG %s -> %s" % (key, profile)))


def dynamic_profiles(db: Dict[str, Any],
                     headroom_of: HeadroomOf) -> Tuple[Dict[str, Dict[str, str]], Log]:
    """The profile buffermgrdyn runs on each lossless PG: {"<port>|<pgs>": profile fields plus
    ``name``}; on a PG whose BUFFER_PG profile is "NULL", the one ``headroom_of(speed Mb/s,
    cable m, port MTU, lanes)`` computes - the vendor lua (lossless/headroom.sonic_nvidia_headroom
    at the switch's revision and LOSSLESS_TRAFFIC_PATTERN), returning xon/xoff/size bytes -, on a
    headroom override (a PG naming a profile with xoff) that profile as configured."""
    log = []     # type: Log
    out: Dict[str, Dict[str, str]] = {}
    cables = db.get("CABLE_LENGTH", {}).get("AZURE", {})
    threshold = db.get("DEFAULT_LOSSLESS_BUFFER_PARAMETER", {}).get("AZURE", {}).get(
        "default_dynamic_th")
    if threshold is None or "AZURE" not in db.get("LOSSLESS_TRAFFIC_PATTERN", {}):
        log.append(("ERROR", "no DEFAULT_LOSSLESS_BUFFER_PARAMETER / LOSSLESS_TRAFFIC_PATTERN"))
        return out, log
    for key, row in sorted(db.get("BUFFER_PG", {}).items()):
        if row.get("profile") != "NULL":
            prof = db.get("BUFFER_PROFILE", {}).get(row.get("profile"))
            if prof is None:                            # L3179-3190: retried, never applied
                log.append(("ERROR", "%s: profile %s not configured" % (key, row.get("profile"))))
            elif "xoff" in prof:                        # a headroom override: as configured
                out[key] = dict(prof, name=row["profile"])
            continue
        port = key.split("|")[0]
        prow = db["PORT"][port]
        cable = cables.get(port)
        if not cable or cable == "0m":                  # L1495-1511: lossless PG removed
            log.append(("ERROR", "%s: CABLE_LENGTH %s, no lossless PG" % (key, cable)))
            continue
        mtu = prow.get("mtu", DEFAULT_MTU)
        lanes = len(prow["lanes"].split(","))
        name = "pg_lossless_%s_%s" % (prow["speed"], cable)          # L485-496
        if mtu != DEFAULT_MTU:
            name += "_mtu" + mtu
        hr = headroom_of(int(prow["speed"]), int(cable[:-1]), int(mtu), lanes)
        out[key] = {"name": name + "_profile", "pool": INGRESS_LOSSLESS_POOL,
                    "xon": str(hr["xon_bytes"]), "xoff": str(hr["xoff_bytes"]),
                    "size": str(hr["size_bytes"]), "dynamic_th": threshold}
    return out, log


# Orchagent's side (bufferorch.cpp L433-441, L466-471, L560-563, L654-661, L692-715, L837-840)
# lives in deploy/buffers.py, which the deploy uses on the switch's running CONFIG_DB.
create_only = deploy_buffers.create_only
stale = deploy_buffers.stale


def effective_pg(db: Dict[str, Any], key: str) -> Optional[Dict[str, str]]:
    """The BUFFER_PROFILE the PG ``key`` runs after the daemon (None: no PG)."""
    row = db.get("BUFFER_PG", {}).get(key)
    if not row:
        return None
    return db.get("BUFFER_PROFILE", {}).get(row.get("profile"))
