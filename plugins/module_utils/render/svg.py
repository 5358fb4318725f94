# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Pictures of the plan as plain SVG text (no dependencies, deterministic output):

- topology: tiers as rows (super-spines, spines, leaves, GPU hosts per leaf pair), planes side by
  side, one line per connected switch pair with its link count; pods instead of switches when a
  fabric is too large to draw switch by switch;
- buffer: one switch's carve on a linear bar, and its thresholds (xon, headroom, ECN Kmin/Kmax,
  pause points under incast and for one PG) on one logarithmic bytes axis, so ECN marking before
  PFC pausing is visible at a glance.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from xml.sax.saxutils import escape

from ansible_collections.roce.fabric.plugins.module_utils.records import Plan, SwitchIntent

FONT = 'font-family="Helvetica,Arial,sans-serif"'
BOX_W, BOX_H, GAP = 104, 30, 12
FILL = {"sonic": "#dbeafe", "eos": "#dcfce7", "hosts": "#f3f4f6", "pod": "#fef3c7"}
MAX_DETAIL_SWITCHES = 96        # above this the topology shows pods
PLURAL = {"superspine": "super-spines", "spine": "spines", "leaf": "leaves"}
CARVE_COLOURS = ("#f59e0b", "#a78bfa", "#f472b6", "#60a5fa", "#34d399", "#fb7185")


def _text(x, y, text, size=11, anchor="middle", extra=""):
    return '<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" %s%s>%s</text>' % (
        x, y, size, anchor, FONT, extra, escape(str(text)))


def _svg(width, height, body):
    return "\n".join(['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                      'viewBox="0 0 %d %d">' % (width, height, width, height),
                      '<rect width="100%" height="100%" fill="white"/>'] + body + ["</svg>"]) \
        + "\n"


def _nodes(plan):
    """[(node id, tier, plane, label, sublabel, fill)] and {(a, b): links} between nodes."""
    switches = [d for d in plan["devices"].values() if d["kind"] == "switch"]
    detail = len(switches) <= MAX_DETAIL_SWITCHES
    node_of, nodes = {}, {}
    for d in sorted(switches, key=lambda d: (d.get("plane") or 0, d.get("pod") or "", d["name"])):
        if detail:
            key = d["name"]
            nodes.setdefault(key, [key, d["role"], d.get("plane") or 0, d["name"],
                                   "%s AS%d" % (d["platform"], d["bgp"]["asn"]),
                                   FILL[d["platform"]], 0])
        else:
            key = "%s %s" % (d.get("pod") or "fabric" if d["role"] != "superspine" else
                             "plane %d" % (d.get("plane") or 0), PLURAL[d["role"]])
            nodes.setdefault(key, [key, d["role"], d.get("plane") or 0, key, "", FILL["pod"], 0])
            nodes[key][6] += 1
            nodes[key][4] = "%d switches" % nodes[key][6]
        node_of[d["name"]] = key
    pairs = plan["summary"]["pairs"] or [[d["name"]] for d in switches if d["role"] == "leaf"]
    groups = {}            # host box: a leaf pair's hosts, or a pod's in the pod view
    for i, pair in enumerate(pairs):
        first = plan["devices"][pair[0]]
        key = "hosts %d" % i if detail else "hosts %s" % (first.get("pod") or "fabric")
        group = groups.setdefault(key, [set(), 0, first.get("plane") or 0])
        for leaf in pair:
            node_of["hosts-of-" + leaf] = key
            for port in plan["devices"][leaf]["ports"]:
                if port["peer_kind"] == "host":
                    group[0].add(port["peer"])
                    group[1] += 1
    for key, (hosts, nics, plane) in groups.items():
        nodes[key] = [key, "hosts", plane, "%d GPU hosts" % len(hosts), "%d NICs" % nics,
                      FILL["hosts"], 0]
    links = {}
    for d in switches:
        for port in d["ports"]:
            a = node_of[d["name"]]
            b = node_of.get(port["peer"]) if port["peer_kind"] != "host" else \
                node_of.get("hosts-of-" + d["name"])
            if b is None or a == b:
                continue
            edge = tuple(sorted((a, b)))
            links[edge] = links.get(edge, 0) + 1
    # a switch-switch link was counted from both ends; host links once
    for edge in links:
        if not (edge[0].startswith("hosts ") or edge[1].startswith("hosts ")):
            links[edge] //= 2
    return [tuple(n[:6]) for n in nodes.values()], links


