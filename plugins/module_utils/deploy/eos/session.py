# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The session-diff check of the EOS deploy: the last judgement before a commit.

The deploy sends its delta into a configuration session that starts from the running config;
before it commits, the device's own ``show session-config diffs`` is applied to the running
config read before it, and every section the session would add, change or remove must be the
plan's (ownership.py), the inventory's (base config) or named for removal; and, unless
``switch_deploy_allow_management_change``, the base config may not change a management section
(management.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Iterable, List, Optional

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import (
    grammar, management, ownership, secrets)


def apply_unified_diff(text: str, diff: str) -> Optional[str]:
    """``text`` with the unified diff applied (EOS ``show session-config diffs``); None when a
    hunk does not match (the diff is not against this text)."""
    old = text.splitlines()
    out, pos = [], 0
    hunk = False
    for line in (diff or "").splitlines():
        if line.startswith(("---", "+++")) and not hunk:
            continue
        if line.startswith("@@"):
            hunk = True
            try:
                start = int(line.split()[1].split(",")[0].lstrip("-"))
            except (IndexError, ValueError):
                return None
            start = max(start - 1, 0) if "," not in line.split()[1] or \
                line.split()[1].split(",")[1] != "0" else start
            if start < pos:
                return None
            out += old[pos:start]
            pos = start
            continue
        if not hunk:
            continue
        tag, body = line[:1], line[1:]
        if tag == " " or (tag == "" and line == ""):
            if pos >= len(old) or old[pos].rstrip() != body.rstrip():
                return None
            out.append(old[pos])
            pos += 1
        elif tag == "-":
            if pos >= len(old) or old[pos].rstrip() != body.rstrip():
                return None
            pos += 1
        elif tag == "+":
            out.append(body)
        elif tag == "\\":
            continue
        else:
            return None
    out += old[pos:]
    return "\n".join(out) + "\n"


def session_risks(running: str, diff: str, rendered: str, remove: Iterable[str] = (),
                  allow_management_change: bool = False) -> List[str]:
    """Judge the device's own session diff before commit: every section it changes must be
    the plan's, the inventory's (base config) or named for removal; a kept section changed or
    removed is refused by name (secrets redacted)."""
    if not (diff or "").strip():
        return []
    after = apply_unified_diff(running, diff)
    if after is None:
        return ["the session diff does not apply to the running config read before it: "
                "cannot judge it, nothing committed"]
    remove = list(remove or [])
    plan_blocks, base_blocks = ownership.split_rendered(rendered)
    own = ownership.Ownership(plan_blocks)
    allowed = set(grammar.head_key(h) for h, _body in base_blocks) | \
        set(grammar.head_key(h) for h in remove)
    have = dict((grammar.head_key(h), (h, b)) for h, b in grammar.read(running))
    want = dict((grammar.head_key(h), (h, b)) for h, b in grammar.read(after))
    out = []
    for key in list(have) + [k for k in want if k not in have]:
        old, new = have.get(key), want.get(key)
        if old is not None and new is not None and \
                grammar.items(old[1]) == grammar.items(new[1]) and \
                (not grammar.is_multiline_head(old[0]) or old[1] == new[1]):
            continue
        head = (old or want[key])[0]   # a key of want when not of have
        if key in allowed:
            continue
        what = own.owner(head)
        if what == "BGP instance" and old is not None and new is not None:
            lost = [i for i in grammar.items(old[1]) if not own.owns_bgp_child(i[0]) and
                    i not in grammar.items(new[1])]
            if lost:
                out.append('"%s": the session changes "%s", which the plan does not own' % (
                    head, secrets.redact(lost[0][0].strip())))
            continue
        if what is not None:
            continue
        if what is None and key.startswith("route-map " + "RF-DRAIN-OUT"):
            continue
        out.append('"%s": the session would %s it, and the plan does not own it' % (
            secrets.redact(head), "remove" if new is None else "add" if old is None else "change"))
    if not allow_management_change:
        out += management.protected_changes(
            grammar.read(running), grammar.read(after),
            set(grammar.head_key(h) for h, _body in base_blocks))
    return out
