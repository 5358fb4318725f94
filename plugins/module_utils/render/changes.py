# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The change plan: what a run changes on each switch and what that does to traffic.

Given a device's baseline - the configuration files its deployed-state record holds (what the
switch_deploy role last verified on the device, roles/switch_deploy) - and the new ones, each
change is counted per part - a config_db table, an EOS top-level section, bgpd.conf - by its
platform's classifier (render/registry.py) and given a disruption class
(render/change_classes.py: hitless, traffic-affecting, port-flapping, reload, each with its
source). A device's class is the worst of its parts; a device the record does not hold has no
baseline (NO_BASELINE) and counts as changed. Pure text in, records out: no file is read here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes, registry

# The class of a switch the deployed-state record does not hold: nothing to compare with, so it
# counts as changed (pending when outside the run; rolled as traffic-affecting, deploy/roll.py).
NO_BASELINE = change_classes.NO_BASELINE


def config_paths(dev: SwitchIntent) -> Tuple[str, ...]:
    """Relative paths of a switch's configuration files (its platform's renderer names them)."""
    return registry.config_paths(dev)


def device_change(dev: SwitchIntent, old: Dict[str, Optional[str]],
                  new: Dict[str, str]) -> Optional[Dict[str, Any]]:
    """The change record of switch ``dev`` (plan intent) from its baseline config files ``old``
    ({path: text or None}; None: not in the deployed-state record) to ``new`` ({path: text});
    None when no config changes."""
    name = dev["name"]
    configs = [(f.path % name, f.parts) for f in registry.RENDERERS[dev["platform"]].configs]
    configs = [(path, parts) for path, parts in configs if path in new]
    paths = [path for path, _parts in configs]
    if all(old.get(p) == new[p] for p in paths):
        return None
    record: Dict[str, Any] = {"device": name, "platform": dev["platform"], "role": dev["role"],
                              "pair": dev.get("pair"),
                              "files": [p for p in paths if old.get(p) != new[p]]}
    if any(old.get(p) is None for p in paths):
        record.update({"class": NO_BASELINE, "parts": [],
                       "summary": "no deployed-state record: treated as changed"})
        return record
    parts: List[change_classes.Part] = []
    for path, classify in configs:
        before = old[path]
        if before is not None and before != new[path]:
            parts += classify(before, new[path])
    record["parts"] = parts
    record["class"] = change_classes.worst(p["class"] for p in parts)
    record["summary"] = ", ".join(_part_text(p) for p in parts)
    return record


