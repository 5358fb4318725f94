# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``roce_eos_base_config``: sections of an EOS switch the plan does not own that the inventory
sets on purpose (a management interface, users, AAA, NTP, a banner, ...). Optional: the deploy
keeps every section of the running config the plan does not own as it runs (deploy/eos/,
docs/deploy.md); a base config only changes or adds sections, and each of its sections is
sent only where it differs from the running one.

The gate reads it with EOS's own grammar (show running-config): 3 spaces per level; the body of
a banner, an event-handler's ``action bash`` or a ``comment`` taken verbatim up to its EOF line
(which is required); no exec command at any indentation (``end``, ``exit``, ``copy``,
``write``, ``reload``, ...: inside a configuration session they would run on the switch or leave
configuration mode); interface names canonicalised (Et1/1, ethernet1/1 and ``Ethernet 1/1`` are
Ethernet1/1) and keywords compared case-insensitively before the owned-section check; no ACL
that the control plane or a management service applies may deny management traffic.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Iterable, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors

FIELD = "roce_eos_base_config"
ALLOWED = ("EOS CLI as show running-config prints it (3 spaces per level, no tabs, banners and "
           "multi-line bodies closed by EOF, no exec command such as end, copy, write or "
           "reload)")


def base_config(dev_name: str, port_names: Iterable[str], text: Optional[str]) -> List[str]:
    """The base config lines of switch ``dev_name`` (trailing blanks and blank lines dropped), or
    raise RoceInputError naming the offending line."""
    if text is None:
        return []
    # the deploy guard's modules load only when a base config is read (importing the plan loads
    # no deploy module)
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import (
        grammar, management, ownership, stream)
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    ends = [n for n, line in enumerate(lines, 1) if stream.exec_word(line) == "end"]
    if ends:
        raise errors.RoceInputError(FIELD, "line %d: %s" % (ends[0], lines[ends[0] - 1]),
                                    ALLOWED, dev_name)
    try:
        parse_blocks("\n".join(lines))
    except ValueError as exc:
        raise errors.RoceInputError(FIELD, _redacted(str(exc)), ALLOWED, dev_name) from None
    ports = set(grammar.canonical_interface(n) for n in port_names) | {"Loopback0"}
    owner = ownership.Ownership([], whole_families=True)
    owner.ports = ports
    in_body = False
    for number, line in enumerate(lines, 1):
        if in_body:
            in_body = line.strip() != "EOF"
            continue
        in_body = grammar.is_multiline_head(line)
        if not line or line.startswith((" ", "!")):
            continue
        words = line.split()
        if words[0].lower() == "interface":
            name = " ".join(words[1:])
            canon = grammar.canonical_interface(name)
            tail = canon.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-")
            if ("," in canon or "-" in tail) and canon.startswith("Ethernet"):
                raise errors.RoceInputError(
                    FIELD, "line %d: %s" % (number, line), "one interface per block: a range "
                    "could hold a port the plan wires", dev_name)
        what = owner.owner(line)
        if what is not None:
            raise errors.RoceInputError(
                FIELD, "line %d: %s" % (number, _redacted(line)), "lines the plan does not "
                "render: '%s' is the plan's (%s)" % (_redacted(line), what), dev_name)
    blocks = grammar.read("\n".join(lines))
    risks = management.acl_risks(blocks, [grammar.head_key(h) for h, _body in blocks])
    if risks:
        rule, acl = risks[0].split('"')[1], risks[0].split('"')[3]
        number = next((n for n, line in enumerate(lines, 1) if line.strip() == rule), 0) or \
            next((n for n, line in enumerate(lines, 1) if line.strip() == acl), 0)
        raise errors.RoceInputError(FIELD, "line %d: %s" % (number, rule), "an ACL the control "
                                    "plane or a management service applies (%s) may not deny "
                                    "management traffic: the commit would cut off the deploy"
                                    % acl, dev_name)
    return lines


def _redacted(message: str) -> str:
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import secrets
    return secrets.redact(message)


def parse_blocks(text: str) -> List[Tuple[str, List[Any]]]:
    """Parse EOS CLI into (line, children) blocks by indentation; raise ValueError on a child
    indented under nothing, an indentation jump of more than one level, an indentation that is
    not a multiple of 3, tabs, an exec command ('end', 'copy', 'write', 'reload', ... at any
    indentation), or a banner or
    multi-line body without its EOF line. The body of a banner, ``action bash`` or ``comment``
    is taken verbatim (EOS prints it with its own indentation and characters) as children."""
    root = []  # type: List[Tuple[str, List[Any]]]
    stack = [(-1, root)]  # type: List[Tuple[int, List[Any]]]
    body = None   # type: Optional[Tuple[int, List[Any], str]]
    from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar, stream
    lines = text.splitlines()
    last = max([i for i, line in enumerate(lines, 1) if line.strip()] or [0])
    for number, raw in enumerate(lines, 1):
        if body is not None:
            risk = stream.banner_line_risk(body[2], raw) if \
                body[2].lower().startswith("banner") else None
            if risk:
                raise ValueError("line %d: %s" % (number, risk))
            body[1].append((raw, []))
            if raw.strip() == "EOF":
                body = None
            continue
        if not raw.strip() or raw.lstrip().startswith("!"):
            continue
        if "\t" in raw:
            raise ValueError("line %d: tab in indentation" % number)
        indent = len(raw) - len(raw.lstrip(" "))
        word = stream.exec_word(raw)
        if word == "end" and raw == "end" and number == last:
            continue                       # a whole config's last line, as EOS prints it
        if word:
            raise ValueError("line %d: '%s' is an exec command: inside a configuration session "
                             "it %s" % (number, raw.strip(), "leaves configuration mode, and "
                                        "every later line runs as an exec command"
                                        if word in ("end", "exit") else "runs on the switch"))
        if indent % 3:
            raise ValueError("line %d: indentation %d is not a multiple of 3" % (number, indent))
        level = indent // 3
        while stack[-1][0] >= level:
            stack.pop()
        if level > stack[-1][0] + 1:
            raise ValueError("line %d: indented under nothing: %r" % (number, raw))
        node = (raw.strip(), [])  # type: Tuple[str, List[Any]]
        stack[-1][1].append(node)
        stack.append((level, node[1]))
        if grammar.is_multiline_head(raw):
            body = (number, node[1], raw.strip())
    if body is not None:
        raise ValueError("line %d: '%s' has no EOF line: every later line would become its "
                         "text" % (body[0], body[2]))
    return root
