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

import ipaddress
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

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


# The deploy's sessions: arista.eos over httpapi is eAPI (HTTPS, 443/TCP), over network_cli SSH
# (22/TCP); the defaults of 'management api http-commands' and 'management ssh'.
SERVICES = {"httpapi": ("eAPI", 443), "network_cli": ("SSH", 22)}
# Port names EOS prints in ACL rules for the management ports (EOS shows 'eq ssh', 'eq https').
PORT_NAMES = {"ssh": 22, "https": 443, "www": 80, "http": 80, "telnet": 23}
# Where an ACL filters the deploy's sessions: the control plane (all traffic to the CPU) and
# the service's own ACL. SNMP's ACL filters SNMP only and cannot cut a deploy off.
_APPLIED = (("system control-plane", None), ("management ssh", "SSH"),
            ("management api http-commands", "eAPI"))


def _applied(blocks: Sequence[grammar.Block]) -> Dict[str, Tuple[str, Set[Optional[str]]]]:
    """{ACL name: (head key of the section applying it, services it filters; None = all)}."""
    out = {}   # type: Dict[str, Tuple[str, Set[Optional[str]]]]
    for head, body in blocks:
        service = [svc for prefix, svc in _APPLIED if head.lower().startswith(prefix)]
        if not service:
            continue
        for line in body:
            words = line.split()
            if len(words) > 2 and words[0] in ("ip", "ipv6") and words[1] == "access-group":
                name = words[4] if words[2:4] == ["ingress", "default"] and \
                    len(words) > 4 else words[2]
                out.setdefault(name, (grammar.head_key(head), set()))[1].add(service[0])
    return out


def _address(words: List[str]) -> Tuple[Any, int]:
    """(network, words used) of an ACL address: any, host A, A/len or A wildcard."""
    if not words:
        return None, 0
    if words[0] == "any":
        return "any", 1
    if words[0] == "host" and len(words) > 1:
        return ipaddress.ip_network(words[1]), 2
    if "/" in words[0]:
        return ipaddress.ip_network(words[0], strict=False), 1
    if len(words) > 1 and words[1].count(".") == 3:      # A.B.C.D W.W.W.W (wildcard bits)
        return (ipaddress.ip_address(words[0]), ipaddress.ip_address(words[1])), 2
    return ipaddress.ip_network(words[0]), 1


def _in(net: Any, source: Optional[Any]) -> Optional[bool]:
    """Whether ``source`` is in the ACL address ``net`` (None: cannot tell)."""
    if net == "any":
        return True
    if source is None:
        return None
    if isinstance(net, tuple):
        base, wild = (int(a) for a in net)
        return source.version == 4 and (int(source) & ~wild) == (base & ~wild)
    return source.version == net.version and source in net


def _ports(words: List[str]) -> Tuple[Optional[Tuple[str, List[int]]], int]:
    """A port spec at the front of ``words``: ((op, ports), words used) or (None, 0)."""
    if not words or words[0] not in ("eq", "neq", "gt", "lt", "range"):
        return None, 0
    values = []
    for word in words[1:]:
        if word.isdigit() or word in PORT_NAMES:
            values.append(int(word) if word.isdigit() else PORT_NAMES[word])
        elif word.isalpha() and word not in ("log", "established", "syn", "fragments"):
            values.append(-1)        # another named port: never a management port
        else:
            break
    return (words[0], values), 1 + len(values)


def _port_in(spec: Tuple[str, List[int]], port: int) -> bool:
    op, values = spec
    if op == "eq":
        return port in values
    if op == "neq":
        return port not in values
    if op == "gt":
        return bool(values) and port > values[0]
    if op == "lt":
        return bool(values) and port < values[0]
    return len(values) > 1 and values[0] <= port <= values[1]


