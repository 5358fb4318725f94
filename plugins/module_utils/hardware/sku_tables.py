# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What each vendor ships for a SONiC HWSKU, as data: its pg_profile_lookup.ini (the rows
SONiC's traditional buffer manager pins lossless PGs to), its buffer template's pool sizes (the
total the vendor sizes the buffer at) and the vendor's lossless defaults (WRED/ECN, PFC
watchdog, port MTU) the deviation report compares the plan with.

Every table is copied verbatim (whitespace collapsed) from sonic-net/sonic-buildimage master
086b03bd70 (2026-08-23), the snapshot ../shared/sku_data holds; each entry names the file and
the commit that last changed it. A test holds every table equal to ../shared/sku_data.
HWSKUs a model names that have no table here publish no row: the 7060X6-64PE 1x800G HWSKU's ini
is a header without rows, and the 7060DX5-64S and DS5000 folders have no ini (NO_TABLE).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware import cumulus

_BUILDIMAGE = "sonic-buildimage master 086b03bd70 "

# pg_profile_lookup.ini, "speed cable size xon xoff threshold [xon_offset]" per row.
_INI = {
    "ACS-SN5600": (
        "device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/pg_profile_lookup.ini @7d38b459",
        "10000 5m 64512 19456 45056 0;25000 5m 67584 19456 48128 0;"
        "40000 5m 75776 19456 57344 0;50000 5m 82944 19456 63488 0;"
        "100000 5m 133120 19456 113664 0;200000 5m 150528 19456 131072 0;"
        "400000 5m 250880 19456 231424 0;800000 5m 304128 38912 257024 0;"
        "10000 40m 65536 19456 46080 0;25000 40m 71680 19456 52224 0;"
        "40000 40m 81920 19456 62464 0;50000 40m 89088 19456 69632 0;"
        "100000 40m 146432 19456 126976 0;200000 40m 177152 19456 157696 0;"
        "400000 40m 303104 19456 283648 0;800000 40m 410624 38912 362496 0;"
        "10000 300m 75776 19456 56320 0;25000 300m 96256 19456 76800 0;"
        "40000 300m 120832 19456 101376 0;50000 300m 138240 19456 118784 0;"
        "100000 300m 244736 19456 225280 0;200000 300m 374784 19456 355328 0;"
        "400000 300m 697344 19456 677888 0;800000 300m 1198080 38912 1150976 0"),
    "Mellanox-SN5600-V256": (
        "device/mellanox/x86_64-nvidia_sn5600-r0/Mellanox-SN5600-V256/pg_profile_lookup.ini "
        "@f99ac6cd (size = xon: the template's shared headroom pool holds xoff)",
        "10000 5m 19456 19456 33792 0;25000 5m 19456 19456 35840 0;"
        "40000 5m 19456 19456 41984 0;50000 5m 19456 19456 46080 0;"
        "100000 5m 19456 19456 79872 0;200000 5m 19456 19456 91136 0;"
        "400000 5m 19456 19456 157696 0;800000 5m 38912 38912 175104 0;"
        "10000 40m 19456 19456 34816 0;25000 40m 19456 19456 37888 0;"
        "40000 40m 19456 19456 45056 0;50000 40m 19456 19456 50176 0;"
        "100000 40m 19456 19456 88064 0;200000 40m 19456 19456 108544 0;"
        "400000 40m 19456 19456 192512 0;800000 40m 38912 38912 245760 0;"
        "10000 300m 19456 19456 40960 0;25000 300m 19456 19456 54272 0;"
        "40000 300m 19456 19456 71680 0;50000 300m 19456 19456 82944 0;"
        "100000 300m 19456 19456 153600 0;200000 300m 19456 19456 240640 0;"
        "400000 300m 19456 19456 455680 0;800000 300m 38912 38912 771072 0"),
    "ACS-MSN4700": (
        "device/mellanox/x86_64-mlnx_msn4700-r0/ACS-MSN4700/pg_profile_lookup.ini @5356244e",
        "10000 5m 52224 19456 32768 0;25000 5m 52224 19456 32768 0;"
        "40000 5m 53248 19456 33792 0;50000 5m 53248 19456 33792 0;"
        "100000 5m 53248 19456 33792 0;200000 5m 55296 19456 35840 0;"
        "400000 5m 86016 37888 38912 0;10000 40m 53248 19456 33792 0;"
        "25000 40m 55296 19456 35840 0;40000 40m 57344 19456 37888 0;"
        "50000 40m 58368 19456 38912 0;100000 40m 63488 19456 44032 0;"
        "200000 40m 74752 19456 55296 0;400000 40m 124928 37888 77824 0;"
        "10000 300m 60416 19456 40960 0;25000 300m 73728 19456 54272 0;"
        "40000 300m 86016 19456 66560 0;50000 300m 95232 19456 75776 0;"
        "100000 300m 137216 19456 117760 0;200000 300m 223232 19456 203776 0;"
        "400000 300m 420864 37888 373760 0"),
    "Arista-7060X6-64PE-O128S2": (
        "device/arista/x86_64-arista_7060x6_64pe/Arista-7060X6-64PE-O128S2/"
        "pg_profile_lookup.ini @3b7d7c07",
        "400000 5m 18796 0 612140 0 3556;400000 40m 18796 0 612140 0 3556;"
        "400000 150m 18796 0 612140 0 3556"),
    "Arista-7060X6-64PE-256x200G": (
        "device/arista/x86_64-arista_7060x6_64pe/Arista-7060X6-64PE-256x200G/BALANCED/"
        "pg_profile_lookup.ini @b3e379c2 (the HWSKU's ini links to it)",
        "100000 5m 18796 0 300990 0 3556;200000 5m 18796 0 300990 0 3556;"
        "100000 40m 18796 0 300990 0 3556;200000 40m 18796 0 300990 0 3556"),
}
_INI["Mellanox-SN5600-O128"] = (
    "device/mellanox/x86_64-nvidia_sn5600-r0/Mellanox-SN5600-O128/pg_profile_lookup.ini "
    "(symlink to ACS-SN5600 @7d38b459)", _INI["ACS-SN5600"][1])

