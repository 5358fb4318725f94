# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""An ANTA test catalog per EOS switch (anta/<host>.yml), so a fabric deployed from the plan can
be verified with Arista's own network test framework (``anta nrfu --catalog``), as AVD emits one
per device. Every expectation is the plan's: BGP sessions to every planned neighbour, every
remote host prefix at the planned ECMP width, each port up at its speed, lanes and MTU, LLDP
neighbours from the cabling plan, the multi-agent routing model, and PFC/ECN counters at zero on
the lossless ports (an acceptance run on an idle fabric; raise ``counters_threshold`` for a
loaded one). Test names and inputs are ANTA 1.x's (anta.tests.*, checked by ANTA's own catalog
loader in the tests).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional

from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils.records import Plan, SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import structured

VRF = "default"


def catalog(dev: SwitchIntent, plan: Plan,
            leaves: Optional[plan_targets.LeafPrefixes] = None) -> Dict[str, List[Any]]:
    """The ANTA catalog of EOS switch ``dev`` as a dict (module -> [{test: inputs}]);
    ``leaves``: plan_targets.leaf_prefixes(plan), built once when rendering many switches."""
    ports = list(dev["ports"])
    up = [p for p in ports if p["up"]]
    mtus = sorted(set(p["mtu_bytes"] for p in ports))
    common_mtu = max(mtus, key=lambda m: sum(1 for p in ports if p["mtu_bytes"] == m))
    routes = plan_targets.expected_routes(dev["name"], plan, leaves)
    lossless = [p["name"] for p in up if p["lossless"]]
    switch_links = [p for p in up if p["peer_kind"] != "host"]
    out: Dict[str, List[Any]] = {
        "anta.tests.routing.generic": [
            {"VerifyRoutingProtocolModel": {"model": "multi-agent"}}],
        "anta.tests.routing.bgp": [
            {"VerifyBGPPeerSession": {"bgp_peers": [
                {"peer_address": n["address"], "vrf": VRF} for n in dev["bgp"]["neighbors"]]}}],
        "anta.tests.interfaces": [
            {"VerifyInterfacesStatus": {"interfaces": [
                {"name": p["name"], "status": "up" if p["up"] else "adminDown"}
                for p in ports]}},
            {"VerifyInterfacesSpeed": {"interfaces": [
                {"name": p["name"], "auto": False, "speed": p["speed_gbps"],
                 "lanes": p["lanes_per_port"]} if p.get("lanes_per_port") else
                {"name": p["name"], "auto": False, "speed": p["speed_gbps"]} for p in up]}},
            {"VerifyL3MTU": {"mtu": common_mtu, "specific_mtu": [
                {p["name"]: p["mtu_bytes"]} for p in ports if p["mtu_bytes"] != common_mtu]}},
        ],
    }
    if routes:
        out["anta.tests.routing.bgp"].append({"VerifyBGPRouteECMP": {"route_entries": [
            {"prefix": prefix, "vrf": VRF, "ecmp_count": width}
            for prefix, width in sorted(routes.items())]}})
    if lossless:
        out["anta.tests.interfaces"] += [
            {"VerifyInterfacesPFCCounters": {"interfaces": lossless, "counters_threshold": 0}},
            {"VerifyInterfacesECNCounters": {"interfaces": lossless, "counters_threshold": 0}}]
    if switch_links:
        out["anta.tests.connectivity"] = [{"VerifyLLDPNeighbors": {
            "require_fqdn": False, "neighbors": [
                {"port": p["name"], "neighbor_device": p["peer"], "neighbor_port": p["peer_port"]}
                for p in switch_links]}}]
    return out


def catalog_yaml(dev: SwitchIntent, plan: Plan,
                 leaves: Optional[plan_targets.LeafPrefixes] = None) -> str:
    lines = ["---", "# roce.fabric ANTA catalog of %s: anta nrfu --catalog <this file>" % dev["name"]]
    return "\n".join(lines + structured.yaml_lines(catalog(dev, plan, leaves))) + "\n"
