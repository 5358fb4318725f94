# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The change plan: what a run changes on each switch and what that does to traffic.

Given a device's previous rendered configuration files (the last intended/ outputs offline) and
the new ones, each change is counted per part - a config_db table, an EOS top-level section,
bgpd.conf - and given a disruption class:

- ``hitless``: applied in place, no drain (ECN/WRED thresholds, PFC watchdog, counters,
  descriptions);
- ``traffic-affecting``: drain first (buffer profiles and pools, QoS maps and schedulers,
  addresses, BGP, hashing);
- ``port-flapping``: the port goes down and up (speed, FEC, MTU, lanes, admin state): drain,
  then check the ports come back at the planned speed;
- ``reload``: takes effect only after ``config reload`` or a reboot (SONiC's buffer model,
  routing config mode, HWSKU, a buffer pool's create-only mode/type; EOS's routing model).

A device's class is the worst of its parts. Every class cites its source (``SOURCES``, and
docs/deploy.md "Disruption classes"). Pure text in, records out: no file is read here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import difflib
import json
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar
# the classes are the roll's (deploy/ ships to targets and imports nothing from render/)
from ansible_collections.roce.fabric.plugins.module_utils.deploy.roll import (
    CLASSES, FLAP, HITLESS, RELOAD, TRAFFIC)
ACTION = {
    HITLESS: "apply without a drain",
    TRAFFIC: "drain first",
    FLAP: "drain; ports flap, check they come back at the planned speed",
    RELOAD: "needs config reload or reboot: refuse unless allowed",
    "new": "first render, nothing to compare with",
}

# Reason id -> (class, what it means, source). Sources: [V] read at the cited place, [M] taken
# from the cited place without re-checking the code path on a switch.
REASONS = {
    "ecn": (HITLESS, "ECN/WRED thresholds are set on the existing WRED object in place",
            "sonic-swss qosorch: WRED_PROFILE fields are SAI set attributes of one object; EOS "
            "random-detect ecn is a tx-queue setting applied in the session commit [M]"),
    "watchdog": (HITLESS, "PFC watchdog timers and counters", "sonic-swss pfcwdorch; EOS "
                 "priority-flow-control pause watchdog [M]"),
    "cosmetic": (HITLESS, "descriptions, neighbour metadata, counters, comments",
                 "no forwarding state is derived from them"),
    "buffer": (TRAFFIC, "the MMU is re-programmed (buffer pools, profiles, PGs, cable length)",
               "Dell Enterprise SONiC RoCE design: buffer changes under traffic can corrupt "
               "the MMU, drain or reboot [M]; sonic-swss bufferorch applies pool/profile sets "
               "live (sonic-swss #1430) [V]; EOS platform trident mmu queue profile "
               "(eos-and-avd.md) [M]"),
    "qos": (TRAFFIC, "traffic is re-classified or re-scheduled (DSCP/TC/PG/queue maps, "
            "schedulers, PFC enable)", "SONiC qosorch re-binds the maps on the port; packets "
            "in flight change class [M]"),
    "routing": (TRAFFIC, "BGP sessions, addresses or announced prefixes change",
                "a session reset or a withdrawn prefix drops traffic unless drained (RFC 8326 "
                "graceful shutdown, docs/deploy.md)"),
    "hash": (TRAFFIC, "ECMP hashing changes: flows move to other links (reordering)",
             "SWITCH_HASH / ip load-sharing re-hash every flow [M]"),
    "port": (FLAP, "a port attribute that re-initialises the link (speed, FEC, MTU, lanes, "
             "admin state, breakout)", "sonic-swss portsorch sets a port admin down to change "
             "its speed (sonic-swss #716, #764) [V]; FEC re-config flaps the link (sonic-swss "
             "#4056) [V]; EOS interface speed re-negotiates the link [M]"),
    "reload": (RELOAD, "read only when the services start", "DEVICE_METADATA buffer_model "
               "picks buffermgrd's mode at start (SONiC dynamic buffer HLD) [M]; "
               "docker_routing_config_mode is read when the bgp container starts "
               "(sonic-utilities #4680) [V]; a BUFFER_POOL's mode/type and a BUFFER_PROFILE's "
               "pool are SAI create-only, skipped on update (sonic-swss #1430) [V]; EOS "
               "service routing protocols model needs a reload [M]"),
    "unknown": (TRAFFIC, "a part this plan has no rule for: treated as traffic-affecting",
                "conservative default"),
}

