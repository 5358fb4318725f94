# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What Cumulus Linux (NVUE) takes, as data with its sources: the keys and value ranges the
renderer (render/cumulus/nvue.py) writes, the numbers NVUE computes itself, the ECMP settings it
carries, and which changes reload switchd or flap ports (render/cumulus/changes.py).

Sources are NVIDIA's own documentation, the CumulusNetworks/docs repository (``DOCS``), read at
the commits named: the Cumulus Linux 5.14 user guide (``CL``) and the NVUE command reference
(``REF``). The target release is 5.14: it spells switches ``enable on|off`` (5.15 renamed many
to ``state enabled|disabled``: cumulus-linux-515 Whats-New/New-and-Changed-NVUE-Commands.md
@07d58d4b). A fact that could not be read there is in ``UNVERIFIED`` and kept out of the config.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, Tuple

DOCS = "CumulusNetworks/docs"
CL = "content/cumulus-linux-514/"
REF = "content/nvue-reference/Set-and-Unset-Commands/"
RELEASE = "5.14"
QOS_PAGE = DOCS + " " + CL + "Layer-1-and-Switch-Ports/Quality-of-Service/_index.md @0d142afe"
ROCE_PAGE = DOCS + " " + CL + ("Layer-1-and-Switch-Ports/Quality-of-Service/"
                               "RDMA-over-Converged-Ethernet-RoCE.md @1ffba627")
QOS_REF = DOCS + " " + REF + "QoS.md @05e49539"
PORTS_PAGE = DOCS + " " + CL + ("Layer-1-and-Switch-Ports/Interface-Configuration-and-Management/"
                                "Switch-Port-Attributes.md @0a592e5d")
IF_REF = DOCS + " " + REF + "Interface.md @0dd08a25"
ECMP_PAGE = DOCS + " " + CL + "Layer-3/Routing/Equal-Cost-Multipath-Load-Sharing.md @2e276ab8"
BGP_PAGE = DOCS + " " + CL + "Layer-3/Border-Gateway-Protocol-BGP/"
API_PAGE = DOCS + " " + CL + "System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-API.md @05782f94"
CLI_PAGE = DOCS + " " + CL + "System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md @14b5217a"
OPENAPI = DOCS + " static/cumulus-linux-52/api/openapi.json @ff0b4ea1"

# -- ports ----------------------------------------------------------------------------------

# `nv set interface <swp> link mtu`: "You can set a value between 552 and 9216. The default
# setting is 9216." (IF_REF); the IP MTU of a routed port.
MTU_MIN_BYTES = 552
MTU_MAX_BYTES = 9216
MTU_SOURCE = IF_REF + ": link mtu 552-9216, default 9216"
# `link breakout <mode-id>`: "1x, 2x, 4x, 8x", the speed set per port with `link speed`
# (PORTS_PAGE: "you specify 1=1x or 1=4x ... To set a speed ... nv set interface <interface>
# link speed"); breakout ports are swp<cage>s0, s1, ... (PORTS_PAGE: nv set interface swp1s0-3).
# The breakout is an object keyed by its mode (KB NVUE-Breakout-Fails.md @00776eae: "Config
# invalid at interface.swp1.link.breakout: '4x10G' is not of type 'object'").
BREAKOUTS = (1, 2, 4, 8)
# `link speed` values (CLI_PAGE: "enum:auto, 10M, 100M, 1G, 10G, 25G, 40G, 50G, 100G, 200G,
# 400G, 800G").
SPEEDS_GBPS = (10, 25, 40, 50, 100, 200, 400, 800)
# Interface descriptions: "a maximum of 255 characters" (CL Interface-Configuration-and-
# Management/_index.md @262bf6ef).
DESCRIPTION_MAX = 255

# -- QoS ---------------------------------------------------------------------------------------

# NVUE's own numbers the plan does not render: the PFC headroom (xoff, xon, port buffer) -
# "NVIDIA recommends that you do not change these settings but, instead, let Cumulus Linux
# configure the settings dynamically" (QOS_PAGE, PFC) - sized from the PFC profile's cable length
# and the interface delay ("This calculation includes the delay that the PHY and MAC layers ...
# introduce as well as the distance between end points (cable length)", QOS_PAGE).
HEADROOM_SOURCE = QOS_PAGE + ": PFC xoff/xon/port-buffer left to Cumulus Linux, sized from " \
    "cable-length and the interface delay"
# `qos pfc <profile> cable-length`: "a value between 1 and 100000" metres (QOS_REF); default 10.
PFC_CABLE_M = (1, 100000)
# The lossless pool: `nv set qos traffic-pool default-lossless memory-percent 50` with
# default-lossy 50 is NVIDIA's example before configuring PFC ("Flow Control Buffers"), the
# total "must not exceed 100%" (QOS_PAGE); the plan's default, roce_lossless.nvue overrides it.
LOSSLESS_POOL_PERCENT = 50
POOL_SOURCE = QOS_PAGE + ", Flow Control Buffers: default-lossless 50 %, default-lossy 50 %"
# Its threshold: NVUE writes the flow-control pool with `flow_control.ingress_buffer.
# dynamic_quota = ALPHA_1` (QOS_PAGE, Flow Control Buffers, the Linux tab of the same
# settings): alpha 1, so one congested PG pauses at half the lossless pool. No NVUE key sets it.
LOSSLESS_ALPHA = 1.0
ALPHA_SOURCE = QOS_PAGE + ", Flow Control Buffers (qos_infra.conf flow_control.ingress_buffer." \
    "dynamic_quota = ALPHA_1)"
