# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Switch models (SKUs) as data: ASIC, front-panel cages and their SerDes lanes, breakout
modes, and the SONiC platform and HWSKU strings; each platform names the ports its own way
(platforms.py).

Facts come from the vendors' published port maps in sonic-net/sonic-buildimage (platform.json,
port_config.ini, hwsku.json) and from Arista's EOS manual; each model cites its files. Lane
numbers are the ASIC's (1-based on these Broadcom boxes, 0-based on NVIDIA's) and, on several
boxes, not in cage order, so each model lists the first lane of every cage.

A mode is a cage's breakout: ``(name, ports per cage, speeds in Gb/s)``; the first speed is
the native one, the others what a port of that mode may run at (platform.json brackets).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections import namedtuple
from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware import platforms, sku_tables

Mode = namedtuple("Mode", "name ports speeds")

# Checked again for issue 27 against sonic-buildimage master 086b03bd70 (2026-08-23): the first
# lanes of every 8-lane cage below equal that master's platform.json (7060X6-64PE @9c98c4800a,
# 7060DX5-64S @368ace2a19, SN5600 and SN4700 @ec0ff9d5d1) and, for the DS5000, which is
# not on master, the head of PR #28275 (a345b55deb). The commits 1b88185e, b15dba53, 9c781c0f and
# daa8cabb cited below are not in the repository as fetched (every branch, tag and PR ref of a
# snapshot that lacks a few objects; the search index keeps the files under those ids); the
# master files are the ones to read.
# Arista 7060X6-64PE (Tomahawk 5): first lane of cages 1-64, sonic-buildimage
# device/arista/x86_64-arista_7060x6_64pe/platform.json @1b88185e.
_7060X6_LANES = [17, 1, 9, 25, 57, 41, 33, 49, 89, 73, 65, 81, 121, 105, 97, 113, 153, 137, 129,
                 145, 185, 169, 161, 177, 217, 201, 193, 209, 249, 233, 225, 241, 273, 257, 265,
                 281, 313, 297, 289, 305, 345, 329, 321, 337, 377, 361, 353, 369, 409, 393, 385,
                 401, 441, 425, 417, 433, 473, 457, 449, 465, 505, 489, 481, 497]
# Arista 7060DX5-64S (Tomahawk 4): device/arista/x86_64-arista_7060dx5_64s/platform.json
# @b15dba53 (and Arista-7060DX5-64S/port_config.ini, fork zili11720 @b075547a).
_7060DX5_LANES = [17, 9, 49, 33, 81, 65, 113, 97, 145, 129, 177, 161, 209, 193, 241, 233, 281,
                  257, 305, 289, 337, 321, 369, 353, 401, 385, 433, 417, 465, 449, 481, 505, 1,
                  25, 57, 41, 89, 73, 121, 105, 153, 137, 185, 169, 217, 201, 249, 225, 273, 265,
                  313, 297, 345, 329, 377, 361, 409, 393, 441, 425, 473, 457, 497, 489]
# Celestica DS5000 (Tomahawk 5): device/celestica/x86_64-cls_ds5000-r0/DS5000/port_config.ini
# @9c781c0f and platform.json @daa8cabb.
_DS5000_LANES = [1, 17, 25, 9, 33, 49, 57, 41, 65, 81, 89, 73, 97, 113, 121, 105, 129, 145, 153,
                 137, 161, 177, 185, 169, 193, 209, 217, 201, 225, 241, 249, 233, 257, 273, 281,
                 265, 289, 305, 313, 297, 321, 337, 345, 329, 353, 369, 377, 361, 385, 401, 409,
                 393, 417, 433, 441, 425, 449, 465, 473, 457, 481, 497, 505, 489]

# The SONiC HWSKUs' pg_profile_lookup.ini tables and buffer templates are data of their own
# (sku_tables.py, each with its file and commit). The SN5600 table is the Mellanox formula at
# 100 % small packets, lossless MTU 1024, port MTU 9100 (sonic.md §1.3), a few rows 1 KiB higher:
SKU_TABLE_PATTERN = {"small_packet_pct": 100, "lossless_mtu_bytes": 1024, "port_mtu_bytes": 9100}

