# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""fabric/deviations.md: every lossless number the rendered config carries beside the vendor's
default for that SKU or platform, the difference and the reason. The rendered column is read
from the config the renderer writes (SONiC: render/sonic/config_db.py; EOS: render/eos/cli.py),
in its own field names and units, so no row speaks of a value the config does not carry. The
vendor column is hardware/sku_tables.py (the HWSKU's pg_profile_lookup.ini row, its buffer
template's pools, qos_config.j2 WRED, the PORT MTU) and hardware/vendor_defaults.py (SONiC's
pfcwd start_default for the HWSKU's PORT count and the targeted release). Where no vendor
source was read the vendor column says so and no difference is claimed. Devices with the same
rows share one section; the fabric table counts them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    sku_tables, vendor_defaults)
from ansible_collections.roce.fabric.plugins.module_utils.records import Plan, SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import document
from ansible_collections.roce.fabric.plugins.module_utils.render.cumulus import (
    nvue as cumulus_nvue)
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos_cli
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import config_db

Row = Tuple[str, str, str, str, str]      # number, vendor, rendered, difference, reason

DEFAULT_SONIC_VERSION = "202605"          # lossless/headroom.py DEFAULT_SONIC_VERSION
NOT_READ = "no source read"
R_ECN = ("ECN marks before PFC pauses: Kmin 1.5 KB per Gb/s, Kmax 10 x Kmin, Pmax 20 %, "
         "clamped below the pause points (docs/lossless-math.md §3)")
R_ALPHA = ("pause at 2/3 of the shared pool with one PG congested: alpha 2 "
           "(docs/lossless-math.md §2)")
# SAI's dynamic threshold: alpha = 2^dynamic_th, so dynamic_th 1 is alpha 2, 0 is alpha 1
R_DYN = R_ALPHA + "; SONiC's dynamic_th is log2(alpha); vendor: the ini's threshold column"
R_POOL = ("the plan's carve: the buffer less every PG's headroom and reservation "
          "(docs/lossless-math.md §0); one ingress pool for lossless and lossy PGs")
R_SHP = ("sum(xoff) / over_subscribe_ratio: every lossless PG may hold its whole xoff at once "
         "(docs/lossless-math.md §0)")
R_NO_SHP = ("no shared headroom pool: each lossless PG's size reserves its own xoff "
            "(docs/lossless-math.md §0)")
R_LOSSY = "not rendered: lossy PGs share ingress_lossless_pool (docs/rendering.md, Buffer pools)"
R_XON = "resume 2 x MTU below the pause point (docs/lossless-math.md §2, DCQCN §5)"
R_WD = "roce_fabric pfc_watchdog (docs/fabric-and-checks.md)"
R_MTU = "roce_mtu (jumbo frames for RoCE, host-nic.md)"
# the formula a SKU table row is held to (lossless/headroom.py _table_formula)
FORMULA = {"spectrum": "SONiC's buffer_headroom_mellanox.lua at the SKU tables' traffic "
                       "pattern (hardware/models.py SKU_TABLE_PATTERN)",
           None: "Model R (IEEE 802.3 delays, docs/lossless-math.md §1.1)"}
MODEL_REASON = {"ieee": FORMULA[None],
                "sonic-nvidia": "SONiC's buffer_headroom_mellanox.lua at the rendered traffic "
                                "pattern (docs/lossless-math.md §1.2)"}


