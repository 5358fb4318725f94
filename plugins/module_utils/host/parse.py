# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the standard host tools print, parsed: ethtool (ethtool 6.1 printers), iproute2's dcb
(dcb/dcb_*.c of iproute2 6.1: text printers for pfc, ets and dcbx, JSON for app) and the sysfs /
configfs / debugfs number formats. Pure functions over text; tests feed recorded output.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from typing import Any, Dict, List, Optional, Set


def parse_ethtool_channels(text: str) -> Dict[str, Dict[str, Optional[int]]]:
    """`ethtool -l IF` -> {"max": {rx, tx, other, combined}, "current": {...}}; n/a -> None."""
    out: Dict[str, Dict[str, Optional[int]]] = {"max": {}, "current": {}}
    section = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Pre-set maximums"):
            section = "max"
        elif line.startswith("Current hardware settings"):
            section = "current"
        elif section and ":" in line:
            key, value = [x.strip() for x in line.split(":", 1)]
            out[section][key.lower()] = int(value) if value.isdigit() else None
    return out


def parse_ethtool_pause(text: Optional[str]) -> Optional[Dict[str, bool]]:
    """`ethtool -a IF` -> {"autoneg", "rx", "tx"} booleans, or None when not supported."""
    if text is None or "not supported" in text.lower():
        return None
    out: Dict[str, bool] = {}
    for line in text.splitlines():
        if ":" not in line:
            continue
        key, value = [x.strip().lower() for x in line.split(":", 1)]
        if key in ("autonegotiate", "rx", "tx"):
            out["autoneg" if key == "autonegotiate" else key] = value == "on"
    return out or None


def parse_ethtool_driver(text: str) -> Dict[str, Optional[str]]:
    """`ethtool -i IF` -> {"driver", "version", "firmware", "bus_info"}."""
    fields: Dict[str, str] = {}
    for line in text.splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    return {"driver": fields.get("driver") or None, "version": fields.get("version") or None,
            "firmware": fields.get("firmware-version") or None,
            "bus_info": fields.get("bus-info") or None}


def parse_ethtool_priv_flags(text: str) -> Dict[str, bool]:
    """`ethtool --show-priv-flags IF` ("fw-lldp-agent   : off") -> {flag: bool}; {} if none."""
    out: Dict[str, bool] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and value.strip() in ("on", "off"):
            out[key.strip()] = value.strip() == "on"
    return out


def parse_ethtool_stats(text: str) -> Dict[str, int]:
    """`ethtool -S IF` -> {name: int}."""
    out: Dict[str, int] = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and value.strip().isdigit():
            out[key.strip()] = int(value)
    return out


def _unsupported(text: str) -> bool:
    return "not supported" in text.lower() or "operation not supported" in text.lower()


def _app_entries(entries: Any) -> Dict[int, int]:
    """One APP table of `dcb -j app show`: each entry an array whose first two members are the
    protocol id and the priority. iproute2 6.1's dcb_app.c (dcb_app_print_filtered) prints
    [pid, prio]; later printers add a trailing string member ([pid, prio, " "], Debian 13's
    6.15), so only the first two members are read, and anything else is skipped."""
    out: Dict[int, int] = {}
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict):             # {"pid": .., "prio": ..}, should a printer
            entry = [entry.get("pid", entry.get("protocol")),
                     entry.get("prio", entry.get("priority"))]
        if not isinstance(entry, list) or len(entry) < 2:
            continue
        try:
            out[int(entry[0])] = int(entry[1])
        except (TypeError, ValueError):
            continue
    return out