def topology(plan: Plan) -> str:
    """The fabric's tiers and links as an SVG picture."""
    nodes, links = _nodes(plan)
    tiers = [t for t in ("superspine", "spine", "leaf", "hosts") if any(n[1] == t for n in nodes)]
    row_y = dict((t, 60 + 110 * i) for i, t in enumerate(tiers))
    planes = sorted(set(n[2] for n in nodes))
    columns = {}
    for n in nodes:
        columns.setdefault((n[2], n[1]), []).append(n)
    plane_w = {p: max(len(columns.get((p, t), [])) for t in row_y) * (BOX_W + GAP) + GAP
               for p in planes}
    width = max(sum(plane_w.values()) + 40, 520)
    pos, x0 = {}, 20
    body = []
    for p in planes:
        if len(planes) > 1:
            body.append('<rect x="%d" y="34" width="%d" height="%d" fill="none" stroke="#9ca3af" '
                        'stroke-dasharray="4 3"/>' % (x0, plane_w[p], row_y["hosts"] + 10))
            body.append(_text(x0 + 6, 48, "plane %d" % p, 11, "start"))
        for tier in row_y:
            row = columns.get((p, tier), [])
            offset = x0 + (plane_w[p] - len(row) * (BOX_W + GAP)) / 2.0 + GAP / 2.0
            for i, n in enumerate(row):
                pos[n[0]] = (offset + i * (BOX_W + GAP), row_y[tier])
        x0 += plane_w[p]
    for (a, b), count in sorted(links.items()):
        (xa, ya), (xb, yb) = pos[a], pos[b]
        if ya > yb:
            (xa, ya), (xb, yb) = (xb, yb), (xa, ya)
        body.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#6b7280" '
                    'stroke-width="%.1f" stroke-opacity="0.6"/>'
                    % (xa + BOX_W / 2.0, ya + BOX_H, xb + BOX_W / 2.0, yb,
                       min(1 + math.log(count, 2), 6)))
        if count > 1 and len(links) <= 200:
            body.append(_text((xa + xb + BOX_W) / 2.0, (ya + BOX_H + yb) / 2.0 + 4,
                              "x%d" % count, 9, extra=' fill="#374151"'))
    for n in nodes:
        x, y = pos[n[0]]
        body.append('<rect x="%.1f" y="%d" width="%d" height="%d" rx="4" fill="%s" '
                    'stroke="#374151"/>' % (x, y, BOX_W, BOX_H, n[5]))
        body.append(_text(x + BOX_W / 2.0, y + 13, n[3], 10))
        body.append(_text(x + BOX_W / 2.0, y + 25, n[4], 8, extra=' fill="#4b5563"'))
    s = plan["summary"]
    title = "%s: %d GPU hosts, %d NICs, %d leaves, %d spines%s, %d links" % (
        s.get("name", "fabric"), s["hosts"], s["nics"], s["leaves"], s["spines"],
        ", %d super-spines" % s["superspines"] if s["superspines"] else "", s["links"])
    body.insert(0, _text(20, 22, title, 13, "start", ' font-weight="bold"'))
    body.append(_text(20, row_y["hosts"] + 62, "blue: SONiC, green: EOS; line width and xN: "
                      "parallel links", 10, "start", ' fill="#4b5563"'))
    return _svg(width, row_y["hosts"] + 74, body)


def _mib(value):
    return "%.1f MiB" % (value / 1048576.0) if value >= 1048576 else "%.0f KiB" % (value / 1024.0)


