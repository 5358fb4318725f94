# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Platform catalog: hardware facts per switch ASIC and per port speed, as data.

Formulas live in headroom.py, thresholds.py and ecn.py; this module only holds facts. Every fact
is a ``Fact(value, source, verified)``. ``verified`` is False where ../shared/reference tags the
value [M], "unverified", or where no public source was found (the value is then our estimate and
says so). Any fact can be overridden from inventory (``roce_asic_overrides``); the override is
recorded as the fact's source so that every number stays explainable.

Sources use the short keys of docs/lossless-math.md (LM = lossless-math.md, SN = sonic.md).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections import namedtuple
from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import platforms

Fact = namedtuple("Fact", "value source verified")


def _v(value: Any, source: str) -> Fact:
    return Fact(value, source, True)


def _u(value: Any, source: str) -> Fact:
    return Fact(value, source, False)


# Port speeds (Gb/s) the lossless math supports: the speeds with a pause-quanta entry (LM §1.1 #5).
SPEEDS_GBPS = (10, 25, 40, 50, 100, 200, 400, 800)

# IEEE 802.3 Annex 31B.3.7 response time in pause quanta (1 quantum = 512 bit times = 64 B).
PAUSE_QUANTA_IEEE = {
    10: _v(60, "LM §1.1 #5; CISCO-BOOK D-Resp 10G 30,720 BT"),
    25: _v(80, "LM §1.1 #5; CISCO-BOOK D-Resp 25G 40,960 BT"),
    40: _v(118, "LM §1.1 #5; CISCO-BOOK D-Resp 40G 60,416 BT"),
    50: _v(147, "LM §1.1 #5 (IEEE 802.3 31B.3.7 via SONIC-HR)"),
    100: _v(394, "LM §1.1 #5; CISCO-BOOK D-Resp 100G 201,728 BT"),
    200: _v(453, "LM §1.1 #5 (IEEE 802.3 31B.3.7 via SONIC-HR)"),
    400: _v(905, "LM §1.1 #5; CISCO-BOOK D-Resp 400G 463,360 BT"),
    800: _u(905, "LM §1.1 #5: SONiC uses 905 for 800G; the IEEE 800G value is unverified"),
}

# SONiC's own table (buffer_headroom_mellanox.lua pause_quanta_per_speed): 10G differs from IEEE.
PAUSE_QUANTA_SONIC = {10: 67, 25: 80, 40: 118, 50: 147, 100: 394, 200: 453, 400: 905, 800: 905}

# D-Intf: PHY/PCS/FEC/MAC delay of one end, in bit times (LM §1.1 #3, IEEE upper bounds per
# CISCO-BOOK). No IEEE figure was found above 100G, nor for 50G: LM §1.2 [P] keeps the 100G time
# budget of 1,228.8 ns, which is conservative.
_INTF_BUDGET_NS = 1228.8
INTERFACE_DELAY_BT = {
    10: _v(8192, "LM §1.1 #3: IEEE 802.3 via CISCO-BOOK D-Intf"),
    25: _v(6144, "LM §1.1 #3: IEEE 802.3 via CISCO-BOOK D-Intf"),
    40: _v(24576, "LM §1.1 #3: IEEE 802.3 via CISCO-BOOK D-Intf"),
    50: _u(int(round(_INTF_BUDGET_NS * 50)), "LM §1.2 [P]: 100G time budget 1,228.8 ns"),
    100: _v(122880, "LM §1.1 #3: IEEE 802.3 via CISCO-BOOK D-Intf"),
    200: _u(int(round(_INTF_BUDGET_NS * 200)), "LM §1.2 [P]: 100G time budget 1,228.8 ns"),
    400: _u(int(round(_INTF_BUDGET_NS * 400)), "LM §1.2 [P]: 100G time budget 1,228.8 ns"),
    800: _u(int(round(_INTF_BUDGET_NS * 800)), "LM §1.2 [P]: 100G time budget 1,228.8 ns"),
}

# Signal propagation, ns per metre (LM §1.1 #4, §1.2 defaults).
PROPAGATION_NS_PER_M = {
    "fiber": _v(5.0, "LM §1.2: fibre ~5 ns/m (CISCO-WP SMF 513 ns per 100 m)"),
    "dac": _v(4.76, "LM §1.2: twinax at 70% of c (CISCO-WP 476 ns per 100 m)"),
}

HEADROOM_SEMANTICS = {
    # The whole per-PG headroom (xon + xoff) is reserved outside the shared pool.
    "reserved_per_pg",
    # Per-PG xoff is only a trigger; the bytes come from the pool's shared headroom (SHP).
    "shared_headroom_pool",
    # Deep-buffer VOQ switch: ingress queues live in off-chip HBM; see the caveat per ASIC.
    "voq_deep_buffer",
}

