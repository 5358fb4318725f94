# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What ``--check --diff`` shows for one rendered file.

A focused review: a device configuration (``configs/``) shows every changed line in full, as a
unified diff with context, however long (a diff over ``MAX_DIFF_LINES`` is headed by a summary
per config_db table or EOS section: counts, the keys that change and the field changes they
share); a new configuration is summarised per table or section. Everything else - structured
intent, device documents, ANTA catalogs, the fabric report, pictures, host files - is derived
from the same plan and summarised in one line per file: what changed (the sections, headings or
top-level keys) and how many rows. ``full=True`` (``switch_diff_full: true``) shows every file's
diff as configs are shown.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import difflib
import json
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import grammar, secrets

CONTEXT_LINES = 3
MAX_DIFF_LINES = 400     # above this a file's diff is summarised (a first render, a big change)
MAX_NAMES = 8            # keys named per table/section in a summary


def is_config(path: str) -> bool:
    """A device configuration: every changed line of it is reviewed."""
    return path.startswith("configs/")


def file_diff(path: str, old: Optional[str], new: str, full: bool = False) -> str:
    """Text of the diff of ``path`` from ``old`` (None: a new file) to ``new``: in full for a
    configuration (or with ``full``), one summary line for any other file. Password hashes,
    keys and communities (the EOS base config's) are redacted, as in every deploy message."""
    text = _file_diff(path, old, new, full)
    return secrets.redact_text(text) + ("\n" if text.endswith("\n") else "")


def _file_diff(path: str, old: Optional[str], new: str, full: bool) -> str:
    if not (full or is_config(path)):
        return summary_line(path, old, new)
    lines = list(difflib.unified_diff((old or "").splitlines(True), new.splitlines(True),
                                      "%s (%s)" % (path, "current" if old is not None else "new"),
                                      "%s (rendered)" % path, n=CONTEXT_LINES))
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    if len(lines) <= MAX_DIFF_LINES:
        return text
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    head = ["%s: %s, +%d -%d lines (diff of %d lines summarised)\n"
            % (path, "new file" if old is None else "changed", added, removed, len(lines))]
    body: Optional[List[str]]
    if path.endswith(".json"):
        body = _json_summary(old, new)
    elif path.endswith(".cfg"):
        # a new file: no sections before (grammar.sections reads None as "", deploy/eos/grammar.py read)
        body = _section_summary(old or "", new)
    else:
        body = None
    if old is not None and is_config(path):
        # a changed configuration: the summary heads the whole diff, nothing is left out
        head = ["%s: changed, +%d -%d lines (summary; the whole diff follows)\n"
                % (path, added, removed)]
        return "".join(head + (body or [])) + text
    if body is None:
        body = ["  first changes:\n"] + ["  " + line for line in lines[2:2 + 40]]
    return "".join(head + body)


def summary_line(path: str, old: Optional[str], new: str) -> str:
    """One line for a derived file: new (with its size) or changed, rows added/removed, and
    the sections (Markdown headings, top-level YAML keys, SVG elements, CSV rows) they are in."""
    new_lines = new.splitlines()
    if old is None:
        return "%s: new file, %d lines\n" % (path, len(new_lines))
    old_lines = old.splitlines()
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    added = removed = 0
    where: Dict[str, int] = {}        # changed lines per heading
    old_heads, new_heads = _headings(path, old_lines), _headings(path, new_lines)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        added += j2 - j1
        removed += i2 - i1
        for j in range(j1, j2):
            where[new_heads[j]] = where.get(new_heads[j], 0) + 1
        if j1 == j2:
            for i in range(i1, i2):
                where[old_heads[i]] = where.get(old_heads[i], 0) + 1
    unit = "rows" if path.endswith((".md", ".csv")) else "elements" if \
        path.endswith(".svg") else "lines"
    parts = sorted(where.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join("%s (%d)" % (head, n) for head, n in parts[:4] if head)
    if len(parts) > 4:
        shown += " ... and %d more" % (len(parts) - 4)
    return "%s: %d %s changed (+%d -%d)%s\n" % (
        path, max(added, removed), unit, added, removed, (" in " + shown) if shown else "")


def _headings(path: str, lines: List[str]) -> List[str]:
    """For each line, the heading it sits under: a Markdown '#' heading, a top-level YAML key,
    an SVG element's id or tag; empty for CSV and plain text."""
    out: List[str] = []
    head = ""
    md, yml, svg = path.endswith(".md"), path.endswith((".yml", ".yaml")), path.endswith(".svg")
    for line in lines:
        if md and line.startswith("#"):
            head = line.lstrip("#").strip()[:40]
        elif yml and line[:1] not in ("", " ", "-", "#") and ":" in line:
            head = line.split(":", 1)[0]
        elif svg:
            head = _svg_tag(line)
        out.append(head)
    return out


def _svg_tag(line: str) -> str:
    text = line.strip()
    if not text.startswith("<") or text.startswith("</"):
        return ""
    tag = text[1:].split(None, 1)[0].rstrip(">/")
    return "<%s>" % tag


def _names(keys: Iterable[str]) -> str:
    keys = sorted(keys)
    shown = ", ".join(keys[:MAX_NAMES])
    return shown + (" ... and %d more" % (len(keys) - MAX_NAMES) if len(keys) > MAX_NAMES else "")


def _json_summary(old: Optional[str], new: str) -> Optional[List[str]]:
    """Per config_db table: keys added, removed and changed (with the fields that change)."""
    try:
        before = json.loads(old) if old else {}
        after = json.loads(new)
    except ValueError:
        return None
    out: List[str] = []
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


def _changed_fields(have: Dict[str, Any], want: Dict[str, Any],
                    keys: Iterable[str]) -> List[str]:
    """'field: old -> new (n keys)' for the field changes the changed keys share."""
    seen: Dict[Tuple[str, str, str], int] = {}     # (field, old, new) -> keys
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


def _short(value: Any) -> str:
    text = "absent" if value is None else json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _section_summary(old: str, new: str) -> List[str]:
    """Per EOS top-level section: added, removed, changed (by the section's first word)."""
    before, after = grammar.sections(old), grammar.sections(new)
    groups: Dict[str, Dict[str, List[str]]] = {}    # first word -> kind -> heads
    for head in set(before) | set(after):
        kind = "added" if head not in before else "removed" if head not in after else \
            "changed" if before[head] != after[head] else None
        if kind:
            groups.setdefault(head.split()[0], {}).setdefault(kind, []).append(head)
    out: List[str] = []
    for word in sorted(groups):
        kinds = groups[word]
        out.append("  %s: %s\n" % (word, ", ".join("%d %s" % (len(kinds[k]), k) for k in
                                                   ("added", "removed", "changed") if k in kinds)))
        for kind in ("added", "removed", "changed"):
            if kind in kinds:
                out.append("    %s: %s\n" % (kind, _names(kinds[kind])))
    return out