def buffer(dev: SwitchIntent, key: str) -> str:
    """One switch's buffer: the carve (linear) and its thresholds (log axis, bytes)."""
    buf = dev["buffer"]
    trig = buf["trigger"] or {}
    total = float(buf["total_buffer_bytes"])
    width, left, right = 960, 40, 920
    span = right - left
    body = [_text(left, 24, "%s (%s, %s, %s, %s accounting): buffer %s" % (
        dev["name"], key, dev["asic"], dev["platform"], buf["vendor"], _mib(total)),
        13, "start", ' font-weight="bold"')]
    # 1. the carve, linear: what comes off the top, then the shared pool
    segments = [(item[0].replace("_", " "), item[1]) for item in buf["carve"]]
    segments.append(("shared pool", buf["shared_pool_bytes"]))
    x = float(left)
    for i, (name, nbytes) in enumerate(segments):
        w = span * nbytes / total
        colour = "#e5e7eb" if name == "shared pool" else CARVE_COLOURS[i % len(CARVE_COLOURS)]
        body.append('<rect x="%.1f" y="40" width="%.2f" height="26" fill="%s" stroke="white" '
                    'stroke-width="0.5"/>' % (x, max(w, 0.5), colour))
        x += w
    legend_x = left
    for i, (name, nbytes) in enumerate(segments):
        colour = "#e5e7eb" if name == "shared pool" else CARVE_COLOURS[i % len(CARVE_COLOURS)]
        body.append('<rect x="%d" y="76" width="10" height="10" fill="%s"/>'
                    % (legend_x, colour))
        label = "%s %s" % (name, _mib(nbytes))
        body.append(_text(legend_x + 14, 85, label, 10, "start"))
        legend_x += 24 + 6 * len(label)
    # 2. thresholds on one log axis (bytes of one queue / PG), 1 KiB .. the buffer
    lo, hi = math.log10(1024), math.log10(total)
    axis_y = 170

    def at(value):
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
    ports = [p["lossless"] for p in dev["ports"] if p["lossless"]]
    marks = []
    if ports:
        headroom = max(ports, key=lambda ll: ll["headroom"]["xoff_bytes"])
        ecn = ports[0]["ecn"]
        marks += [("xon", headroom["headroom"]["xon_bytes"], "#6b7280"),
                  ("headroom (xoff)", headroom["headroom_configured_bytes"], "#f59e0b"),
                  ("ECN Kmin", ecn["kmin_bytes"], "#059669"),
                  ("ECN Kmax", ecn["kmax_bytes"], "#059669")]
    marks += [("pause, incast", trig.get("incast_pause_bytes"), "#dc2626"),
              ("pause, all PGs", trig.get("trigger_n_pgs_bytes"), "#dc2626"),
              ("pause, one PG", trig.get("trigger_one_pg_bytes"), "#dc2626"),
              ("shared pool", buf["shared_pool_bytes"], "#6b7280")]
    marks = sorted((m for m in marks if m[1]), key=lambda m: m[1])
    for i, (name, value, colour) in enumerate(marks):
        xv = at(value)
        up = i % 2 == 0
        y_text = axis_y - 28 - 14 * (i % 4 // 2) if up else axis_y + 34 + 14 * (i % 4 // 2)
        body.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2"/>'
                    % (xv, axis_y - 12, xv, axis_y + 12, colour))
        anchor = "end" if xv > right - 80 else "start" if xv < left + 80 else "middle"
        body.append(_text(xv, y_text, "%s %s" % (name, _mib(value)), 10, anchor,
                          extra=' fill="%s"' % colour))
    body.append(_text(left, 255, "Per lossless queue / PG, log scale. ECN (green) must mark "
                      "before any pause point (red); headroom absorbs what is in flight after "
                      "XOFF.", 10, "start", ' fill="#4b5563"'))
    return _svg(width, 268, body)