def _match(rule: List[str], standard: bool, source: Optional[Any], port: int) -> Optional[bool]:
    """Whether an ACL rule (after permit/deny) matches the deploy's TCP session from
    ``source`` to ``port``: True, False, or None when it cannot be told (an unknown source
    against an address, a source port, a destination address, a qualifier like 'established')."""
    try:
        if standard:
            net, used = _address(rule)
            return _in(net, source) if rule[used:] in ([], ["log"]) else None
        proto = rule[0] if rule else ""
        if proto not in ("ip", "ipv6", "tcp", "6"):
            return False
        src, used = _address(rule[1:])
        rest = rule[1 + used:]
        src_ports, used = _ports(rest)
        rest = rest[used:]
        dst, used = _address(rest)
        rest = rest[used:]
        dst_ports, used = _ports(rest)
        rest = rest[used:]
    except ValueError:
        return None
    if proto in ("tcp", "6") and dst_ports is not None and not _port_in(dst_ports, port):
        return False
    hit = _in(src, source)
    if hit is False:
        return False
    if hit is None or src_ports is not None or dst != "any" or rest not in ([], ["log"]):
        return None
    return True


def acl_verdict(head: str, body: Sequence[str], source: Optional[str], port: int,
                strict: bool = True) -> Tuple[str, str]:
    """('permit' or 'deny', the deciding rule or 'implicit deny') of an EOS ACL for a TCP
    session from ``source`` to ``port``: the first matching rule decides, and a session no rule
    matches is denied (EOS ends every ACL with an implicit deny: EOS User Manual, 'ACLs and
    Route Maps', Access Control Lists). A rule that cannot be judged (an unknown source against
    an address, a source port, a qualifier) counts against the session when ``strict`` (a deny
    matches, a permit does not), for it otherwise (a permit matches, a deny does not)."""
    standard = "standard" in head.lower().split()
    addr = ipaddress.ip_address(source) if source else None
    for line in body:
        rule = line.split()
        if rule and rule[0].isdigit():
            rule = rule[1:]
        if not rule or rule[0] not in ("permit", "deny"):
            continue
        hit = _match(rule[1:], standard, addr, port)
        if hit is None:
            hit = (rule[0] == "deny") == strict
        if hit:
            return rule[0], line.strip()
    return "deny", "implicit deny"


def acl_risks(blocks: Sequence[grammar.Block], changed: Iterable[str],
              controller: Optional[str] = None,
              services: Sequence[Tuple[str, int]] = (("SSH", 22), ("eAPI", 443)),
              strict: bool = False) -> List[str]:
    """Why the ACLs the control plane or a deploy service (management ssh, management api
    http-commands) applies would cut off the deploy: for every such ACL that is new or changed,
    or applied by a changed section, the first rule matching the deploy's TCP session (from
    ``controller``, to each service's port) denies it, or no rule matches and EOS's implicit
    deny does. Without ``controller`` a rule on a source address cannot be judged: ``strict``
    counts it against the session (the deploy), otherwise for it (the plan-time gate, which
    refuses only what denies every source)."""
    changed = set(changed)
    applied = _applied(blocks)
    family = ipaddress.ip_address(controller).version if controller else None
    out = []
    for head, body in blocks:
        words = head.split()
        if words[:2] not in (["ip", "access-list"], ["ipv6", "access-list"]) or \
                words[-1] not in applied:
            continue
        if family is not None and (words[0] == "ipv6") != (family == 6):
            continue
        where, filtered = applied[words[-1]]
        if grammar.head_key(head) not in changed and where not in changed:
            continue
        for name, port in services:
            if None not in filtered and name not in filtered:
                continue
            verdict, rule = acl_verdict(head, body, controller, port, strict)
            if verdict == "deny":
                out.append('"%s" in "%s": the ACL is applied to %s and denies the deploy\'s %s '
                           'session (TCP %d from %s); permit it before any deny (EOS ends every '
                           'ACL with an implicit deny)' % (
                               rule, head, where, name, port,
                               controller or "any controller address"))
                break
    return out