SOURCES = {cls: [(rid, what, src) for rid, (c, what, src) in sorted(REASONS.items()) if c == cls]
           for cls in CLASSES}

_SONIC_TABLES = {
    "WRED_PROFILE": "ecn", "PFC_WD": "watchdog", "FLEX_COUNTER_TABLE": "cosmetic",
    "DEVICE_NEIGHBOR": "cosmetic", "DEVICE_NEIGHBOR_METADATA": "cosmetic",
    "BUFFER_POOL": "buffer", "BUFFER_PROFILE": "buffer", "BUFFER_PG": "buffer",
    "BUFFER_QUEUE": "buffer", "BUFFER_PORT_INGRESS_PROFILE_LIST": "buffer",
    "BUFFER_PORT_EGRESS_PROFILE_LIST": "buffer", "CABLE_LENGTH": "buffer",
    "LOSSLESS_TRAFFIC_PATTERN": "buffer", "DEFAULT_LOSSLESS_BUFFER_PARAMETER": "buffer",
    "DSCP_TO_TC_MAP": "qos", "TC_TO_PRIORITY_GROUP_MAP": "qos", "TC_TO_QUEUE_MAP": "qos",
    "MAP_PFC_PRIORITY_TO_QUEUE": "qos", "PORT_QOS_MAP": "qos", "SCHEDULER": "qos",
    "QUEUE": "qos", "INTERFACE": "routing", "LOOPBACK_INTERFACE": "routing",
    "BGP_NEIGHBOR": "routing", "SWITCH_HASH": "hash",
}
# field-level rules where a table mixes classes
_SONIC_FIELDS = {
    "DEVICE_METADATA": ({"buffer_model": "reload", "docker_routing_config_mode": "reload",
                         "hwsku": "reload", "platform": "reload", "type": "reload",
                         "bgp_asn": "routing", "default_pfcwd_status": "watchdog"}, "cosmetic"),
    "PORT": ({"speed": "port", "fec": "port", "mtu": "port", "lanes": "port",
              "admin_status": "port", "autoneg": "port"}, "cosmetic"),
    "BUFFER_POOL": ({"mode": "reload", "type": "reload"}, "buffer"),
    "BUFFER_PROFILE": ({"pool": "reload"}, "buffer"),
}
# EOS top-level sections by prefix (longest first), and interface / qos profile lines
_EOS_SECTIONS = (
    ("platform trident mmu", "buffer"), ("qos profile", None), ("qos map", "qos"),
    ("qos", "qos"), ("priority-flow-control", "watchdog"), ("router bgp", "routing"),
    ("ip prefix-list", "routing"), ("route-map", "routing"), ("ip community-list", "routing"),
    ("ip routing", "routing"), ("ip load-sharing", "hash"), ("ip hardware fib", "hash"),
    ("interface", None), ("service routing protocols model", "reload"),
    ("hostname", "cosmetic"),
)
_EOS_LINES = (
    ("description", "cosmetic"), ("speed", "port"), ("mtu", "port"),
    ("error-correction", "port"), ("shutdown", "port"), ("no shutdown", "port"),
    ("random-detect ecn", "ecn"), ("priority-flow-control pause watchdog", "watchdog"),
    ("ip address", "routing"), ("no switchport", "routing"), ("service-profile", "qos"),
)


def worst(classes: Iterable[str]) -> str:
    """The most disruptive of ``classes`` (hitless when empty)."""
    return max(classes, key=CLASSES.index, default=HITLESS)


