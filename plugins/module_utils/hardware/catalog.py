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

# SONiC's own table: sonic-swss cfgmgr/buffer_headroom_mellanox.lua pause_quanta_per_speed, lines
# 42-50 @e6b0c5b5 (master 2026-08-21); 10G differs from IEEE.
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

# Memory buffers (ITMs) of a Broadcom XGS MMU: a queue or PG lives in one of them, so its
# threshold works on that buffer's share of a pool, whose SAI size is the per-buffer size times
# the number of buffers (facebook/fboss @14ec47ec32 fboss/agent/hw/sai/switch/
# SaiBufferManager.cpp L314, L332-337: poolSize and xoffSize *= getNumMemoryBuffers()).
_FBOSS = "facebook/fboss @14ec47ec32 fboss/agent/hw/switch_asics/"
_ITMS_UNKNOWN = _u(1, "no ITM layout found (not in FBOSS's switch_asics): carved as one "
                   "buffer (unverified)")
_VOQ_CORES = _u(None, "VOQ chip (refused by every platform): its cores are not modelled")


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
        "memory_buffers": _ITMS_UNKNOWN,
    }
    asic.update(extra or {})
    return asic


def _spectrum(series: int, total: int, total_src: str, total_ok: bool,
              speeds: Tuple[int, ...], cell: int, lane: int, tile: Optional[int],
              extra: Optional[Dict[str, Fact]] = None, pipeline_kb: int = 19,
              xoff_extra_kb: float = 0) -> Dict[str, Fact]:
    # ASIC_TABLE values of sonic-buildimage platform/mellanox/asic_table.j2, master 086b03bd70
    # (last changed fb4dee11da, #26688), lines 65-136: cell_size 96 / 144 / 144 / 192 / 192 /
    # 256 and pipeline_latency 19 KB, 42 on Spectrum-6 (lines 128-129), mac_phy_delay 0.8,
    # peer_response_time 3.8 on Spectrum-1 .. -6. (@4a9bf641, cited before, is a commit of PR
    # #25501's branch, merged as 5c4f5ca98d; its rows are the same.) Spectrum-6 headroom also takes
    # 18 KiB more xoff since sonic-swss #4797 (422271e7, cfgmgr/buffer_headroom_mellanox.lua;
    # applied by revision).
    table = {"cell_size": cell, "pipeline_latency_kb": pipeline_kb, "mac_phy_delay_kb": 0.8,
             "peer_response_time_kb": 3.8, "kb_on_tile": tile, "xoff_extra_kb": xoff_extra_kb}
    asic = {
        "vendor": _v("nvidia", "vendor"),
        "family": _v("spectrum", "NVIDIA Spectrum"),
        # The sn<number> series of the ASIC's SONiC platforms: buffer_pool_mellanox.lua reads
        # the number from DEVICE_METADATA platform (sonic-swss 202511 cfgmgr/
        # buffer_pool_mellanox.lua L190-205: >= 6000 reserves a descriptors pool).
        "sn_series": _v(series, "sonic-buildimage @086b03bd70 platform/mellanox/asic_table.j2 "
                                "L26-60 platform2asic: every platform of the ASIC is sn%d-%d"
                                % (series, series + 999)),
        "total_buffer_bytes": Fact(total, total_src, total_ok),
        "cell_bytes": _v(cell, "sonic-buildimage platform/mellanox/asic_table.j2 @086b03bd70 "
                         "cell_size"),
        "headroom_semantics": _MLNX_RES,
        "pipeline_latency_bytes": _v(pipeline_kb * 1024, "asic_table.j2: %d KB" % pipeline_kb),
        "mac_phy_delay_bytes": _v(0.8 * 1024, "SN §1.3 asic_table.j2: 0.8 KB"),
        "serdes_lane_gbps": _u(lane, "SN §1.4: SN4700 400G on 8 lanes, SN5600 800G on 8 lanes"),
        "port_speeds_gbps": _u(speeds, "vendor product briefs (unverified)"),
        "caveat": _v("", ""),
        "sonic_asic_table": _v(table, "sonic-buildimage platform/mellanox/asic_table.j2 "
                               "@086b03bd70 lines 65-136"),
        "memory_buffers": _v(1, "one shared buffer: buffer_pool_mellanox.lua carves one mmu_size "
                                "(sonic-swss 202511 L283-288, L445)"),
    }
    asic.update(extra or {})
    return asic