def _n(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return "{:,}".format(int(value))
    return str(value)


def _num(value: Any) -> Optional[float]:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _diff(vendor: Any, rendered: Any) -> str:
    if vendor == rendered or _n(vendor) == _n(rendered):
        return "="
    v, r = _num(vendor), _num(rendered)
    if v is None or r is None:
        return "differs"
    d = r - v
    text = "{:+,}".format(int(d)) if d == int(d) else "%+g" % d
    return text + (" (%+.0f %%)" % (100.0 * d / v) if v else "")


def _row(number: str, vendor: Any, rendered: Any, reason: str,
         vendor_why: Optional[str] = None) -> Row:
    """One row. ``vendor`` None: no vendor value, ``vendor_why`` says why, no difference."""
    if vendor is None:
        return (number, "none (%s)" % (vendor_why or NOT_READ), _n(rendered), "-", reason)
    diff = _diff(vendor, rendered)
    return (number, _n(vendor), _n(rendered), diff, "" if diff == "=" else reason)


def device_rows(dev: SwitchIntent, rendered: Optional[Mapping[str, str]] = None) -> List[Row]:
    """The rows of one switch; ``rendered``: files this run rendered already ({relative path:
    text}), which a platform whose rows read its config text reads instead of rendering it
    again."""
    return ROWS[dev["platform"]](dev, rendered or {})


# -- SONiC: CONFIG_DB as render/sonic/config_db.py writes it ------------------------------------

def _classes(dev: SwitchIntent) -> Dict[str, Any]:
    """{BUFFER_PROFILE name: (speed Gb/s, cable class m, headroom)} of the lossless ports."""
    out: Dict[str, Any] = OrderedDict()
    for port in dev["ports"]:
        ll = port["lossless"]
        if ll:
            out.setdefault(config_db.profile_name(port),
                           (port["speed_gbps"], ll["cable_class_m"], ll["headroom"]))
    return out


def _sonic_rows(dev: SwitchIntent, _rendered: Mapping[str, str]) -> List[Row]:
    # the tables config_db.json is written from (json.loads of the written text costs more than
    # building them again)
    db = config_db.config_db(dev)
    hwsku = (dev.get("hardware") or {}).get("hwsku") or ""
    rows = _pg_rows(dev, db, hwsku) + _pool_rows(dev, db, hwsku) + _wred_rows(dev, db, hwsku)
    rows += _pfcwd_rows(dev, db, hwsku)
    defaults = sku_tables.VENDOR_DEFAULTS["sonic"]
    mtus = sorted(set(int(p["mtu"]) for p in db.get("PORT", {}).values() if "mtu" in p))
    if mtus:
        mtu, src = defaults["port_mtu"]
        rows.append(_row("PORT mtu", mtu, "/".join(str(m) for m in mtus),
                         R_MTU + "; vendor: " + src))
    return rows


def _pg_rows(dev: SwitchIntent, db: Dict[str, Any], hwsku: str) -> List[Row]:
    table = sku_tables.pg_table(hwsku)
    why = sku_tables.NO_TABLE.get(hwsku, "no pg_profile_lookup.ini for this switch")
    profiles = db.get("BUFFER_PROFILE", {})
    rows, thresholds = [], OrderedDict()     # type: List[Row], Dict[str, Any]
    for name, (speed, cable, hr) in _classes(dev).items():
        prof = profiles.get(name)
        if not prof:            # the dynamic model: buffermgrd computes the profile
            continue
        at = " %dG %d m" % (speed, cable)
        vrow = table.get((speed, cable))
        if not vrow:
            rows.append(_row("xoff" + at, None, prof["xoff"],
                             hr.get("source", MODEL_REASON.get(hr["model"], hr["model"])),
                             vendor_why=why))
            continue
        why_row = _row_reason(dev, hwsku, hr)
        rows.append(_row("xoff" + at, vrow[2], prof["xoff"], why_row))
        rows.append(_row("size" + at, vrow[0], prof["size"],
                         "size = xon + xoff reserved per PG (docs/lossless-math.md §0); " +
                         why_row if dev["buffer"]["headroom_semantics"] == "reserved_per_pg"
                         else why_row))
        rows.append(_row("xon" + at, vrow[1], prof["xon"], why_row))
        if "xon_offset" in prof:
            rows.append(_row("xon_offset" + at, vrow[4], prof["xon_offset"], R_XON,
                             vendor_why="the ini row has no xon_offset column"))
        thresholds.setdefault(prof.get("dynamic_th", "static_th " + prof.get("static_th", "")),
                              vrow[3])
    for rendered, vendor in thresholds.items():
        rows.append(_row("lossless PG dynamic_th", vendor, rendered, R_DYN))
    return rows


def _row_reason(dev: SwitchIntent, hwsku: str, hr: Dict[str, Any]) -> str:
    """Why the rendered profile is not the ini row: the row's xoff is below the formula the
    table is held to (lossless/headroom.py sku_headroom: xon, xoff and size are then the
    formula's), or the inventory pinned it (the headroom's source says so)."""
    row = hr.get("sku_row")
    if row and row[2] != hr["xoff_bytes"]:
        formula = FORMULA["spectrum" if dev["asic_family"] == "spectrum" else None]
        return ("%s row: xoff %s B is below the %s B of %s at its cable class; the plan "
                "renders the formula's xon, xoff and size" % (hwsku, _n(row[2]), _n(hr["xoff_bytes"]), formula))
    return hr.get("source", "")


def _pool_rows(dev: SwitchIntent, db: Dict[str, Any], hwsku: str) -> List[Row]:
    template = sku_tables.template(hwsku)
    why = sku_tables.NO_TEMPLATE.get(hwsku, "no buffer template for this switch")
    pools = db.get("BUFFER_POOL", {})
    buf = dev["buffer"]
    rows = []
    names = sorted(pools) + sorted(
        n for n in (template or {}) if n.endswith("_pool") and n not in pools)
    for name in names:
        rendered = pools.get(name, {}).get("size", "not rendered")
        reason = (R_LOSSY if name not in pools else buf["total_buffer_source"]
                  if rendered == str(buf["total_buffer_bytes"]) else R_POOL)
        rows.append(_row("%s size" % name, (template or {}).get(name), rendered, reason,
                         vendor_why=why))
        vendor_xoff = (template or {}).get(name + "_xoff")
        if vendor_xoff is not None or "xoff" in pools.get(name, {}):
            xoff = pools.get(name, {}).get("xoff", "not rendered")
            # a template without xoff has no shared headroom pool: 0
            rows.append(_row("%s xoff" % name, (vendor_xoff or 0) if template else None, xoff,
                             R_SHP if xoff != "not rendered" else R_NO_SHP, vendor_why=why))
    return rows


def _wred_rows(dev: SwitchIntent, db: Dict[str, Any], hwsku: str) -> List[Row]:
    own: Dict[str, Tuple[Any, str]] = sku_tables.VENDOR_DEFAULTS.get(hwsku, {})
    wred, src = own.get("wred", sku_tables.VENDOR_DEFAULTS["sonic"]["wred"])
    rows: List[Row] = []
    seen = set()
    for port in dev["ports"]:
        ll = port["lossless"]
        ecn = ll["ecn"] if ll else None
        if not ecn or port["speed_gbps"] in seen:
            continue
        seen.add(port["speed_gbps"])
        prof = db["WRED_PROFILE"][config_db.wred_name(ecn)]
        for field, key in (("green_min_threshold", "kmin_bytes"),
                           ("green_max_threshold", "kmax_bytes"),
                           ("green_drop_probability", "pmax_percent")):
            rows.append(_row("WRED %s %dG" % (field, port["speed_gbps"]), wred[key],
                             prof[field], R_ECN + "; vendor: " + src))
    return rows


def _pfcwd_rows(dev: SwitchIntent, db: Dict[str, Any], hwsku: str) -> List[Row]:
    wd = db.get("PFC_WD", {})
    ports = [v for k, v in wd.items() if k != "GLOBAL"]
    if not ports:
        return []
    version = (dev["buffer"].get("sonic") or {}).get("version", DEFAULT_SONIC_VERSION)
    entries = sku_tables.PORT_ENTRIES.get(hwsku)
    vendor = vendor_defaults.pfcwd_start_default(entries, version) if entries else {}
    why = "no HWSKU: the PORT count start_default scales by is unknown"
    rendered = OrderedDict((("detection_time", ports[0].get("detection_time")),
                            ("restoration_time", ports[0].get("restoration_time")),
                            ("action", ports[0].get("action")),
                            ("POLL_INTERVAL", wd.get("GLOBAL", {}).get("POLL_INTERVAL"))))
    keys = {"detection_time": "detection_ms", "restoration_time": "restoration_ms",
            "action": "action", "POLL_INTERVAL": "poll_ms"}
    reason = R_WD + ("; vendor: " + vendor["source"] if vendor else "")
    return [_row("PFC_WD %s" % field, vendor.get(keys[field]), value, reason, vendor_why=why)
            for field, value in rendered.items() if value is not None]


# -- EOS: the lines render/eos/cli.py writes ----------------------------------------------------

R_MMU = "the plan's MMU profile (buffer.eos_mmu; docs/lossless-math.md §0)"
_WD = "^priority-flow-control pause watchdog "
EOS_LINES = (
    # (row label, pattern on a config line, reason)
    ("PG %s reserved bytes", r"^ +ingress priority-group (\d) reserved bytes (\d+)$", R_MMU),
    ("PG %s threshold", r"^ +ingress priority-group (\d) threshold (\S+)$", R_ALPHA),
    ("headroom-pool limit cells", r"^platform trident mmu headroom-pool limit cells (\d+)$",
     R_MMU),
    ("watchdog default timeout (s)", _WD + r"default timeout (\S+)$", R_WD),
    ("watchdog default polling-interval (s)", _WD + r"default polling-interval (\S+)$", R_WD),
    ("watchdog default recovery-time (s)", _WD + r"default recovery-time (\S+)$", R_WD),
    ("watchdog action", _WD + r"action (\S+)$", R_WD),
)
ECN_LINE = r"^ +random-detect ecn minimum-threshold (\d+) bytes maximum-threshold " \
    r"(\d+) bytes max-mark-probability (\d+)"
MTU_LINE = r"^ +mtu (\d+)$"


def _finder(pattern: str) -> Callable[[str], List[Tuple[str, ...]]]:
    """The groups of every line of a config ``pattern`` (anchored by ^ and $, as written
    above) matches. The leading ^ becomes a newline, so that re.findall scans for it in C: a
    Python loop over a switch's thousands of lines per pattern cost 0.7 ms a switch."""
    first = re.compile(pattern, re.M)               # the text's first line has no newline
    rest = re.compile("\n" + pattern[1:], re.M)

    def find(text: str) -> List[Tuple[str, ...]]:
        head = first.match(text)
        found = [head.groups()] if head else []
        return found + [g if isinstance(g, tuple) else (g,) for g in rest.findall(text)]
    return find


_EOS_FINDERS = tuple((label, _finder(pattern), reason) for label, pattern, reason in EOS_LINES)
_ECN_FINDER, _MTU_FINDER = _finder(ECN_LINE), _finder(MTU_LINE)


# the lines any EOS pattern above can match, picked in one scan of the config (the patterns
# then read a few dozen lines, not the whole config nine times)
# (after a newline: re scans for it in C; a leading ^ under re.M tries every position)
_EOS_CANDIDATES = re.compile(r"\n((?: *ingress priority-group |platform trident mmu "
                             r"headroom-pool |priority-flow-control pause watchdog | +random-"
                             r"detect ecn | +mtu )[^\n]*)")


def _eos_rows(dev: SwitchIntent, rendered: Mapping[str, str]) -> List[Row]:
    config = rendered.get(eos_cli.CONFIG_PATH % dev["name"]) or eos_cli.eos_config(dev)
    text = "\n".join(_EOS_CANDIDATES.findall("\n" + config))
    rows: List[Row] = []
    for label, find, reason in _EOS_FINDERS:
        for g in find(text):
            rows.append(_row(label % g[0] if "%s" in label else label, None, g[-1], reason))
    marks = OrderedDict()                  # type: Dict[Tuple[str, ...], None]
    for found in _ECN_FINDER(text):
        marks.setdefault(found, None)
    for kmin, kmax, pmax in marks:
        for label, value in (("random-detect ecn minimum-threshold (bytes)", kmin),
                             ("random-detect ecn maximum-threshold (bytes)", kmax),
                             ("random-detect ecn max-mark-probability", pmax)):
            rows.append(_row(label, None, value, R_ECN))
    mtus = sorted(set(int(g[0]) for g in _MTU_FINDER(text)))
    if mtus:
        mtu, src = sku_tables.VENDOR_DEFAULTS["eos"]["port_mtu"]
        rows.append(_row("interface mtu", mtu, "/".join(str(m) for m in mtus),
                         R_MTU + "; vendor: " + src))
    return rows


# -- Cumulus: startup.yaml as render/cumulus/nvue.py writes it -----------------------------------

R_CABLE = "the port's cable, rounded up to whole metres: NVUE sizes the headroom from it"
R_NVUE_POOL = "the plan's pool split (roce_lossless.nvue.lossless_pool_percent)"


def _cumulus_rows(dev: SwitchIntent, rendered: Mapping[str, str]) -> List[Row]:
    text = rendered.get(cumulus_nvue.CONFIG_PATH % dev["name"])
    ops = document.load(text) if text else cumulus_nvue.nvue_document(dev)
    tree = ops[0]["set"]
    vendor = sku_tables.VENDOR_DEFAULTS["cumulus"]
    qos = tree["qos"]
    rows: List[Row] = []
    (wred, src) = vendor["ecn"]
    for name, profile in qos["congestion-control"].items():
        for tc, marks in profile["traffic-class"].items():
            if marks.get("ecn") != "enable":
                continue
            for key, field in (("kmin_bytes", "min-threshold"), ("kmax_bytes", "max-threshold"),
                               ("pmax_percent", "probability")):
                rows.append(_row("%s TC %s %s" % (name, tc, field), wred[key], marks[field],
                                 R_ECN + "; vendor: " + src))
    cable, src = vendor["pfc_cable_m"]
    for name, profile in qos["pfc"].items():
        rows.append(_row("pfc %s cable-length (m)" % name, cable, profile["cable-length"],
                         R_CABLE + "; vendor: " + src))
    pools, src = vendor["pools"]
    for name, pool in qos["traffic-pool"].items():
        rows.append(_row("traffic-pool %s memory-percent" % name, pools.get(name),
                         pool["memory-percent"], R_NVUE_POOL + "; vendor: " + src))
    wd, src = vendor["watchdog"]
    for key, value in qos.get("pfc-watchdog", {}).items():
        rows.append(_row("pfc-watchdog %s" % key, wd.get(key), value, R_WD + "; vendor: " + src))
    mtus = sorted(set(port["link"]["mtu"] for name, port in tree["interface"].items()
                      if "mtu" in port.get("link", {})))
    if mtus:
        mtu, src = vendor["port_mtu"]
        rows.append(_row("interface link mtu", mtu, "/".join(str(m) for m in mtus),
                         R_MTU + "; vendor: " + src))
    return rows


# the rows of each platform's config (hardware/platforms.py NAMES)
ROWS = {"sonic": _sonic_rows, "eos": _eos_rows, "cumulus": _cumulus_rows}


def deviations_md(plan: Plan, switches: Optional[List[SwitchIntent]] = None,
                  rendered: Optional[Mapping[str, str]] = None) -> str:
    """fabric/deviations.md of ``plan`` (``rendered``: as for device_rows)."""
    groups: Dict[Tuple[Any, ...], List[str]] = OrderedDict()   # (heading, rows...) -> names
    heads: Dict[Tuple[Any, ...], str] = {}
    for dev in switches or []:
        rows = tuple(device_rows(dev, rendered))
        hw = dev.get("hardware") or {}
        head = "%s %s (%s)" % (hw.get("product", dev["asic"]), dev["platform"],
                               hw.get("hwsku") or hw.get("breakout") or "no model")
        groups.setdefault((head,) + rows, []).append(dev["name"])
        heads[(head,) + rows] = head
    out = ["# Deviations from the vendor's defaults", "",
           "Every lossless number the rendered config carries, in its own field names and "
           "units, beside the vendor's default for the SKU or platform (the HWSKU's "
           "`pg_profile_lookup.ini` row and buffer template, SONiC's `qos_config.j2` WRED, "
           "`pfcwd start_default` for the HWSKU's PORT count and the SONiC release; sources in "
           "`plugins/module_utils/hardware/sku_tables.py` and `vendor_defaults.py`), the "
           "difference and the reason. `=`: the vendor's number is rendered; `none (...)`: no "
           "vendor value, and no difference is claimed.", "", "## Fabric", ""]
    count: Dict[str, int] = OrderedDict()
    for key, names in groups.items():
        for row in key[1:]:
            if row[3] not in ("=", "-"):
                number = re.sub(r" \d+G( \d+ m)?$", "", row[0])
                count[number] = count.get(number, 0) + len(names)
    out += ["| number | switches rendering another value than the vendor's |", "|---|---|"]
    out += ["| %s | %d |" % (k, v) for k, v in count.items()] or ["| - | 0 |"]
    out += ["", "## Per device", ""]
    for key, names in groups.items():
        out += ["### %s" % ", ".join(names), "", heads[key], "",
                "| number | vendor default | rendered | difference | reason |",
                "|---|---|---|---|---|"]
        out += ["| %s |" % " | ".join(r) for r in key[1:]] + [""]
    return "\n".join(out)
