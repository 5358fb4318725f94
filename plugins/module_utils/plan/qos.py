# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The QoS intent of a switch or NIC, and its DSCP map complete for all 64 DSCPs.

Only the planned DSCPs may reach a lossless (PFC-paused) class: under ``trust dscp`` a switch or
NIC classifies every DSCP its map does not list by the platform's or driver's own default map,
which puts CS3/AF31-AF33 (DSCP 24-31) on priority 3 on the common ones (the drivers' trust-dscp
default is priority = DSCP >> 3, host-nic.md §1.1), the RoCE class - other traffic would then be
paused with RoCE and spread its pauses (head-of-line blocking). So the intent lists the DSCPs
the inventory maps (RoCE's, CNP's, roce_qos dscp_to_tc) and a default traffic class for every
other DSCP, and every renderer writes the map for all 64 DSCPs (``dscp_map``); the rule
lossless-only-roce holds every switch and NIC to it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable

from ansible_collections.roce.fabric.plugins.module_utils.records import QosIntent

DSCPS = range(64)          # the 6-bit DSCP field (RFC 2474 §3)


def default_tc(lossless: Iterable[int]) -> int:
    """The traffic class of every DSCP the inventory does not map: the lowest class that is
    neither lossless nor PFC-enabled - TC 0, best effort, unless the inventory made it lossless
    [P] (the traffic class SONiC's AI SKUs give every unlisted DSCP: Arista-7060X6-64PE-O128S2
    qos.json.j2, sonic.md §1.2)."""
    free = [tc for tc in range(8) if tc not in set(lossless)]
    return free[0] if free else 0      # every class lossless: lossless-only-roce says so


def qos_intent(q: Dict[str, Any], host: str) -> QosIntent:
    """Normalised QoS intent from a merged roce_qos / NIC qos mapping. Every value passed the
    input gate (inputs/schema.py QOS: DSCPs 0-63, priorities 0-7, the enums)."""
    lossless = sorted(set(q["lossless_priorities"]))
    dscp_to_tc = dict((int(d), tc) for d, tc in q["dscp_to_tc"].items())
    roce, cnp = q["roce_dscp"], q["cnp_dscp"]
    dscp_to_tc.setdefault(roce, q["roce_priority"])
    dscp_to_tc.setdefault(cnp, q["cnp_priority"])
    pfc = sorted(set(q["pfc_priorities"] if q["pfc_priorities"] is not None else lossless))
    ecn_q = q["ecn_queues"] if q["ecn_queues"] is not None else lossless
    paused = set(lossless) | set(pfc)
    return {
        "trust": q["trust"],
        "roce_dscp": roce, "roce_tc": dscp_to_tc[roce],
        "cnp_dscp": cnp, "cnp_tc": dscp_to_tc[cnp],
        "dscp_to_tc": dict(sorted(dscp_to_tc.items())),
        "dscp_default_tc": default_tc(paused),           # every DSCP not in dscp_to_tc
        # the DSCPs the plan puts on a lossless or PFC-enabled class: RoCE's and those the
        # inventory maps there itself
        "lossless_dscps": sorted(d for d, tc in dscp_to_tc.items() if tc in paused),
        "tc_to_pg": dict((tc, tc if tc in lossless else 0) for tc in range(8)),
        "tc_to_queue": dict((tc, tc) for tc in range(8)),
        "lossless_priorities": lossless,
        "pfc_priorities": pfc,
        "ecn_queues": sorted(set(ecn_q)),
        "cnp_scheduler": q["cnp_scheduler"],
    }


def dscp_map(q: QosIntent) -> Dict[int, int]:
    """{DSCP: traffic class} for all 64 DSCPs: what every renderer writes, explicitly."""
    listed, other = q["dscp_to_tc"], q["dscp_default_tc"]
    return dict((d, listed.get(d, other)) for d in DSCPS)