def _part(file_kind, name, added, removed, changed, reasons):
    cls = worst(REASONS[r][0] for r in reasons)
    return {"file": file_kind, "part": name, "added": added, "removed": removed,
            "changed": changed, "class": cls, "reasons": sorted(reasons)}


def config_db_parts(old: str, new: str) -> List[Dict[str, Any]]:
    """Per changed config_db table: keys added/removed/changed and the class."""
    before, after = json.loads(old) if old else {}, json.loads(new) if new else {}
    out = []
    for table in sorted(set(before) | set(after)):
        have, want = before.get(table) or {}, after.get(table) or {}
        if have == want:
            continue
        added = [k for k in want if k not in have]
        removed = [k for k in have if k not in want]
        changed = [k for k in want if k in have and have[k] != want[k]]
        fields, default = _SONIC_FIELDS.get(table, ({}, _SONIC_TABLES.get(table, "unknown")))
        reasons = set()
        for key in changed:
            a, b = have[key], want[key]
            if not (isinstance(a, dict) and isinstance(b, dict)):
                reasons.add(default)
                continue
            for field in set(a) | set(b):
                if a.get(field) != b.get(field):
                    reasons.add(fields.get(field, default))
        if added or removed:
            # a new or removed key carries all its fields: a new port is a flap, a new
            # profile a buffer change
            reasons.add("port" if table == "PORT" else default if table not in
                        ("DEVICE_METADATA",) else "reload")
        out.append(_part("config_db", table, len(added), len(removed), len(changed), reasons))
    return out


def _eos_kind(head):
    for prefix, reason in _EOS_SECTIONS:
        if head == prefix or head.startswith(prefix + " "):
            return prefix, reason
    return head.split()[0], "unknown"


def _line_reason(line, default):
    text = line.strip()
    for prefix, reason in _EOS_LINES:
        if text == prefix or text.startswith(prefix + " "):
            return reason
    return default


def eos_parts(old: str, new: str) -> List[Dict[str, Any]]:
    """Per EOS section kind (interface, qos profile, router bgp, ...): sections added, removed
    and changed, and the class from the lines that change."""
    before, after = grammar.sections(old or ""), grammar.sections(new or "")
    groups = {}
    for head in set(before) | set(after):
        a, b = before.get(head), after.get(head)
        if a == b:
            continue
        kind, reason = _eos_kind(head)
        entry = groups.setdefault(kind, {"added": 0, "removed": 0, "changed": 0,
                                         "reasons": set()})
        default = reason or ("routing" if kind == "interface" else "qos")
        if a is None or b is None:
            entry["added" if a is None else "removed"] += 1
            lines = b if a is None else a
        else:
            entry["changed"] += 1
            lines = list(set(a) ^ set(b))
        if reason is not None and kind != "interface":
            entry["reasons"].add(reason)
        else:
            entry["reasons"].update(_line_reason(line, default) for line in lines or [head])
    out = []
    for kind, g in sorted(groups.items()):
        # a one-line command whose value changes is one section removed and one added: changed
        paired = min(g["added"], g["removed"])
        out.append(_part("eos", kind, g["added"] - paired, g["removed"] - paired,
                         g["changed"] + paired, g["reasons"]))
    return out


