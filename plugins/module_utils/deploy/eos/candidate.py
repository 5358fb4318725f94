# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The EOS deploy guard: what the plan owns, what a deploy sends, and what it must never send.

The deploy does not replace the running config: it sends only the commands that turn the
plan-owned sections into the plan, in a configuration session that starts from the running
config, so a banner, an event-handler's bash body, an alias, a comment or a management section
is never sent at all and stays byte for byte. The inventory may set sections it does not own
through ``roce_eos_base_config`` (sent only where they differ) and remove sections by name
(``switch_deploy_eos_remove``).

What is sent is judged twice before any commit: the command stream arista.eos's eos_config
builds from the file it is given must carry every line byte for byte and hold no exec command;
and the device's own ``show session-config diffs`` must change nothing outside what the plan
owns.

The package deploy/eos/, one module a job:

- grammar: the EOS config reader (top-level blocks, their identity and children);
- ownership: what the plan owns, read from its rendered config (the ownership model);
- candidate (this module): the blocks the switch should run, the delta that turns the running
  config into them, and plan_deploy, everything the EOS roll needs computed before anything is
  sent (the filter ``roce.fabric.eos_deploy``), and restore;
- stream: the command stream arista.eos sends for a delta, and the exec-command guard;
- session: the check of the device's session diff before commit;
- management: the management-plane sections no deploy changes by accident;
- secrets: redaction of every line the deploy prints.

It imports only typing, its own modules and deploy/drain (it ships to targets with the
deploy).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy import drain as drains
from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import (
    grammar, management, ownership, secrets, shared, stream)


def _merge_bgp(own: ownership.Ownership, plan: grammar.Block, running: grammar.Block
               ) -> grammar.Block:
    kept = [line for item in grammar.items(running[1]) if not own.owns_bgp_child(item[0])
            for line in item]
    return plan[0], list(plan[1]) + kept


def candidate(running: str, rendered: str, remove: Iterable[str] = ()
              ) -> Tuple[List[grammar.Block], List[str], ownership.Ownership,
                         List[grammar.Block]]:
    """(blocks the switch should run, refusals, ownership, base blocks): every running block the
    plan does not own, as it runs; the base config's blocks where the inventory set them; the
    plan's blocks; minus the blocks ``remove`` names (top-level lines, any spelling)."""
    plan_blocks, base_blocks = ownership.split_rendered(rendered)
    own = ownership.Ownership(plan_blocks)
    removed = set(grammar.head_key(h) for h in remove)
    base = dict((grammar.head_key(h), (h, b)) for h, b in base_blocks)
    plan = dict((grammar.head_key(h), (h, b)) for h, b in plan_blocks)
    out, placed, refusals = [], set(), []   # type: List[grammar.Block], set, List[str]
    for head, body in grammar.read(running):
        key = grammar.head_key(head)
        if key in removed:
            placed.add(key)
            continue
        if key in base:
            out.append(base[key])
            placed.add(key)
            continue
        what = own.owner(head)
        if what is None:
            out.append((head, body))
            continue
        if what == "BGP instance":
            mine = [k for k in plan if k.startswith("router bgp ")]
            if mine and mine[0] != key:
                refusals.append('"%s" runs where the plan has "%s": EOS has one BGP instance; '
                                'name it in switch_deploy_eos_remove to replace it with its '
                                'neighbours and settings' % (head, plan[mine[0]][0]))
                out.append((head, body))
                placed.add(mine[0])
                continue
            if mine:
                out.append(_merge_bgp(own, plan[key], (head, body)))
                placed.add(key)
            continue
        if key in plan:
            out.append(plan[key])
            placed.add(key)
        # else: a plan-owned section the plan no longer has - removed
    for key, block in list(base.items()) + list(plan.items()):
        if key not in placed and key not in removed:
            out.append(block)
            placed.add(key)
    return out, refusals, own, base_blocks


def _negate(line: str) -> str:
    text = line.strip()
    if text.lower().startswith("no "):
        return "default " + text[3:]
    if text.lower().startswith("default "):
        return text
    return "no " + text


def delta(before: Sequence[grammar.Block], after: Sequence[grammar.Block]) -> List[str]:
    """The command lines (indented as EOS prints them) that turn ``before`` into ``after``
    inside a configuration session started from ``before``: removed blocks negated, new blocks
    whole, changed blocks entered with their removed children negated and new ones added.
    Blocks equal on both sides are not sent at all."""
    have = dict((grammar.head_key(h), (h, b)) for h, b in before)
    want = dict((grammar.head_key(h), (h, b)) for h, b in after)
    removes, writes = [], []   # type: List[str], List[str]
    settings = set(k.split()[0] for k in want if k.split()[:1] == ["hostname"])
    for key, (head, _body) in have.items():
        if key not in want and key.split()[0] not in settings:
            removes.append(_negate(head) if not grammar.is_multiline_head(head) else
                           "no " + " ".join(head.split()[:2]))
    for head, body in after:
        key = grammar.head_key(head)
        if key not in have:
            writes += [head] + list(body)
            continue
        old = have[key][1]
        if grammar.items(old) == grammar.items(body) and \
                (not grammar.is_multiline_head(head) or old == body):
            continue
        if grammar.is_multiline_head(head):
            writes += [head] + list(body)
            continue
        old_items, new_items = grammar.items(old), grammar.items(body)
        lines = [head]
        for item in old_items:
            if item not in new_items:
                lines.append(item[0][:len(item[0]) - len(item[0].lstrip())] + _negate(item[0]))
        for item in new_items:
            if item not in old_items:
                lines += list(item)
        if len(lines) > 1:
            writes += lines
    return removes + writes


