# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""An ANTA test catalog per EOS switch (anta/<host>.yml), so a fabric deployed from the plan can
be verified with Arista's own network test framework (``anta nrfu --catalog``), as AVD emits one
per device. Every expectation is the plan's: BGP sessions to every planned neighbour (each
established, every prefix it sends accepted, and exactly that many established peers), the BGP
route count between the remote host prefixes the plan promises and those plus one loopback per
other switch, the planned ECMP width on a bounded sample of remote host prefixes (every distinct
width, every remote pod, then leaves spread over the plane, at most ECMP_SAMPLE: one entry per
remote prefix made a switch's catalog 0.9 MB at 131,072 GPUs), each port up at its speed, lanes
and MTU, LLDP
neighbours from the cabling plan, the multi-agent routing model, and PFC/ECN counters at zero on
the lossless ports (an acceptance run on an idle fabric; raise ``counters_threshold`` for a
loaded one). Test names and inputs are ANTA 1.x's (anta.tests.*, checked by ANTA's own catalog
loader in the tests).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils.records import Plan, SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import structured

VRF = "default"
ECMP_SAMPLE = 32      # at most this many VerifyBGPRouteECMP entries per switch, whatever the size


def ecmp_sample(remote: List[plan_targets.RemoteLeaf]) -> List[Tuple[str, int]]:
    """[(prefix, planned next hops)]: the first host prefix of one remote leaf per distinct width,
    then per remote pod, then leaves at an even stride over the plane, up to ECMP_SAMPLE.
    Leaves the plan gives no path (width 0) are left out: ANTA wants a positive count."""
    reachable = [r for r in remote if r[2] > 0 and r[3]]
    picked: List[plan_targets.RemoteLeaf] = []
    for key in (lambda r: r[2], lambda r: r[1]):
        seen = set(key(r) for r in picked)
        for r in reachable:
            if key(r) not in seen and len(picked) < ECMP_SAMPLE:
                seen.add(key(r))
                picked.append(r)
    names = set(r[0] for r in picked)
    rest = [r for r in reachable if r[0] not in names]
    room = ECMP_SAMPLE - len(picked)
    if rest and room > 0:
        picked += rest[::max(1, -(-len(rest) // room))][:room]
    return [(r[3][0], r[2]) for r in picked]


def _table_size(remote: List[plan_targets.RemoteLeaf], plan: Plan) -> List[Any]:
    """VerifyRoutingTableSize on BGP routes: at least every remote host prefix the plan gives a
    path, at most every remote host prefix plus a loopback per other switch of the fabric."""
    promised = sum(len(r[3]) for r in remote if r[2] > 0)
    s = plan["summary"]
    most = sum(len(r[3]) for r in remote) + s["spines"] + s["leaves"] + s["superspines"] - 1
    if not promised:
        return []
    return [{"VerifyRoutingTableSize": {"minimum": promised, "maximum": most, "vrfs": [
        {"vrf": VRF, "route_sources": [{"source": "bgp"}]}]}}]


def _bgp_peers(dev: SwitchIntent) -> List[Any]:
    """Per planned neighbour: established, every prefix it sent accepted; and exactly that many
    established IPv4 unicast peers (none unplanned)."""
    nbrs = dev["bgp"]["neighbors"]
    return [
        {"VerifyBGPPeerSession": {"bgp_peers": [
            {"peer_address": n["address"], "vrf": VRF} for n in nbrs]}},
        {"VerifyBGPNlriAcceptance": {"bgp_peers": [
            {"peer_address": n["address"], "vrf": VRF, "capabilities": ["ipv4Unicast"]}
            for n in nbrs]}},
        {"VerifyBGPPeerCount": {"address_families": [
            {"afi": "ipv4", "safi": "unicast", "vrf": VRF, "num_peers": len(nbrs),
             "check_peer_state": True}]}}]


def catalog(dev: SwitchIntent, plan: Plan,
            leaves: Optional[plan_targets.LeafPrefixes] = None) -> Dict[str, List[Any]]:
    """The ANTA catalog of EOS switch ``dev`` as a dict (module -> [{test: inputs}]);
    ``leaves``: plan_targets.leaf_prefixes(plan), built once when rendering many switches."""
    ports = list(dev["ports"])
    up = [p for p in ports if p["up"]]
    mtus = sorted(set(p["mtu_bytes"] for p in ports))
    common_mtu = max(mtus, key=lambda m: sum(1 for p in ports if p["mtu_bytes"] == m))
    remote = plan_targets.remote_leaves(dev["name"], plan, leaves)
    lossless = [p["name"] for p in up if p["lossless"]]
    switch_links = [p for p in up if p["peer_kind"] != "host"]
    out: Dict[str, List[Any]] = {
        "anta.tests.routing.generic": [
            {"VerifyRoutingProtocolModel": {"model": "multi-agent"}}] + _table_size(remote, plan),
        "anta.tests.routing.bgp": _bgp_peers(dev),
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
    sample = ecmp_sample(remote)
    if sample:
        out["anta.tests.routing.bgp"].append({"VerifyBGPRouteECMP": {"route_entries": [
            {"prefix": prefix, "vrf": VRF, "ecmp_count": width} for prefix, width in sample]}})
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