def frr_parts(old: str, new: str) -> List[Dict[str, Any]]:
    """bgpd.conf: lines added and removed (comments alone are hitless)."""
    diff = [line for line in difflib.unified_diff((old or "").splitlines(),
                                                  (new or "").splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    if not diff:
        return []
    added = sum(1 for line in diff if line.startswith("+"))
    removed = len(diff) - added
    real = [line for line in diff if not line[1:].lstrip().startswith("!")]
    return [_part("bgpd.conf", "bgpd.conf", added, removed, 0,
                  {"routing" if real else "cosmetic"})]


def config_paths(name: str) -> Tuple[str, str, str]:
    """Relative paths of a switch's configuration files (SONiC: the first two; EOS: the last)."""
    return ("configs/%s.json" % name, "configs/%s.bgpd.conf" % name, "configs/%s.cfg" % name)


def device_change(dev: Dict[str, Any], old: Dict[str, Optional[str]],
                  new: Dict[str, str]) -> Optional[Dict[str, Any]]:
    """The change record of switch ``dev`` (plan intent) from its previous config files ``old``
    ({path: text or None}) to ``new`` ({path: text}); None when no config changes."""
    name = dev["name"]
    paths = [p for p in config_paths(name) if p in new]
    if all(old.get(p) == new[p] for p in paths):
        return None
    record = {"device": name, "platform": dev["platform"], "role": dev["role"],
              "pair": dev.get("pair"), "files": [p for p in paths if old.get(p) != new[p]]}
    if any(old.get(p) is None for p in paths):
        record.update({"class": "new", "parts": [], "summary": "first render"})
        return record
    parts = []
    for path in paths:
        if old[path] == new[path]:
            continue
        if path.endswith(".json"):
            parts += config_db_parts(old[path], new[path])
        elif path.endswith(".cfg"):
            parts += eos_parts(old[path], new[path])
        else:
            parts += frr_parts(old[path], new[path])
    record["parts"] = parts
    record["class"] = worst(p["class"] for p in parts)
    record["summary"] = ", ".join(_part_text(p) for p in parts)
    return record


def _part_text(part):
    counts = ["%s%d" % (sign, n) for sign, n in (("+", part["added"]), ("-", part["removed"]),
                                                 ("~", part["changed"])) if n]
    return "%s %s" % (part["part"], "/".join(counts))


def neighbours(plan: Dict[str, Any], names: Iterable[str]) -> Dict[str, List[str]]:
    """{switch: [switches among ``names`` cabled to it]} for every switch of the plan."""
    wanted = set(names)
    out = {}
    for name, dev in plan["devices"].items():
        if dev.get("kind") != "switch":
            continue
        peers = sorted({p["peer"] for p in dev["ports"] if p.get("peer") in wanted})
        if peers:
            out[name] = peers
    return out


def covering_limit(limit: Optional[str], extra: Iterable[str],
                   groups: Optional[Dict[str, List[str]]] = None) -> str:
    """An Ansible --limit pattern that covers ``limit`` and the devices ``extra``: whole
    inventory groups where a group's hosts are all among them (largest first), host names for
    the rest."""
    left = set(extra)
    terms = []
    skip = ("all", "ungrouped")
    candidates = sorted(((g, set(hosts)) for g, hosts in (groups or {}).items()
                         if g not in skip and hosts and set(hosts) <= left),
                        key=lambda item: (-len(item[1]), item[0]))
    for group, hosts in candidates:
        if hosts <= left:
            terms.append(group)
            left -= hosts
    terms += sorted(left)
    head = [limit] if limit else []
    return ",".join(head + terms)


def change_plan(records: Iterable[Dict[str, Any]], outside: Iterable[Dict[str, Any]] = (),
                plan: Optional[Dict[str, Any]] = None, limit: Optional[str] = None,
                groups: Optional[Dict[str, List[str]]] = None,
                tags: Optional[List[str]] = None) -> Dict[str, Any]:
    """The whole run's change plan: ``devices`` (the records of this run's switches, sorted)
    and ``outside_limit`` (switches this run did not render whose configs change too: devices,
    records, why and the --limit that covers the change)."""
    inside = {r["device"]: r for r in records}
    out = {r["device"]: dict(r, outside=True) for r in outside if r["device"] not in inside}
    devices = sorted(list(inside.values()) + list(out.values()),
                     key=lambda r: (r["device"] not in inside, r["device"]))
    result = {"devices": devices, "classes": {}, "outside_limit": None}
    for r in devices:
        result["classes"][r["class"]] = result["classes"].get(r["class"], 0) + 1
    if out:
        peers = neighbours(plan, inside) if plan else {}
        names = sorted(out)
        result["outside_limit"] = {
            "devices": names,
            "why": {n: ("the other end of links to %s" % ", ".join(peers[n]) if peers.get(n)
                        else "its own rendered config differs from intended/") for n in names},
            "limit": covering_limit(limit, names, groups),
            # a run limited by --tags must also carry the tags that render those switches
            "tags": sorted(set(tags or ()) | {out[n]["role"] for n in names})
            if tags and "all" not in tags else [],
        }
    return result


def table(changes: Dict[str, Any], path: str = "intended/fabric/changes.md") -> List[str]:
    """The short table printed before the verdict: one line per changed switch, then the
    devices outside the run. Empty when nothing changes."""
    rows = [r for r in (changes or {}).get("devices") or [] if r["class"] != "new"]
    if not rows:
        return []     # nothing, or a first render: nothing to compare with
    width = max(len(r["device"]) for r in rows)
    out = ["change plan (%s): %d switch(es) change" % (path, len(rows))]
    for r in rows:
        out.append("%s  %-17s %s%s" % (r["device"].ljust(width), r["class"], _short(r),
                                       "  [outside this run]" if r.get("outside") else ""))
    outside = changes.get("outside_limit")
    if outside:
        out.append("not rendered by this run but changed: %s (%s); cover the change with "
                   "--limit '%s'%s" % (", ".join(outside["devices"]),
                                       "; ".join("%s: %s" % (n, outside["why"][n])
                                                 for n in outside["devices"]),
                                       outside["limit"], _tags(outside)))
    return out


def _tags(outside):
    return " --tags %s" % ",".join(outside["tags"]) if outside.get("tags") else ""


def _short(record, limit=4):
    parts = record.get("parts") or []
    if not parts:
        return record.get("summary", "")
    shown = [_part_text(p) for p in parts[:limit]]
    if len(parts) > limit:
        shown.append("+%d more" % (len(parts) - limit))
    return ", ".join(shown)


def markdown(changes: Dict[str, Any], fabric: str = "fabric") -> str:
    """intended/fabric/changes.md: per device its class, what to do, and every changed part
    with counts and the reasons; then the classes with their sources."""
    lines = ["# Change plan: %s" % fabric, ""]
    rows = [r for r in changes.get("devices") or [] if r["class"] != "new"]
    if not rows:
        return "\n".join(lines + ["No switch configuration changes.", ""])
    counts = ", ".join("%d %s" % (n, c) for c, n in sorted(
        changes["classes"].items(), key=lambda kv: CLASSES.index(kv[0])
        if kv[0] in CLASSES else -1) if c != "new")
    lines += ["%d switch(es) change: %s. A device's class is the worst of its parts." % (
        len(rows), counts), ""]
    outside = changes.get("outside_limit")
    if outside:
        lines += ["**Outside this run**: %s change too; cover the change with "
                  "`--limit '%s'%s`." % (", ".join(outside["devices"]), outside["limit"],
                                         _tags(outside)), ""]
    lines += ["| device | platform | role | class | what to do | changes |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s%s | %s | %s | %s | %s | %s |" % (
            r["device"], " (outside this run)" if r.get("outside") else "", r["platform"],
            r["role"], r["class"], ACTION.get(r["class"], ""), _short(r, limit=99) or "-"))
    lines += ["", "## Parts", "", "| device | file | part | added | removed | changed | class "
              "| why |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        for p in r.get("parts") or []:
            lines.append("| %s | %s | %s | %d | %d | %d | %s | %s |" % (
                r["device"], p["file"], p["part"], p["added"], p["removed"], p["changed"],
                p["class"], ", ".join(p["reasons"])))
    used = sorted({reason for r in rows for p in r.get("parts") or [] for reason in
                   p["reasons"]})
    lines += ["", "## Why (sources)", "", "| reason | class | what | source |",
              "|---|---|---|---|"]
    for rid in used:
        cls, what, src = REASONS[rid]
        lines.append("| %s | %s | %s | %s |" % (rid, cls, what, src))
    return "\n".join(lines) + "\n"
