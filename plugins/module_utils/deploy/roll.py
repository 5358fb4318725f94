# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""How one switch is rolled, from the disruption class of its change (docs/deploy.md,
"Disruption classes" and "Rolls driven by the class").

The change records come from this run's render (``switch_render.changes``) or the run's change
plan (``report_render.change_plan.devices``): {device, class, parts, summary}. The class picks
the steps:

- ``hitless``: apply and verify, no drain;
- ``traffic-affecting``: drain, apply, verify, undrain;
- ``port-flapping``: drain, apply, verify, check the planned ports are up again (at the planned
  MTU and, where the platform reports it, speed), undrain;
- ``reload``: refused unless allowed, with the reason from the record.

A switch without a record whose device still differs (no render this run, a first render, a
drifted device) or a forced roll is rolled as traffic-affecting: nothing says it is milder.
Pure data in and out; imports nothing of the planner (deploy/ ships to targets).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from typing import Any, Dict, Iterable, List, Mapping, Optional

HITLESS, TRAFFIC, FLAP, RELOAD = "hitless", "traffic-affecting", "port-flapping", "reload"
CLASSES = (HITLESS, TRAFFIC, FLAP, RELOAD)          # mildest first
# A switch without a deployed-state record: no baseline to classify against (render/changes.py)
NO_BASELINE = "no-baseline"
STEPS = {
    HITLESS: "apply, verify (no drain)",
    TRAFFIC: "drain, apply, verify, undrain",
    FLAP: "drain, apply, verify, check the ports are up at the planned speed/MTU, undrain",
    RELOAD: "refused unless switch_deploy_allow_reload",
}


def find_record(device: str, *sources: Any) -> Optional[Dict[str, Any]]:
    """``device``'s change record from the first source that has one. A source is a list of
    records, a render result ({changes: [...]}, {change_plan: {devices: [...]}}) or a change
    plan ({devices: [...]}); undefined or empty sources are skipped."""
    for source in sources:
        for record in _records(source):
            if isinstance(record, dict) and record.get("device") == device:
                return record
    return None


def _records(source: Any) -> List[Any]:
    if isinstance(source, list):
        return source
    if not isinstance(source, dict):
        return []
    if isinstance(source.get("changes"), list):
        return source["changes"]
    if isinstance(source.get("change_plan"), dict):
        return source["change_plan"].get("devices") or []
    return source.get("devices") or []


def _worst(a: str, b: str) -> str:
    return max(a, b, key=CLASSES.index)


