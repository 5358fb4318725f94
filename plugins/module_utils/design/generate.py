# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Inventory data (groups, hostvars) for a whole Clos sized by sizing.size_fabric: leaves,
spines, super-spines, pods, planes and GPU hosts, named predictably. Benchmarks and tests build
big fabrics with it.

Names: ``p<plane>-`` prefixes every switch when there is more than one plane; pods are
``pod<NN>`` (``p<plane>-pod<NN>``), leaves ``leaf<pod>-<NN>`` in pairs, spines ``spine<pod>-<NN>``,
super-spines ``ss<NN>`` (two tiers: ``spine<NN>``, one pod per plane), hosts ``gpu<NNNNN>``.
Addresses come from 10.0.0.0/8: pure data, never used on a network here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.design import sizing
from ansible_collections.roce.fabric.plugins.module_utils.hardware import models, platforms

# Default switch: 51.2T-class Broadcom. Platforms: "mixed" puts SONiC on the top tier (spines
# of two tiers, super-spines of three) and EOS below, where DLB is rendered: SONiC renders no
# adaptive routing, so its uplinks would hash same-rail traffic (ecmp-efficiency WARN); a
# clean fabric. "alternate" gives leaf pairs SONiC and EOS in turn (the benchmark's mix),
# "sonic", "eos" and "cumulus" one platform everywhere.
MODEL = "7060x6-64pe"          # Arista, Tomahawk 5; SONiC and EOS
# A platform MODEL does not run gets the first catalog model of the same radix that runs it
# (Cumulus: the SN5600, Spectrum-4, 64 x 800G).
MIXED = {"top": "sonic", "below": "eos"}      # the "mixed" fabric's platforms
PLATFORM_MIXES = ("mixed", "alternate") + platforms.NAMES
ASN_LEAF_FIRST = 4200000000      # 4-byte private range (RFC 6996): leaves outnumber 2-byte ASNs


def _names(prefix: str, fmt: str, count: int) -> List[str]:
    return [prefix + fmt % i for i in range(count)]


def clos(gpus: int, radix: int = 64, planes: int = 1, nics_per_host: int = 8,
         speed_gbps: int = 400, platforms: str = "mixed", tiers: Optional[int] = None
         ) -> Tuple[Dict[str, Any], Dict[str, Dict[str, Any]], Dict[str, Any]]:
    """(groups, hostvars, size) for ``gpus`` GPU ports at ``radix``, one NIC per GPU, in
    ``tiers`` tiers (None: the fewest that fit). Refuses a count whose fabric would not plan
    (sizing.check_buildable: a leaf without its pair, ...)."""
    errors.choice("platforms", platforms, PLATFORM_MIXES)
    sizing.size_fabric(gpus, radix, planes, tiers)       # gpus, radix, planes and tiers first
    nics = errors.number("nics_per_host", nics_per_host, 1, 16, "", None, integer=True)
    if gpus % nics or nics % planes:
        raise errors.RoceInputError("nics_per_host", nics, "a divisor of the GPU count and a "
                                    "multiple of the planes")
    size = sizing.check_buildable(gpus, radix, planes, nics, tiers)
    one = size.get("per_plane", size)
    half = radix // 2
    groups: Dict[str, Any] = {"spines": [], "leaves": [], "superspines": [], "gpu_hosts": [],
                              "_children": {"leaf_pairs": [], "pods": [], "planes": []}}
    hostvars: Dict[str, Dict[str, Any]] = {}
    for p in range(planes):
        pre = "p%d-" % p if planes > 1 else ""
        plane_members: List[str] = []
        if one["tiers"] == 3:
            pods = [(pre + "pod%02d" % i, half, half) for i in range(one["pods"])]
        else:
            pods = [(pre + "fabric", one["leaves"], one["spines"])]
        for i, (pod, n_leaves, n_spines) in enumerate(pods):
            tag = "%02d" % i if one["tiers"] == 3 else ""
            spines = _names(pre + "spine%s" % (tag + "-" if tag else ""), "%02d", n_spines)
            leaves = _names(pre + "leaf%s" % (tag + "-" if tag else ""), "%03d", n_leaves)
            groups["spines"] += spines
            groups["leaves"] += leaves
            if one["tiers"] == 3:
                groups["_children"]["pods"].append(pod)
                groups[pod] = spines + leaves
            for j in range(0, len(leaves), 2):
                pair = "%s-pair%03d" % (pod, j // 2)
                groups["_children"]["leaf_pairs"].append(pair)
                groups[pair] = leaves[j:j + 2]
                platform = MIXED["below"] if (platforms == "alternate" and (j // 2) % 2) \
                    else _platform(platforms, top=False)
                for leaf in leaves[j:j + 2]:
                    hostvars[leaf] = _switch(platform)
            for spine in spines:
                hostvars[spine] = _switch(_platform(platforms, one["tiers"] == 2))
            plane_members += spines + leaves
        tops = _names(pre + "ss", "%03d", one["superspines"])
        for top in tops:
            hostvars[top] = _switch(_platform(platforms, True))
        groups["superspines"] += tops
        if planes > 1:
            groups["_children"]["planes"].append("plane%d" % p)
            groups["plane%d" % p] = plane_members + tops
    hosts = _names("gpu", "%05d", gpus // nics)
    groups["gpu_hosts"] = hosts
    for host in hosts:
        hostvars[host] = {}
    switches = groups["spines"] + groups["leaves"] + groups["superspines"]
    groups["roce_switches"] = switches
    hostvars[switches[0]]["roce_fabric"] = {
        "name": "clos%d" % gpus, "design": "rail_optimized", "nics_per_host": nics,
        "addressing": {"loopbacks": "10.0.0.0/16", "fabric_p2p": "10.64.0.0/11",
                       "host_p2p": "10.128.0.0/10"},
        "asn": {"leaf_first": ASN_LEAF_FIRST},
        "host_link": {"speed_gbps": speed_gbps}, "fabric_link": {"speed_gbps": speed_gbps},
        "superspine_link": {"speed_gbps": speed_gbps},
        "ecmp": {"adaptive_routing": True},
    }
    return groups, hostvars, size


def _switch(platform: str) -> Dict[str, str]:
    return {"roce_model": model_for(platform), "roce_platform": platform}


def model_for(platform: str) -> str:
    """The generated fabric's switch model on ``platform``: MODEL, or the first catalog model
    with as many cages that runs the platform."""
    if platform in models.MODELS[MODEL]["platforms"]:
        return MODEL
    cages = len(models.MODELS[MODEL]["first_lanes"])
    return [name for name, m in sorted(models.MODELS.items())
            if platform in m["platforms"] and len(m["first_lanes"]) == cages][0]


def _platform(mix: str, top: bool) -> str:
    """A switch's platform in ``mix``: one platform everywhere, the mixed fabric's by tier, or
    (alternate) the top tier's platform, which every other leaf pair swaps for the one below."""
    if mix in platforms.NAMES:
        return mix
    if mix == "alternate":
        return MIXED["top"]
    return MIXED["top" if top else "below"]
