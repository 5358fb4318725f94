# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fabric report: what a reviewer reads before anything is pushed, rendered with every run
into fabric/ - the cabling plan (CSV and table), the IP and ASN plan, the check verdicts, the
deviations from the vendors' defaults (render/deviations.py), a topology picture and a buffer
picture per distinct buffer carve, naming the switches it covers (render/svg.py), and the
rollout waves (render/rollout.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import (Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple,
                    cast)

from ansible_collections.roce.fabric.plugins.module_utils.checks import run as checks
from ansible_collections.roce.fabric.plugins.module_utils.plan import summary as plan_mod
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Finding, HostIntent, Plan, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.render import (
    deviations, doc, failures, rollout, svg)

TIER = {"superspine": 0, "spine": 1, "leaf": 2}
CABLING_FIELDS = ("device", "port", "peer", "peer_port", "speed_gbps", "cable_m", "media",
                  "mtu_bytes", "address", "peer_address", "state")


def _switches(plan: Plan) -> List[SwitchIntent]:
    return sorted(cast(Iterator[SwitchIntent],
                       (d for d in plan["devices"].values() if d["kind"] == "switch")),
                  key=lambda d: (d.get("plane") or 0, TIER[d["role"]], d["name"]))


def cabling_rows(plan: Plan) -> List[Tuple[Any, ...]]:
    """One row per cable, from its lower end: a leaf's host and spine ports, a spine's
    super-spine ports (the other end is in peer / peer_port)."""
    rows: List[Tuple[Any, ...]] = []
    for dev in _switches(plan):
        for port in dev["ports"]:
            peer_role = "host" if port["peer_kind"] == "host" else port["peer_kind"]
            if peer_role != "host" and TIER[peer_role] >= TIER[dev["role"]]:
                continue            # written from the lower end
            rows.append((dev["name"], port["name"], port["peer"], port["peer_port"],
                         port["speed_gbps"], port["cable_m"], port["media"], port["mtu_bytes"],
                         port["address"] or "", port["peer_address"] or "",
                         "up" if port["up"] else "down"))
    return rows


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    # Every value is a name that passed the gate's grammar or a number: no quoting needed.
    lines = [",".join(header)]
    lines += [",".join("%g" % v if isinstance(v, float) else str(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> List[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join("%g" % v if isinstance(v, float) else str(v) for v in row) + " |"
            for row in rows]
    return out


def cabling_md(plan: Plan, rows: List[Tuple[Any, ...]]) -> str:
    s = plan["summary"]
    return "\n".join(["# Cabling plan", "",
                      "%d cables: %d host NICs and %d switch links; one row per cable from its "
                      "lower end (leaf -> host, leaf -> spine, spine -> super-spine). The same "
                      "rows are in cabling.csv."
                      % (len(rows), s["nics"], len(rows) - s["nics"]), ""]
                     + _table(CABLING_FIELDS, rows)) + "\n"


def _host_prefixes(dev: SwitchIntent) -> str:
    """What a switch announces of its hosts: each /31, or its aggregate (summary-only)."""
    count = sum(1 for p in dev["ports"] if p["peer_kind"] == "host" and p.get("address"))
    if not count:
        return "-"
    aggregate = dev["bgp"].get("aggregate")
    return ("%s (its %d /31s)" % (aggregate, count)) if aggregate else "%d /31s" % count


def addressing_md(plan: Plan) -> str:
    """The IP and ASN plan: every switch's role, pod, plane, ASN and loopback; every host NIC's
    /31 and gateway (the fabric /31s are in the cabling plan)."""
    rows = [(d["name"], d["role"], d.get("pod") or "-", d.get("plane") or 0, d["bgp"]["asn"],
             d["loopback"], _host_prefixes(d), len(d["bgp"]["neighbors"]),
             d["bgp"]["ecmp_width"]) for d in _switches(plan)]
    hosts = sorted(cast(Iterator[HostIntent],
                        (d for d in plan["devices"].values() if d["kind"] == "host")),
                   key=lambda d: d["name"])
    nic_rows = [(h["name"], nic["name"], nic["rail"], nic["leaf"], nic["leaf_port"],
                 nic["address"], nic["gateway"]) for h in hosts for nic in h["nics"]]
    asns = sorted(set(r[4] for r in rows))
    return "\n".join(
        ["# IP and ASN plan", "",
         "%d switches in %d ASNs (eBGP, RFC 7938); %d GPU hosts with %d NICs. Fabric /31s: "
         "cabling.md." % (len(rows), len(asns), len(hosts), len(nic_rows)), "",
         "## Switches", ""]
        + _table(("switch", "role", "pod", "plane", "ASN", "loopback", "host prefixes announced",
                  "BGP peers", "ECMP width"), rows)
        + ["", "## GPU host NICs", ""]
        + _table(("host", "NIC", "rail", "leaf", "leaf port", "address", "gateway"),
                 nic_rows)) + "\n"


def verdicts_md(plan: Plan) -> str:
    """Every rule with its verdict, then every finding with its fix."""
    by_rule: Dict[str, List[Finding]] = {}
    for v in plan["violations"]:
        by_rule.setdefault(v["rule"], []).append(v)
    rows = []
    for rule in checks.RULE_IDS:
        found = by_rule.get(rule, [])
        errors = sum(1 for v in found if v["severity"] == "ERROR")
        verdict = "pass" if not found else ", ".join(
            "%d %s" % (n, sev) for n, sev in ((errors, "ERROR"), (len(found) - errors, "WARN"))
            if n)
        rows.append((rule, verdict))
    out = ["# Check verdicts", "", plan_mod.format_report(plan)[0], ""]
    out += _table(("rule", "verdict"), rows)
    if plan["violations"]:
        out += ["", "## Findings", ""]
        out += _table(("severity", "rule", "device", "where", "finding", "fix"),
                      [(v["severity"], v["rule"], v["device"], v["location"],
                        v["message"].replace("|", "/"), v["hint"].replace("|", "/"))
                       for v in plan["violations"]])
    return "\n".join(out) + "\n"


def buffer_models(plan: Plan) -> Dict[str, List[SwitchIntent]]:
    """One buffer picture per distinct buffer (carve and thresholds, svg.buffer_key), with every
    switch it covers: {file key: [switches]}. The key is the (model or ASIC, platform, role) of
    its switches when one picture covers all of them, else that plus the first switch's name."""
    carves: Dict[Tuple[Any, ...], List[SwitchIntent]] = {}
    order: List[Tuple[Any, ...]] = []
    for dev in _switches(plan):
        key = svg.buffer_key(dev)
        if key not in carves:
            carves[key] = []
            order.append(key)
        carves[key].append(dev)
    groups: List[Tuple[List[str], List[SwitchIntent]]] = []
    count: Dict[str, int] = {}       # pictures per kind
    for key in order:
        devs = carves[key]
        kinds: List[str] = []
        for dev in devs:
            model = (dev.get("hardware") or {}).get("model") or dev["asic"]
            kind = "%s-%s-%s" % (model, dev["platform"], dev["role"])
            if kind not in kinds:
                kinds.append(kind)
                count[kind] = count.get(kind, 0) + 1
        groups.append((kinds, devs))
    pictures = {}
    for kinds, devs in groups:
        # sn5600-sonic-leaf, 7060x6-64pe-eos-leaf-spine (one model and platform, two roles)
        heads = set(k.rsplit("-", 1)[0] for k in kinds)
        name = "-".join([kinds[0]] + [k.rsplit("-", 1)[1] for k in kinds[1:]]) \
            if len(heads) == 1 else "+".join(kinds)
        if any(count[k] > 1 for k in kinds):     # another picture covers some of these too
            name += "-" + devs[0]["name"]
        pictures[name] = devs
    return pictures


def readme(plan: Plan, pictures: Dict[str, List[SwitchIntent]]) -> str:
    s = plan["summary"]
    lines = ["# Fabric report", "", plan_mod.format_report(plan)[0], "",
             "| file | what |", "|---|---|",
             "| [cabling.csv](cabling.csv), [cabling.md](cabling.md) | every cable: device, "
             "port, peer, peer port, speed, cable, media, MTU, /31s |",
             "| [addressing.md](addressing.md) | ASNs, loopbacks, host NIC addresses |",
             "| [verdicts.md](verdicts.md) | every rule's verdict and every finding with its fix |",
             "| [deviations.md](deviations.md) | every lossless number beside the vendor's "
             "default for the SKU or platform, the difference and the reason |",
             "| [topology.svg](topology.svg) | tiers, planes and link counts; the GPU hosts as "
             "wired (each host once, the rails each leaf carries) |"]
    for key, devs in sorted(pictures.items()):
        buf = devs[0]["buffer"]
        lines.append("| [buffer-%s.svg](buffer-%s.svg) | the buffer of %s (%d switch%s): %s "
                     "buffer, %s shared pool |"
                     % (key, key, svg.names_text([d["name"] for d in devs]), len(devs),
                        "" if len(devs) == 1 else "es", doc.size(buf["total_buffer_bytes"]),
                        doc.size(buf["shared_pool_bytes"])))
    lines += ["", "%d switches, %d GPU hosts, %d NICs, %d links."
              % (s["spines"] + s["leaves"] + s["superspines"], s["hosts"], s["nics"],
                 s["links"])]
    return "\n".join(lines) + "\n"


def render_report(plan: Plan, rendered: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """{relative path: text} of the fabric report; ``rendered``: the switch files this run
    rendered already (the deviation report reads their configs instead of rendering again)."""
    rows = cabling_rows(plan)
    pictures = buffer_models(plan)
    files = {"fabric/README.md": readme(plan, pictures),
             "fabric/cabling.csv": _csv(CABLING_FIELDS, rows),
             "fabric/cabling.md": cabling_md(plan, rows),
             "fabric/addressing.md": addressing_md(plan),
             "fabric/verdicts.md": verdicts_md(plan),
             "fabric/deviations.md": deviations.deviations_md(plan, _switches(plan), rendered),
             "fabric/topology.svg": svg.topology(plan)}
    files.update(rollout.rollout_files(plan))      # the rollout waves (plan/rollout.py)
    files.update(failures.failure_files(plan))     # the failure what-if (checks/failures.py)
    for key, devs in pictures.items():
        files["fabric/buffer-%s.svg" % key] = svg.buffer(devs, key)
    return files
