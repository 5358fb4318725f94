# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What an EOS config replace must never drop: the guard the deploy runs before any commit.

The rendered config replaces the running one (configuration session, ``rollback clean-config``),
so a management interface, VRF, static route, eAPI or SSH service, local user, AAA, NTP or
logging line that the running config has and the rendered one lacks would be removed, and a
switch deployed over eAPI would cut off the session deploying it. The rendered config carries
them through ``roce_eos_base_config``; this guard compares every such section of the running
config with the rendered one and names each one that would be removed or changed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List

# (top-level prefix, what it is): sections of the running config the deploy must keep as they are.
PROTECTED = (
    ("interface Management", "management interface"),
    ("vrf instance ", "VRF"),
    ("ip route ", "static route"),
    ("ipv6 route ", "static route"),
    ("ip routing vrf ", "VRF routing"),
    ("no ip routing vrf ", "VRF routing"),
    ("management ", "management service (eAPI, SSH, ...)"),
    ("username ", "local user"),
    ("aaa ", "AAA"),
    ("no aaa ", "AAA"),
    ("enable ", "enable secret"),
    ("tacacs-server ", "TACACS+"),
    ("radius-server ", "RADIUS"),
    ("ntp ", "NTP"),
    ("ip name-server ", "DNS"),
    ("logging ", "logging"),
    ("snmp-server ", "SNMP"),
)


def sections(text: str) -> Dict[str, List[str]]:
    """{top-level line: [child lines, indentation kept]} of EOS CLI text; comments, blank lines
    and 'end' dropped. Tolerant: it never fails on what a running config may hold (banners)."""
    out, head = {}, None
    for raw in (text or "").splitlines():
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("!") or line == "end":
            continue
        if line[0] != " ":
            head = line
            out.setdefault(head, [])
        elif head is not None:
            out[head].append(line)
    return out


def _kind(head):
    for prefix, what in PROTECTED:
        if head.startswith(prefix):
            return what
    return None


def lockout_risks(running: str, rendered: str) -> List[str]:
    """['<what> "<line>": removed' or '...: changed (-old, +new)'] for every protected section
    of ``running`` that ``rendered`` does not carry exactly; empty when the replace is safe."""
    have, want = sections(running), sections(rendered)
    out = []
    for head, children in have.items():
        what = _kind(head)
        if what is None:
            continue
        if head not in want:
            out.append('%s "%s": removed' % (what, head))
        elif want[head] != children:
            lost = [c.strip() for c in children if c not in want[head]]
            new = [c.strip() for c in want[head] if c not in children]
            out.append('%s "%s": changed (%s)' % (what, head, ", ".join(
                ["-" + c for c in lost] + ["+" + c for c in new]) or "order"))
    return out
