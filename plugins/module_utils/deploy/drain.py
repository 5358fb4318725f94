# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drained copies of a switch's routing config, for the roll (drain, apply, verify, undrain).

RFC 8326 graceful shutdown: a draining device tags what it advertises GRACEFUL_SHUTDOWN so its
peers prefer other paths before it changes. They work on rendered files and on running-config text
alike; applying the file without these lines undrains.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict

DRAIN_OUT = "RF-DRAIN-OUT"    # EOS outbound route-map the render's RF-DRAIN-IN peers honour


def eos_out_policies(config: str) -> Dict[str, str]:
    """{neighbour or peer group: its outbound route-map} of the top-level ``router bgp`` of an
    EOS config, the drain's own excluded. EOS takes one outbound route-map per neighbour (a
    second ``neighbor X route-map M out`` replaces the first; a neighbour's own overrides its
    peer group's), so a drain by route-map would replace these: eos_drained leaves them and
    the deploy refuses to drain past them (candidate.plan_deploy)."""
    out: Dict[str, str] = {}
    in_bgp = False
    for line in config.splitlines():
        words = line.split()
        if not line.startswith(" ") and line.strip():
            in_bgp = words[:2] == ["router", "bgp"]
            continue
        indent = len(line) - len(line.lstrip())
        if in_bgp and indent <= 3 and words[:1] == ["neighbor"] and len(words) == 5 and \
                words[2] == "route-map" and words[4] == "out" and words[3] != DRAIN_OUT:
            out[words[1]] = words[3]
    return out


def eos_drained(config: str) -> str:
    """The same config with the device draining: every neighbor's (and peer group's)
    advertisements tagged GSHUT by an outbound route-map, so peers (inbound RF-DRAIN-IN, or any
    RFC 8326 speaker) prefer other paths before this device changes. Works on rendered files and
    on running-config text, indented or flat (as eos_config sends it); only the top-level
    ``router bgp`` (not its VRFs) and never inside a banner or a multi-line body. Only lines
    are added: committing the config without them undrains. A neighbour or peer group with its
    own outbound route-map (eos_out_policies) is left as it is."""
    own = eos_out_policies(config)
    out = []
    tagged = set()   # one drain line per neighbour: a peer group's "peer group" and "remote-as"
    # lines both name it, and a second line would make the undrain negate it twice
    in_bgp = in_body = False
    flat = not any(line.startswith(" ") for line in config.splitlines())
    for line in config.splitlines():
        words = line.split()
        text = line.strip()
        if in_body:
            out.append(line)
            in_body = text != "EOF"
            continue
        if words[:2] == ["router", "bgp"] and not line.startswith(" "):
            in_bgp = True
            out += ["route-map %s permit 10" % DRAIN_OUT, "   set community GSHUT", "!"]
        elif not line.startswith(" ") and text and not text.startswith("!") and not flat:
            in_bgp = False
        out.append(line)
        if (not line.startswith(" ") and words[:1] == ["banner"]) or \
                (line.startswith(" ") and text.lower() in ("action bash", "comment")):
            in_body = True
            continue
        indent = line[:len(line) - len(line.lstrip())]
        if not (in_bgp or flat) or len(indent) > 3 or words[:1] != ["neighbor"] or len(words) < 3:
            continue
        if words[1] in own or words[1] in tagged:
            continue
        if words[2] == "remote-as" or words[2:] in (["peer", "group"], ["peer-group"]):
            tagged.add(words[1])
            out.append("%sneighbor %s route-map %s out" % (indent, words[1], DRAIN_OUT))
    return "\n".join(out) + "\n"


def frr_drained(bgpd_conf: str) -> str:
    """The same bgpd.conf with the device draining: ``bgp graceful-shutdown`` under its
    ``router bgp`` (FRR tags every advertisement GRACEFUL_SHUTDOWN and sets local-pref 0 on
    what it receives). Applying this instead of the plain file drains; the plain file undrains."""
    out = []
    for line in bgpd_conf.splitlines():
        out.append(line)
        if line.startswith("router bgp "):
            out.append(" bgp graceful-shutdown")
    return "\n".join(out) + "\n"
