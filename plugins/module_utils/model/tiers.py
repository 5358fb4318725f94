# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Planes, pods and the super-spine tier of the fabric model (see fabric.py).

Planes and pods come from inventory group children, like leaf pairs: the child groups of
``planes`` (default one plane) and of ``pods`` (needed with super-spines; without them every
plane is one pod). Super-spines wire fat-tree style: the super-spines of a plane split into as
many groups as a pod has spines, and spine j of every pod connects to every super-spine of group
j, with enough parallel links for ``max_oversubscription_above_pod`` (lossless-math.md §6).
Everything is linear in switches and links.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, List

from ansible_collections.roce.fabric.plugins.module_utils import errors


def _children(groups: Dict[str, Any], name: str) -> List[str]:
    return list(groups.get("_children", {}).get(name) or [])


def assign_planes(fab: Any, groups: Dict[str, Any]) -> None:
    """Set ``plane`` on every switch from the child groups of the planes group."""
    group = fab.settings["groups"]["planes"]
    children = _children(groups, group)
    fab.planes = max(1, len(children))
    seen: Dict[str, str] = {}
    for p, child in enumerate(children):
        for name in groups.get(child, []):
            sw = fab.switches.get(name)
            if sw is None:
                continue                       # hosts may sit in plane groups too
            if name in seen:
                raise errors.RoceInputError("planes", child, "a switch in one plane only (%s is "
                                            "also in %s)" % (name, seen[name]), name)
            seen[name] = child
            sw.plane = p
    if children:
        missing = [name for name in fab.switches if name not in seen]
        if missing:
            raise errors.RoceInputError("planes", missing[0], "every switch in one child group "
                                        "of %s (%s)" % (group, ", ".join(children)), missing[0])


def assign_pods(fab: Any, groups: Dict[str, Any]) -> None:
    """Set ``pod`` on spines and leaves and fill fab.pods; check each pod lies in one plane and
    keeps its leaf pairs whole."""
    group = fab.settings["groups"]["pods"]
    children = _children(groups, group)
    if not children:
        if fab.superspines:
            raise errors.RoceInputError(
                "roce_fabric.groups.pods", group, "an inventory group whose child groups are "
                "the pods (each with its spines and leaves): super-spines need pods")
        for p in range(fab.planes):
            fab.pods.append({"name": "plane%d" % p if fab.planes > 1 else "fabric",
                             "plane": p, "spines": [], "leaves": []})
        for sw in fab.spines + fab.leaves:
            sw.pod = sw.plane
            fab.pods[sw.plane]["spines" if sw.role == "spine" else "leaves"].append(sw)
    else:
        for i, child in enumerate(children):
            fab.pods.append({"name": child, "plane": None, "spines": [], "leaves": []})
            for name in groups.get(child, []):
                sw = fab.switches.get(name)
                if sw is None or sw.role == "superspine":
                    if sw is not None:
                        raise errors.RoceInputError("pods", child, "spines and leaves only "
                                                    "(super-spines sit above the pods)", name)
                    continue
                if sw.pod is not None:
                    raise errors.RoceInputError("pods", child, "a switch in one pod only (%s is "
                                                "also in %s)" % (name, fab.pods[sw.pod]["name"]),
                                                name)
                sw.pod = i
                fab.pods[i]["spines" if sw.role == "spine" else "leaves"].append(sw)
        for sw in fab.spines + fab.leaves:
            if sw.pod is None:
                raise errors.RoceInputError("pods", sw.name, "every spine and leaf in one child "
                                            "group of %s" % group, sw.name)
    for pod in fab.pods:
        members = pod["spines"] + pod["leaves"]
        if not pod["spines"] or not pod["leaves"]:
            raise errors.RoceInputError("pods", pod["name"], "a pod with at least one spine and "
                                        "one leaf")
        planes = set(sw.plane for sw in members)
        if len(planes) > 1:
            raise errors.RoceInputError("pods", pod["name"], "a pod inside one plane (has "
                                        "switches of planes %s)" % sorted(planes))
        pod["plane"] = planes.pop()
    for pair in fab.pairs:
        a, b = (fab.switches[name] for name in pair)
        if a.pod != b.pod:
            raise errors.RoceInputError("leaf_pairs", pair, "both leaves of a pair in one pod",
                                        pair[0])


def wire_superspines(fab: Any, cable_up: Callable[..., None]) -> None:
    """Spine <-> super-spine links; ``cable_up(fab, lower, uppers, m, link, next_down)`` lays m
    links from a switch to each upper one (fabric._cable_up, shared with the leaf-spine tier)."""
    if not fab.superspines:
        return
    s = fab.settings
    link = s["superspine_link"]
    ratio = errors.number("roce_fabric.max_oversubscription_above_pod",
                          s["max_oversubscription_above_pod"], 1, 64, ":1", None)
    per = s["links_per_spine_superspine"]
    by_plane: Dict[int, List[Any]] = {}
    for ss in fab.superspines:
        by_plane.setdefault(ss.plane, []).append(ss)
    next_down = dict((ss.name, 0) for ss in fab.superspines)
    width: Dict[int, int] = {}
    for pod in fab.pods:
        spines = pod["spines"]
        tops = by_plane.get(pod["plane"], [])
        n = width.setdefault(pod["plane"], len(spines))
        if n != len(spines):
            raise errors.RoceInputError("pods", pod["name"], "as many spines as the other pods "
                                        "of its plane (%d, has %d)" % (n, len(spines)))
        if not tops or len(tops) % len(spines):
            raise errors.RoceInputError(
                "superspines", len(tops), "a multiple of the spines per pod (%d) in plane %d: "
                "spine j of every pod connects to super-spine group j"
                % (len(spines), pod["plane"]))
        size = len(tops) // len(spines)
        for j, spine in enumerate(spines):
            down_gbps = sum(p.speed_gbps for p in spine.ports.values() if p.peer_kind == "leaf")
            m = per or max(1, int(-(-down_gbps // (ratio * size * link["speed_gbps"]))))
            m = errors.number("roce_fabric.links_per_spine_superspine", m, 1, 64, "",
                              spine.name, integer=True)
            cable_up(fab, spine, tops[j * size:(j + 1) * size], m, link, next_down)
