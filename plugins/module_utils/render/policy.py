# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a switch redistributes into BGP: its loopback and the /31s of its host-facing ports,
nothing else (on SONiC the bgp container also sees eth0 and docker0; fabric /31s need no
announcement, BGP next hops are directly connected)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import List, cast

from ansible_collections.roce.fabric.plugins.module_utils.plan.targets import network
from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent

CONNECTED = "RF-CONNECTED"     # prefix-list and route-map name, on FRR and EOS alike


def connected_prefixes(dev: SwitchIntent) -> List[str]:
    """The prefixes ``dev`` announces: its loopback, then each host port's /31, port order."""
    out = [dev["loopback"]]
    for port in dev["ports"]:
        if port["peer_kind"] == "host" and port.get("address"):
            out.append(network(cast(str, port["address"])))
    return out
