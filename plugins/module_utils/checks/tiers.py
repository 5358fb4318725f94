# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier rules: the oversubscription each tier was planned for, and real port maps (a model per switch)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, Finding, PortIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import rule, switches
from ansible_collections.roce.fabric.plugins.module_utils.model import fabric

_v = errors.finding


def tier_links(dev: SwitchIntent) -> Tuple[List[PortIntent], List[PortIntent]]:
    """(down ports, up ports) of a switch: hosts/spines for a leaf, leaves/super-spines for a
    spine, spines/none for a super-spine."""
    below, above = fabric.DOWNLINK[dev["role"]], fabric.UPLINK.get(dev["role"])
    down = [p for p in dev["ports"] if p["peer_kind"] == below and p["up"]]
    up = [p for p in dev["ports"] if p["peer_kind"] == above and p["up"]]
    return down, up


@rule("oversubscription", "ERROR",
      "host-facing Gb/s / uplink Gb/s <= `max_oversubscription` (1:1) on every leaf; "
      "leaf-facing / super-spine Gb/s <= `max_oversubscription_above_pod` on three-tier "
      "spines")
def check_oversubscription(fab: fabric.Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out = []
    limits = {"leaf": ("max_oversubscription", "add uplinks (links_per_leaf_spine) or spines"),
              "spine": ("max_oversubscription_above_pod", "add uplinks "
                        "(links_per_spine_superspine) or super-spines")}
    for dev in switches(devices):
        if dev["role"] not in limits or (dev["role"] == "spine" and fab.tiers == 2):
            continue
        down, up = tier_links(dev)
        field, fix = limits[dev["role"]]
        limit = fab.settings[field]
        down_g = sum(p["speed_gbps"] for p in down)
        up_g = sum(p["speed_gbps"] for p in up)
        ratio = down_g / float(up_g) if up_g else float("inf")
        if ratio > limit:
            out.append(_v("oversubscription", "ERROR", dev["name"], "uplinks",
                          "%d G down vs %d G up = %.2f:1 (max %.2f:1, roce_fabric.%s)"
                          % (down_g, up_g, ratio, limit, field),
                          fix + " for the planned ratio",
                          down_gbps=down_g, up_gbps=up_g, ratio=ratio))
    return out


@rule("port-map", "WARN",
      "every switch names its model (`roce_model`): without one its port names, lanes and "
      "aliases are generic, and no HWSKU is rendered")
def check_port_map(fab: fabric.Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """A switch without roce_model gets a generic port map: names, lanes and (SONiC) HWSKU no
    real switch is known to have, so the plan cannot vouch for its ports."""
    out = []
    for dev in switches(devices):
        if dev["hardware"] is None:
            out.append(_v("port-map", "WARN", dev["name"], "ports",
                          "no roce_model: port names, lanes and aliases are generic (%s), not "
                          "those of a real switch, and no HWSKU is rendered" % dev["asic"],
                          "set roce_model to the switch's model (docs/rendering.md lists them)"))
    return out