def decide(device: str, record: Optional[Dict[str, Any]], pending: bool, force: bool = False,
           drains: bool = True, allow_reload: bool = False,
           reasons: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """The roll of ``device``: {todo, class, drain, check_ports, refused, why, steps}.

    ``pending``: the device differs from the render (decided first, touching nothing);
    ``force``: roll anyway (maintenance: at least traffic-affecting); ``drains``: this switch
    drains at all (switch_deploy_drain: every role by default; without it a class that asks
    for a drain rolls LIVE and says so); ``reasons``: reason id -> (class,
    what, source), to say why a reload is needed (render/changes.py REASONS)."""
    todo = bool(pending or force or record is not None)
    if not todo:
        return {"todo": False, "class": None, "drain": False, "check_ports": False,
                "refused": "", "why": "%s: nothing to change" % device, "steps": ""}
    cls = (record or {}).get("class")
    if cls in CLASSES:
        why = "%s in this run's change plan (%s)" % (cls, (record or {}).get("summary") or "-")
    elif record is not None:     # NO_BASELINE: no deployed-state record to compare with
        cls, why = TRAFFIC, ("no deployed-state record (no baseline), treated as changed: "
                             "rolled as traffic-affecting")
    else:
        cls, why = TRAFFIC, ("no change record in this run (the render did not change it or "
                             "did not run); the device differs: rolled as traffic-affecting")
    if force and cls != _worst(cls, TRAFFIC):
        cls, why = TRAFFIC, why + "; forced roll (switch_deploy_force): rolled as " + TRAFFIC
    elif force and record is None and not pending:
        why = "forced roll (switch_deploy_force), nothing differs: rolled as " + TRAFFIC
    refused = ""
    if cls == RELOAD and not allow_reload:
        refused = ("%s: refused - a reload-class change: %s. It takes effect only after "
                   "`config reload` or a reboot, which this role does not do; nothing was "
                   "applied. Set switch_deploy_allow_reload=true to apply it anyway (and "
                   "reload the switch in a maintenance window)"
                   % (device, reload_reason(record, reasons)))
    steps = STEPS[cls]
    if cls == RELOAD and allow_reload:
        steps = STEPS[FLAP] + "; reload the switch for the change to take effect"
    if not drains and cls != HITLESS and not refused:
        # the class asks for a drain this switch does not do: say what that means
        steps = steps.replace("drain, ", "").replace(", undrain", "") + (
            " - LIVE, not drained (switch_deploy_drain: false): traffic through this switch "
            "meets the change")
    return {"todo": True, "class": cls, "drain": bool(drains) and cls != HITLESS,
            "check_ports": cls in (FLAP, RELOAD), "refused": refused,
            "why": "%s: %s -> %s" % (device, why, steps), "steps": steps}


def reload_reason(record: Optional[Dict[str, Any]],
                  reasons: Optional[Mapping[str, Any]] = None) -> str:
    """The record's reload-class parts with what each means and its source."""
    parts = [p for p in (record or {}).get("parts") or [] if p.get("class") == RELOAD]
    if not parts:
        return (record or {}).get("summary") or "no detail in the change record"
    out = []
    for part in parts:
        texts = []
        for rid in part.get("reasons") or []:
            entry = (reasons or {}).get(rid)
            if entry and entry[0] == RELOAD:
                texts.append("%s (%s)" % (entry[1], entry[2]))
        out.append("%s %s" % (part.get("part"), "- " + "; ".join(texts) if texts else
                              "(" + ", ".join(part.get("reasons") or []) + ")"))
    return "; ".join(out)


def _speed_gbps(text: Any) -> Optional[int]:
    text = str(text or "").strip().upper()
    try:
        if text.endswith("G"):
            return int(float(text[:-1]))
        if text.endswith("M"):
            return int(float(text[:-1]) / 1000)
        value = int(float(text))
    except ValueError:
        return None
    return value // 1000 if value >= 1000 else value       # CONFIG_DB speed is in Mb/s


def planned_ports(device: Mapping[str, Any]) -> Dict[str, Dict[str, Any]]:
    """{port: {mtu, speed_gbps}} of the switch's planned ports that are wired and up (the
    plan's device intent: ``plan_result.plan.devices[name]``)."""
    return dict((port["name"], {"mtu": port.get("mtu_bytes"),
                                "speed_gbps": port.get("speed_gbps")})
                for port in device.get("ports") or [] if port.get("up") and port.get("peer"))


def ports_linux(link_json: Any) -> Dict[str, Dict[str, Any]]:
    """``ip -j link show``: {netdev: {up, mtu, speed_gbps: None}} (a veth reports no speed;
    up is the operational state, LOWER_UP)."""
    links = json.loads(link_json) if isinstance(link_json, str) else (link_json or [])
    return dict((link["ifname"], {"up": "LOWER_UP" in link.get("flags", []) or
                                  link.get("operstate") == "UP",
                                  "mtu": link.get("mtu"), "speed_gbps": None})
                for link in links)


def ports_sonic(status_text: str) -> Dict[str, Dict[str, Any]]:
    """SONiC ``show interfaces status`` (columns Interface, Lanes, Speed, MTU, FEC, Alias,
    Vlan, Oper, Admin, ...): {port: {up, mtu, speed_gbps}}."""
    lines = [line for line in (status_text or "").splitlines() if line.strip()]
    head = next((i for i, line in enumerate(lines) if line.split()[:1] == ["Interface"]), None)
    if head is None:
        return {}
    cols = lines[head].split()
    out = {}
    for line in lines[head + 1:]:
        cells = line.split()
        if len(cells) < len(cols) or set(line.strip()) <= set("- "):
            continue
        row = dict(zip(cols, cells))
        try:
            mtu = int(row.get("MTU", ""))
        except ValueError:
            mtu = None
        out[row["Interface"]] = {"up": row.get("Oper") == "up", "mtu": mtu,
                                 "speed_gbps": _speed_gbps(row.get("Speed"))}
    return out


def ports_eos(status: Any) -> Dict[str, Dict[str, Any]]:
    """EOS ``show interfaces status | json``: {port: {up, mtu: None, speed_gbps}}."""
    data = json.loads(status) if isinstance(status, str) else (status or {})
    out = {}
    for name, row in (data.get("interfaceStatuses") or {}).items():
        bandwidth = row.get("bandwidth")
        out[name] = {"up": row.get("linkStatus") == "connected", "mtu": None,
                     "speed_gbps": int(bandwidth) // 10 ** 9 if bandwidth else None}
    return out


def ports_nvue(interfaces: Any) -> Dict[str, Dict[str, Any]]:
    """Cumulus NVUE ``GET /nvue_v1/interface`` (operational): {port: {up, mtu, speed_gbps}} -
    link.oper-status "up", link.mtu an integer, link.speed "400G" (absent on a port that is
    down) (NVUE-API.md, Cumulus Linux 5.14: the interface JSON and the speed example)."""
    data = json.loads(interfaces) if isinstance(interfaces, str) else (interfaces or {})
    out = {}
    for name, entry in data.items():
        link = (entry or {}).get("link") or {}
        speed = str(link.get("speed") or "")
        out[name] = {"up": link.get("oper-status") == "up", "mtu": link.get("mtu"),
                     "speed_gbps": int(speed[:-1]) if speed[:-1].isdigit() and
                     speed.endswith("G") else None}
    return out


def port_problems(planned: Mapping[str, Mapping[str, Any]],
                  live: Mapping[str, Mapping[str, Any]],
                  ports: Optional[Iterable[str]] = None) -> List[str]:
    """One line per planned port (or per port of ``ports``) that is missing, down, or not at
    its planned MTU or speed (where the live side reports them)."""
    out = []
    for name in sorted(ports if ports is not None else planned):
        want, have = planned.get(name) or {}, live.get(name)
        if have is None:
            out.append("%s: not found" % name)
            continue
        if not have.get("up"):
            out.append("%s: down" % name)
        if want.get("mtu") and have.get("mtu") and int(have["mtu"]) != want["mtu"]:
            out.append("%s: mtu %s, planned %s" % (name, have["mtu"], want["mtu"]))
        if want.get("speed_gbps") and have.get("speed_gbps") and \
                have["speed_gbps"] != want["speed_gbps"]:
            out.append("%s: %sG, planned %sG" % (name, have["speed_gbps"], want["speed_gbps"]))
    return out
