# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Link rules: both ends of every link, switch-switch and leaf-NIC, carry one MTU chain, and every
routed hop from a NIC's leaf up to the top tier carries that NIC's IP MTU."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterator, List, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, Finding, HostIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import finding, rule

ROCE_MIN_L3_MTU = 4096 + 60    # RoCE path MTU 4096 + IP/UDP/BTH/RETH/ICRC headers (§3.5 #11)
# What a routed hop's IP MTU must hold above the host's IP MTU: nothing. The host's IP MTU bounds
# the whole IP datagram, header included (RFC 791 §3.1, Total Length); a RoCEv2 packet's IP and
# UDP headers, BTH (and RETH), payload and ICRC all lie inside it, the Ethernet header and FCS
# outside (the RoCEv2 packet of ../shared/reference/host-nic.md §7, Bandwidth row: 14 Eth + 20
# IPv4 + 8 UDP + 12 BTH + 4 ICRC + 4 FCS; IBTA Annex A17 itself was not read). A router
# forwards the datagram as it came, its TTL and checksum rewritten (RFC 1812 §5.2.1), and frames
# it anew on each hop: the Ethernet header, FCS and a VLAN tag sit below every hop's IP MTU (SONiC
# programs the port's frame limit as PORT.mtu + 22: sonic-swss orchagent/portsorch.cpp
# setPortMtu @e6b0c5b5d lines 2400-2403; EOS `mtu` on a routed port is its IP MTU). Only an
# encapsulating hop (VXLAN, GRE) would add bytes, and the plan renders none.
ROUTED_HOP_OVERHEAD_BYTES = 0

_v = finding


def link_ends(fab: Fabric, devices: Dict[str, Device]
              ) -> Iterator[Tuple[SwitchIntent, str, Device, Any, str]]:
    """(device a, port a, device b, port-or-nic b, kind) for every link, both ends' intent."""
    # the same dict, read by the kind of device a link end names
    switch_of = cast(Dict[str, SwitchIntent], devices)
    host_of = cast(Dict[str, HostIntent], devices)
    for kind, a, b in fab.links:
        dev_a = switch_of[a.switch]
        if kind == "host":
            dev_b = host_of[b.host]
            yield dev_a, a.name, dev_b, dev_b["nics"][b.index], kind
        else:
            yield dev_a, a.name, devices[b.switch], b.name, kind


@rule("mtu-chain", "ERROR",
      "NIC <= leaf port, both ends of a switch link equal, all >= 4096 + RoCE headers")
def check_mtu_chain(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    # The link ends themselves carry the MTUs the intents copy (one pass, no lookups).
    out: List[Finding] = []
    for kind, a, b in fab.links:
        mine = a.mtu_bytes
        if kind == "host":
            if b.mtu_bytes > mine or b.mtu_bytes < ROCE_MIN_L3_MTU:
                out.append(_v("mtu-chain", "ERROR", b.host, b.name,
                              "NIC MTU %d B vs leaf %s %s MTU %d B: need %d <= NIC <= leaf"
                              % (b.mtu_bytes, a.switch, a.name, mine, ROCE_MIN_L3_MTU),
                              "host MTU 9000 with leaf/spine 9216 is the usual chain",
                              nic_mtu=b.mtu_bytes, leaf_mtu=mine))
            continue
        theirs = b.mtu_bytes
        if mine != theirs or mine < ROCE_MIN_L3_MTU:
            out.append(_v("mtu-chain", "ERROR", a.switch, "%s<->%s:%s" % (a.name, b.switch, b.name),
                          "MTU %d B here, %d B on %s (must be equal and >= %d)"
                          % (mine, theirs, b.switch, ROCE_MIN_L3_MTU),
                          "set the same roce_mtu on both tiers", local=mine, remote=theirs))
    return out


@rule("mtu-path", "ERROR",
      "every routed hop from a NIC's leaf up to the top tier (leaf-spine, spine-super-spine, the "
      "lower of both ends) has an IP MTU of at least the largest NIC IP MTU whose traffic climbs "
      "it (+%d B: a routed hop re-frames the same IP datagram); names the hops and the NIC"
      % ROUTED_HOP_OVERHEAD_BYTES)
def check_mtu_path(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """The host IP MTU a switch's uplinks must carry is the largest NIC MTU below it (a leaf's
    NICs; a spine's leaves' NICs). Traffic down a hop is sized for its receiver, whose own leaf
    path is checked the same way, so the climb is what each hop must carry. One finding per
    switch and hop MTU, naming the first and last hop with their peers."""
    below: Dict[str, Tuple[int, str]] = {}      # switch -> (largest NIC MTU below, the NIC)
    for kind, a, b in fab.links:
        if kind == "host" and b.mtu_bytes > below.get(a.switch, (0, ""))[0]:
            below[a.switch] = (b.mtu_bytes, "%s:%s" % (b.host, b.name))
    climbs = [(a, b) for kind, a, b in fab.links if kind == "fabric"]
    for role in ("leaf", "spine"):          # a spine's NICs are its leaves' NICs
        for a, b in climbs:
            if fab.switches[b.switch].role == role and \
                    below.get(b.switch, (0, ""))[0] > below.get(a.switch, (0, ""))[0]:
                below[a.switch] = below[b.switch]
    short: Dict[Tuple[str, int], List[Tuple[Any, Any]]] = {}    # (lower switch, hop MTU): hops
    for a, b in climbs:
        hop = min(a.mtu_bytes, b.mtu_bytes)
        need = below.get(b.switch, (0, ""))[0] + ROUTED_HOP_OVERHEAD_BYTES
        if hop < need:
            short.setdefault((b.switch, hop), []).append((b, a))
    out: List[Finding] = []
    for (switch, hop), hops in sorted(short.items()):
        hops.sort(key=lambda h: h[0].index)
        nic_mtu, nic = below[switch]
        ends = ["%s (to %s:%s)" % (low.name, up.switch, up.name) for low, up in hops]
        named = ends[0] if len(ends) == 1 else "%s .. %s" % (ends[0], ends[-1])
        out.append(_v("mtu-path", "ERROR", switch,
                      "%d uplink(s) %s" % (len(hops), _span([low.name for low, _up in hops])),
                      "IP MTU %d B on %s's uplink(s) %s is below the %d B IP MTU of %s, whose "
                      "traffic climbs them toward the top tier (a routed hop carries the host's "
                      "IP datagram as it is: + %d B)"
                      % (hop, switch, named, nic_mtu, nic, ROUTED_HOP_OVERHEAD_BYTES),
                      "raise these links' MTU to at least %d (roce_mtu on both tiers, or "
                      "roce_uplink_overrides.mtu_bytes), or lower the NICs' MTU"
                      % (nic_mtu + ROUTED_HOP_OVERHEAD_BYTES),
                      hop_mtu=hop, host_mtu=nic_mtu, overhead_bytes=ROUTED_HOP_OVERHEAD_BYTES,
                      hops=len(hops), nic=nic))
    return out


def _span(names: List[str]) -> str:
    return names[0] if len(names) == 1 else "%s .. %s" % (names[0], names[-1])
