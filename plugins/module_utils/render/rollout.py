# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rollout waves of the fabric report: fabric/rollout.json, what a roll reads (``waves``: a
list of lists of switch names, in roll order, beside each wave's facts and the rules), and
fabric/rollout.md, the same as a table for the reviewer. The waves are plan/rollout.py's."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from typing import Any, Dict, List, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.plan import rollout
from ansible_collections.roce.fabric.plugins.module_utils.records import Plan

SHOWN = 4          # switch names a table cell shows before "and N more"


def rollout_files(plan: Plan) -> Dict[str, str]:
    """{"fabric/rollout.json": ..., "fabric/rollout.md": ...}."""
    computed = rollout.waves(plan)
    info = rollout.describe(plan, computed)
    return {"fabric/rollout.json": rollout_json(computed, info),
            "fabric/rollout.md": rollout_md(computed, info)}


def rollout_json(computed: Sequence[Tuple[int, str, List[str]]],
                 info: Sequence[rollout.WaveInfo]) -> str:
    doc: Dict[str, Any] = {"waves": [names for _plane, _tier, names in computed],
                           "wave_info": list(info), "rules": rollout.RULES}
    # one wave per line: a 1,000-switch fabric stays a file a reviewer can page through
    lines = ["{", '  "waves": [']
    lines += ["    %s%s" % (json.dumps(names), "," if w < len(computed) - 1 else "")
              for w, names in enumerate(doc["waves"])]
    lines += ["  ],", '  "wave_info": [']
    lines += ["    %s%s" % (json.dumps(item), "," if w < len(info) - 1 else "")
              for w, item in enumerate(doc["wave_info"])]
    lines += ["  ],", '  "rules": %s' % json.dumps(doc["rules"], indent=4).replace(
        "\n}", "\n  }"), "}"]
    return "\n".join(lines) + "\n"


def _names(names: Sequence[str]) -> str:
    head = ", ".join(names[:SHOWN])
    return head if len(names) <= SHOWN else "%s ... (%d)" % (head, len(names))


def rollout_md(computed: Sequence[Tuple[int, str, List[str]]],
               info: Sequence[rollout.WaveInfo]) -> str:
    switches = sum(len(names) for _plane, _tier, names in computed)
    largest = max([len(names) for _plane, _tier, names in computed] + [0])
    out = ["# Rollout waves", "",
           "%d switches in %d waves (largest: %d switches), in roll order; each wave is "
           "drained, changed and verified before the next, and a roll stops at the first "
           "failure. The same waves are in rollout.json (`waves`), which site.yml's roll reads "
           "(docs/deploy.md, Rollout waves)."
           % (switches, len(computed), largest), "",
           "| wave | plane | tier | switches | why | what stays up |", "|---|---|---|---|---|---|"]
    for (_plane, _tier, names), item in zip(computed, info):
        out.append("| %d | %d | %s | %s | %s | %s |"
                   % (item["wave"], item["plane"], item["tier"], _names(names), item["why"],
                      item["stays_up"]))
    out += ["", "Rules every wave keeps (plan/rollout.py):", ""]
    out += ["- %s: %s" % (key, text) for key, text in rollout.RULES.items()]
    return "\n".join(out) + "\n"
