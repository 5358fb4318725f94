# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The part of an EOS switch's configuration the plan does not own: management interface and
VRF, its routes, users, AAA, NTP, logging, eAPI and SSH, from ``roce_eos_base_config``.

The deploy replaces the whole running config (EOS configuration session, replace semantics), so
the rendered config must carry everything the switch keeps: the base config is merged into it
verbatim, right after ``hostname``, and shows in every diff. It must not hold what the plan
renders (a second ``router bgp``, the fabric ports); that is refused at the gate with the line.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Iterable, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors

FIELD = "roce_eos_base_config"
# Top-level commands the plan renders (render/eos.py), matched by prefix; "ip routing" exactly,
# so "ip routing vrf MGMT" stays the base config's. The plan's own interfaces are added per switch.
OWNED_PREFIXES = ("hostname", "service routing protocols", "qos ", "priority-flow-control ",
                  "platform trident", "ip load-sharing", "ip hardware fib", "router bgp",
                  "route-map RF-", "ip prefix-list RF-", "ip community-list RF-",
                  "interface Loopback0")
OWNED_EXACT = ("ip routing", "end")


def base_config(dev_name: str, port_names: Iterable[str], text: Optional[str]) -> List[str]:
    """The base config lines of switch ``dev_name`` (trailing blanks and blank lines dropped), or
    raise RoceInputError naming the offending line."""
    if text is None:
        return []
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    try:
        parse_blocks("\n".join(lines))
    except ValueError as exc:
        raise errors.RoceInputError(FIELD, str(exc), "EOS CLI as show running-config prints it "
                                    "(3 spaces per level, no tabs, no 'end')", dev_name)
    owned_ports = set("interface " + name for name in port_names)
    for number, line in enumerate(lines, 1):
        if not line or line.startswith((" ", "!")):
            continue
        if line in OWNED_EXACT or line.startswith(OWNED_PREFIXES) or line in owned_ports:
            raise errors.RoceInputError(FIELD, "line %d: %s" % (number, line), "lines the plan "
                                        "does not render: '%s' comes from the plan" % line,
                                        dev_name)
    return lines


def parse_blocks(text: str) -> List[Tuple[str, List[Any]]]:
    """Parse EOS CLI into (line, children) blocks by indentation; raise ValueError on a child
    indented under nothing, an indentation jump of more than one level, tabs, or text after
    'end'. Indentation unit is 3 spaces (EOS running-config style)."""
    root = []
    stack = [(-1, root)]
    ended = False
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("!"):
            continue
        if "\t" in raw:
            raise ValueError("line %d: tab in indentation" % number)
        if ended:
            raise ValueError("line %d: text after 'end'" % number)
        indent = len(raw) - len(raw.lstrip(" "))
        if indent % 3:
            raise ValueError("line %d: indentation %d is not a multiple of 3" % (number, indent))
        level = indent // 3
        while stack[-1][0] >= level:
            stack.pop()
        if level > stack[-1][0] + 1:
            raise ValueError("line %d: indented under nothing: %r" % (number, raw))
        node = (raw.strip(), [])
        stack[-1][1].append(node)
        stack.append((level, node[1]))
        if raw.strip() == "end" and level == 0:
            ended = True
    return root
