# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""NVUE documents: the YAML of startup.yaml (a list of ``set``/``unset`` operations over NVUE's
config tree, NVUE-CLI.md) as the renderer writes it and the deploy reads it back, and the tree
as (path, value) leaves.

The YAML is the block-style subset NVUE itself writes: nested mappings, scalars, ``{}`` for an
empty collection member, ids quoted ('26':). One writer and one reader, so a rendered file
reads back to the tree it was written from; anything else is refused with its line number
(no YAML library on the targets deploy/ ships to).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from typing import Any, Dict, List, Tuple

Tree = Dict[str, Any]
Leaf = Tuple[Tuple[str, ...], Any]

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*\Z")
# YAML 1.1 reads these plain words as booleans or null: quoted, so every loader reads a string
_WORDS = frozenset(("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"))
_LINE = re.compile(r"^( *)(- )?('(?:[^']|'')*'|[^:' ]+):(?: (.*))?$")


def scalar(value: Any) -> str:
    """A key or value as NVUE's YAML writes it: plain where every YAML loader reads back the same
    string (no ':', which would end a key), single-quoted otherwise; integers bare."""
    if isinstance(value, bool):
        raise TypeError("NVUE takes on/off, not booleans")
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _WORDS:
        return text
    return "'%s'" % text.replace("'", "''")


class Shared(Dict[str, Any]):
    """A subtree many documents hold alike (a port's link settings, the DSCP map): written once
    per indent and its lines reused, keyed by the object (kept alive with its lines)."""


def dump(ops: List[Tree], header: List[str]) -> str:
    """The document's text: ``header`` comment lines, then each operation (``- set:``)."""
    if len(_HEADS) > _CACHE_MAX or len(_VALUES) > _CACHE_MAX or len(_SHARED) > _CACHE_MAX:
        _HEADS.clear()
        _VALUES.clear()
        _SHARED.clear()
    lines = ["# " + line for line in header]
    for op in ops:
        for key, value in op.items():
            lines.append("- %s:" % key)
            _emit(value, 4, lines)
    return "\n".join(lines) + "\n"


# The lines a key heads at an indent, and the text of a value: a switch's document repeats a
# few hundred of them thousands of times (a 64-port switch is 1,350 lines), so each is made
# once. Bounded: addresses are keys too, distinct per switch.
_HEADS: Dict[Tuple[int, str], str] = {}
_VALUES: Dict[Tuple[type, Any], str] = {}
_SHARED: Dict[Tuple[int, int], Tuple[Shared, List[str]]] = {}
_CACHE_MAX = 200000


def _emit(tree: Tree, indent: int, out: List[str]) -> None:
    for key, value in tree.items():
        head = _HEADS.get((indent, key))
        if head is None:
            head = _HEADS[(indent, key)] = " " * indent + scalar(key) + ":"
        if isinstance(value, Shared) and value:
            hit = _SHARED.get((id(value), indent))
            if hit is None:
                lines: List[str] = []
                _emit(value, indent + 2, lines)
                hit = _SHARED[(id(value), indent)] = (value, lines)
            out.append(head)
            out.extend(hit[1])
        elif isinstance(value, dict):
            if value:
                out.append(head)
                _emit(value, indent + 2, out)
            else:
                out.append(head + " {}")
        else:
            text = _VALUES.get((type(value), value))
            if text is None:
                text = _VALUES[(type(value), value)] = " " + scalar(value)
            out.append(head + text)


def _value(text: str, number: int) -> Any:
    if text == "{}":
        return {}
    if text.startswith("'"):
        if len(text) < 2 or not text.endswith("'"):
            raise ValueError("line %d: unterminated quote: %s" % (number, text))
        return text[1:-1].replace("''", "'")
    if re.match(r"-?[0-9]+\Z", text):
        return int(text)
    if not _PLAIN.match(text) or text.lower() in _WORDS:
        raise ValueError("line %d: not a value NVUE's YAML writes plain: %s" % (number, text))
    return text


def load(text: str) -> List[Tree]:
    """The operations of a document written by ``dump`` (or by NVUE in the same style)."""
    ops: List[Tree] = []
    # open mappings: [key's indent, the mapping, its children's indent (set by the first)]
    stack: List[List[Any]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        match = _LINE.match(raw)
        if not match:
            raise ValueError("line %d: not NVUE's block YAML: %s" % (number, raw.strip()))
        pad, item, key_text, rest = match.groups()
        key = str(_value(key_text, number))
        if item:                        # "- set:" starts an operation at the top level
            if pad or rest:
                raise ValueError("line %d: an operation is '- set:' at the left" % number)
            op: Tree = {key: {}}
            ops.append(op)
            stack = [[0, op[key], None]]
            continue
        indent = len(pad)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if not stack:
            raise ValueError("line %d: outside an operation: %s" % (number, raw.strip()))
        parent = stack[-1]
        if parent[2] is None:
            parent[2] = indent
        elif indent != parent[2]:
            raise ValueError("line %d: indented under no mapping: %s" % (number, raw.strip()))
        if key in parent[1]:
            raise ValueError("line %d: %s given twice" % (number, key))
        if rest is None or rest == "":
            parent[1][key] = {}
            stack.append([indent, parent[1][key], None])
        else:
            parent[1][key] = _value(rest, number)
    return ops


def flatten(tree: Tree, path: Tuple[str, ...] = ()) -> List[Leaf]:
    """Every leaf of ``tree`` as (path, value), an empty collection member's value ``{}``."""
    out: List[Leaf] = []
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            out += flatten(value, path + (str(key),))
        else:
            out.append((path + (str(key),), value))
    return out


def get(tree: Tree, path: Tuple[str, ...]) -> Any:
    """The node at ``path`` (None where there is none)."""
    node: Any = tree
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def put(tree: Tree, path: Tuple[str, ...], value: Any) -> None:
    """Set ``path`` to ``value``, making the mappings on the way."""
    node = tree
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value


def _words(path: Tuple[str, ...], value: Any = None) -> str:
    words = [w if " " not in w else '"%s"' % w for w in path]
    if value is not None and value != {}:
        words.append(str(value) if " " not in str(value) else '"%s"' % value)
    return " ".join(words)


def commands(before: Tree, after: Tree) -> List[str]:
    """What turns ``before`` into ``after``, as NVUE commands (``nv unset ...`` for each node
    ``after`` lacks, then ``nv set ...`` per leaf that is new or differs): the revision diff a
    reader checks."""
    out = ["nv unset " + _words(p) for p in sorted(absent(before, after, ()))]
    for path, value in flatten(after):
        had = get(before, path)
        if had != value and not (value == {} and isinstance(had, dict)):
            out.append("nv set " + _words(path, value))
    return out


def absent(have: Tree, want: Tree, at: Tuple[str, ...] = ()) -> List[Tuple[str, ...]]:
    """The shallowest nodes of ``have`` that ``want`` lacks (below ``at``)."""
    out: List[Tuple[str, ...]] = []
    for key, value in have.items():
        if key not in want:
            out.append(at + (key,))
        elif isinstance(value, dict) and isinstance(want[key], dict) and value:
            out += absent(value, want[key], at + (key,))
    return out