def parse_dcb_app(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """`dcb -j app show dev IF` -> {"dscp_prio": {dscp: prio}, "dgram_port_prio": {port:
    prio}}; None when DCB is not supported or the output is not dcb's JSON (an error text).
    dcb_app.c prints each table as an array of entries, and {} for an empty APP table."""
    if text is None or _unsupported(text):
        return None
    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    out: Dict[str, Any] = dict((table, _app_entries(data.get(table, [])))
                               for table in ("dscp_prio", "dgram_port_prio"))
    # every DSCP entry, as the kernel holds them: a DSCP can carry two priorities (dcbnl's
    # dcb_ieee_setapp adds beside an entry of another priority), which the map above folds
    out["dscp_prio_entries"] = _app_pairs(data.get("dscp_prio", []))
    return out


def _app_pairs(entries: Any) -> List[List[int]]:
    pairs = []
    for entry in entries if isinstance(entries, list) else []:
        one = _app_entries([entry])
        pairs += [[k, v] for k, v in one.items()]
    return sorted(pairs)


def _maps(text: str) -> Dict[str, Dict[int, Any]]:
    """'key 0:a 1:b ...' runs of a dcb text printer -> {key: {index: value}}."""
    out: Dict[str, Dict[int, Any]] = {}
    current = None
    for token in text.split():
        index, sep, value = token.partition(":")
        if sep and index.isdigit():
            if current is not None:
                out[current][int(index)] = int(value) if value.isdigit() else value
        else:
            current = token
            out.setdefault(current, {})
    return out


def parse_dcb_pfc(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """`dcb pfc show dev IF` (dcb_pfc.c text: "pfc-cap 8 macsec-bypass off delay 7" /
    "prio-pfc 0:off ... 3:on ...") -> {"pfc_cap", "delay", "enabled": [prio]}; None without DCB.
    On mlx5 ``delay`` is the cable length in metres its headroom is sized for."""
    if text is None or _unsupported(text) or "prio-pfc" not in text:
        return None
    tokens = text.split()
    out: Dict[str, Any] = {"pfc_cap": None, "delay": None, "enabled": []}
    for key, value in zip(tokens, tokens[1:]):
        if key in ("pfc-cap", "delay") and value.isdigit():
            out[key.replace("-", "_")] = int(value)
    out["enabled"] = sorted(p for p, state in _maps(text).get("prio-pfc", {}).items()
                            if state == "on")
    return out


def parse_dcb_ets(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """`dcb ets show dev IF` (dcb_ets.c text: "willing off ets-cap 8 cbs off" / "tc-bw 0:50 ..."
    / "tc-tsa 0:ets ... 6:strict" / "prio-tc 0:0 ...") -> {"tc_bw", "tc_tsa", "prio_tc"} as
    {index: value}; None without DCB."""
    if text is None or _unsupported(text) or "tc-tsa" not in text:
        return None
    maps = _maps(text)
    tokens = text.split()
    cap = [int(v) for k, v in zip(tokens, tokens[1:]) if k == "ets-cap" and v.isdigit()]
    return {"ets_cap": cap[0] if cap else None, "tc_bw": maps.get("tc-bw", {}),
            "tc_tsa": maps.get("tc-tsa", {}), "prio_tc": maps.get("prio-tc", {})}


def parse_dcb_dcbx(text: Optional[str]) -> Optional[Set[str]]:
    """`dcb dcbx show dev IF` (dcb_dcbx.c: the set flags, "host ieee" or "lld-managed ieee") ->
    set of flags; None when the device has no DCBX attribute."""
    if text is None or _unsupported(text):
        return None
    flags = set(text.split())
    return flags if flags <= {"host", "lld-managed", "cee", "ieee", "static"} and flags else None


def parse_int(text: Optional[str]) -> Optional[int]:
    """A sysfs/configfs/debugfs number: decimal ("48"), hex ("0x30", bnxt_re configfs prints
    %#x) or "Global tclass=106" (MLNX_OFED tc/1/traffic_class). None when empty or absent."""
    if text is None:
        return None
    value = text.strip().rpartition("=")[2].strip()
    try:
        return int(value, 0)
    except ValueError:
        return None


def parse_cpulist(cpulist: Optional[str]) -> List[int]:
    """'0-3,8' -> [0, 1, 2, 3, 8] (sysfs cpulist / smp_affinity_list format)."""
    cpus: List[int] = []
    for part in (cpulist or "").strip().split(","):
        if part:
            lo, _sep, hi = part.partition("-")
            cpus.extend(range(int(lo), int(hi or lo) + 1))
    return cpus
