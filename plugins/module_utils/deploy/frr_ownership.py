# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What of a switch's bgpd config the plan does not own (split-mode FRR: SONiC, linux).

The deploy loads the rendered bgpd.conf with ``frr-reload.py --daemon bgpd --reload``, which
makes bgpd's running config equal to the file: every bgpd line the file lacks is deleted. Only
bgpd: with ``--daemon bgpd`` frr-reload reads the running config as ``show running-config bgpd``
(FRR 8.4 tools/frr-reload.py, Vtysh.mark_show_run), so interface, zebra and staticd lines are
out of its reach and out of scope here. Everything in the running config or the persistent
bgpd.conf that is neither the plan's nor named to be removed is reported, so the deploy can
refuse before anything changes (as EOS keeps foreign sections: deploy/eos/ownership.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple

# Contexts, as frr-reload.py reads them (FRR 8.4 tools/frr-reload.py Config.load_contexts: a
# tree of context-entering keywords, lines stripped, indentation ignored; "exit..." leaves one
# context, "end" all, "!" and "#" are comments). The bgpd part of that tree and the top-level
# contexts bgpd's running config can show.
_CONTEXTS: Dict[str, dict] = {
    "router bgp ": {"address-family ": {"vni ": {}}, "vnc defaults": {}, "vnc nve-group ": {},
                    "vnc l2-group ": {}, "vrf-policy ": {}, "bmp targets ": {},
                    "segment-routing srv6": {}},
    "route-map ": {}, "rpki": {}, "key chain ": {"key ": {}}, "vrf ": {}, "interface ": {},
    "bfd": {"peer ": {}, "profile ": {}}, "line vty": {}, "segment-routing": {},
}
# Top-level lines that are no one's routing object: frr-reload never removes agentx, frr
# version/defaults, username, password, line vty, service integrated-vtysh-config (FRR 8.4
# frr-reload.py compare_context_objects); vtysh prints the header and `hostname` of the host it
# runs on (seen in the namespace lab: "hostname vm" next to bgpd's own); log settings are the
# daemon's, not a peer's or a policy's.
_IGNORED = ("agentx", "frr version", "frr defaults", "username", "password", "enable password",
            "line vty", "service ", "hostname ", "domainname ", "log ", "Building configuration",
            "Current configuration")
# Every object roce.fabric.render names is called RF-* (render/policy.py CONNECTED,
# render/sonic/frr.py GSHUT_LIST, DRAIN_POLICY): an RF-* object a later render no longer
# emits is still the plan's, and frr-reload removing it is the plan's change.
PLAN_PREFIX = "RF-"
# Named top-level lines: the words that make the object's id (kind + name), from FRR's user
# guide (filter.rst: access-list, ip/ipv6 prefix-list; bgp.rst: bgp as-path access-list,
# bgp community-list / large-community-list / extcommunity-list <standard|expanded> NAME).
_NAMED = (("ip", "prefix-list"), ("ipv6", "prefix-list"), ("bgp", "as-path", "access-list"),
          ("ip", "as-path", "access-list"), ("access-list",), ("ipv6", "access-list"),
          ("bgp", "community-list"), ("bgp", "large-community-list"),
          ("bgp", "extcommunity-list"))

Line = Tuple[Tuple[str, ...], str]     # (context keys, line) as frr-reload keeps them


def lines(text: str) -> Iterator[Line]:
    """Every config line with the contexts it sits in, frr-reload's way; a context's first
    line comes once with an empty line."""
    keys: List[str] = []
    trees = [_CONTEXTS]
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line or line.startswith(("!", "#")):
            continue
        if line.startswith("end"):
            del keys[:], trees[1:]
            continue
        if line.startswith("exit"):
            if keys:
                keys.pop()
                trees.pop()
            continue
        sub = next((v for k, v in trees[-1].items() if line.startswith(k)), None)
        if sub is not None:
            keys.append(line)
            trees.append(sub)
            yield tuple(keys), ""
        else:
            yield tuple(keys), line


def _named(words: List[str]) -> Optional[str]:
    for kind in _NAMED:
        n = len(kind)
        if tuple(words[:n]) == kind and len(words) > n:
            name = words[n + 1] if words[n:n + 1] in (["standard"], ["expanded"]) and \
                len(words) > n + 1 else words[n]
            return " ".join(kind + (name,))
    return None


def _setting(line: str) -> str:
    """An address-family line's setting: its first word and a second keyword (``redistribute
    connected``, ``maximum-paths ibgp``; ``aggregate-address`` and its prefix); one value per
    setting, so the plan's replaces."""
    words = line.split()
    if words[0] == "aggregate-address" and len(words) > 1:
        return " ".join(words[:2])      # one per prefix: the plan's never replaces another's
    return " ".join(words[:2]) if len(words) > 1 and words[1].isalpha() else words[0]


def objects(text: str, instance: str) -> Dict[str, str]:
    """{object id: its kind} of a bgpd config; ``instance`` is the plan's ``router bgp`` line
    (its neighbours and address-family lines are objects of their own)."""
    found: Dict[str, str] = {}
    for keys, line in lines(text):
        if not keys:
            if not line.startswith(_IGNORED):
                named = _named(line.split())
                found[named or line] = named.rsplit(" ", 1)[0] if named else "line"
        elif keys[0] != instance:
            head = keys[0].split()
            if keys[0].startswith("route-map "):
                found["route-map " + head[1]] = "route-map"
            elif not keys[0].startswith(_IGNORED):
                found[keys[0]] = "router bgp instance" if keys[0].startswith("router bgp ") \
                    else head[0] + " block"
        elif line.startswith("neighbor "):
            words = line.split()
            group = words[2:] == ["peer-group"] or found.get("neighbor " + words[1], "") \
                .startswith("peer-group")
            found["neighbor " + words[1]] = ("peer-group in " if group else "neighbour in ") \
                + instance
        elif len(keys) > 1 and line:
            where = keys[1] if keys[1].startswith("address-family ") else " ".join(keys[1:])
            found["%s: %s" % (where, line)] = "line in " + instance
    return found


def _instance(rendered: str) -> str:
    return next((k[0] for k, _body in lines(rendered) if k and k[0].startswith("router bgp ")
                 and " vrf " not in k[0]), "router bgp")


def _owned(oid: str, plan: Set[str], settings: Set[Tuple[str, str]]) -> bool:
    if oid in plan or (": " not in oid and oid.split()[-1].startswith(PLAN_PREFIX)):
        return True
    where, _sep, line = oid.partition(": ")
    return bool(line) and (where, _setting(line)) in settings


def _where(oid: str, running: Dict[str, str], persistent: Dict[str, str]) -> str:
    if oid not in persistent:
        return ("runs only (configured in vtysh, never saved): the deploy's frr-reload would "
                "delete it from the running bgpd")
    if oid not in running:
        return ("is saved in the persistent bgpd.conf but does not run: the deploy would "
                "overwrite the file without it")
    return ("runs and is saved in the persistent bgpd.conf: the deploy's frr-reload would "
            "delete it and overwrite the file without it")


def foreign(running_text: str, persistent_text: str, rendered_text: str,
            remove: Iterable[str] = (), deployed_text: str = "") -> List[str]:
    """One message per bgpd object of the running config or the persistent file that the
    rendered file lacks, that is not the plan's (the rendered file's objects, RF-* objects,
    the objects of ``deployed_text``: the bgpd.conf the deploy loaded last) and that ``remove``
    does not name."""
    instance = _instance(rendered_text)
    plan = set(objects(rendered_text, instance)) | set(objects(deployed_text, instance))
    settings = set((k[1], _setting(line)) for k, line in lines(rendered_text + deployed_text)
                   if len(k) > 1 and k[0] == instance and line)
    running = objects(running_text, instance)
    persistent = objects(persistent_text, instance)
    named = set(" ".join(r.split()) for r in remove)
    out = []
    for oid in sorted(set(running) | set(persistent)):
        if _owned(oid, plan, settings) or oid in named:
            continue
        kind = running.get(oid) or persistent[oid]
        what = '"%s"' % oid if oid.startswith(kind) else '"%s" (%s)' % (oid, kind)
        out.append("bgpd %s is not the plan's and %s. Remove it on the switch, or name \"%s\" "
                   "in switch_deploy_frr_remove to let the deploy remove it"
                   % (what, _where(oid, running, persistent), oid))
    return out