_BRCM_SHP = _v("shared_headroom_pool", "SN §1.4: on Broadcom xoff is drawn from the pool xoff (SHP)")
_MLNX_RES = _v("reserved_per_pg", "SN §1.4: on Mellanox size = xon + xoff is reserved per PG")
_JERICHO_CAVEAT = (
    "Jericho is a deep-buffer VOQ switch: packets wait in ingress virtual output queues that spill "
    "to HBM, and PFC is generated from ingress VOQ/PG thresholds. The shallow-buffer headroom "
    "budget applies to the on-chip buffer only; size HBM-backed thresholds from the vendor's "
    "VOQ guidance (LM §2.4; eos-and-avd.md: AVD renders no Jericho VOQ buffer knobs).")
_UNKNOWN = "not in ../shared/reference; override from inventory"


def _brcm(total: Optional[int], total_src: str, total_ok: bool, speeds: Tuple[int, ...],
          cell: Optional[int], cell_src: str, cell_ok: bool,
          extra: Optional[Dict[str, Fact]] = None) -> Dict[str, Fact]:
    asic = {
        "vendor": _v("broadcom", "vendor"),
        "family": _v("strata", "Broadcom StrataXGS (Trident/Tomahawk); EOS 'platform trident'"),
        "total_buffer_bytes": Fact(total, total_src, total_ok),
        "cell_bytes": Fact(cell, cell_src, cell_ok),
        "headroom_semantics": _BRCM_SHP,
        "pipeline_latency_bytes": _u(None, _UNKNOWN),
        "mac_phy_delay_bytes": _u(None, _UNKNOWN),
        "serdes_lane_gbps": _u(100 if 800 in speeds else 50, "product briefs (unverified)"),
        "port_speeds_gbps": _u(speeds, "vendor product briefs (unverified)"),
        "caveat": _v("", ""),
        "sonic_asic_table": _v(None, "no SONiC dynamic-buffer plugin for Broadcom (SN §1.1)"),
    }
    asic.update(extra or {})
    return asic


def _spectrum(total: int, total_src: str, total_ok: bool, speeds: Tuple[int, ...], cell: int,
              lane: int, tile: Optional[int], extra: Optional[Dict[str, Fact]] = None,
              pipeline_kb: int = 19, xoff_extra_kb: float = 0) -> Dict[str, Fact]:
    # ASIC_TABLE values of sonic-buildimage platform/mellanox/asic_table.j2 @4a9bf641 (SN §1.3;
    # Spectrum-5/6 rows: issue 13 research): pipeline latency 19 KB, 42 on Spectrum-6, whose
    # headroom also takes 18 KiB more xoff since sonic-swss #4797 (applied by revision).
    table = {"cell_size": cell, "pipeline_latency_kb": pipeline_kb, "mac_phy_delay_kb": 0.8,
             "peer_response_time_kb": 3.8, "kb_on_tile": tile, "xoff_extra_kb": xoff_extra_kb}
    asic = {
        "vendor": _v("nvidia", "vendor"),
        "family": _v("spectrum", "NVIDIA Spectrum"),
        "total_buffer_bytes": Fact(total, total_src, total_ok),
        "cell_bytes": _v(cell, "SN §1.3 asic_table.j2 cell_size"),
        "headroom_semantics": _MLNX_RES,
        "pipeline_latency_bytes": _v(pipeline_kb * 1024, "asic_table.j2: %d KB" % pipeline_kb),
        "mac_phy_delay_bytes": _v(0.8 * 1024, "SN §1.3 asic_table.j2: 0.8 KB"),
        "serdes_lane_gbps": _u(lane, "SN §1.4: SN4700 400G on 8 lanes, SN5600 800G on 8 lanes"),
        "port_speeds_gbps": _u(speeds, "vendor product briefs (unverified)"),
        "caveat": _v("", ""),
        "sonic_asic_table": _v(table, "SN §1.3: sonic-buildimage platform/mellanox/asic_table.j2"),
    }
    asic.update(extra or {})
    return asic