# One row: (size, xon, xoff, threshold, xon_offset or None), in bytes (threshold: dynamic_th).
Row = Tuple[int, int, int, int, Optional[int]]


def _parse(text: str) -> Dict[Tuple[int, int], Row]:
    rows = {}
    for line in text.split(";"):
        f = line.split()
        rows[(int(f[0]) // 1000, int(f[1][:-1]))] = (
            int(f[2]), int(f[3]), int(f[4]), int(f[5]), int(f[6]) if len(f) > 6 else None)
    return rows


PG_TABLES = dict((sku, _parse(text)) for sku, (_src, text) in _INI.items())
PG_SOURCES = dict((sku, _BUILDIMAGE + src) for sku, (src, _text) in _INI.items())
# HWSKUs the models name without a published table (reason per SKU).
NO_TABLE = {
    # Arista-7060X6-64PE/pg_profile_lookup.ini -> BALANCED/ -> device/common/profiles/th5/gen/
    # BALANCED/pg_profile_lookup.ini: two comment lines, no row (@dfa500203d, "No-op qos buffer
    # templates"); its buffers_defaults_t1.j2 there skips BUFFER_POOL and BUFFER_PROFILE
    "Arista-7060X6-64PE": "its pg_profile_lookup.ini (device/common/profiles/th5/gen/BALANCED "
                          "@dfa500203d) is published with a header and no rows",
    "Arista-7060DX5-64S": "its folder has no pg_profile_lookup.ini and no buffer templates",
    "DS5000": "its folder (open PR #28275) has no pg_profile_lookup.ini",
}

# HWSKUs without pools in a buffer template, and why (the report says so instead of a size).
NO_TEMPLATE = {
    "Arista-7060X6-64PE": "its buffers_defaults_t1.j2 (device/common/profiles/th5/gen/BALANCED "
                          "@dfa500203d) writes no BUFFER_POOL",
    "Arista-7060DX5-64S": NO_TABLE["Arista-7060DX5-64S"],
    "DS5000": "its folder (open PR #28275) has no buffer template",
}

# PORT entries of each HWSKU's port_config.ini (comment lines not counted), management and
# service ports included: the PORT table load_minigraph builds, which pfcwd start_default
# counts (hardware/vendor_defaults.py). Same snapshot as ../shared/sku_data; a test counts them.
PORT_ENTRIES = {
    "ACS-SN5600": 65, "Mellanox-SN5600-O128": 129, "Mellanox-SN5600-V256": 257,
    "ACS-MSN4700": 32,
    "Arista-7060X6-64PE": 66, "Arista-7060X6-64PE-O128S2": 130,
    "Arista-7060X6-64PE-256x200G": 258,
    "Arista-7060DX5-64S": 66, "DS5000": 66,
}

# The vendor's buffer template (T1, buffers_defaults_t1.j2) per HWSKU: pool sizes in bytes.
# ``total`` is what the vendor sizes the buffer at: on NVIDIA the egress lossless pool (SONiC's
# buffer_pool_mellanox.lua carves every other pool out of it); on Broadcom the ingress pool plus
# its xoff (the shared headroom pool), which are separate MMU regions.
TEMPLATES: Dict[str, Dict[str, Any]] = {
    "ACS-SN5600": {"source": "device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/"
                             "buffers_defaults_t1.j2 @c076c124",
                   "ingress_lossless_pool": 52161690, "ingress_lossy_pool": 52161690,
                   "egress_lossless_pool": 158229504, "egress_lossy_pool": 52161690,
                   "total": 158229504},
    "Mellanox-SN5600-V256": {"source": "device/mellanox/x86_64-nvidia_sn5600-r0/"
                                       "Mellanox-SN5600-V256/buffers_defaults_t1.j2 @f99ac6cd",
                             "ingress_lossless_pool": 73684992,
                             "ingress_lossless_pool_xoff": 60293120,
                             "egress_lossless_pool": 158229504, "egress_lossy_pool": 73684992,
                             "total": 158229504},
    "ACS-MSN4700": {"source": "device/mellanox/x86_64-mlnx_msn4700-r0/ACS-MSN4700/"
                              "buffers_defaults_t1.j2 @ba853348",
                    "ingress_lossless_pool": 20627456, "ingress_lossy_pool": 20627456,
                    "egress_lossless_pool": 60817392, "egress_lossy_pool": 20627456,
                    "total": 60817392},
    "Arista-7060X6-64PE-O128S2": {
        "source": "device/arista/x86_64-arista_7060x6_64pe/Arista-7060X6-64PE-O128S2/"
                  "buffers_defaults_t1.j2 @3b7d7c07",
        "ingress_lossless_pool": 166115492, "ingress_lossless_pool_xoff": 29423360,
        "egress_lossless_pool": 166115492, "total": 166115492 + 29423360},
    "Arista-7060X6-64PE-256x200G": {
        "source": "device/arista/x86_64-arista_7060x6_64pe/Arista-7060X6-64PE-256x200G/"
                  "BALANCED/buffers_defaults_t1.j2 @68136cb4",
        "ingress_lossless_pool": 121964196, "ingress_lossless_pool_xoff": 29520896,
        "egress_lossless_pool": 121964196, "total": 121964196 + 29520896},
}
TEMPLATES["Mellanox-SN5600-O128"] = dict(
    TEMPLATES["ACS-SN5600"], source="device/mellanox/x86_64-nvidia_sn5600-r0/"
    "Mellanox-SN5600-O128/buffers_defaults_t1.j2 (symlink to ACS-SN5600 @c076c124)")
for _t in TEMPLATES.values():
    _t["source"] = _BUILDIMAGE + _t["source"]

# The vendor's lossless defaults the deviation report sets beside the plan (value, source): per
# platform (hardware/platforms.py NAMES), then per HWSKU. SONiC's PFC watchdog default depends on
# the PORT count and release: hardware/vendor_defaults.py pfcwd_start_default.
_QOS_CONFIG = _BUILDIMAGE + "files/build_templates/qos_config.j2 (sonic.md §1.2)"
VENDOR_DEFAULTS: Dict[str, Dict[str, Tuple[Any, str]]] = {
    "sonic": {
        # WRED_PROFILE AZURE_LOSSLESS: green/yellow/red min 1048576, max 2097152, probability 5
        "wred": ({"kmin_bytes": 1048576, "kmax_bytes": 2097152, "pmax_percent": 5},
                 _QOS_CONFIG + ": WRED_PROFILE AZURE_LOSSLESS"),
        # every preset of config_samples.py and minigraph.py parse_xml set PORT mtu '9100'
        "port_mtu": (9100, _BUILDIMAGE + "src/sonic-config-engine/config_samples.py and "
                     "minigraph.py: PORT mtu '9100'"),
    },
    "Arista-7060X6-64PE-O128S2": {
        "wred": ({"kmin_bytes": 131072, "kmax_bytes": 262144, "pmax_percent": 5},
                 _BUILDIMAGE + "device/arista/x86_64-arista_7060x6_64pe/"
                 "Arista-7060X6-64PE-O128S2/qos.json.j2: WRED_LOSSLESS_Q3 (sonic.md §1.2)"),
    },
    # Cumulus Linux 5.14 NVUE defaults (hardware/cumulus.py sources)
    "cumulus": {
        # the default congestion-control profile: ECN on queue 0 at 150,000 / 1,500,000 B,
        # probability 100 (QoS _index.md; `nv set qos roce` marks queue 3 alike)
        "ecn": ({"kmin_bytes": 150000, "kmax_bytes": 1500000, "pmax_percent": 100},
                cumulus.QOS_PAGE + ": congestion-control default-global"),
        "port_mtu": (9216, cumulus.MTU_SOURCE),
        "pfc_cable_m": (10, cumulus.QOS_PAGE + ": PFC cable-length default 10 m"),
        # "100% of the buffer memory to the default-lossy traffic pool by default"
        "pools": ({"default-lossy": 100, "default-lossless": 0},
                  cumulus.QOS_PAGE + ": traffic-pool defaults"),
        "watchdog": ({"polling-interval": 100, "robustness": 3},
                     cumulus.QOS_PAGE + ": PFC watchdog defaults"),
    },
    "eos": {
        # AVD's default for p2p uplinks, not EOS's own interface default (not read)
        "port_mtu": (9214, "AVD p2p_uplinks_mtu default (aristanetworks/avd @3cac535c; "
                           "hardware/platforms.py EOS mtu_source)"),
    },
}


def pg_table(hwsku: Optional[str]) -> Dict[Tuple[int, int], Row]:
    """The HWSKU's pg_profile_lookup.ini rows {(speed Gb/s, cable m): Row}; {} where none is
    published."""
    return PG_TABLES.get(hwsku or "", {})


def cable_classes(hwsku: Optional[str], speed_gbps: int) -> Tuple[int, ...]:
    """The CABLE_LENGTH values (metres) the HWSKU's table has a row for at ``speed_gbps``."""
    return tuple(sorted(c for (s, c) in pg_table(hwsku) if s == speed_gbps))


def template(hwsku: Optional[str]) -> Optional[Dict[str, Any]]:
    return TEMPLATES.get(hwsku or "")
