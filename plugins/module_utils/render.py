# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Render one switch's intent into its files: config, structured intent, device document.

Output paths are relative to the output root: configs/<host>.json (SONiC config_db) plus
configs/<host>.bgpd.conf (FRR, split mode), or configs/<host>.cfg (EOS); structured/<host>.yml;
docs/<host>.md. Pure text in, text out: the action plugin decides what to write.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ansible_collections.roce.fabric.plugins.module_utils import render_eos, render_sonic

ARS_NOTE = ("Adaptive routing / ARS: upstream SONiC has no ARS orchestration (HLD merged as "
            "sonic-net/SONiC#1958, code PRs open), so no ARS tables are rendered; use the "
            "vendor's (e.g. NVIDIA) SONiC feature or rely on ECMP with QPs per connection.")


def _yaml(value, indent=0):
    """Minimal deterministic YAML (block style) for the structured intent; no PyYAML needed."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return " {}"
        lines = []
        for key in value:
            child = value[key]
            text = _yaml(child, indent + 1)
            sep = "" if text.startswith(" ") or text.startswith("\n") else " "
            lines.append("%s%s:%s%s" % (pad, json.dumps(str(key)), sep, text))
        return "\n" + "\n".join(lines)
    if isinstance(value, list):
        if not value:
            return " []"
        lines = []
        for item in value:
            text = _yaml(item, indent + 1)
            if text.startswith("\n"):
                text = text.lstrip("\n")[len(pad) + 2:] if text.lstrip("\n").startswith(
                    pad + "  ") else text.lstrip("\n")
                lines.append("%s- %s" % (pad, text))
            else:
                lines.append("%s-%s" % (pad, text))
        return "\n" + "\n".join(lines)
    return " " + json.dumps(value)


def structured_yaml(dev):
    return "---\n# roce.fabric structured intent of %s (platform-neutral)" % dev["name"] + \
        _yaml(dev) + "\n"


def device_doc(dev):
    """Markdown: what the device is, and a per-port lossless table with where numbers came from."""
    buf = dev["buffer"]
    trig = buf["trigger"] or {}
    hr_model = buf["model"]
    lines = [
        "# %s" % dev["name"], "",
        "| | |", "|---|---|",
        "| role | %s (pair %s) |" % (dev["role"], dev["pair"] if dev["pair"] is not None else "-"),
        "| platform / ASIC | %s / %s |" % (dev["platform"], dev["asic"]),
        "| loopback / ASN | %s / %d |" % (dev["loopback"], dev["bgp"]["asn"]),
        "| headroom model | %s |" % hr_model,
        "| buffer | %d B total, %d B headroom reserved, %d B shared headroom pool, %d B shared pool |"
        % (buf["total_buffer_bytes"], buf["reserved_headroom_bytes"],
           buf["shared_headroom_pool_bytes"], buf["shared_pool_bytes"]),
        "| PFC trigger | %s: one PG pauses at %s B, every lossless PG congested at %s B each "
        "(dynamic_th %s, EOS threshold %s) |"
        % (trig.get("mode"), trig.get("trigger_one_pg_bytes"), trig.get("trigger_n_pgs_bytes"),
           trig.get("dynamic_th", "-"), trig.get("eos_threshold", "-")),
        "| lossless / PFC / ECN / CNP | priorities %s / %s / queues %s / DSCP %d -> TC %d %s |"
        % (dev["qos"]["lossless_priorities"], dev["qos"]["pfc_priorities"],
           dev["qos"]["ecn_queues"], dev["qos"]["cnp_dscp"], dev["qos"]["cnp_tc"],
           dev["qos"]["cnp_scheduler"]),
        "| ECMP | width %d, maximum-paths %d, seed %s, adaptive routing %s |"
        % (dev["bgp"]["ecmp_width"], dev["bgp"]["maximum_paths"], dev["ecmp"]["seed"],
           dev["ecmp"]["adaptive_routing"]),
        "",
        "## Lossless ports", "",
        "| port | peer | speed | cable | headroom (size) | xoff | xon | PFC trigger | Kmin | Kmax"
        " | Pmax |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in dev["ports"]:
        ll = p["lossless"]
        if not ll:
            lines.append("| %s | %s:%s | %dG | %g m | admin down | | | | | | |"
                         % (p["name"], p["peer"], p["peer_port"], p["speed_gbps"], p["cable_m"]))
            continue
        hr, e = ll["headroom"], ll["ecn"]
        lines.append("| %s | %s:%s | %dG | %g m (class %d m) | %d | %d | %d | %s | %d | %d | %d%% |"
                     % (p["name"], p["peer"], p["peer_port"], p["speed_gbps"], p["cable_m"],
                        ll["cable_class_m"], hr["size_bytes"], ll["headroom_configured_bytes"],
                        hr["xon_bytes"], trig.get("trigger_one_pg_bytes"), e["kmin_bytes"],
                        e["kmax_bytes"], e["pmax_percent"]))
    lines += [
        "", "## Where the numbers come from", "",
        "- headroom: model `%s` (docs/lossless-math.md §1) from the port's speed, cable length "
        "(rounded up to the profile class), the MTU of both ends and the ASIC's cell size; "
        "xoff absorbs what is in flight after XOFF, xon is the hysteresis, size what the PG "
        "reserves." % hr_model,
        "- PFC trigger: the shared pool left after headroom and reservations, with the target "
        "fill as a dynamic threshold (docs/lossless-math.md §2).",
        "- ECN: 1.5 KB per Gb/s, Kmax = 10 x Kmin, Pmax 20 %%, clamped to 0.8 x the trigger "
        "(docs/lossless-math.md §3)%s." % (" with overrides %s" % ", ".join(
            p["lossless"]["ecn"]["overridden"]) if any(
            p["lossless"] and p["lossless"]["ecn"]["overridden"] for p in dev["ports"]) else ""),
        "- catalog facts used without a verified source: %s."
        % (", ".join(dev["unverified_facts"]) or "none"),
    ]
    if dev["platform"] == "sonic":
        lines += ["", "## SONiC notes", "", "- FRR runs in split mode: bgpd.conf is rendered "
                  "next to config_db.json and loaded as is.", "- " + ARS_NOTE]
    elif dev["asic"] not in render_eos.SAND:
        lines += ["", "## EOS notes", "", "- " + render_eos.HASH_NOTE % dev["asic"]]
    return "\n".join(lines) + "\n"


def render_switch(dev):
    """{relative path: text} for switch intent ``dev``."""
    name = dev["name"]
    files = {"structured/%s.yml" % name: structured_yaml(dev),
             "docs/%s.md" % name: device_doc(dev)}
    if dev["platform"] == "sonic":
        files["configs/%s.json" % name] = json.dumps(render_sonic.config_db(dev), indent=2,
                                                     sort_keys=True) + "\n"
        files["configs/%s.bgpd.conf" % name] = render_sonic.frr_bgpd(dev)
    else:
        files["configs/%s.cfg" % name] = render_eos.eos_config(dev)
    return files