ASICS = {
    # facebook/fboss fboss/agent/hw/switch_asics/<ASIC>.h @05d1a971 (main, 2025-09-15):
    # getMMUSizeBytes / getSramSizeBytes and getMMUCellSize; the lines are cited per ASIC.
    "tomahawk3": _brcm(
        64 * 1024 * 1024, "facebook/fboss Tomahawk3Asic.h @05d1a971 line 31: getMMUSizeBytes "
        "64 MiB, 2 ITMs (was LM §2.4's 64 MB [M])", True, (10, 25, 40, 50, 100, 200, 400),
        254, "fboss Tomahawk3Asic.h @05d1a971 line 38 getMMUCellSize; sonic-buildimage Dell "
        "Z9332f-O32 pg_profile_lookup.ini @a53f01df: 2540 B = 10 cells", True,
        {"memory_buffers": _v(2, _FBOSS + "Tomahawk3Asic.h L99-105: getNumMemoryBuffers 2, "
                              "getStaticQueueLimitBytes MMU / 2 (\"Per ITM buffers limits "
                              "the queue size\")")}),
    "tomahawk4": _brcm(
        119179848, "facebook/fboss Tomahawk4Asic.h @05d1a971 line 40: MMU 2 ITMs x 234,606 "
        "cells x 254 B", True, (10, 25, 40, 50, 100, 200, 400),
        254, "facebook/fboss Tomahawk4Asic.h @05d1a971 line 47 getMMUCellSize", True,
        {"memory_buffers": _v(2, _FBOSS + "Tomahawk4Asic.h L106-112: getNumMemoryBuffers 2, "
                              "getStaticQueueLimitBytes MMU / 2 (\"Per ITM buffers limits "
                              "the queue size\")")}),
    "tomahawk5": _brcm(
        173268640, "facebook/fboss Tomahawk5Asic.h @05d1a971 line 40: MMU 2 ITMs x 341,080 "
        "cells x 254 B (SONiC's 7060X6 pools, 165.7 MB, sit just below)", True,
        (25, 50, 100, 200, 400, 800),
        254, "fboss Tomahawk5Asic.h @05d1a971 line 47 getMMUCellSize; every 7060X6 SONiC value "
        "divides by 254", True,
        {"memory_buffers": _v(2, _FBOSS + "Tomahawk5Asic.h L102-109: getNumMemoryBuffers 2, "
                              "getStaticQueueLimitBytes MMU / 2; sonic-buildimage #25451 "
                              "(55d88e875b): with SAI 14.x TH5 buffer sizes \"halved to "
                              "properly reflect their per-ITM config\"")}),
    # Tomahawk 6: sonic-buildimage issue #28657 (2026-07-28, Nexthop NH-4210; its fix, PR #28658
    # head e91c88fc, is not merged) gives ~636,183 cells of 420 B, an approximate community
    # figure. FBOSS Tomahawk6Asic.h @14ec47ec confirms the cell (line 45, getMMUCellSize 420)
    # and one ITM (line 112), and counts 629,986 cells available to the user (line 48, since
    # e37c8e32 of 2026-07-30), a little below that total; its getMMUSizeBytes (line 38,
    # 500,000 cells) sits below its own available count, so it is no total either.
    "tomahawk6": _brcm(
        267196860, "sonic-buildimage issue #28657 (community figure, not Broadcom's): ~636,183 "
        "cells x 420 B; FBOSS counts 629,986 available (unverified)", False,
        (100, 200, 400, 800),
        420, "facebook/fboss Tomahawk6Asic.h @14ec47ec line 45 getMMUCellSize", True,
        {"serdes_lane_gbps": _u(200, "press: 512 x 200G PAM4 SerDes (unverified)"),
         "memory_buffers": _v(1, _FBOSS + "Tomahawk6Asic.h L108-113: getNumMemoryBuffers 1, "
                              "getStaticQueueLimitBytes the whole MMU")}),
    "trident4": _brcm(
        132000000, "LM §2.4 [M] BCM56880 132 MB (unverified)", False,
        (10, 25, 40, 50, 100, 200, 400),
        254, "assumed equal to Tomahawk cells (unverified)", False),
    "jericho2": _brcm(
        64 * 1024 * 1024, "facebook/fboss Jericho2Asic.h @05d1a971 line 45: getSramSizeBytes "
        "64 MiB on-chip (HBM apart; was LM §2.4's 32 MB [M])", True,
        (10, 25, 40, 50, 100, 200, 400), 254,
        "facebook/fboss Jericho2Asic.h @05d1a971 line 49 getMMUCellSize", True,
        {"headroom_semantics": _v("voq_deep_buffer", "LM §2.4"),
         "family": _v("sand", "Broadcom DNX (Jericho); EOS 'sand'"),
         "caveat": _v(_JERICHO_CAVEAT, "LM §2.4; META24"), "memory_buffers": _VOQ_CORES}),
    "jericho3": _brcm(
        128 * 1024 * 1024, "facebook/fboss Jericho3Asic.h @05d1a971 line 50: getSramSizeBytes "
        "128 MiB on-chip (HBM apart)", True,
        (100, 200, 400, 800), 254,
        "facebook/fboss Jericho3Asic.h @05d1a971 line 60 getMMUCellSize", True,
        {"headroom_semantics": _v("voq_deep_buffer", "LM §2.4; META24"),
         "family": _v("sand", "Broadcom DNX (Jericho); EOS 'sand'"),
         "caveat": _v(_JERICHO_CAVEAT, "LM §2.4; META24"), "memory_buffers": _VOQ_CORES}),
    # Spectrum totals: SONiC's own accounting, egress_lossless_pool_size of the SKU templates
    # (sonic-buildimage device/mellanox/<platform>/<HWSKU>/buffers_defaults_t*.j2; every HWSKU
    # template of a platform carries the same value on master 086b03bd70: 10 SN2700, 14 SN3800,
    # 26 SN4700, 8 SN5600, 10 SN5640, 12 SN6600/SN6810 files); the commits cited are the ones
    # that last changed the file cited. SONiC sizes every pool of the ASIC within it. The
    # vendors' marketing figures (LM §2.4: 16, 42, 64 MB) are larger and not what SONiC accounts.
    "spectrum1": _spectrum(
        2000, 13945824, "sonic-buildimage ACS-MSN2700/buffers_defaults_t1.j2 @ba853348 line 20 "
        "(every SN2700 HWSKU): egress_lossless_pool", True,
        (10, 25, 40, 50, 100), 96, 25, False),
    "spectrum2": _spectrum(
        3000, 34287552, "sonic-buildimage ACS-MSN3800/buffers_defaults_t1.j2 @ba853348 line 20 "
        "(every SN3800 HWSKU): egress_lossless_pool", True,
        (10, 25, 40, 50, 100, 200), 144, 50, False),
    "spectrum3": _spectrum(
        4000, 60817392, "sonic-buildimage ACS-MSN4700/buffers_defaults_t1.j2 @ba853348 line 20 "
        "(every SN4700 HWSKU): egress_lossless_pool", True,
        (10, 25, 40, 50, 100, 200, 400), 144, 50, False),
    "spectrum4": _spectrum(
        5000, 158229504, "sonic-buildimage ACS-SN5600/buffers_defaults_t1.j2 @c076c12431 line 20 "
        "(every SN5600 HWSKU): egress_lossless_pool", True, (25, 50, 100, 200, 400, 800), 192,
        100, True),
    # Spectrum-5 (SN5640): 136,209,408 B in all 10 SN5640 templates since d6dba91389 (#21770,
    # 2025-02-19, the SN5640 as merged). The 136,210,432 cited before (@0e60c47f) is the value of
    # the unmerged PR #21556 (its head branch: 2af1752e8b, 0a4cdad71d, with ingress 105,420,800);
    # 0e60c47f itself is not in the repository as fetched (every branch, tag and PR ref; the
    # search index keeps a copy of the file under that id, the same as 0a4cdad71d's).
    "spectrum5": _spectrum(
        5000, 136209408, "sonic-buildimage Mellanox-SN5640-C512S2/buffers_defaults_t1.j2 "
        "@1f88a42e30 line 27 (every SN5640 HWSKU): egress_lossless_pool", True, (25, 50, 100, 200, 400, 800),
        192, 100, True),
    # Spectrum-6 (SN6600_LD, SN6810_LD): 226,492,416 B in all 12 templates of master since
    # c237d88fbc (#28610, 2026-07-30; SN6810: eb9e86f693, #28615). The 224,143,360 cited before
    # (@88c4b9a6) is a commit of PR #26392's branch, for an HWSKU (Mellanox-SN6600_LD-V512C2)
    # removed before the PR was merged (ed33c74fd9), and the value before #28610.
    "spectrum6": _spectrum(
        6000, 226492416, "sonic-buildimage ACS-SN6600_LD/buffers_defaults_t0.j2 @c237d88fbc "
        "line 21 (every SN6600 and SN6810 HWSKU): egress_lossless_pool", True,
        (100, 200, 400, 800), 256, 200, False, pipeline_kb=42, xoff_extra_kb=18),
}