# EOS on Tomahawk (7060X/7260X series): unicast and multicast egress queues are separate, so a
# qos profile configures the unicast queue, `uc-tx-queue N` (EOS User Manual, "Quality of
# Service", Arista 7050X/7060X/7260X/7300X: uc-tx-queue / mc-tx-queue; AVD qos_profiles
# uc_tx_queues, eos-and-avd.md §2); `tx-queue` is the Trident-3/-4 and Jericho form.
_TOMAHAWK_EOS = {"tx_queue": "uc-tx-queue",
                 "source": "EOS User Manual QoS (7050X/7060X/7260X/7300X: uc-tx-queue); AVD "
                           "qos_profiles[].uc_tx_queues (eos-and-avd.md §2)"}

# SONiC aliases: "etp" gives etp<cage> for one port per cage, etp<cage><a..h> for more (NVIDIA
# and Arista platform.json); "slash" gives <prefix><cage>/<first lane in cage>.
MODELS: Dict[str, Dict[str, Any]] = {
    "sn5600": {
        "product": "NVIDIA SN5600", "asic": "spectrum4", "cage_lanes": 8,
        "first_lanes": list(range(0, 512, 8)),
        "modes": [Mode("1x800G", 1, (800, 400, 200, 100, 50, 40, 25, 10)),
                  Mode("2x400G", 2, (400, 200, 100, 50, 40, 25, 10)),
                  Mode("4x200G", 4, (200, 100, 50, 25, 10))],
        # Cumulus Linux 5 on the SN5600: hardware/cumulus.py (its ports, breakouts, NVUE keys)
        "platforms": ("sonic", "cumulus"),
        "sonic": {"platform": "x86_64-nvidia_sn5600-r0", "alias": ("etp", ""),
                  "hwsku": {"1x800G": "ACS-SN5600", "2x400G": "Mellanox-SN5600-O128",
                            "4x200G": "Mellanox-SN5600-V256"}},
        "source": "sonic-buildimage device/mellanox/x86_64-nvidia_sn5600-r0: platform.json "
                  "@f1bfa774 (64 cages, lanes 0-511, 1x800G/2x400G/4x200G), "
                  "Mellanox-SN5600-O128/port_config.ini @bb73a8a1 (128 x 400G, etpNa/etpNb), "
                  "ACS-SN5600/port_config.ini (fork edge-core @7d38b459)",
    },
    "sn4700": {
        "product": "NVIDIA SN4700", "asic": "spectrum3", "cage_lanes": 8,
        "first_lanes": list(range(0, 256, 8)),
        "modes": [Mode("1x400G", 1, (400, 200, 100, 50, 40, 25, 10)),
                  Mode("2x200G", 2, (200, 100, 50, 40, 25, 10)),
                  Mode("4x100G", 4, (100, 50, 25, 10))],
        "platforms": ("sonic",),
        "sonic": {"platform": "x86_64-mlnx_msn4700-r0", "alias": ("etp", ""),
                  "hwsku": {"1x400G": "ACS-MSN4700"}},
        "source": "sonic-buildimage device/mellanox/x86_64-mlnx_msn4700-r0: platform.json.a1 "
                  "(32 cages, lanes 0-255), ACS-MSN4700/port_config.ini (fork edge-core)",
    },
    "7060x6-64pe": {
        "product": "Arista 7060X6-64PE", "asic": "tomahawk5", "cage_lanes": 8,
        "first_lanes": _7060X6_LANES,
        "modes": [Mode("1x800G", 1, (800, 400)), Mode("2x400G", 2, (400,)),
                  Mode("4x200G", 4, (200,)), Mode("8x100G", 8, (100,))],
        "platforms": ("sonic", "eos"),
        "eos": _TOMAHAWK_EOS,
        "sonic": {"platform": "x86_64-arista_7060x6_64pe", "alias": ("etp", ""),
                  "hwsku": {"1x800G": "Arista-7060X6-64PE",
                            "2x400G": "Arista-7060X6-64PE-O128S2",
                            "4x200G": "Arista-7060X6-64PE-256x200G"}},
        "source": "sonic-buildimage device/arista/x86_64-arista_7060x6_64pe: platform.json "
                  "@1b88185e (lanes and breakouts), Arista-7060X6-64PE-O128S2/port_config.ini "
                  "@3a67677d; EOS manual 'Layer 1 Profiles' (an OSFP cage N is EthernetN/1-8)",
    },
    "7060dx5-64s": {
        "product": "Arista 7060DX5-64S", "asic": "tomahawk4", "cage_lanes": 8,
        "first_lanes": _7060DX5_LANES,
        "modes": [Mode("1x400G", 1, (400, 200, 100, 50, 40, 25, 10)),
                  Mode("2x200G", 2, (200, 100, 50, 40, 25, 10)),
                  Mode("4x100G", 4, (100, 50, 40, 25, 10))],
        "platforms": ("sonic", "eos"),
        "eos": _TOMAHAWK_EOS,
        "sonic": {"platform": "x86_64-arista_7060dx5_64s", "alias": ("slash", "Ethernet"),
                  "hwsku": {"1x400G": "Arista-7060DX5-64S"}},
        "source": "sonic-buildimage device/arista/x86_64-arista_7060dx5_64s/platform.json "
                  "@b15dba53; Arista-7060DX5-64S/port_config.ini (fork zili11720 @b075547a)",
    },
    "ds5000": {
        "product": "Celestica DS5000", "asic": "tomahawk5", "cage_lanes": 8,
        "first_lanes": _DS5000_LANES,
        # platform.json: 4- and 8-way breakouts on odd cages only
        "modes": [Mode("1x800G", 1, (800,)), Mode("2x400G", 2, (400,)),
                  Mode("2x200G", 2, (200,)), Mode("2x100G", 2, (100,))],
        "platforms": ("sonic",),
        "sonic": {"platform": "x86_64-cls_ds5000-r0", "alias": ("slash", "Eth"),
                  "hwsku": {"1x800G": "DS5000"}},
        "source": "sonic-buildimage device/celestica/x86_64-cls_ds5000-r0: DS5000/port_config.ini "
                  "@9c781c0f, platform.json @daa8cabb (modes every cage has)",
    },
}