def plan_deploy(running: str, rendered: str, remove: Iterable[str] = (),
                transport: str = "httpapi", allow_management_change: bool = False,
                drain: bool = False, controller: Optional[str] = None,
                port: Optional[int] = None) -> Dict[str, Any]:
    """Everything the EOS roll needs, computed before anything is sent.

    Returns {'refusals': [...], 'check': lines, 'drain': lines, 'apply': lines,
    'undrain': lines, 'kept': number of running lines kept as they are, 'owned': sorted owned
    section heads, 'secrets': whether a delta carries a secret}. The deltas are indented command
    lines for eos_config ``src`` (match: none); empty when nothing differs. ``controller`` (the
    address the switch sees the deploy's session from) and ``port`` (the service's port; by
    default eAPI 443 over httpapi, SSH 22 over network_cli) judge the management ACLs."""
    remove = list(remove or [])
    running_blocks = grammar.read(running)
    want, refusals, own, base_blocks = candidate(running, rendered, remove)
    base_keys = set(grammar.head_key(h) for h, _body in base_blocks)
    removed = set(grammar.head_key(h) for h in remove)
    have_keys = set(grammar.head_key(h) for h, _body in running_blocks)
    for name in remove:
        if grammar.head_key(name) not in have_keys:
            refusals.append('switch_deploy_eos_remove names "%s", which the running config '
                            'does not hold' % name)
    if not allow_management_change:
        refusals += [r + " - set switch_deploy_allow_management_change to change the "
                     "management plane on purpose" for r in management.protected_changes(
                         running_blocks, want, base_keys | removed)]
    before = dict((grammar.head_key(h), grammar.items(b)) for h, b in running_blocks)
    changed = set(grammar.head_key(h) for h, b in want
                  if before.get(grammar.head_key(h)) != grammar.items(b))
    name, default_port = management.SERVICES[transport]
    refusals += management.acl_risks(want, changed, controller or None,
                                     [(name, int(port or default_port))], strict=True)
    refusals += shared.port_risks(running_blocks, want, own)
    refusals += shared.source_risks(running_blocks, want, own)
    check = delta(running_blocks, want)
    plan = {"check": check}   # type: Dict[str, Any]
    if drain:
        refusals += drain_risks(running)
        drained_running = grammar.read(drains.eos_drained(running))
        drained_want = grammar.read(drains.eos_drained(grammar.render(want)))
        plan.update(drain=delta(running_blocks, drained_running),
                    apply=delta(drained_running, drained_want),
                    undrain=delta(drained_want, want))
    else:
        plan.update(drain=[], apply=check, undrain=[])
    for step in ("check", "drain", "apply", "undrain"):
        refusals += ["%s: %s" % (step, r) for r in stream.stream_risks(plan[step], transport)
                     if step == "check" or "exec command" in r]
    kept = [b for b in running_blocks if own.owner(b[0]) is None and
            grammar.head_key(b[0]) not in base_keys | removed]
    plan.update(
        refusals=_unique(refusals), kept=sum(1 + len(b[1]) for b in kept),
        kept_sections=len(kept),
        owned=sorted(h for h, _body in want if own.owner(h) is not None),
        secrets=any(secrets.redact(line) != line
                    for step in ("check", "drain", "apply", "undrain") for line in plan[step]))
    return plan


def drain_risks(running: str) -> List[str]:
    """A neighbour the drain cannot tag without replacing its own outbound route-map: refused,
    naming both (the undrain would leave it with no outbound policy)."""
    return ['drain: neighbor %s has its own outbound route-map %s, which a drain by route-map '
            '(%s) would replace, and the undrain leave it with none - EOS takes one per '
            'neighbour; take the route-map off that neighbour, or roll this switch with '
            'switch_deploy_drain: false'
            % (peer, policy, drains.DRAIN_OUT)
            for peer, policy in sorted(drains.eos_out_policies(running).items())]


def restore(current: str, previous: str) -> List[str]:
    """The delta that returns the switch from ``current`` to ``previous`` (every section that
    differs; sections equal on both sides - banners, event-handlers - are not sent)."""
    return delta(grammar.read(current), grammar.read(previous))


def _unique(values: Iterable[str]) -> List[str]:
    seen, out = set(), []
    for value in values:
        if value not in seen:
            seen.add(value)
            out.append(value)
    return out