ASICS = {
    "tomahawk3": _brcm(
        64000000, "LM §2.4 [M] (unverified)", False, (10, 25, 40, 50, 100, 200, 400),
        254, "SN §1.4: Dell Z9332f TH3 ini, 2540 B = 10 cells of 254 B", True),
    "tomahawk4": _brcm(
        119179848, "facebook/fboss Tomahawk4Asic.h @05d1a971: MMU 2 ITMs x 234,606 cells x "
        "254 B", True, (10, 25, 40, 50, 100, 200, 400),
        254, "facebook/fboss Tomahawk4Asic.h getMMUCellSize", True),
    "tomahawk5": _brcm(
        173268640, "facebook/fboss Tomahawk5Asic.h @05d1a971: MMU 2 ITMs x 341,080 cells x "
        "254 B (SONiC's 7060X6 pools, 165.7 MB, sit just below)", True,
        (25, 50, 100, 200, 400, 800),
        254, "fboss Tomahawk5Asic.h getMMUCellSize; every 7060X6 SONiC value divides by 254",
        True),
    "tomahawk6": _brcm(
        267196860, "sonic-buildimage #28657 (community figure, not Broadcom's): ~636,183 cells "
        "x 420 B (unverified)", False, (100, 200, 400, 800),
        420, "sonic-buildimage #28657 (unverified)", False,
        {"serdes_lane_gbps": _u(200, "press: 512 x 200G PAM4 SerDes (unverified)")}),
    "trident4": _brcm(
        132000000, "LM §2.4 [M] BCM56880 132 MB (unverified)", False,
        (10, 25, 40, 50, 100, 200, 400),
        254, "assumed equal to Tomahawk cells (unverified)", False),
    "jericho2": _brcm(
        32000000, "LM §2.4 [M]: 32 MB on-chip + 8 GB HBM (unverified)", False,
        (10, 25, 40, 50, 100, 200, 400), 256, "estimate (unverified)", False,
        {"headroom_semantics": _v("voq_deep_buffer", "LM §2.4"),
         "family": _v("sand", "Broadcom DNX (Jericho); EOS 'sand'"),
         "caveat": _v(_JERICHO_CAVEAT, "LM §2.4; META24")}),
    "jericho3": _brcm(
        None, "LM §2.4: on-chip + HBM, no published on-chip figure; " + _UNKNOWN, False,
        (100, 200, 400, 800), 256, "estimate (unverified)", False,
        {"headroom_semantics": _v("voq_deep_buffer", "LM §2.4; META24"),
         "family": _v("sand", "Broadcom DNX (Jericho); EOS 'sand'"),
         "caveat": _v(_JERICHO_CAVEAT, "LM §2.4; META24")}),
    "spectrum1": _spectrum(
        13945824, "sonic-buildimage ACS-MSN2700 buffers_defaults_t1.j2 @ba853348: "
        "egress_lossless_pool (SONiC sizes every Spectrum-1 pool within it; LM §2.4's 16 MB "
        "is the marketing figure)", True, (10, 25, 40, 50, 100), 96, 25, False),
    "spectrum2": _spectrum(
        34287552, "sonic-buildimage ACS-MSN3800 buffers_defaults_t1.j2 @ba853348: "
        "egress_lossless_pool (LM §2.4's 42 MB is the marketing figure)", True,
        (10, 25, 40, 50, 100, 200), 144, 50, False),
    "spectrum3": _spectrum(
        60817392, "sonic-buildimage ACS-MSN4700 buffers_defaults_t1.j2 @ba853348: "
        "egress_lossless_pool, as every SN4700 HWSKU template (LM §2.4's 64 MB is the "
        "marketing figure)", True, (10, 25, 40, 50, 100, 200, 400), 144, 50, False),
    "spectrum4": _spectrum(
        158229504, "SN §1.2: SN5600 egress_lossless_pool 158,229,504 B (LM §2.4 [V])", True,
        (25, 50, 100, 200, 400, 800), 192, 100, True),
    # Spectrum-5 (SN5640) and Spectrum-6 (SN6600/SN6810): SONiC's own accounting, the egress
    # lossless pool of their SKU templates, is the only buffer figure published.
    "spectrum5": _spectrum(
        136210432, "sonic-buildimage Mellanox-SN5640-C512S2 buffers_defaults_t1.j2 @0e60c47f: "
        "egress_lossless_pool (no vendor buffer figure found)", False,
        (25, 50, 100, 200, 400, 800), 192, 100, True),
    "spectrum6": _spectrum(
        224143360, "sonic-buildimage Mellanox-SN6600_LD-V512C2 buffers_defaults_t0.j2 @88c4b9a6: "
        "egress_lossless_pool (no vendor buffer figure found)", False,
        (100, 200, 400, 800), 256, 200, False, pipeline_kb=42, xoff_extra_kb=18),
}