def _part_text(part: change_classes.Part) -> str:
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
                tags: Optional[List[str]] = None,
                baseline: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The whole run's change plan: ``devices`` (the records of this run's switches, sorted),
    ``outside_limit`` (switches this run did not render whose configs change too, or that have
    no baseline: devices, records, why and the --limit that covers the change) and
    ``baseline`` (where the baseline came from: {source, recorded, switches})."""
    inside = {r["device"]: r for r in records}
    out = {r["device"]: dict(r, outside=True) for r in outside if r["device"] not in inside}
    devices = sorted(list(inside.values()) + list(out.values()),
                     key=lambda r: (r["device"] not in inside, r["device"]))
    classes: Dict[str, int] = {}
    result: Dict[str, Any] = {"devices": devices, "classes": classes, "outside_limit": None,
                              "baseline": dict(baseline or {})}
    for r in devices:
        classes[r["class"]] = classes.get(r["class"], 0) + 1
    if out:
        peers = neighbours(plan, inside) if plan else {}
        names = sorted(out)
        result["outside_limit"] = {
            "devices": names,
            "why": dict((n, _why(out[n], peers.get(n))) for n in names),
            "limit": covering_limit(limit, names, groups),
            # a run limited by --tags must also carry the tags that render those switches
            "tags": sorted(set(tags or ()) | {out[n]["role"] for n in names})
            if tags and "all" not in tags else [],
        }
    return result


def _why(record: Dict[str, Any], peers: Optional[List[str]]) -> str:
    """Why a switch outside the run is pending: the other end of a changed link, its own
    config, or no baseline to compare with."""
    linked = "the other end of links to %s" % ", ".join(peers) if peers else ""
    if record["class"] == NO_BASELINE:
        return "no deployed-state record" + ("; " + linked if linked else "")
    return linked or "its own config differs from its deployed-state record"


def table(changes: Dict[str, Any], path: str = "intended/fabric/changes.md") -> List[str]:
    """The short table printed before the verdict: the baseline when a switch has none, one
    line per changed switch, one line for the switches without a baseline, then the devices
    outside the run. Empty when nothing changes."""
    devices = (changes or {}).get("devices") or []
    rows = [r for r in devices if r["class"] != NO_BASELINE]
    unrecorded = [r["device"] for r in devices if r["class"] == NO_BASELINE]
    if not devices:
        return []
    head = "change plan (%s)" % path + (": %d switch(es) change" % len(rows) if rows else "")
    if unrecorded:
        head += "%s %s" % (";" if rows else ":", baseline_line(changes))
    out = [head]
    width = max([len(r["device"]) for r in rows] or [0])
    for r in rows:
        out.append("%s  %-17s %s%s" % (r["device"].ljust(width), r["class"], _short(r),
                                       "  [outside this run]" if r.get("outside") else ""))
    if unrecorded:
        out.append("no baseline, treated as changed: %s" % _names(unrecorded, 8))
    outside = changes.get("outside_limit")
    if outside:
        shown = outside["devices"][:8]
        out.append("not rendered by this run but changed: %s (%s); cover the change with "
                   "--limit '%s'%s" % (_names(outside["devices"], 8),
                                       "; ".join("%s: %s" % (n, outside["why"][n])
                                                 for n in shown),
                                       outside["limit"], _tags(outside)))
    return out


def baseline_line(changes: Optional[Dict[str, Any]]) -> str:
    """Where the baseline came from, in words: "no baseline - no deployed-state record in DIR:
    every switch is treated as changed" or "N of M switch(es) have no deployed-state record in
    DIR (treated as changed)"."""
    base = (changes or {}).get("baseline") or {}
    missing = sum(1 for r in (changes or {}).get("devices") or [] if r["class"] == NO_BASELINE)
    where = base.get("source") or "the deployed-state record"
    if not base.get("recorded"):
        return ("no baseline - no deployed-state record in %s: every switch is treated as "
                "changed" % where)
    return "%d of %d switch(es) have no deployed-state record in %s (treated as changed)" % (
        missing, base.get("switches", missing), where)


def _names(names: List[str], limit: int = 4) -> str:
    return ", ".join(names[:limit]) + (" and %d more" % (len(names) - limit)
                                       if len(names) > limit else "")


def pending(changes: Optional[Dict[str, Any]]) -> str:
    """The verdict's first words when switches outside this run change too: "PENDING - N
    switch(es) outside this run change too (names): cover them with --limit '...'"; "" when
    nothing is pending. The last line of a run must not read "all clear" with switches left
    between two configs (their side of a changed link still runs the old one)."""
    outside = (changes or {}).get("outside_limit")
    if not outside:
        return ""
    names = outside["devices"]
    unknown = {r["device"] for r in changes.get("devices") or ()  # type: ignore[union-attr]
               if r["class"] == NO_BASELINE}
    what = "change too" if not unknown & set(names) else "change too or have no baseline"
    return ("PENDING - %d switch(es) outside this run %s (%s): cover them with "
            "--limit '%s'%s" % (len(names), what, _names(names), outside["limit"],
                                _tags(outside)))


def _tags(outside: Dict[str, Any]) -> str:
    return " --tags %s" % ",".join(outside["tags"]) if outside.get("tags") else ""


def _short(record: Dict[str, Any], limit: int = 4) -> str:
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
    rows = changes.get("devices") or []
    if not rows:
        return "\n".join(lines + ["No switch configuration changes.", ""])
    if any(r["class"] == NO_BASELINE for r in rows):
        lines += ["**Baseline**: %s." % baseline_line(changes), ""]
    classes = change_classes.CLASSES
    counts = ", ".join("%d %s" % (n, c) for c, n in sorted(
        changes["classes"].items(), key=lambda kv: classes.index(kv[0])
        if kv[0] in classes else len(classes)))
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
            r["role"], r["class"], change_classes.ACTION.get(r["class"], ""),
            _short(r, limit=99) or "-"))
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
        cls, what, src = change_classes.REASONS[rid]
        lines.append("| %s | %s | %s | %s |" % (rid, cls, what, src))
    return "\n".join(lines) + "\n"