def mode_for(model: str, speed_gbps: int) -> Optional[Mode]:
    """The breakout a cage of ``model`` takes for ports of ``speed_gbps``: the mode with that
    native speed (most ports per cage first), else one that runs it; None if none does."""
    modes = MODELS[model]["modes"]
    native = [m for m in modes if m.speeds[0] == speed_gbps]
    other = [m for m in modes if speed_gbps in m.speeds]
    best = sorted(native or other, key=lambda m: -m.ports)
    return best[0] if best else None


def port_count(model: str, mode: Mode) -> int:
    return len(MODELS[model]["first_lanes"]) * mode.ports


def port(model: str, platform: str, mode: Mode,
         index: int) -> Tuple[str, str, Optional[str], int, int]:
    """Name, lanes (text), alias, cage index (1-based) and lanes per port of front-panel port
    ``index`` (0-based, cage-major) of ``model`` in breakout ``mode``, named as ``platform``
    names it (platforms.py)."""
    m = MODELS[model]
    per = m["cage_lanes"] // mode.ports
    cage, sub = divmod(index, mode.ports)
    first = m["first_lanes"][cage] + sub * per
    lanes = ",".join(str(first + k) for k in range(per))
    name, alias = platforms.PLATFORMS[platform].ports.model_port(m, mode.ports, cage, sub, per)
    return name, lanes, alias, cage + 1, per


def parse(model: str, platform: str, mode: Mode, name: str) -> Optional[int]:
    """The index of the front-panel port called ``name``, or None if the model has none."""
    m = MODELS[model]
    per = m["cage_lanes"] // mode.ports
    try:
        cage, sub, rest = platforms.PLATFORMS[platform].ports.model_place(m, per, name)
    except ValueError:
        return None
    if rest or not 0 <= cage < len(m["first_lanes"]) or not 0 <= sub < mode.ports:
        return None
    return cage * mode.ports + sub


def names() -> List[str]:
    return sorted(MODELS)


def pg_row(hwsku: Optional[str], speed_gbps: int,
           cable_m: float) -> Optional[Tuple[int, Tuple[int, int, int]]]:
    """The HWSKU's pg_profile_lookup.ini row for a port: the shortest table cable at least as
    long as ``cable_m`` (SONiC's CABLE_LENGTH is then that class). (cable class, (size, xon,
    xoff)) or None when the table has no such row."""
    table = sku_tables.pg_table(hwsku)
    cables = [c for c in sku_tables.cable_classes(hwsku, speed_gbps) if c >= cable_m]
    return (cables[0], table[(speed_gbps, cables[0])][:3]) if cables else None


def hwsku(model: Optional[str], mode_name: str) -> Optional[str]:
    """The SONiC HWSKU of ``model`` in breakout ``mode_name`` (None without one)."""
    if model is None:
        return None
    return MODELS[model]["sonic"]["hwsku"].get(mode_name)
