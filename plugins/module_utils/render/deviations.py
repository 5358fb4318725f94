# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""fabric/deviations.md: every lossless number the plan renders beside the vendor's default for
that SKU or platform (hardware/sku_tables.py: the HWSKU's pg_profile_lookup.ini row, its buffer
template's pools, SONiC's qos_config.j2 WRED and PFC watchdog defaults, EOS's), the difference
and the reason. Devices with the same rows share one section; the fabric table counts them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from collections import OrderedDict
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware import sku_tables
from ansible_collections.roce.fabric.plugins.module_utils.records import Plan, SwitchIntent

Row = Tuple[str, str, str, str, str]      # number, vendor, rendered, difference, reason

R_ECN = ("ECN marks before PFC pauses: Kmin 1.5 KB per Gb/s, Kmax 10 x Kmin, Pmax 20 %, "
         "clamped below the pause points (docs/lossless-math.md §3)")
R_ALPHA = ("pause at 2/3 of the shared pool with one PG congested: alpha 2, dynamic_th 1 "
           "(docs/lossless-math.md §2); the vendor's value is the ini threshold column")
R_POOL = ("the plan's carve: the buffer less every PG's headroom and reservation "
          "(docs/lossless-math.md §0); one ingress pool for lossless and lossy PGs")
R_SHP = ("sum(xoff) / over_subscribe_ratio: every lossless PG may hold its whole xoff at once "
         "(docs/lossless-math.md §0); the template over-subscribes its headroom pool")
R_XON = "resume 2 x MTU below the pause point (docs/lossless-math.md §2, DCQCN §5)"
MODEL_REASON = {"ieee": "Model R: IEEE 802.3 delays on the cable class (docs/lossless-math.md "
                        "§1.1)",
                "sonic-nvidia": "SONiC's buffer_headroom_mellanox.lua at the rendered traffic "
                                "pattern (docs/lossless-math.md §1.2)"}


def _n(value: Any) -> str:
    return "-" if value is None else "{:,}".format(int(value)) if isinstance(
        value, (int, float)) else str(value)


def _diff(vendor: Any, rendered: Any) -> str:
    if not isinstance(vendor, (int, float)) or not isinstance(rendered, (int, float)):
        return "=" if vendor == rendered else "differs"
    d = int(rendered) - int(vendor)
    if not d:
        return "="
    pct = " (%+.0f %%)" % (100.0 * d / vendor) if vendor else ""
    return "{:+,}".format(d) + pct


def _row(number: str, vendor: Any, rendered: Any, reason: str,
         vendor_text: Optional[str] = None) -> Row:
    return (number, vendor_text or _n(vendor), _n(rendered), _diff(vendor, rendered),
            "" if vendor == rendered else reason)


def device_rows(dev: SwitchIntent) -> List[Row]:
    """The rows of one switch."""
    hw = dev.get("hardware") or {}
    hwsku = hw.get("hwsku")
    table = sku_tables.pg_table(hwsku)
    buf = dev["buffer"]
    trig = buf.get("trigger") or {}
    # the platform's defaults, then the HWSKU's own (hardware/sku_tables.py)
    defaults = dict(sku_tables.VENDOR_DEFAULTS[dev["platform"]])
    defaults.update(sku_tables.VENDOR_DEFAULTS.get(hwsku or "", {}))
    rows = []
    # (speed, cable class, MTU) -> a port's lossless
    classes: Dict[Tuple[int, int, int], Any] = OrderedDict()
    for port in dev["ports"]:
        ll = port["lossless"]
        if ll:
            classes.setdefault((port["speed_gbps"], ll["cable_class_m"], port["mtu_bytes"]),
                               ll)
    for (speed, cable, _mtu), ll in classes.items():
        hr = ll["headroom"]
        vrow = table.get((speed, cable))
        label = "headroom xoff %dG %d m" % (speed, cable)
        if vrow:
            rows.append(_row(label, vrow[2], hr["xoff_bytes"], hr.get("source", hr["model"])))
            rows.append(_row("PG size %dG %d m" % (speed, cable), vrow[0], hr["size_bytes"],
                             "size = xon + xoff reserved per PG (docs/lossless-math.md §0)"
                             if buf["headroom_semantics"] == "reserved_per_pg" else
                             hr.get("source", "")))
            if vrow[4] is not None:
                rows.append(_row("xon_offset %dG %d m" % (speed, cable), vrow[4],
                                 trig.get("xon_offset_bytes"), R_XON))
        else:
            why = sku_tables.NO_TABLE.get(hwsku or "") or defaults["pg_profile"][1]
            rows.append(_row(label, None, hr["xoff_bytes"],
                             hr.get("source", MODEL_REASON.get(hr["model"], hr["model"])),
                             vendor_text="none (%s)" % why))
    vthr = sorted(set(r[3] for r in table.values())) if table else None
    if trig:
        rows.append(_row("lossless dynamic_th (alpha)", vthr[0] if vthr and len(vthr) == 1
                         else None, trig.get("dynamic_th"), R_ALPHA,
                         vendor_text=None if vthr else "platform default"))
    template = sku_tables.template(hwsku)
    if template:
        rows.append(_row("ingress_lossless_pool size", template["ingress_lossless_pool"],
                         buf["shared_pool_bytes"], R_POOL))
        rows.append(_row("ingress_lossless_pool xoff (shared headroom pool)",
                         template.get("ingress_lossless_pool_xoff", 0),
                         buf["shared_headroom_pool_bytes"], R_SHP))
        if "ingress_lossy_pool" in template:
            rows.append(_row("ingress_lossy_pool size", template["ingress_lossy_pool"], 0,
                             "not rendered: lossy PGs share the ingress pool (docs/rendering.md,"
                             " Buffer pools)"))
        rows.append(_row("buffer total", template["total"], buf["total_buffer_bytes"],
                         buf["total_buffer_source"]))
    rows += _qos_rows(dev, classes, defaults)
    return rows


def _qos_rows(dev: SwitchIntent, classes: Mapping[Tuple[int, int, int], Any],
              defaults: Mapping[str, Tuple[Any, str]]) -> List[Row]:
    rows = []
    wred, wred_src = defaults["wred"]
    marks: Dict[int, Any] = OrderedDict()
    for (speed, _cable, _mtu), ll in classes.items():
        if ll["ecn"]:
            marks.setdefault(speed, ll["ecn"])
    for speed, ecn in marks.items():
        for key, label in (("kmin_bytes", "ECN Kmin"), ("kmax_bytes", "ECN Kmax"),
                           ("pmax_percent", "ECN Pmax %")):
            rows.append(_row("%s %dG" % (label, speed), (wred or {}).get(key), ecn[key],
                             R_ECN + "; vendor: " + wred_src,
                             vendor_text=None if wred else "none"))
    wd, wd_src = defaults["pfc_watchdog"]
    plan_wd = dev["pfc_watchdog"]
    for key in ("detection_ms", "restoration_ms", "poll_ms", "action"):
        rows.append(_row("PFC watchdog %s" % key, wd.get(key), plan_wd.get(key) if
                         plan_wd["enabled"] else "off", "roce_fabric pfc_watchdog "
                         "(docs/fabric-and-checks.md); vendor: " + wd_src,
                         vendor_text=None if wd.get(key) is not None else "off"))
    mtu, mtu_src = defaults["port_mtu"]
    mtus = sorted(set(p["mtu_bytes"] for p in dev["ports"] if p["lossless"]))
    if mtus:
        rows.append(_row("port MTU", mtu, mtus[-1] if len(mtus) == 1 else
                         "/".join(str(m) for m in mtus), "roce_mtu (jumbo frames for RoCE, "
                         "host-nic.md); vendor: " + mtu_src))
    return rows


def deviations_md(plan: Plan, switches: Optional[List[SwitchIntent]] = None) -> str:
    """fabric/deviations.md of ``plan``."""
    groups: Dict[Tuple[Any, ...], List[str]] = OrderedDict()   # (heading, rows...) -> names
    heads: Dict[Tuple[Any, ...], str] = {}
    for dev in switches or []:
        rows = tuple(device_rows(dev))
        hw = dev.get("hardware") or {}
        head = "%s %s (%s)" % (hw.get("product", dev["asic"]), dev["platform"],
                               hw.get("hwsku") or hw.get("breakout") or "no model")
        groups.setdefault((head,) + rows, []).append(dev["name"])
        heads[(head,) + rows] = head
    out = ["# Deviations from the vendor's defaults", "",
           "Every lossless number the plan renders beside the vendor's default for the SKU or "
           "platform (the HWSKU's `pg_profile_lookup.ini` row and buffer template, SONiC's "
           "`qos_config.j2` WRED, the PFC watchdog default; sources in "
           "`plugins/module_utils/hardware/sku_tables.py`), the difference and the reason. "
           "`=`: the vendor's number is rendered.", "", "## Fabric", ""]
    count: Dict[str, int] = OrderedDict()
    for key, names in groups.items():
        for row in key[1:]:
            if row[3] != "=":
                number = re.sub(r" \d+G( \d+ m)?$", "", row[0])
                count[number] = count.get(number, 0) + len(names)
    out += ["| number | switches rendering another value |", "|---|---|"]
    out += ["| %s | %d |" % (k, v) for k, v in count.items()] or ["| - | 0 |"]
    out += ["", "## Per device", ""]
    for key, names in groups.items():
        out += ["### %s" % ", ".join(names), "", heads[key], "",
                "| number | vendor default | rendered | difference | reason |",
                "|---|---|---|---|---|"]
        out += ["| %s |" % " | ".join(r) for r in key[1:]] + [""]
    return "\n".join(out)
