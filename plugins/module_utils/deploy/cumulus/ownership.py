# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a Cumulus deploy changes in NVUE's tree, and what it refuses (docs/deploy.md, ownership).

The plan owns a declared part of the tree and nothing else: the leaves its startup.yaml sets,
the nodes below which it owns everything (``REPLACED``: a plan port's QoS and addresses, the
global QoS maps, scheduler, pools and watchdog, its ``RF-`` profiles and policies, its BGP
neighbours, the hash fields; what is there and not in the plan is removed), and what its
previous startup.yaml (the deployed-state record) set and the new one no longer does. Everything
else is kept as the switch runs it: NVUE merges a PATCH into the revision (NVUE-API.md: a
PATCH "can change one, some, or the entire configuration"), so the patch carries only the plan's
leaves and ``null`` for what the plan removes ("To unset a configuration change, use the null
value").

Objects the plan changes that something it does not own uses are refused before any revision
exists: a bond with a plan port as member, a plan port in a VRF or a bridge, a BGP session of
another VRF or an unnumbered one on a plan port, a foreign reference to a plan policy or profile
(``RF-`` names), a foreign setting naming a plan port whose config changes or an address the
deploy removes (a source interface or source address on the loopback), and another port's QoS
map that puts traffic on a lossless switch priority (NVUE's default PCP map puts PCP 3 there).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import re
from typing import Any, Dict, List, NamedTuple, Optional, Set, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import document

Path = Tuple[str, ...]
PREFIX = "RF-"          # the plan's profile and policy names (render/cumulus/nvue.py)
# The drain: RFC 8326 graceful shutdown, "adds the graceful-shutdown community to all inbound and
# outbound routes from all eBGP peers and sets the local-pref ... to 0" (Cumulus Linux 5.14
# Optional-BGP-Configuration.md); owned by the plan (absent in its startup.yaml).
DRAIN: Path = ("router", "bgp", "graceful-shutdown")

# Nodes the plan owns whole ("*": a plan port; "RF-*": a plan-named object; "N": a plan
# neighbour). `qos roce` is owned and never rendered: its mode would override the explicit QoS.
REPLACED = (
    "interface.*.ip.address", "interface.*.qos", "interface.*.router.adaptive-routing",
    "interface.*.link.breakout",
    "qos.mapping.default-global", "qos.egress-queue-mapping.default-global",
    "qos.egress-scheduler.default-global", "qos.traffic-pool", "qos.pfc.default-global",
    "qos.pfc.RF-*", "qos.congestion-control.RF-*", "qos.pfc-watchdog", "qos.roce",
    "system.forwarding.ecmp-hash", "router.policy.prefix-list.RF-*",
    "router.policy.route-map.RF-*", "router.policy.community-list.RF-*",
    "vrf.default.router.bgp.neighbor.N", "router.bgp.graceful-shutdown",
)


class Change(NamedTuple):
    patch: document.Tree            # the PATCH body: the plan's leaves, null for removals
    sets: List[document.Leaf]       # (path, new value)
    unsets: List[Path]              # nodes removed
    refusals: List[str]


def _tree(ops: List[document.Tree]) -> document.Tree:
    tree: document.Tree = {}
    for op in ops:
        for path, value in document.flatten(op.get("set") or {}):
            document.put(tree, path, value)
    return tree


def plan_tree(text: str) -> document.Tree:
    """The tree of a rendered startup.yaml (its ``set`` operations merged)."""
    return _tree(document.load(text)) if text else {}


def _ports(rendered: document.Tree) -> Set[str]:
    return set(name for name, entry in (rendered.get("interface") or {}).items()
               if isinstance(entry, dict) and entry.get("type") == "swp")


def _neighbors(rendered: document.Tree) -> Set[str]:
    return set(document.get(rendered, ("vrf", "default", "router", "bgp", "neighbor")) or {})


def replaced_nodes(tree: document.Tree, ports: Set[str], neighbors: Set[str]) -> List[Path]:
    """The REPLACED nodes present in ``tree``, with their wildcards bound."""
    out: List[Path] = []
    for pattern in REPLACED:
        out += _bind(tree, tuple(pattern.split(".")), (), ports, neighbors)
    return out


def _bind(node: Any, pattern: Path, at: Path, ports: Set[str], neighbors: Set[str]
          ) -> List[Path]:
    if not pattern:
        return [at]
    if not isinstance(node, dict):
        return []
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        keys = [k for k in node if k in ports]
    elif head == "N":
        keys = [k for k in node if k in neighbors]
    elif head.endswith("*"):
        keys = [k for k in node if k.startswith(head[:-1])]
    else:
        keys = [head] if head in node else []
    out: List[Path] = []
    for key in keys:
        out += _bind(node[key], rest, at + (key,), ports, neighbors)
    return out


def _under(path: Path, roots: Set[Path]) -> bool:
    """Whether ``path`` is one of ``roots`` or below one (a lookup per prefix of the path)."""
    return any(path[:depth] in roots for depth in range(1, len(path) + 1))


def change(applied: document.Tree, rendered: document.Tree,
           previous: Optional[document.Tree] = None, drain: bool = False) -> Change:
    """The patch that makes the plan's part of ``applied`` (the switch's applied config) what
    ``rendered`` says, with ``previous`` (the last deployed startup.yaml) telling what the plan
    owned before; ``drain`` keeps the switch drained (graceful shutdown on)."""
    want = copy.deepcopy(rendered)
    if drain:
        document.put(want, DRAIN, "on")
    ports, neighbors = _ports(want), _neighbors(want)
    old_ports = _ports(previous or {}) | ports
    old_neighbors = _neighbors(previous or {}) | neighbors
    roots = replaced_nodes(applied, old_ports, old_neighbors)
    unsets: List[Path] = []
    for root in roots:              # what a replaced node holds beyond the plan
        node, mine = document.get(applied, root), document.get(want, root)
        if mine is None:
            unsets.append(root)
        elif isinstance(node, dict) and isinstance(mine, dict):
            unsets += document.absent(node, mine, root)
    if previous:                    # what the plan set before and no longer does
        for path in document.absent(previous, want):
            unsets += _remove(document.get(applied, path), document.get(previous, path), path)
    unsets = _shallowest(unsets)
    leaves = document.flatten(want)
    sets = [(p, v) for p, v in leaves if not _same(document.get(applied, p), v)]
    patch: document.Tree = {}
    for path, value in sets:
        document.put(patch, path, value)
    for path in unsets:
        document.put(patch, path, None)
    owned = roots + [p for p, _v in leaves] + unsets
    refusals = _refusals(applied, want, owned, ports, sets, unsets)
    return Change(patch, sets, unsets, refusals)


def _same(have: Any, value: Any) -> bool:
    """Whether the applied node already is the plan's leaf (a member ``{}`` is there when its
    node is, whatever it holds)."""
    return have == value or (value == {} and isinstance(have, dict))


def _remove(have: Any, mine: Any, path: Path) -> List[Path]:
    """The nodes to unset so that what ``mine`` (the previous record's node at ``path``) set is
    gone from ``have`` (the applied node) and whatever else is there stays."""
    if have is None:
        return []
    if not isinstance(have, dict) or not isinstance(mine, dict) or not mine or \
            _covered(have, mine):
        return [path]
    out: List[Path] = []
    for key, sub in mine.items():
        out += _remove(have.get(key), sub, path + (key,))
    return out


def _covered(have: document.Tree, mine: document.Tree) -> bool:
    """Whether everything in ``have`` is also in ``mine`` (a member ``{}`` covers its node)."""
    for key, value in have.items():
        if key not in mine:
            return False
        if isinstance(value, dict) and isinstance(mine[key], dict) and mine[key] and \
                not _covered(value, mine[key]):
            return False
    return True


def _shallowest(paths: List[Path]) -> List[Path]:
    out: Set[Path] = set()
    for path in sorted(set(paths), key=len):
        if not _under(path, out):
            out.add(path)
    return sorted(out)


def owned_paths(applied: document.Tree, rendered: document.Tree,
                previous: Optional[document.Tree] = None) -> List[Path]:
    """Every node of the tree the plan owns on this switch (for a restore: what it put back)."""
    want = rendered
    ports = _ports(want) | _ports(previous or {})
    neighbors = _neighbors(want) | _neighbors(previous or {})
    return (replaced_nodes(applied, ports, neighbors) + replaced_nodes(want, ports, neighbors) +
            [p for p, _v in document.flatten(want)] +
            [p for p, _v in document.flatten(previous or {})] + [DRAIN])


def restore(now: document.Tree, before: document.Tree, owned: List[Path]) -> document.Tree:
    """The patch that returns every ``owned`` node of ``now`` to what ``before`` held (after a
    failed roll the switch did not roll back by itself)."""
    patch: document.Tree = {}
    # an owned node ``before`` did not have at all goes whole, from its highest missing node:
    # an interface the roll made, not its leaves one by one (which would leave the node)
    roots = _shallowest([_missing_from(before, path) for path in owned])
    for root in roots:
        was, node = document.get(before, root), document.get(now, root)
        if was == node:
            continue
        if was is None:
            document.put(patch, root, None)
            continue
        if isinstance(was, dict) and isinstance(node, dict):
            for path in document.absent(node, was, root):
                document.put(patch, path, None)
        for path, value in document.flatten({"_": was}):
            full = root + path[1:]
            if document.get(now, full) != value:
                document.put(patch, full, value)
    return patch


# -- refusals ----------------------------------------------------------------------------------

_IP = re.compile(r"^(\d+\.\d+\.\d+\.\d+)(/\d+)?$")


def _refusals(applied: document.Tree, want: document.Tree, owned: List[Path], ports: Set[str],
              sets: List[document.Leaf], unsets: List[Path]) -> List[str]:
    out: List[str] = []
    interfaces = applied.get("interface") or {}
    for name, entry in sorted(interfaces.items()):
        if not isinstance(entry, dict):
            continue
        members = set(document.get(entry, ("bond", "member")) or {})
        for port in sorted(members & ports):
            out.append("interface %s is a bond with plan port %s as member (a LAG on a port "
                       "the plan routes)" % (name, port))
        if name in ports:
            vrf = document.get(entry, ("ip", "vrf"))
            if vrf and vrf != "default":
                out.append("plan port %s is in VRF %s" % (name, vrf))
            if document.get(entry, ("bridge", "domain")):
                out.append("plan port %s is a bridge port (bridge domain %s)"
                           % (name, ", ".join(sorted(entry["bridge"]["domain"]))))
    out += _foreign_maps(applied, want, ports)
    for vrf, body in sorted((applied.get("vrf") or {}).items()):
        for peer in sorted(document.get(body, ("router", "bgp", "neighbor")) or {}):
            if peer in ports:
                out.append("vrf %s has a BGP session on plan port %s (unnumbered)" % (vrf, peer))
    changed = set(p[1] for p, _v in sets if p[:1] == ("interface",)) | \
        set(p[1] for p in unsets if p[:1] == ("interface",) and len(p) > 1)
    removed = _removed_addresses(applied, unsets)
    for path, value in _foreign(applied, owned):
        if path[:1] == ("interface",) and len(path) > 1 and path[1] in ports | {"lo"}:
            continue        # the port's own settings the plan does not own: kept
        text = str(value)
        words = set(path) | {text}
        if any(w.startswith(PREFIX) for w in words):
            out.append("%s = %s uses a plan object (%s*): the plan rewrites it"
                       % (".".join(path), text, PREFIX))
        hit = sorted(words & changed)
        if hit:
            out.append("%s = %s uses interface %s, which this deploy changes"
                       % (".".join(path), text, hit[0]))
        gone = sorted(set(_bare(w) for w in words) & removed)
        if gone:
            out.append("%s = %s uses address %s, which this deploy removes"
                       % (".".join(path), text, gone[0]))
    return sorted(set(out))


# NVUE's classification without a profile's own entries (Cumulus Linux 5.14 QoS page): trust
# l2 (802.1p) by default, PCP n on switch priority n, DSCP 8n..8n+7 on n, port-default-sp 0.
DEFAULT_TRUST = "l2"


def classified(profile: document.Tree) -> Dict[int, str]:
    """{switch priority: how traffic gets there} of a QoS mapping profile, NVUE's defaults
    under its own entries."""
    trust = profile.get("trust", DEFAULT_TRUST)
    out = {int(profile.get("port-default-sp", 0)): "its port-default-sp"}
    tables = [("pcp", 8, 0)] if trust == "l2" else [("dscp", 64, 3)] if trust == "l3" else \
        [("pcp", 8, 0), ("dscp", 64, 3)] if trust == "both" else []
    for field, size, shift in tables:
        own = profile.get(field) or {}
        for value in range(size):
            sp = int((own.get(str(value)) or {}).get("switch-priority", value >> shift))
            out.setdefault(sp, "%s %s%s" % (field.upper(), value, "" if str(value) in own
                                            else " by NVUE's default map"))
    return out


def _foreign_maps(applied: document.Tree, want: document.Tree, ports: Set[str]) -> List[str]:
    """A QoS mapping profile of a port the plan does not own that puts traffic on a lossless
    (PFC) switch priority: other traffic paused with RoCE, and its pauses spread."""
    lossless = set(int(sp) for profile in (document.get(want, ("qos", "pfc")) or {}).values()
                   for sp in (profile.get("switch-priority") or {}))
    maps = document.get(applied, ("qos", "mapping")) or {}
    out = []
    for name, entry in sorted((applied.get("interface") or {}).items()):
        profile = document.get(entry, ("qos", "mapping", "profile")) if isinstance(
            entry, dict) else None
        if name in ports or profile not in maps:
            continue
        for sp, how in sorted(classified(maps[profile]).items()):
            if sp in lossless:
                out.append("interface %s classifies with qos mapping %s (trust %s), which puts "
                           "%s on lossless switch priority %d: other traffic would be paused "
                           "with RoCE" % (name, profile, maps[profile].get("trust",
                                                                           DEFAULT_TRUST),
                                          how, sp))
    return out


def _bare(word: str) -> str:
    match = _IP.match(word)
    return match.group(1) if match else word


def _removed_addresses(applied: document.Tree, unsets: List[Path]) -> Set[str]:
    """The addresses (without prefix length) the deploy removes from interfaces."""
    out: Set[str] = set()
    for path in unsets:
        if path[:1] != ("interface",):
            continue
        words = set(path)
        node = document.get(applied, path)
        for leaf, _value in document.flatten(node) if isinstance(node, dict) else []:
            words |= set(leaf)
        out |= set(_bare(w) for w in words if _IP.match(w))
    return out


def _foreign(applied: document.Tree, owned: List[Path]) -> List[document.Leaf]:
    """The leaves of ``applied`` the plan does not own."""
    roots = set(_shallowest(owned))
    return [(p, v) for p, v in document.flatten(applied) if not _under(p, roots)]


def _missing_from(tree: document.Tree, path: Path) -> Path:
    """The shortest prefix of ``path`` that ``tree`` lacks (``path`` itself where it has it)."""
    for depth in range(1, len(path) + 1):
        if document.get(tree, path[:depth]) is None:
            return path[:depth]
    return path


def merged(applied: document.Tree, patch: document.Tree) -> document.Tree:
    """``applied`` with ``patch`` merged as NVUE merges a PATCH: values set, ``null`` removes."""
    out = copy.deepcopy(applied)
    for path, value in document.flatten(patch):
        if value is None:
            parent = document.get(out, path[:-1])
            if isinstance(parent, dict):
                parent.pop(path[-1], None)
        else:
            document.put(out, path, copy.deepcopy(value))
    return out
