# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The waves one deploying run rolls: the plan's rollout waves (plan/rollout.py) cut down to the
switches this run deploys, each wave an Ansible ``serial`` batch of site.yml's roll play.

- **this run's switches**: those of ``--limit`` that deploy (roce_deploy), of the tiers its
  ``--tags`` select (``leaf``, ``spine``, ``superspine``; ``all`` or ``deploy``: every tier). A
  wave none of them is in is dropped; the others keep their order and their numbers, so the
  run says "wave 7 of 12" as fabric/rollout.md does. Removing switches from a wave never breaks
  a rule (each rule bounds how many switches of a kind share a wave).
- **resume**: a rollout that stopped after a failed wave leaves its progress behind (the
  switches it verified, site.yml's ``rollout-progress.json`` beside the deployed-state record).
  A rerun leaves out the waves before the first one that holds a switch not verified then or
  one with something to change now (in this run's change plan: its configs differ from the
  deployed-state record, or it has none), and starts there, at the wave that failed; every
  later wave is rolled whole. Without a stopped rollout's progress every wave is rolled, each
  switch comparing with its device (a switch changed by hand behind its record is found).

Pure data in and out; linear in switches.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, List, Optional, TypedDict

from ansible_collections.roce.fabric.plugins.module_utils.plan import rollout
from ansible_collections.roce.fabric.plugins.module_utils.records import Plan

ROLE_TAGS = {"superspine": "superspine", "spine": "spine", "leaf": "leaf"}   # site.yml's tags
EVERY_TIER = ("all", "deploy")


class Batch(TypedDict):
    wave: int            # its number among the plan's waves (1-based, rollout.md's)
    of: int              # the plan's wave count
    plane: int
    tier: str
    switches: List[str]


def tiers_of(tags: Optional[Iterable[str]]) -> List[str]:
    """The tiers a run's --tags roll (site.yml tags its deploy by tier)."""
    given = set(tags or ("all",))
    if given & set(EVERY_TIER):
        return list(rollout.TIERS)
    return [t for t in rollout.TIERS if ROLE_TAGS[t] in given]


def batches(plan: Plan, hosts: Iterable[str], tags: Optional[Iterable[str]] = None,
            changed: Optional[Iterable[str]] = None,
            verified: Optional[Iterable[str]] = None) -> Dict[str, Any]:
    """{batches: [Batch], waves: the plan's count, done: [wave numbers resumed past]} for the
    deploying ``hosts`` of this run; ``changed``: the switches of its change plan (None: every
    switch counts as changed); ``verified``: the switches a stopped rollout verified (None: no
    rollout to resume)."""
    wanted = set(hosts)
    tiers = set(tiers_of(tags))
    computed = rollout.waves(plan)
    out: List[Batch] = []
    for number, (plane, tier, names) in enumerate(computed, 1):
        mine = [n for n in names if n in wanted] if tier in tiers else []
        if mine:
            out.append({"wave": number, "of": len(computed), "plane": plane, "tier": tier,
                        "switches": mine})
    done: List[int] = []
    if verified is not None and changed is not None:
        ok, todo = set(verified), set(changed)
        first = next((i for i, b in enumerate(out)
                      if not ok.issuperset(b["switches"]) or todo & set(b["switches"])),
                     len(out))
        done = [b["wave"] for b in out[:first]]
        out = out[first:]
    return {"batches": out, "waves": len(computed), "done": done}
