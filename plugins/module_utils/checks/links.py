# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Link rules: both ends of every link, switch-switch and leaf-NIC, carry one MTU chain."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterator, List, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, Finding, HostIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import finding, rule

ROCE_MIN_L3_MTU = 4096 + 60    # RoCE path MTU 4096 + IP/UDP/BTH/RETH/ICRC headers (§3.5 #11)

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
