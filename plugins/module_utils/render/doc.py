# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The device document: what a switch is, its buffer carve and a per-port lossless table, each
number with where it came from."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import registry


def size(value: Optional[float]) -> str:
    """Bytes as a reader takes them in: '148,153,344 B (141.3 MiB)'; exact bytes first."""
    if value is None:
        return "-"
    value = int(value)
    for unit, scale in (("MiB", 1048576.0), ("KiB", 1024.0)):
        if abs(value) >= scale:
            return "{:,} B ({:.1f} {})".format(value, value / scale, unit)
    return "{:,} B".format(value)


def _num(value: Optional[float]) -> str:
    return "-" if value is None else "{:,}".format(int(value))


def _list(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values) or "none"


def device_doc(dev: SwitchIntent) -> str:
    """Markdown: what the device is, and a per-port lossless table with where numbers came from."""
    buf = dev["buffer"]
    trig = buf["trigger"] or {}
    hr_model = buf["model"]
    q = dev["qos"]
    hw = dev.get("hardware") or {}
    lines = [
        "# %s" % dev["name"], "",
        "| | |", "|---|---|",
        "| role | %s%s |" % (dev["role"], ", leaf pair %d" % (dev["pair"] + 1)
                             if dev["pair"] is not None else ""),
        "| platform / switch / ASIC | %s / %s / %s |"
        % (dev["platform"], "%s, %s, %d ports" % (hw["product"], hw["breakout"], hw["ports"])
           if hw else "no model (ports from roce_port_map)", dev["asic"]),
        "| loopback / ASN | %s / %d |" % (dev["loopback"], dev["bgp"]["asn"]),
        "| headroom model | %s |" % hr_model,
        "| buffer | %s total; %s headroom reserved; %s shared headroom pool; %s shared pool%s |"
        % (size(buf["total_buffer_bytes"]), size(buf["reserved_headroom_bytes"]),
           size(buf["shared_headroom_pool_bytes"]), size(buf["shared_pool_bytes"]),
           _itm_text(buf)),
        "| PFC trigger | %s: one PG pauses at %s; with every lossless PG congested at %s each "
        "(dynamic_th %s, EOS threshold %s); under incast (%s ports' lossless queues at Kmin) a "
        "PG pauses once each feeding queue holds %s |"
        % (trig.get("mode"), size(trig.get("trigger_one_pg_bytes")),
           size(trig.get("trigger_n_pgs_bytes")), trig.get("dynamic_th", "-"),
           trig.get("eos_threshold", "-"), trig.get("incast_fanout_ports", "-"),
           size(trig.get("incast_pause_bytes"))),
        "| lossless / PFC / ECN / CNP | priority %s / PFC on %s / ECN on queue %s / CNP DSCP %d "
        "-> TC %d, %s |"
        % (_list(q["lossless_priorities"]), _list(q["pfc_priorities"]), _list(q["ecn_queues"]),
           q["cnp_dscp"], q["cnp_tc"], q["cnp_scheduler"]),
        "| ECMP | width %d, maximum-paths %d, hash %s, seed %s, adaptive routing %s |"
        % (dev["bgp"]["ecmp_width"], dev["bgp"]["maximum_paths"],
           # a platform that renders no hash line keeps its own defaults (capabilities.py)
           ", ".join(dev["ecmp"]["rendered"]["hash_fields"]) or "the platform's default",
           dev["ecmp"]["rendered"]["seed_source"] if dev["ecmp"]["rendered"]["seed"] is None
           else "%d (%s)" % (dev["ecmp"]["rendered"]["seed"],
                             dev["ecmp"]["rendered"]["seed_source"]),
           "on" if dev["ecmp"]["rendered"]["adaptive_routing"] else "off"),
        "",
        "## Lossless ports", "",
        "| port | peer | speed | cable | headroom (size, B) | xoff (B) | xon (B) | pause, 1 PG (B) | "
        "pause, incast (per queue, B) | Kmin (B) | Kmax (B) | Pmax |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += _port_rows(dev["ports"], trig)
    lines += [
        "", "## Where the numbers come from", "",
        "- headroom: model `%s` (docs/lossless-math.md §1) from the port's speed, cable length "
        "(rounded up to the profile class), the MTU of both ends and the ASIC's cell size; "
        "xoff absorbs what is in flight after XOFF, xon is the hysteresis, size what the PG "
        "reserves." % hr_model,
        "- PFC trigger: the shared pool left after headroom and reservations%s, with the "
        "target fill as a dynamic threshold (docs/lossless-math.md §2)."
        % (", of which one ITM's share (a PG or queue lives in one of the %d ITMs; every "
           "congested PG counted in one ITM, the worst case)" % buf["itms"]
           if buf["itms"] > 1 else ""),
        "- ECN: 1.5 KB per Gb/s, Kmax = 10 x Kmin, Pmax 20 %%; Kmax clamped to 0.8 x the "
        "one-PG pause point, Kmin to 0.8 x the incast pause point (docs/lossless-math.md §3)%s."
        % _ecn_overrides(dev["ports"]),
        "- catalog facts used without a verified source: %s."
        % (", ".join(dev["unverified_facts"]) or "none"),
    ]
    sources = sorted(set(str(p["lossless"]["headroom"].get("source")) for p in dev["ports"]
                         if p["lossless"] and p["lossless"]["headroom"].get("source")))
    if sources:
        lines.append("- headroom rows: %s." % "; ".join(sources))
    lines += carve_lines(buf)
    lines += registry.RENDERERS[dev["platform"]].doc_notes(dev)
    notes = dev["ecmp"]["rendered"]["not_rendered"]
    if notes:
        lines += ["", "## Requested but not rendered on %s" % dev["platform"], ""]
        lines += ["- " + note for note in notes]
    return "\n".join(lines) + "\n"


def _ecn_overrides(ports: Sequence[Mapping[str, Any]]) -> str:
    """' with overrides ...' when a port's ECN is overridden. The names are the LAST port's, as
    the table loop's variable gave them when it was inline (kept byte-identical; it names
    nothing when only other ports override - worth a fix of its own)."""
    if not any(p["lossless"] and p["lossless"]["ecn"]["overridden"] for p in ports):
        return ""
    return " with overrides %s" % ", ".join(ports[-1]["lossless"]["ecn"]["overridden"])


def _port_rows(ports: Sequence[Mapping[str, Any]], trig: Mapping[str, Any]) -> List[str]:
    """The lossless table's rows. A switch's ports fall in a few classes with the same numbers,
    so each class's number columns are formatted once (keyed by the numbers themselves: equal
    numbers format equally) - formatting them per port was most of the document's time."""
    pause = "%s | %s" % (_num(trig.get("trigger_one_pg_bytes")),
                         _num(trig.get("incast_pause_bytes")))
    tails: Dict[Tuple[Any, ...], str] = {}
    rows = []
    for p in ports:
        ll = p["lossless"]
        if not ll:
            rows.append("| %s | %s:%s | %dG | %g m | admin down | | | | | | | |"
                        % (p["name"], p["peer"], p["peer_port"], p["speed_gbps"], p["cable_m"]))
            continue
        hr, e = ll["headroom"], ll["ecn"]
        numbers = (ll["cable_class_m"], hr["size_bytes"], ll["headroom_configured_bytes"],
                   hr["xon_bytes"], e["kmin_bytes"], e["kmax_bytes"], e["pmax_percent"])
        tail = tails.get(numbers)
        if tail is None:
            tail = tails[numbers] = (
                " (class %d m) | %s | %s | %s | %s | %s | %s | %d%% |"
                % (numbers[0], _num(numbers[1]), _num(numbers[2]), _num(numbers[3]), pause,
                   _num(numbers[4]), _num(numbers[5]), numbers[6]))
        rows.append("| %s | %s:%s | %dG | %g m%s"
                    % (p["name"], p["peer"], p["peer_port"], p["speed_gbps"], p["cable_m"], tail))
    return rows


def _mib(value: float) -> str:
    return "%.2f" % (value / 1048576.0)


def _itm_text(buf: Mapping[str, Any]) -> str:
    """' (N ITMs: X each, ...)' on a chip of several memory buffers, else ''."""
    if buf["itms"] <= 1:
        return ""
    return " (%d ITMs: %s each, all one PG or queue reaches)" % (buf["itms"],
                                                                 size(buf["itm_pool_bytes"]))


def carve_lines(buf: Mapping[str, Any]) -> List[str]:
    """The buffer carve as a table: what comes off the top, and the shared pool left (and the
    share of one ITM, on a chip of several)."""
    lines = ["", "## Buffer carve (%s accounting)" % buf["pool_accounting"], "",
             "| region | bytes | MiB | what | source |", "|---|---:|---:|---|---|"]
    for key, nbytes, what, source in buf["carve"]:
        lines.append("| %s | %s | %s | %s | %s |" % (key.replace("_", " "), _num(nbytes),
                                                     _mib(nbytes), what, source))
    itms = buf["itms"]
    lines.append("| **shared pool** | %s | %s | what is left: %s | total minus the rows above |"
                 % (_num(buf["shared_pool_bytes"]), _mib(buf["shared_pool_bytes"]),
                    "the pool of all %d ITMs together" % itms if itms > 1 else
                    "the pool the lossless PGs' threshold works on"))
    if itms > 1:
        lines.append("| **one ITM** | %s | %s | the shared pool's share of one of the %d ITMs "
                     "a PG or queue lives in: the pool its threshold works on | %s |"
                     % (_num(buf["itm_pool_bytes"]), _mib(buf["itm_pool_bytes"]), itms,
                        buf["itms_source"]))
    lines.append("| total | %s | %s | the ASIC's buffer | %s |"
                 % (_num(buf["total_buffer_bytes"]), _mib(buf["total_buffer_bytes"]),
                    buf.get("total_buffer_source", "catalog")))
    return lines
