# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Objects the plan owns that something it does not own uses, found before anything is sent.

The plan owns its ports and Loopback0 outright (ownership.py), but on a shared switch other
configuration may hang on them: a plan port that is a member of a port-channel (an MLAG
peer-link, say) or sits in another VRF (in-band management), a Loopback0 that TACACS+, RADIUS,
NTP, logging, SNMP or sFlow take their source address from. Rendering the port or loopback
as the plan has it would take the port out of the LAG or the VRF, or readdress every service
that sources from the loopback - silently. Each such use is refused, naming both objects and
what to do; nothing is refused when the plan leaves the object as it runs.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List, Sequence

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar, ownership

# Interface lines that tie a port to an object the plan does not render (EOS User Manual:
# "channel-group N mode ..." makes the port a member of Port-Channel N; "vrf NAME" - older
# releases "vrf forwarding NAME" - puts a routed port in VRF NAME).
_MEMBERSHIP = (("channel-group ", "a member of Port-Channel %s", 1),
               ("vrf forwarding ", "in VRF %s", 2), ("vrf ", "in VRF %s", 1))
# Words after which a line names the interface a service takes its source address from
# (ip tacacs/radius source-interface, logging source-interface, ntp local-interface,
# snmp-server local-interface, sflow source-interface, ip domain lookup source-interface, ...;
# "ntp server ... source INTF"; under router bgp "neighbor X update-source INTF", the interface
# whose address a BGP session - an EVPN overlay's peer group, say - is sourced from: EOS User
# Manual, BGP commands, "neighbor update-source").
_SOURCE_WORDS = ("source-interface", "local-interface", "update-source")


def _by_key(blocks: Sequence[grammar.Block]) -> Dict[str, grammar.Block]:
    return dict((grammar.head_key(h), (h, b)) for h, b in blocks)


def _membership(line: str) -> str:
    text = line.strip()
    for prefix, what, at in _MEMBERSHIP:
        if text.startswith(prefix):
            words = text.split()
            return what % (words[at] if len(words) > at else "?")
    return ""


def port_risks(running: Sequence[grammar.Block], want: Sequence[grammar.Block],
               own: ownership.Ownership) -> List[str]:
    """A plan port whose running block ties it to a port-channel or a VRF the plan's block does
    not keep."""
    after = _by_key(want)
    out = []
    for head, body in running:
        key = grammar.head_key(head)
        words = key.split()
        if words[:1] != ["interface"] or len(words) < 2 or words[1] not in own.ports:
            continue
        kept = set(line.strip() for line in after.get(key, (head, []))[1])
        for line in body:
            what = _membership(line)
            if what and line.strip() not in kept:
                out.append('%s is %s ("%s"), which the plan does not render: deploying would '
                           'take it out (%s) - free the port first, or leave it out of the plan'
                           % (words[1], what, line.strip(), "no " + line.strip()))
    return out


def _source_users(running: Sequence[grammar.Block]) -> Dict[str, List[str]]:
    """{interface: the lines that take their source address from it}, over the whole config
    the switch will run, once (a user in a section the deploy removes is no risk)."""
    users: Dict[str, List[str]] = {}
    for head, body in running:
        for line in [head] + list(body):
            words = line.split()
            for i, word in enumerate(words[:-1]):
                if word in _SOURCE_WORDS or (word == "source" and words[0] == "ntp"):
                    users.setdefault(grammar.canonical_interface(words[i + 1]), []).append(
                        line.strip())
    return users


def _addresses(block: grammar.Block) -> List[str]:
    return sorted(ln.strip() for ln in block[1] if "address" in ln.split()[:2])


def source_risks(running: Sequence[grammar.Block], want: Sequence[grammar.Block],
                 own: ownership.Ownership) -> List[str]:
    """A plan-owned interface (Loopback0, a port) whose addresses the plan changes while a
    service the plan does not own takes its source address from it."""
    before, after = _by_key(running), _by_key(want)
    # a BGP instance other than the plan's is refused on its own (candidate: one instance)
    users = _source_users([b for b in want if b[0].split()[:2] != ["router", "bgp"]
                           or b[0].split()[2:3] == [own.asn]])
    out = []
    for name in sorted(own.ports & set(users)):
        key = "interface " + name
        if key not in before:
            continue
        old, new = _addresses(before[key]), _addresses(after.get(key, ("", [])))
        if old == new:
            continue
        out += ['"%s" takes its source address from %s, whose address the plan changes '
                '(%s -> %s): the service would come from a new address - point it at another '
                'interface first, or keep %s\'s address in the plan'
                % (line, name, ", ".join(old) or "none", ", ".join(new) or "none", name)
                for line in users[name]]
    return out