# Switching capacity (LM §2.4 table; [V] rows verified) and SerDes lanes: capacity over the lane
# rate, checked against the port maps where one was read (research of issue 13: TH5 7060X6
# lanes 1-512, Spectrum-4 SN5600 lanes 0-511, Spectrum-3 SN4700 lanes 0-255).
_CAPACITY = {
    "tomahawk3": (12800, False, False), "tomahawk4": (25600, False, False),
    "tomahawk5": (51200, True, True), "trident4": (12800, False, False),
    "jericho2": (9600, False, False), "jericho3": (14400, False, False),
    "spectrum1": (3200, False, False), "spectrum2": (6400, True, False),
    "spectrum3": (12800, True, True), "spectrum4": (51200, True, True),
    # 51.2T inferred from the SN5640 SKUs (512 x 100G); 102.4T: Mellanox/hw-mgmt #2885 (SN6600)
    # and the Tomahawk 6 press releases.
    "spectrum5": (51200, False, False), "spectrum6": (102400, True, False),
    "tomahawk6": (102400, False, False),
}
for _name, (_gbps, _cap_ok, _lanes_ok) in _CAPACITY.items():
    ASICS[_name]["switching_capacity_gbps"] = Fact(
        _gbps, "LM §2.4 switching capacity" + ("" if _cap_ok else " [M] (unverified)"), _cap_ok)
    ASICS[_name]["serdes_lanes"] = Fact(
        _gbps // ASICS[_name]["serdes_lane_gbps"].value,
        "capacity / SerDes lane rate"
        + (", as the platform port map" if _lanes_ok else " (unverified)"), _lanes_ok)


def check_platform(asic: "AsicProfile", platform: str, host: Optional[str] = None) -> None:
    """Refuse an ASIC the platform does not run or the renderer does not cover completely
    (platforms.py: each platform's families and why it refuses the others)."""
    entry = platforms.PLATFORMS[platform]
    family = asic.value("family")
    if family not in entry.families:
        supported = sorted(n for n, a in ASICS.items() if a["family"].value in entry.families)
        raise errors.RoceInputError(
            "roce_asic", asic.name, "an ASIC %s renders completely on %s (%s): %s" % (
                "roce.fabric", platform, entry.refused.get(family, family),
                ", ".join(supported)), host)


# ASIC_TABLE of the older replica in LM §1.3 (lua commit 18913fa, SONIC-ASIC): 18 KiB pipeline.
SONIC_ASIC_TABLE_18913FA = {
    "spectrum2": {"cell_size": 144, "pipeline_latency_kb": 18, "mac_phy_delay_kb": 0.8,
                  "peer_response_time_kb": 3.8},
    "spectrum3": {"cell_size": 144, "pipeline_latency_kb": 18, "mac_phy_delay_kb": 0.8,
                  "peer_response_time_kb": 3.8},
}


class AsicProfile:
    """One ASIC's facts after inventory overrides; ``value(key)`` and ``source(key)``."""

    def __init__(self, name: str, facts: Dict[str, Fact]) -> None:
        self.name = name
        self.facts = facts

    def value(self, key: str) -> Any:
        return self.facts[key].value

    def source(self, key: str) -> str:
        return self.facts[key].source

    def unverified(self) -> List[str]:
        """Names of the facts this profile uses that no verified source backs."""
        return sorted(k for k, f in self.facts.items() if not f.verified and f.value is not None)

    def require(self, key: str, host: Optional[str] = None) -> Any:
        """The value of ``key``; a clear error when the catalog has none and no override gave one."""
        value = self.value(key)
        if value is None:
            raise errors.RoceInputError(
                "roce_asic_overrides.%s" % key, None,
                "%s has no %s in the catalog (%s); set it in roce_asic_overrides"
                % (self.name, key, self.source(key)), host)
        return value


def asic_profile(name: str, overrides: Optional[Dict[str, Any]] = None,
                 host: Optional[str] = None) -> AsicProfile:
    """Return the AsicProfile for catalog ASIC ``name`` with inventory ``overrides`` applied.
    Both passed the input gate (inputs/schema.py: roce_asic, roce_asic_overrides) or the filter
    plugin's own guard; they are trusted here."""
    facts = dict(ASICS[name])
    facts.setdefault("shared_headroom_pool_bytes", _u(None, _UNKNOWN))
    for key, value in (overrides or {}).items():
        if key == "port_speeds_gbps":
            value = tuple(value)
        facts[key] = Fact(value, "inventory override (roce_asic_overrides.%s)" % key, True)
    return AsicProfile(name, facts)


def pause_quanta(speed_gbps: int, host: Optional[str] = None) -> int:
    """IEEE response time of the link partner in pause quanta for ``speed_gbps``."""
    errors.choice("speed_gbps", speed_gbps, SPEEDS_GBPS, host)
    return PAUSE_QUANTA_IEEE[speed_gbps].value


def interface_delay_bt(speed_gbps: int, host: Optional[str] = None) -> int:
    """PHY/MAC delay of one end in bit times for ``speed_gbps`` (LM §1.1 #3)."""
    errors.choice("speed_gbps", speed_gbps, SPEEDS_GBPS, host)
    return INTERFACE_DELAY_BT[speed_gbps].value
