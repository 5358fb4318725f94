# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Vendor defaults that are computed, not copied: SONiC's PFC watchdog default.

``config load_minigraph`` runs ``pfcwd start_default`` once the PORT table is loaded
(sonic-utilities config/main.py load_minigraph, unless DEVICE_METADATA default_pfcwd_status is
"disable"); the PORT table is then the HWSKU's port_config.ini (sku_tables.PORT_ENTRIES).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict

# sonic-utilities pfcwd/main.py (every release branch 202305..202605 and master 691b1bbc4):
# DEFAULT_DETECTION_TIME = DEFAULT_RESTORATION_TIME = DEFAULT_POLL_INTERVAL = 200 (ms),
# DEFAULT_PORT_NUM = 32, DEFAULT_ACTION = 'drop'. start_default counts every PORT entry
# (len(config_db.get_table('PORT'))) in all of them; it writes the timers only on the
# DEVICE_NEIGHBOR (and backplane) ports whose PORT_QOS_MAP has pfc_enable
# (verify_pfc_enable_status_per_port).
_BASE_MS = 200
_PORTS_PER_STEP = 32
# MAX_POLL_INTERVAL_TIME = 1000: the poll interval (only it) is capped since master 2ec21e196
# (#4306, 2026-03-04), on 202511 by 04adbbe36 (#4340); 202605 branches off master after it.
_POLL_CAP_MS = 1000
_POLL_CAPPED = ("202511", "202605")
SOURCE = "sonic-utilities %s pfcwd/main.py PfcwdCli.start_default"


def pfcwd_start_default(port_entries: int, version: str) -> Dict[str, Any]:
    """What ``pfcwd start_default`` of SONiC release ``version`` writes on a switch whose PORT
    table has ``port_entries`` rows: {detection_ms, restoration_ms, poll_ms, action, multiply,
    source}."""
    multiply = max(1, (port_entries - 1) // _PORTS_PER_STEP + 1)
    poll = _BASE_MS * multiply
    capped = version in _POLL_CAPPED
    if capped:
        poll = min(poll, _POLL_CAP_MS)
    why = "200 ms x %d = max(1, (%d PORT entries - 1) // 32 + 1)" % (multiply, port_entries)
    if poll < _BASE_MS * multiply:
        why += ", poll capped at 1,000 ms (MAX_POLL_INTERVAL_TIME, #4306/#4340)"
    return {"detection_ms": _BASE_MS * multiply, "restoration_ms": _BASE_MS * multiply,
            "poll_ms": poll, "action": "drop", "multiply": multiply,
            "source": "%s: %s" % (SOURCE % version, why)}