# `congestion-control <profile> traffic-class <tc> probability`: "between 1 and 100" (QOS_REF).
ECN_PROBABILITY = (1, 100)
# The default profile "enables ECN by default on egress queue 0 for all ports" (QOS_PAGE): the
# plan disables it on every queue it does not mark.
DEFAULT_ECN_QUEUES = (0,)
# `egress-scheduler ... bw-percent`: "between 1 and 100 ... The combined total of values you
# assign must be less than or equal to 100" (QOS_REF); a queue in dwrr mode needs one.
DWRR_TOTAL_PERCENT = 100
# `qos pfc-watchdog polling-interval 100-5000` (ms) and `robustness 1-1000` (polling intervals)
# (cumulus-linux-56 Whats-New/_index.md @84b381b0; defaults 100 ms and 3, QOS_PAGE). The
# watchdog "stops processing received pause frames ... and discards new incoming packets to this
# egress queue"; it restores the port after a polling interval without pause frames (QOS_PAGE).
WATCHDOG_POLL_MS = (100, 5000)
WATCHDOG_ROBUSTNESS = (1, 1000)
WATCHDOG_SOURCE = DOCS + " content/cumulus-linux-56/Whats-New/_index.md @84b381b0; " + QOS_PAGE
# The watchdog has one action, drop: the plan's alert has no Cumulus form (refused there).
WATCHDOG_ACTIONS: Dict[str, str] = {"drop": "drop"}
# `nv set qos roce` (mode lossless) defaults (ROCE_PAGE "Default RoCE Configuration" and `nv show
# qos roce`): what deviations.md sets the plan's numbers beside. The plan configures the same
# classes explicitly instead of through `qos roce` (render/cumulus/nvue.py says why).
ROCE_DEFAULTS = {"ecn_min_bytes": 150000, "ecn_max_bytes": 1500000,
                 "ecn_probability_percent": 100, "pfc_cable_m": 100}
ROCE_DEFAULTS_SOURCE = ROCE_PAGE + ": nv show qos roce (min-threshold 146.48 KB = 150,000 B, " \
    "max-threshold 1.43 MB, probability 100, cable-length 100)"
# Spectrum-4/5 program the 150,000 B minimum as 159,744 B (ROCE_PAGE note): the hardware's
# granularity; the plan renders its own bytes and the switch rounds them.
ECN_PROGRAMMED_NOTE = ROCE_PAGE + ": 150,000 B is programmed as 159,744 B on Spectrum-4/5"

# -- ECMP and adaptive routing -------------------------------------------------------------------

# The plan's hash fields -> `nv set system forwarding ecmp-hash <key> on|off` (ECMP_PAGE, ECMP
# custom hashing; 5.14: on|off); `hash-seed` 0-4294967295.
ECMP_HASH_FIELDS = {"src_ip": "source-ip", "dst_ip": "destination-ip",
                    "ip_protocol": "ip-protocol", "l4_src_port": "source-port",
                    "l4_dst_port": "destination-port", "in_port": "ingress-interface"}
ECMP_SEED_MAX = 4294967295
ECMP_SOURCE = ECMP_PAGE
# Adaptive routing: "Switches with the Spectrum-4 ASIC at 400G and 200G speeds"; "The
# Spectrum-4 switch does not support adaptive routing on 800G links"; not on bonds or SVIs
# (ECMP_PAGE). 5.14: `router adaptive-routing enable on` and per port `interface <swp> router
# adaptive-routing enable on`.
AR_SPEEDS_GBPS = (200, 400)
AR_SOURCE = ECMP_PAGE + ", Adaptive Routing"

# -- BGP ----------------------------------------------------------------------------------------

# `multipaths ebgp 1-128` ("Only Spectrum-4 switches support 128 paths"), default 64
# (BGP_PAGE Optional-BGP-Configuration.md @2a1166e0).
MULTIPATHS = (1, 128)
# Route map and prefix list names "must start with a letter and can contain letters, digits,
# underscores and dashes" (cumulus-linux-515 Route-Filtering-and-Redistribution.md @0da900a5).
POLICY_NAME = r"^[A-Za-z][A-Za-z0-9_-]*$"
# RFC 8326 GRACEFUL_SHUTDOWN as AA:NN: NVUE's community lists take "the community number in
# AA:NN format or the well-known name" (REF Router-Policy.md @1c17cb43), and its documented
# well-known names do not include graceful-shutdown (BGP_PAGE Optional-BGP-Configuration.md).
GSHUT_COMMUNITY = "65535:0"

# -- the REST API (deploy/cumulus) -----------------------------------------------------------------

# https://<switch>:8765/nvue_v1, basic authentication (API_PAGE).
API_PORT = 8765
API_BASE = "/nvue_v1"

# What the documents do not say, kept out of the config: each is a choice the deploy makes and
# docs/deploy.md names (the stand-in models them as chosen).
UNVERIFIED: Tuple[str, ...] = (
    # the OpenAPI schema has state-controls.confirm (seconds) and auto-prompt.confirm
    # (confirm_yes/confirm_no); no NVIDIA page shows a client confirming over REST
    "REST confirm of an apply --confirm: PATCH revision {state: confirm_yes} (third-party "
    "clients; OpenAPI 5.2 auto-prompt.confirm)",
    # `nv show` (operational) BGP neighbour state field: Show-Commands/BGP.md shows `state`
    "operational BGP neighbour state key (vrf/default/router/bgp/neighbor/<ip> state)",
)
