# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Pictures of the plan as plain SVG text (no dependencies, deterministic output):

- topology: tiers as rows (super-spines, spines, leaves), planes side by side, one line per
  connected switch pair with its link count; below them the GPU hosts as they are wired, each
  host once: one box per set of hosts cabled to the same leaves (a rail group, or a leaf pair in
  the classic design), a line to each of those leaves with the rails it carries; pods instead of
  switches when a fabric is too large to draw switch by switch;
- buffer: one picture per distinct buffer (carve and thresholds), naming every switch it covers:
  the carve on a linear bar, and the thresholds (xon, headroom, ECN Kmin/Kmax, pause points under
  incast, for all PGs and for one PG) on one logarithmic bytes axis, with the two rules that
  order them (Kmin below the incast pause point, Kmax below the one-PG pause point) stated with
  the plan's numbers.

One colour means one thing in every picture (COLOURS; each picture carries its legend).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, cast
from xml.sax.saxutils import escape

from ansible_collections.roce.fabric.plugins.module_utils.records import (
    HostIntent, Plan, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.render import registry

Node = Tuple[Any, ...]      # (id, tier, plane, label, sublabel, fill meaning)

FONT = 'font-family="Helvetica,Arial,sans-serif"'
BOX_W, BOX_H, GAP = 104, 30, 12
MAX_DETAIL_SWITCHES = 96        # above this the topology shows pods
MAX_LINK_LABELS = 200           # above this many lines, no xN / rail labels
PLURAL = {"superspine": "super-spines", "spine": "spines", "leaf": "leaves"}
# One colour per meaning, in every picture: (colour, legend text).
# Switches by platform (render/registry.py: each renderer's legend), then every other meaning.
COLOURS = dict((name, r.legend) for name, r in registry.RENDERERS.items())
COLOURS.update({
    "hosts": ("#ffffff", "GPU hosts"),
    "link": ("#6b7280", "links (width and xN: how many)"),
    "lossless_headroom": ("#f59e0b", "lossless PG headroom (xon + xoff, per PG)"),
    "pg_minimum": ("#a16207", "lossless PG minimums (guaranteed per PG; xoff is in the "
                              "shared headroom pool)"),
    "shared_headroom_pool": ("#f472b6", "shared headroom pool (xoff of all lossless PGs)"),
    "lossy_reserved": ("#a78bfa", "lossy PG reservations"),
    "management_pool": ("#64748b", "management pool"),
    "mirror_headroom": ("#6366f1", "egress mirror headroom"),
    "management_pg": ("#94a3b8", "management PGs (one per admin-up port)"),
    "egress_lossy_profile": ("#c4b5fd", "egress lossy profile (in each port's egress list)"),
    "descriptors_pool": ("#334155", "modification descriptors pool"),
    "shared_pool": ("#cbd5e1", "shared pool (what PGs and queues share)"),   # text: grey
    "ecn": ("#059669", "ECN marking (Kmin, Kmax)"),
    "pause": ("#dc2626", "PFC pause points (XOFF)"),
    "xon": ("#7f1d1d", "PFC resume (xon)"),
    "text": ("#4b5563", ""),
})
CARVE_NAMES = {"lossless_headroom": "lossless PG headroom",
               "pg_minimum": "lossless PG minimums (not headroom)"}


def colour(meaning: str) -> str:
    return COLOURS[meaning][0]


def _text(x: float, y: float, text: Any, size: int = 11, anchor: str = "middle",
          extra: str = "") -> str:
    return '<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" %s%s>%s</text>' % (
        x, y, size, anchor, FONT, extra, escape(str(text)))


def _svg(width: float, height: float, body: List[str]) -> str:
    return "\n".join(['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                      'viewBox="0 0 %d %d">' % (width, height, width, height),
                      '<rect width="100%" height="100%" fill="white"/>'] + body + ["</svg>"]) \
        + "\n"


def _legend(x: float, y: float, entries: Iterable[Tuple[str, str]],
            right: Optional[float] = None) -> Tuple[List[str], float]:
    """Swatches with their meaning, left to right (wrapping before ``right``); returns (svg
    elements, y of the last row)."""
    out, x0 = [], x
    for meaning, text in entries:
        label = text or COLOURS[meaning][1]
        w = 24 + 5.6 * len(label)
        if right is not None and x + w > right and x > x0:
            x, y = x0, y + 16
        if meaning == "link":
            out.append('<line class="legend-%s" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" '
                       'stroke-width="3" stroke-opacity="0.6"/>'
                       % (meaning, x, y - 4, x + 10, y - 4, colour(meaning)))
        else:
            out.append('<rect class="legend-%s" x="%.1f" y="%d" width="10" height="10" fill="%s" '
                       'stroke="#374151" stroke-width="0.5"/>'
                       % (meaning, x, y - 9, colour(meaning)))
        out.append(_text(x + 14, y, label, 10, "start", ' fill="%s"' % colour("text")))
        x += w
    return out, y


def _ranges(numbers: Sequence[int]) -> str:
    """'0-1', '3', '0-2, 5'."""
    out: List[str] = []
    run: List[int] = []
    for n in sorted(set(numbers)):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append("%d-%d" % (run[0], run[-1]) if len(run) > 1 else "%d" % run[0])
        run = [n]
    if run:
        out.append("%d-%d" % (run[0], run[-1]) if len(run) > 1 else "%d" % run[0])
    return ", ".join(out)


def names_text(names: Sequence[str], limit: int = 6) -> str:
    """Switch names for a caption: all of them up to ``limit``, else the first ones and how many
    more."""
    names = list(names)
    if len(names) <= limit:
        return ", ".join(names)
    return "%s and %d more" % (", ".join(names[:limit - 1]), len(names) - limit + 1)


def _switch_nodes(switches: Sequence[SwitchIntent], detail: bool
                  ) -> Tuple[Dict[str, str], Dict[str, List[Any]]]:
    node_of: Dict[str, str] = {}
    nodes: Dict[str, List[Any]] = {}
    for d in sorted(switches, key=lambda d: (d.get("plane") or 0, d.get("pod") or "", d["name"])):
        if detail:
            key = d["name"]
            nodes.setdefault(key, [key, d["role"], d.get("plane") or 0, d["name"],
                                   "%s AS%d" % (d["platform"], d["bgp"]["asn"]),
                                   d["platform"], 0])
        else:
            key = "%s %s" % (d.get("pod") or "fabric" if d["role"] != "superspine" else
                             "plane %d" % (d.get("plane") or 0), PLURAL[d["role"]])
            node = nodes.setdefault(key, [key, d["role"], d.get("plane") or 0, key, "",
                                          d["platform"], 0])
            if node[5] != d["platform"]:
                node[5] = "mixed"
            node[6] += 1
            node[4] = "%d switches" % node[6]
        node_of[d["name"]] = key
    return node_of, nodes


def _host_groups(plan: Plan, node_of: Mapping[str, str],
                 detail: bool) -> Dict[Tuple[Any, ...], List[Any]]:
    """Hosts as wired: {group key: [hosts, nics, {leaf node: (rails, links)}]}, a group being
    the hosts cabled to the same set of leaf nodes (every host in one group)."""
    by_leaves: Dict[Tuple[Any, ...], List[Any]] = {}
    for dev in plan["devices"].values():
        if dev["kind"] != "host":
            continue
        d = cast(HostIntent, dev)
        if not d["nics"]:
            continue
        rails: Dict[str, List[int]] = {}
        for nic in d["nics"]:
            rails.setdefault(node_of[nic["leaf"]], []).append(nic["rail"])
        key = tuple(sorted((leaf, tuple(r)) for leaf, r in rails.items())) if detail else \
            tuple(sorted(rails))
        group = by_leaves.setdefault(key, [0, 0, {}])
        group[0] += 1
        group[1] += len(d["nics"])
        for leaf, r in rails.items():
            entry = group[2].setdefault(leaf, [set(), 0])
            entry[0].update(r)
            entry[1] += len(r)
    return by_leaves


def _nodes(plan: Plan
           ) -> Tuple[List[Node], Dict[Tuple[str, str], str], Dict[Tuple[str, str], int], bool]:
    """[(node id, tier, plane, label, sublabel, fill meaning)], {(a, b): label} and {(a, b):
    links} between nodes, and whether switches are drawn one by one (else by pod); host boxes
    have tier "hosts" and plane None (they sit below every plane)."""
    switches = [cast(SwitchIntent, d) for d in plan["devices"].values() if d["kind"] == "switch"]
    detail = len(switches) <= MAX_DETAIL_SWITCHES
    node_of, nodes = _switch_nodes(switches, detail)
    links: Dict[Tuple[str, str], int] = {}
    for d in switches:
        for port in d["ports"]:
            if port["peer_kind"] == "host":
                continue
            a, b = node_of[d["name"]], node_of.get(port["peer"])
            if b is None or a == b:
                continue
            edge = (a, b) if a < b else (b, a)
            links[edge] = links.get(edge, 0) + 1
    labels = dict((edge, "x%d" % (count // 2) if count > 2 else "")   # counted from both ends
                  for edge, count in links.items())
    widths = dict((edge, count // 2) for edge, count in links.items())
    groups = _host_groups(plan, node_of, detail)
    order = dict((key, i) for i, key in enumerate(nodes))
    for g, (_key, (hosts, nics, leaves)) in enumerate(sorted(
            groups.items(), key=lambda kv: min(order[leaf] for leaf in kv[1][2]))):
        name = "hosts %d" % g
        nodes[name] = [name, "hosts", None, "%d GPU host%s" % (hosts, "s" if hosts > 1 else ""),
                       "%d NICs" % nics, "hosts", 0]
        for leaf, (rails, count) in leaves.items():
            edge = (name, leaf)
            rail_text = ("rail %s" if len(rails) == 1 else "rails %s") % _ranges(rails)
            labels[edge] = ("%s x%d" % (rail_text, count) if count > 1 else rail_text) \
                if detail else "x%d" % count
            widths[edge] = count
    return [tuple(n[:6]) for n in nodes.values()], labels, widths, detail


def _spread(wanted: Sequence[float], lo: float, step: float) -> List[float]:
    """x positions near ``wanted`` (sorted), at least ``step`` apart, none left of ``lo``."""
    out: List[float] = []
    for x in wanted:
        out.append(max(x, lo if not out else out[-1] + step))
    return out


def topology(plan: Plan) -> str:
    """The fabric's tiers and links, and its GPU hosts as wired, as an SVG picture."""
    nodes, labels, widths, detail = _nodes(plan)
    tiers = [t for t in ("superspine", "spine", "leaf") if any(n[1] == t for n in nodes)]
    hosts = [n for n in nodes if n[1] == "hosts"]
    row_y = dict((t, 60 + 110 * i) for i, t in enumerate(tiers))
    host_y = 60 + 110 * len(tiers)
    body, pos, x0 = _switch_rows(nodes, tiers, row_y)
    xs = _place_hosts(hosts, labels, pos, x0, host_y)
    s = plan["summary"]
    title = "%s: %d GPU hosts, %d NICs, %d leaves, %d spines%s, %d links" % (
        s.get("name", "fabric"), s["hosts"], s["nics"], s["leaves"], s["spines"],
        ", %d super-spines" % s["superspines"] if s["superspines"] else "", s["links"])
    width = int(max(x0 + 20, (xs[-1] + BOX_W + GAP / 2.0 + 20) if xs else 0,
                    40 + 7.5 * len(title), 560))
    body += _link_lines(labels, widths, pos)
    body += _boxes(nodes, pos)
    # the platforms the fabric runs, in the registry's order: the legend and the mixed fill
    present = set(cast(SwitchIntent, d)["platform"] for d in plan["devices"].values()
                  if d["kind"] == "switch")
    platforms = [name for name in registry.RENDERERS if name in present]
    if any(n[5] == "mixed" for n in nodes):
        body.insert(0, _mixed_fill(platforms))
    body.insert(0, _text(20, 22, title, 13, "start", ' font-weight="bold"'))
    bottom = (host_y if hosts else row_y[tiers[-1]]) + BOX_H + 26
    legend, y = _legend(20, bottom, [(name, "") for name in platforms] + [
        ("hosts", "GPU hosts, each host once: the hosts cabled to the same leaves"),
        ("link", "")], width - 20)
    body += legend
    body.append(_text(20, y + 16, "host lines: %s; switch lines: parallel links" % (
        "the rails (NIC indexes) each leaf carries, and the links" if detail else
        "the NIC links into each pod's leaves"), 10, "start", ' fill="%s"' % colour("text")))
    return _svg(width, y + 28, body)


def _switch_rows(nodes: List[Node], tiers: List[str], row_y: Dict[str, int]
                 ) -> Tuple[List[str], Dict[str, Tuple[float, int]], float]:
    """(plane frames, {node: (x, y)} of the switch boxes, the right edge): each plane a column
    of tier rows, its boxes centred in it."""
    planes = sorted(set(n[2] for n in nodes if n[1] != "hosts"))
    columns: Dict[Tuple[Any, str], List[Node]] = {}
    for n in nodes:
        if n[1] != "hosts":
            columns.setdefault((n[2], n[1]), []).append(n)
    plane_w = {p: max(len(columns.get((p, t), [])) for t in row_y) * (BOX_W + GAP) + GAP
               for p in planes}
    pos: Dict[str, Tuple[float, int]] = {}
    x0: float = 20
    body = []
    for p in planes:
        if len(planes) > 1:
            body.append('<rect x="%d" y="34" width="%d" height="%d" fill="none" stroke="#9ca3af" '
                        'stroke-dasharray="4 3"/>' % (x0, plane_w[p],
                                                      row_y[tiers[-1]] + BOX_H + 12 - 34))
            body.append(_text(x0 + 6, 48, "plane %d" % p, 11, "start"))
        for tier in row_y:
            row = columns.get((p, tier), [])
            offset = x0 + (plane_w[p] - len(row) * (BOX_W + GAP)) / 2.0 + GAP / 2.0
            for i, n in enumerate(row):
                pos[n[0]] = (offset + i * (BOX_W + GAP), row_y[tier])
        x0 += plane_w[p]
    return body, pos, x0


def _place_hosts(hosts: List[Node], labels: Dict[Tuple[str, str], str],
                 pos: Dict[str, Tuple[float, int]], x0: float, host_y: int) -> List[float]:
    """Host boxes under the middle of their leaves, pushed apart where they would overlap and
    back as far as fits when too wide (into ``pos``, ``hosts`` sorted by place); their x."""
    centre: Dict[str, List[float]] = {}
    for (a, b) in labels:
        if a.startswith("hosts "):
            centre.setdefault(a, []).append(pos[b][0])
    hosts.sort(key=lambda n: (sum(centre.get(n[0], [0])) / len(centre.get(n[0], [0])), n[0]))
    xs = _spread([sum(centre.get(n[0], [0])) / len(centre.get(n[0], [0])) for n in hosts],
                 20 + GAP / 2.0, BOX_W + GAP)
    if xs and xs[-1] + BOX_W + GAP / 2.0 > x0:      # too wide: shift back as far as fits
        shift = min(xs[-1] + BOX_W + GAP / 2.0 - x0, xs[0] - 20 - GAP / 2.0)
        xs = [x - shift for x in xs]
    for n, x in zip(hosts, xs):
        pos[n[0]] = (x, host_y)
    return xs


def _link_lines(labels: Dict[Tuple[str, str], str], widths: Dict[Tuple[str, str], int],
                pos: Dict[str, Tuple[float, int]]) -> List[str]:
    """A line per pair of nodes (wider for more links), then its label over it when the picture
    has few enough lines to read them."""
    lines, texts = [], []
    show_labels = len(labels) <= MAX_LINK_LABELS
    for (a, b), label in sorted(labels.items()):
        (xa, ya), (xb, yb) = pos[a], pos[b]
        if ya > yb:
            (xa, ya), (xb, yb) = (xb, yb), (xa, ya)
        x1, y1, x2, y2 = xa + BOX_W / 2.0, ya + BOX_H, xb + BOX_W / 2.0, yb
        lines.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" '
                     'stroke-width="%.1f" stroke-opacity="0.6"/>'
                     % (x1, y1, x2, y2, colour("link"), min(1 + math.log(widths[(a, b)], 2), 6)))
        if label and show_labels:
            t = 0.3 if a.startswith("hosts ") or b.startswith("hosts ") else 0.5   # near the leaf
            xt, yt = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
            w = 5.2 * len(label) + 6                          # a white label over the line
            texts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="12" rx="2" '
                         'fill="white" fill-opacity="0.85"/>' % (xt - w / 2.0, yt - 6, w))
            texts.append(_text(xt, yt + 3.5, label, 9, extra=' fill="#111827"'))
    return lines + texts


def _boxes(nodes: List[Node], pos: Dict[str, Tuple[float, int]]) -> List[str]:
    out = []
    for n in nodes:
        x, y = pos[n[0]]
        fill = "url(#mixed)" if n[5] == "mixed" else colour(n[5])
        out.append('<rect x="%.1f" y="%d" width="%d" height="%d" rx="4" fill="%s" '
                   'stroke="#374151"/>' % (x, y, BOX_W, BOX_H, fill))
        out.append(_text(x + BOX_W / 2.0, y + 13, n[3], 10))
        out.append(_text(x + BOX_W / 2.0, y + 25, n[4], 8, extra=' fill="#4b5563"'))
    return out


def _mixed_fill(names: List[str]) -> str:
    """The fill of a box whose switches run several platforms: one band per platform of the
    fabric (``names``)."""
    stops = []
    for i in range(len(names) - 1):
        at = "%g" % ((i + 1) / float(len(names)))
        stops += ['<stop offset="%s" stop-color="%s"/>' % (at, colour(names[i])),
                  '<stop offset="%s" stop-color="%s"/>' % (at, colour(names[i + 1]))]
    return '<defs><linearGradient id="mixed">%s</linearGradient></defs>' % "".join(stops)


def _mib(value: float) -> str:
    return "%.1f MiB" % (value / 1048576.0) if value >= 1048576 else "%.0f KiB" % (value / 1024.0)


def _carve(buf: Mapping[str, Any]) -> List[Tuple[str, str, int]]:
    """[(meaning, label, bytes)] of the carve, then the shared pool."""
    pooled = any(item[0] == "shared_headroom_pool" for item in buf["carve"])
    out = []
    for item in buf["carve"]:
        meaning = "pg_minimum" if item[0] == "lossless_headroom" and pooled else item[0]
        if meaning not in COLOURS:
            meaning = "lossy_reserved" if "lossy" in meaning else "management_pool"
        out.append((meaning, CARVE_NAMES.get(meaning, item[0].replace("_", " ")), item[1]))
    out.append(("shared_pool", "shared pool", buf["shared_pool_bytes"]))
    return out


def _marks(dev: SwitchIntent) -> Tuple[List[Tuple[str, str, Any]], Any, Dict[str, Any]]:
    """[(meaning, label, bytes)] on the threshold axis, and the ECN marks and trigger."""
    buf = dev["buffer"]
    trig = buf["trigger"] or {}
    ports = [p["lossless"] for p in dev["ports"] if p["lossless"]]
    marks: List[Tuple[str, str, Any]] = []
    ecn = None
    if ports:
        headroom = max(ports, key=lambda ll: ll["headroom"]["xoff_bytes"])
        ecn = ports[0]["ecn"]
        marks.append(("xon", "xon", headroom["headroom"]["xon_bytes"]))
        marks.append(("lossless_headroom", "headroom (xoff)",
                      headroom["headroom_configured_bytes"]))
        if ecn:
            marks += [("ecn", "ECN Kmin", ecn["kmin_bytes"]), ("ecn", "ECN Kmax",
                                                               ecn["kmax_bytes"])]
    marks += [("pause", "pause, incast", trig.get("incast_pause_bytes")),
              ("pause", "pause, all PGs", trig.get("trigger_n_pgs_bytes")),
              ("pause", "pause, one PG", trig.get("trigger_one_pg_bytes")),
              ("shared_pool", "shared pool", buf["shared_pool_bytes"])]
    if buf["itms"] > 1:         # a PG or queue lives in one ITM: its pause points sit within it
        marks.append(("shared_pool", "one ITM", buf["itm_pool_bytes"]))
    return sorted((m for m in marks if m[2]), key=lambda m: (m[2], m[1])), ecn, trig


def buffer_key(dev: SwitchIntent) -> Tuple[Any, ...]:
    """What a buffer picture shows, without the switch's name: switches with the same key share
    one picture."""
    buf = dev["buffer"]
    marks, _ecn, trig = _marks(dev)
    return (dev["asic"], dev["platform"], buf["pool_accounting"], buf["total_buffer_bytes"],
            tuple(_carve(buf)), tuple(marks), trig.get("incast_fanout_ports"))


def buffer(devs: List[SwitchIntent], key: str) -> str:
    """The buffer of the switches ``devs`` (one carve, shared): the carve (linear) and its
    thresholds (log axis, bytes), with the rules that order them."""
    dev = devs[0]
    buf = dev["buffer"]
    total = float(buf["total_buffer_bytes"])
    width, left, right = 960, 40, 920
    span = right - left
    body = [_text(left, 24, "Buffer of %s: %s (%s, %s, %s accounting), %s" % (
        key, names_text([d["name"] for d in devs]), dev["asic"], dev["platform"],
        buf["pool_accounting"], _mib(total)), 13, "start", ' font-weight="bold"')]
    # 1. the carve, linear: what comes off the top, then the shared pool
    segments = _carve(buf)
    x = float(left)
    for meaning, _name, nbytes in segments:
        w = span * nbytes / total
        body.append('<rect x="%.1f" y="40" width="%.2f" height="26" fill="%s" stroke="white" '
                    'stroke-width="0.5"/>' % (x, max(w, 0.5), colour(meaning)))
        x += w
    legend, y = _legend(left, 86, [(meaning, "%s %s" % (name, _mib(nbytes)))
                                   for meaning, name, nbytes in segments], right)
    body += legend
    # 2. thresholds on one log axis (bytes of one queue / PG), 1 KiB .. the buffer
    lo, hi = math.log10(1024), math.log10(total)
    axis_y = y + 84

    def at(value: float) -> float:
        return left + span * (math.log10(max(value, 1024)) - lo) / (hi - lo)
    body.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#111827"/>' % (
        left, axis_y, right, axis_y))
    tick = 1024
    while tick <= total:                # 1 KiB, 4 KiB, 16 KiB ... : round labels
        xv = at(tick)
        body.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#111827"/>' % (
            xv, axis_y, xv, axis_y + 5))
        body.append(_text(xv, axis_y + 17, _mib(tick), 9, extra=' fill="#4b5563"'))
        tick *= 4
    marks, ecn, trig = _marks(dev)
    for i, (meaning, name, value) in enumerate(marks):
        xv = at(value)
        up = i % 2 == 0
        y_text = axis_y - 28 - 14 * (i % 4 // 2) if up else axis_y + 34 + 14 * (i % 4 // 2)
        body.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2"/>'
                    % (xv, axis_y - 12, xv, axis_y + 12, colour(meaning)))
        anchor = "end" if xv > right - 80 else "start" if xv < left + 80 else "middle"
        body.append(_text(xv, y_text, "%s %s" % (name, _mib(value)), 10, anchor,
                          extra=' fill="%s"' % colour("text" if meaning == "shared_pool"
                                                      else meaning)))
    y = axis_y + 80
    body.append(_text(left, y, "Per lossless queue / PG, log scale. The rules that order "
                      "them (docs/fabric-and-checks.md):", 10, "start",
                      ' fill="%s"' % colour("text")))
    rules = []
    if ecn and trig.get("incast_pause_bytes"):
        rules.append("ECN Kmin %s below the incast pause point %s (every one of the %d lossless "
                     "ports congested; rule ecn-before-pfc-incast): %s"
                     % (_mib(ecn["kmin_bytes"]), _mib(trig["incast_pause_bytes"]),
                        trig.get("incast_fanout_ports") or 0,
                        "holds" if ecn["kmin_bytes"] < trig["incast_pause_bytes"] else
                        "BROKEN"))
    if ecn and trig.get("trigger_one_pg_bytes"):
        rules.append("ECN Kmax %s below the one-PG pause point %s (rule ecn-before-pfc): %s"
                     % (_mib(ecn["kmax_bytes"]), _mib(trig["trigger_one_pg_bytes"]),
                        "holds" if ecn["kmax_bytes"] < trig["trigger_one_pg_bytes"] else
                        "BROKEN"))
    if trig.get("trigger_n_pgs_bytes"):
        rules.append("pause, all PGs: where each PG pauses when all %d lossless PGs are "
                     "congested at once; the headroom (xoff) absorbs what is in flight after "
                     "XOFF" % (trig.get("congested_pgs") or 0))
    for rule_text in rules:
        y += 15
        body.append(_text(left, y, rule_text, 10, "start", ' fill="%s"' % colour("text")))
    legend, y = _legend(left, y + 22, [("ecn", ""), ("pause", ""), ("xon", ""),
                                       ("lossless_headroom", "lossless PG headroom (on the "
                                        "axis: the largest xoff of one PG)")], right)
    body += legend
    return _svg(width, y + 14, body)