# Switching capacity (LM §2.4 table; [V] rows verified) and SerDes lanes: capacity over the lane
# rate, checked against the port maps where one was read (research of issue 13: TH5 7060X6
# lanes 1-512, Spectrum-4 SN5600 lanes 0-511, Spectrum-3 SN4700 lanes 0-255; sonic-buildimage
# master 086b03bd70: SN5640 platform.json @b662f06644 64 cages x 8 lanes 0-511 with 8x100G on
# every cage = 51.2T, SN6600_LD platform.json @dd9d1d5af1 64 x 8 lanes with 8x200G = 102.4T).
_CAPACITY = {
    "tomahawk3": (12800, False, False), "tomahawk4": (25600, False, False),
    "tomahawk5": (51200, True, True), "trident4": (12800, False, False),
    "jericho2": (9600, False, False), "jericho3": (14400, False, False),
    "spectrum1": (3200, False, False), "spectrum2": (6400, True, False),
    "spectrum3": (12800, True, True), "spectrum4": (51200, True, True),
    # 51.2T and 102.4T: the SN5640 and SN6600_LD platform.json (above); Mellanox/hw-mgmt #2885
    # (SN6600) and the Tomahawk 6 press releases.
    "spectrum5": (51200, True, True), "spectrum6": (102400, True, True),
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


# ASIC_TABLE of the older replica in LM §1.3 (SONIC-ASIC): 18 KiB pipeline, as in the fork
# stephenxs/sonic-buildimage files/build_templates/asic_table.j2 @761bdf3e lines 40-41, 51-52;
# sonic-net's asic_table.j2 carried 19 from its first commit (e010d83fc3, #6194, 2020-12-13).
# The name "18913fa" (LM §1.3's lua commit, the revision of lossless/headroom.py) is no commit
# of sonic-net/sonic-swss; the lua that replica follows (cable term /8192, 8-lane pipeline
# latency x2 - 1 KiB) is cfgmgr/buffer_headroom_mellanox.lua blob d99cd028, master 4957df86d
# (#2860, 2023-08-14) up to #3235 (b90555553), and the 202305 / 202311 branches.
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
