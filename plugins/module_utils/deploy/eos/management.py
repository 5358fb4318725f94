# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The management-plane guard of the EOS deploy: the sections a deploy may not change by
accident (management interface, VRFs, static routes, eAPI/SSH, users, roles, AAA,
TACACS+/RADIUS, NTP, DNS, logging, SNMP, ACLs, ``system control-plane``, TerminAttr).

A change to one of them is refused by name unless ``switch_deploy_allow_management_change``
is set, even when the inventory asks for it (a base config or a removal). An ACL the deploy
adds or changes that the control plane or a management service applies may not deny
management traffic, flag or not: the commit would cut off the session deploying it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Iterable, List, Optional, Sequence

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar, secrets

# (top-level prefix, what it is): the management plane; a change needs
# switch_deploy_allow_management_change even when the inventory asks for it.
PROTECTED = (
    ("interface Management", "management interface"),
    ("vrf instance ", "VRF"),
    ("ip route ", "static route"),
    ("ipv6 route ", "static route"),
    ("ip routing vrf ", "VRF routing"),
    ("no ip routing vrf ", "VRF routing"),
    ("management ", "management service (eAPI, SSH, ...)"),
    ("username ", "local user"),
    ("role ", "role"),
    ("aaa ", "AAA"),
    ("no aaa ", "AAA"),
    ("enable ", "enable secret"),
    ("tacacs-server ", "TACACS+"),
    ("radius-server ", "RADIUS"),
    ("ip tacacs ", "TACACS+ source"),
    ("ip radius ", "RADIUS source"),
    ("ntp ", "NTP"),
    ("ip name-server ", "DNS"),
    ("dns ", "DNS"),
    ("ip domain ", "DNS"),
    ("logging ", "logging"),
    ("snmp-server ", "SNMP"),
    ("no snmp-server ", "SNMP"),
    ("ip access-list ", "access list"),
    ("system control-plane", "control-plane ACL"),
    ("daemon TerminAttr", "CloudVision agent"),
)


def _kind(head: str) -> Optional[str]:
    for prefix, what in PROTECTED:
        if head.startswith(prefix) or grammar.head_key(head).startswith(prefix):
            return what
    return None


def lockout_risks(running: str, rendered: str) -> List[str]:
    """['<what> "<line>": removed' or '...: changed (-old, +new)'] for every protected section
    of ``running`` that ``rendered`` does not carry exactly (a whole-config replace)."""
    return protected_changes(grammar.read(running), grammar.read(rendered))


def protected_changes(before: Sequence[grammar.Block], after: Sequence[grammar.Block],
                      only: Optional[Iterable[str]] = None) -> List[str]:
    """['<what> "<line>": removed', '... added' or '...: changed (-old, +new)'] for every
    protected section that differs from ``before`` to ``after`` (only the keys in ``only``
    when given; secrets redacted)."""
    have = dict((grammar.head_key(h), (h, b)) for h, b in before)
    want = dict((grammar.head_key(h), (h, b)) for h, b in after)
    keys = set(only) if only is not None else set(have)
    out = []
    for key in [k for k in have if k in keys] + [k for k in want if k in keys and k not in have]:
        head = (have.get(key) or want[key])[0]
        what = _kind(head)
        if what is None:
            continue
        if key not in want:
            out.append('%s "%s": removed' % (what, secrets.redact(head)))
        elif key not in have:
            out.append('%s "%s": added' % (what, secrets.redact(head)))
        elif grammar.items(have[key][1]) != grammar.items(want[key][1]):
            old, new = grammar.items(have[key][1]), grammar.items(want[key][1])
            lost = [secrets.redact(i[0].strip()) for i in old if i not in new]
            gained = [secrets.redact(i[0].strip()) for i in new if i not in old]
            out.append('%s "%s": changed (%s)' % (what, secrets.redact(head), ", ".join(
                ["-" + c for c in lost] + ["+" + c for c in gained]) or "order"))
    return out


def acl_risks(blocks: Sequence[grammar.Block], changed: Iterable[str]) -> List[str]:
    """ACLs the control plane or a management service applies (system control-plane,
    management api/ssh, snmp-server) that the deploy would add or change and that hold a deny
    rule matching management traffic (any deny of ip, ssh, https or http, or a standard ACL's
    deny): such a commit can cut off the session deploying it."""
    used = set()
    for head, body in blocks:
        low = head.lower()
        if low.startswith(("system control-plane", "management ")):
            for line in body:
                words = line.split()
                if words[:2] in (["ip", "access-group"], ["ipv6", "access-group"]) and \
                        len(words) > 2:
                    used.add(words[2])
        elif low.startswith("snmp-server") and "access-list" in low:
            words = head.split()
            idx = [i for i, w in enumerate(words) if w.endswith("access-list")][0]
            if idx + 1 < len(words):
                used.add(words[idx + 1])
    changed = set(changed)
    out = []
    for head, body in blocks:
        words = head.split()
        if words[:2] not in (["ip", "access-list"], ["ipv6", "access-list"]):
            continue
        name = words[-1]
        if name not in used or grammar.head_key(head) not in changed:
            continue
        standard = "standard" in [w.lower() for w in words]
        for line in body:
            rule = line.split()
            if rule and rule[0].isdigit():
                rule = rule[1:]
            if not rule or rule[0].lower() != "deny":
                continue
            proto = rule[1].lower() if len(rule) > 1 else ""
            ports = [w.lower() for w in rule[2:]]
            mgmt = standard or proto == "ip" or (proto == "tcp" and (
                "eq" not in ports or set(ports) & {"ssh", "22", "https", "443", "www", "80"}))
            if mgmt:
                out.append('"%s" in "%s": the ACL is applied to management or the control '
                           'plane and this rule denies management traffic'
                           % (line.strip(), head))
    return out
