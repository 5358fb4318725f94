# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier rules: the oversubscription each tier was planned for. (A switch's port map is no rule:
a switch without a model and without roce_port_map is refused at the model stage.)"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import Dict, List, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.records import (
    Device, Finding, PortIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import (
    finding, rule, switches)
from ansible_collections.roce.fabric.plugins.module_utils.model import fabric

_v = finding


def tier_links(dev: SwitchIntent) -> Tuple[List[PortIntent], List[PortIntent]]:
    """(down ports, up ports) of a switch: hosts/spines for a leaf, leaves/super-spines for a
    spine, spines/none for a super-spine."""
    below, above = fabric.DOWNLINK[dev["role"]], fabric.UPLINK.get(dev["role"])
    down = [p for p in dev["ports"] if p["peer_kind"] == below and p["up"]]
    up = [p for p in dev["ports"] if p["peer_kind"] == above and p["up"]]
    return down, up


@rule("oversubscription", "ERROR / WARN",
      "host-facing Gb/s / uplink Gb/s <= `max_oversubscription` (1:1) on every leaf; "
      "leaf-facing / super-spine Gb/s <= `max_oversubscription_above_pod` on three-tier "
      "spines (ERROR, once per cause, with the links per pair that meet it); derived uplinks "
      "that exceed the host ports because the spines do not split them evenly (WARN)")
def check_oversubscription(fab: fabric.Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """One finding per cause: the switches of one role with the same down and up Gb/s over the
    same number of upper switches share it, named together, with the links per pair that would
    meet the ratio."""
    limits = {"leaf": ("max_oversubscription", "links_per_leaf_spine", "spines"),
              "spine": ("max_oversubscription_above_pod", "links_per_spine_superspine",
                        "super-spines")}
    # (role, down Gb/s, up Gb/s, upper switches, uplink speed): the switches with that cause
    causes: Dict[Tuple[str, int, int, int, int], List[str]] = {}
    order: List[Tuple[str, int, int, int, int]] = []
    for dev in switches(devices):
        if dev["role"] not in limits or (dev["role"] == "spine" and fab.tiers == 2):
            continue
        down, up = tier_links(dev)
        field = limits[dev["role"]][0]
        limit = fab.settings[field]
        down_g = sum(p["speed_gbps"] for p in down)
        up_g = sum(p["speed_gbps"] for p in up)
        ratio = down_g / float(up_g) if up_g else float("inf")
        if ratio > limit:
            uppers = len(set(p["peer"] for p in up))
            speed = max([p["speed_gbps"] for p in up] or [0])
            key = (dev["role"], down_g, up_g, uppers, speed)
            if key not in causes:
                causes[key] = []
                order.append(key)
            causes[key].append(dev["name"])
    out: List[Finding] = []
    for key in order:
        role, down_g, up_g, uppers, speed = key
        names = causes[key]
        field, links, above = limits[role]
        limit = fab.settings[field]
        ratio = down_g / float(up_g) if up_g else float("inf")
        who = names[0] if len(names) == 1 else "%d %s (%s)" % (
            len(names), "leaves" if role == "leaf" else "spines", _names(names))
        if uppers and speed:
            need = -(-int(math.ceil(down_g / float(limit))) // (uppers * speed))
            fix = ("set roce_fabric.%s: %d (%d links x %d %s x %dG = %d G up for %d G down)"
                   % (links, need, need, uppers, above, speed, need * uppers * speed, down_g))
            if fab.settings[links] is None:
                fix += "; the links are down or their speed is below the hosts': check " \
                    "roce_link_overrides"
        else:
            need = None
            fix = "add %s: %s has no uplink up" % (above, names[0])
        out.append(_v("oversubscription", "ERROR", names[0], "uplinks",
                      "%s: %d G down vs %d G up = %.2f:1 (max %.2f:1, roce_fabric.%s)"
                      % (who, down_g, up_g, ratio, limit, field), fix,
                      down_gbps=down_g, up_gbps=up_g, ratio=ratio, devices=names,
                      links_per_pair=need))
    return out + _uneven_uplinks(fab, devices)


def _uneven_uplinks(fab: fabric.Fabric, devices: Dict[str, Device]) -> List[Finding]:
    """Leaves whose host ports do not split evenly over their spines, with links_per_leaf_spine
    derived: 1:1 rounds the links per spine up, so the leaf has more uplinks than host ports
    (32 host ports over 3 spines: 33 uplinks). One WARN per (host ports, spines)."""
    if fab.settings["links_per_leaf_spine"] is not None:
        return []
    causes: Dict[Tuple[int, int], List[str]] = {}      # (host ports, spines): leaves
    order: List[Tuple[int, int]] = []
    for dev in switches(devices):
        if dev["role"] != "leaf":
            continue
        hosts = sum(1 for p in dev["ports"] if p["peer_kind"] == "host")
        spines = len(set(p["peer"] for p in dev["ports"] if p["peer_kind"] == "spine"))
        if spines and hosts > spines and hosts % spines:
            key = (hosts, spines)
            if key not in causes:
                causes[key] = []
                order.append(key)
            causes[key].append(dev["name"])
    out: List[Finding] = []
    for hosts, spines in order:
        names = causes[(hosts, spines)]
        m = -(-hosts // spines)
        even = [n for n in range(2, hosts + 1) if hosts % n == 0][:4]
        who = names[0] if len(names) == 1 else "%d leaves (%s)" % (len(names), _names(names))
        out.append(_v("oversubscription", "WARN", names[0], "uplinks",
                      "%s: %d host ports over %d spines: 1:1 takes %d links per spine = %d "
                      "uplinks, %d more than the host ports" % (who, hosts, spines, m,
                                                                spines * m, spines * m - hosts),
                      "use a spine count that divides %d (%s), or set "
                      "roce_fabric.links_per_leaf_spine: %d to keep %d uplinks"
                      % (hosts, ", ".join("%d" % n for n in even), m, spines * m),
                      host_ports=hosts, spines=spines, links_per_pair=m, devices=names))
    return out


def _names(names: List[str], limit: int = 4) -> str:
    return ", ".join(names) if len(names) <= limit else "%s .. %s" % (
        ", ".join(names[:limit - 1]), names[-1])
