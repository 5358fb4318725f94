# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""FRR bgpd.conf for SONiC's split FRR mode, from one switch's plan intent.

Split mode: bgpd.conf is rendered here and loaded as is, because the CONFIG_DB BGP tables cannot
express multipath-relax, per-peer graceful-shutdown or the route-maps a leaf-pair roll needs. The
same file runs in the FRR namespace lab.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import policy

GSHUT_LIST = "RF-GSHUT"
DRAIN_POLICY = "RF-DRAIN-IN"


def frr_bgpd(dev: SwitchIntent) -> str:
    """bgpd.conf for SONiC's split FRR mode (also what the namespace lab runs)."""
    bgp = dev["bgp"]
    lines = [
        "! roce.fabric: %s (%s) - rendered from the plan, do not edit"
        % (dev["name"], dev["role"]),
        "frr defaults datacenter",
        "hostname %s" % dev["name"],
        "!",
        "router bgp %d" % bgp["asn"],
        " bgp router-id %s" % bgp["router_id"],
        " bgp bestpath as-path multipath-relax",
        " no bgp ebgp-requires-policy",
    ]
    # one format per neighbour for its lines; timers and BFD from the plan, both ends alike
    # (rule bgp-timers). FRR bgpd: neighbor PEER timers KEEPALIVE HOLDTIME, neighbor PEER bfd
    # (FRR user guide, bgp.rst / bfd.rst "BGP BFD configuration"; needs bfdd running)
    timers = "%d %d" % (bgp["keepalive_s"], bgp["hold_s"])
    for n in bgp["neighbors"]:
        lines.append(" neighbor %s remote-as %d\n neighbor %s description %s:%s\n"
                     " neighbor %s timers %s" % (n["address"], n["asn"], n["address"], n["name"],
                                                 n["peer_port"], n["address"], timers))
        if bgp["bfd"]:
            lines.append(" neighbor %s bfd" % n["address"])
    lines += [" !", " address-family ipv4 unicast",
              "  redistribute connected route-map %s" % policy.CONNECTED]
    # routing.advertise aggregate: the leaf's block of host /31s, the /31s themselves not sent
    # (FRR user guide bgp.rst "Route Aggregation": aggregate-address A.B.C.D/M summary-only;
    # BGP announces it while at least one /31 of it is in the BGP table)
    if bgp.get("aggregate"):
        lines.append("  aggregate-address %s summary-only" % bgp["aggregate"])
    lines.append("  maximum-paths %d" % bgp["maximum_paths"])
    lines += ["  neighbor %s route-map %s in" % (n["address"], DRAIN_POLICY)
              for n in bgp["neighbors"]]
    if bgp["allowas_in"]:
        lines += ["  neighbor %s allowas-in 1" % n["address"] for n in bgp["neighbors"]]
    # the route limit sized by the plan (plan/bgp_limits.py). FRR user guide bgp.rst "neighbor
    # PEER maximum-prefix NUMBER [force]": past NUMBER the session is torn down; accepted
    # prefixes are counted (all of them only with force)
    lines += ["  neighbor %s maximum-prefix %d" % (n["address"], n["max_routes"])
              for n in bgp["neighbors"]]
    lines += [" exit-address-family", "!"]
    # RFC 8326: a draining peer tags its routes GRACEFUL_SHUTDOWN; receivers make them least
    # preferred, so traffic leaves a device before it is touched (leaf-pair roll).
    lines += ["ip prefix-list %s seq %d permit %s" % (policy.CONNECTED, 5 * (i + 1), prefix)
              for i, prefix in enumerate(policy.connected_prefixes(dev))]
    lines += ["!", "route-map %s permit 10" % policy.CONNECTED,
              " match ip address prefix-list %s" % policy.CONNECTED, "exit", "!"]
    lines += ["bgp community-list standard %s seq 5 permit graceful-shutdown" % GSHUT_LIST,
              "!",
              "route-map %s permit 10" % DRAIN_POLICY,
              " match community %s" % GSHUT_LIST,
              " set local-preference 0",
              "exit",
              "!",
              "route-map %s permit 20" % DRAIN_POLICY,
              "exit",
              "!"]
    return "\n".join(lines) + "\n"
