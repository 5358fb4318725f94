# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""EOS config grammar: top-level blocks of a running config as ``show running-config`` prints
it, their identity (keywords lower-case, interface names canonical as EOS spells them) and
their first-level children, and the blocks back to text.

The reader is tolerant (it never fails on what a running config may hold) and keeps every line
raw: the rest of the EOS deploy guard (candidate.py, the package overview) compares blocks by
head_key and items and sends only what differs. Imports only typing (it ships to targets with
the deploy).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List, Sequence, Tuple

# Sub-commands whose body follows on the next lines up to a line "EOF" (EOS multi-line input).
MULTILINE_CHILD = ("action bash", "comment")
INTERFACE_TYPES = (("ethernet", "Ethernet"), ("et", "Ethernet"), ("eth", "Ethernet"),
                   ("loopback", "Loopback"), ("lo", "Loopback"), ("management", "Management"),
                   ("ma", "Management"), ("mgmt", "Management"), ("port-channel", "Port-Channel"),
                   ("po", "Port-Channel"), ("vlan", "Vlan"), ("vl", "Vlan"), ("vxlan", "Vxlan"),
                   ("vx", "Vxlan"), ("tunnel", "Tunnel"), ("tu", "Tunnel"))

Block = Tuple[str, List[str]]          # (head line, every following line of the block, raw)


def canonical_interface(name: str) -> str:
    """EOS's own spelling of an interface name: Et1/1, eth1/1, ethernet 1/1 -> Ethernet1/1."""
    text = "".join(name.split())
    low = text.lower()
    for short, full in sorted(INTERFACE_TYPES, key=lambda p: -len(p[0])):
        if low.startswith(short) and low[len(short):len(short) + 1].isdigit():
            return full + text[len(short):]
    return text


def head_key(head: str) -> str:
    """The identity of a top-level line: keywords lower-case, interface names canonical, names
    (route-maps, users, ...) as written."""
    words = head.split()
    if not words:
        return ""
    if words[0].lower() == "no" and len(words) > 1:
        return "no " + head_key(" ".join(words[1:]))
    if words[0].lower() == "interface" and len(words) > 1:
        return "interface " + canonical_interface(" ".join(words[1:]))
    if words[0].lower() == "banner":
        return " ".join(w.lower() for w in words)
    lowered = [word.lower() if word.lower() in _KEYWORDS else word for word in words]
    return " ".join(lowered)


_KEYWORDS = frozenset((
    "router", "bgp", "hostname", "service", "routing", "protocols", "model", "multi-agent",
    "qos", "map", "profile", "priority-flow-control", "pause", "watchdog", "platform", "trident",
    "mmu", "queue", "ip", "ipv6", "load-sharing", "hardware", "fib", "route-map", "prefix-list",
    "community-list", "permit", "deny", "management", "api", "http-commands", "ssh", "vrf",
    "instance", "username", "aaa", "ntp", "logging", "snmp-server", "tacacs-server",
    "radius-server", "event-handler", "alias", "daemon", "role", "system", "control-plane",
    "access-list", "standard", "route", "name-server", "domain", "dns"))


def is_multiline_head(line: str) -> bool:
    """A line whose body follows up to 'EOF': banners, event-handler bash, comments."""
    text = line.strip().lower()
    if not line.startswith(" "):
        return text.startswith("banner ")
    return text in MULTILINE_CHILD


def read(text: str) -> List[Block]:
    """Top-level blocks of EOS CLI as show running-config prints it, lines kept raw.

    A block is its head and every line up to the next top-level line: children at any
    indentation, comment lines inside it, the body of a banner (up to EOF) or of a multi-line
    sub-command (``action bash``, ``comment``: up to its EOF, whatever the body's indentation or
    first characters). Top-level comments, '!' separators and 'end' belong to no block."""
    out = []  # type: List[Block]
    body_until = None
    for raw in (text or "").splitlines():
        line = raw.rstrip("\r")
        if body_until is not None:
            out[-1][1].append(line)
            if line.strip() == "EOF":
                body_until = None
            continue
        if not line.strip():
            continue
        if not line.startswith(" "):
            if line.startswith("!") or line.strip() == "end":
                continue
            out.append((line, []))
            if is_multiline_head(line):
                body_until = "EOF"
            continue
        if not out:
            continue
        out[-1][1].append(line)
        if is_multiline_head(line):
            body_until = "EOF"
    return out


def items(body: Sequence[str]) -> List[Tuple[str, ...]]:
    """First-level children of a block, each with its nested lines (comment lines dropped,
    multi-line bodies kept with their line), as comparable tuples of stripped-right lines."""
    out = []  # type: List[List[str]]
    level = None
    in_body = False
    for line in body:
        if in_body:
            out[-1].append(line)
            in_body = line.strip() != "EOF"
            continue
        if not line.strip() or line.strip().startswith("!"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if level is None or indent <= level:
            level = indent
            out.append([line.rstrip()])
        else:
            out[-1].append(line.rstrip())
        in_body = is_multiline_head(line)
    return [tuple(item) for item in out]


def sections(text: str) -> Dict[str, List[str]]:
    """{top-level line: [child lines, indentation kept]}; comments, blank lines and 'end'
    dropped. Tolerant: it never fails on what a running config may hold."""
    out = {}  # type: Dict[str, List[str]]
    for head, body in read(text):
        out.setdefault(head, []).extend(
            line for line in body if line.strip() and not line.strip().startswith("!"))
    return out


def render(blocks: Sequence[Block]) -> str:
    """Blocks back to text, '!' between them."""
    out = []
    for head, body in blocks:
        out += [head] + list(body) + ["!"]
    return "\n".join(out) + "\n"
