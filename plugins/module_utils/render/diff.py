# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What ``--check --diff`` shows for one rendered file: every changed line, however long the
file, as a unified diff with context; a diff too long to read is summarised per config_db table
or EOS section with counts and the keys that change, never cut off silently.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import difflib
import json
from typing import Optional

from ansible_collections.roce.fabric.plugins.module_utils.deploy import eos

CONTEXT_LINES = 3
MAX_DIFF_LINES = 400     # above this a file's diff is summarised (a first render, a big change)
MAX_NAMES = 8            # keys named per table/section in a summary


def file_diff(path: str, old: Optional[str], new: str) -> str:
    """Text of the diff of ``path`` from ``old`` (None: a new file) to ``new``."""
    lines = list(difflib.unified_diff((old or "").splitlines(True), new.splitlines(True),
                                      "%s (%s)" % (path, "current" if old is not None else "new"),
                                      "%s (rendered)" % path, n=CONTEXT_LINES))
    if len(lines) <= MAX_DIFF_LINES:
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    head = ["%s: %s, +%d -%d lines (diff of %d lines summarised)\n"
            % (path, "new file" if old is None else "changed", added, removed, len(lines))]
    if path.endswith(".json"):
        body = _json_summary(old, new)
    elif path.endswith(".cfg"):
        body = _section_summary(old, new)
    else:
        body = None
    if body is None:
        body = ["  first changes:\n"] + ["  " + line for line in lines[2:2 + 40]]
    return "".join(head + body)


def _names(keys):
    keys = sorted(keys)
    shown = ", ".join(keys[:MAX_NAMES])
    return shown + (" ... and %d more" % (len(keys) - MAX_NAMES) if len(keys) > MAX_NAMES else "")


def _json_summary(old, new):
    """Per config_db table: keys added, removed and changed (with the fields that change)."""
    try:
        before = json.loads(old) if old else {}
        after = json.loads(new)
    except ValueError:
        return None
    out = []
    for table in sorted(set(before) | set(after)):
        have, want = before.get(table) or {}, after.get(table) or {}
        added = set(want) - set(have)
        removed = set(have) - set(want)
        changed = [k for k in set(have) & set(want) if have[k] != want[k]]
        if not (added or removed or changed):
            continue
        out.append("  %s: %d added, %d removed, %d changed\n"
                   % (table, len(added), len(removed), len(changed)))
        for what, keys in (("added", added), ("removed", removed)):
            if keys:
                out.append("    %s: %s\n" % (what, _names(keys)))
        if changed:
            fields = _changed_fields(have, want, changed)
            out.append("    changed: %s\n" % _names(changed))
            out += ["      %s\n" % f for f in fields]
    return out


def _changed_fields(have, want, keys):
    """'field: old -> new (n keys)' for the field changes the changed keys share."""
    seen = {}
    for key in keys:
        a, b = have[key], want[key]
        if not (isinstance(a, dict) and isinstance(b, dict)):
            seen.setdefault(("(value)", _short(a), _short(b)), 0)
            seen[("(value)", _short(a), _short(b))] += 1
            continue
        for field in set(a) | set(b):
            if a.get(field) != b.get(field):
                item = (field, _short(a.get(field)), _short(b.get(field)))
                seen[item] = seen.get(item, 0) + 1
    rows = sorted(seen.items(), key=lambda kv: (-kv[1], kv[0]))
    out = ["%s: %s -> %s (%d)" % (f, a, b, n) for (f, a, b), n in rows[:MAX_NAMES]]
    if len(rows) > MAX_NAMES:
        out.append("... and %d more field changes" % (len(rows) - MAX_NAMES))
    return out


def _short(value):
    text = "absent" if value is None else json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _section_summary(old, new):
    """Per EOS top-level section: added, removed, changed (by the section's first word)."""
    before, after = eos.sections(old), eos.sections(new)
    groups = {}
    for head in set(before) | set(after):
        kind = "added" if head not in before else "removed" if head not in after else \
            "changed" if before[head] != after[head] else None
        if kind:
            groups.setdefault(head.split()[0], {}).setdefault(kind, []).append(head)
    out = []
    for word in sorted(groups):
        kinds = groups[word]
        out.append("  %s: %s\n" % (word, ", ".join("%d %s" % (len(kinds[k]), k) for k in
                                                   ("added", "removed", "changed") if k in kinds)))
        for kind in ("added", "removed", "changed"):
            if kind in kinds:
                out.append("    %s: %s\n" % (kind, _names(kinds[kind])))
    return out
