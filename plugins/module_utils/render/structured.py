# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The structured intent of one switch as YAML, and config_db.json text."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import math
import re
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ansible_collections.roce.fabric.plugins.module_utils.records import (
    LosslessProfile, PortIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.render import memo

try:
    import orjson
    HAS_ORJSON = True
except ImportError:   # optional speed-up, identical output without it
    HAS_ORJSON = False


# Sub-trees identical switches share in the plan (QoS, ECMP, watchdog, buffer) are emitted once
# per indent and reused, keyed by object id (the object is kept, so the id cannot be reused
# while cached); lossless profiles are keyed by their content.
SHARED_KEYS = frozenset(("buffer", "qos", "ecmp", "pfc_watchdog"))
# (profile key or object id, indent) -> (the object, its lines)
_SHARED_LINES: Dict[Tuple[Union[Optional[str], int], int], Tuple[Any, List[str]]] = {}
_SHARED_MAX = 100000
_ENCODE = json.encoder.encode_basestring_ascii    # what json.dumps uses for str


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _ENCODE(value)
    if isinstance(value, int):
        return int.__repr__(int(value))
    return json.dumps(value)


_KEYS: Dict[Any, str] = {}        # "key:" per key (a few hundred distinct keys)
# A key YAML reads back as the same string without quotes: an identifier that is not one of
# YAML 1.1's booleans or nulls (digits stay quoted: "26" would read back as an integer).
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
_RESERVED = frozenset(("y", "n", "yes", "no", "on", "off", "true", "false", "null"))
# "key": at the start of a JSON flow row's field (keys are identifiers; values are names that
# passed the grammar, so never hold a quote).
_ROW_KEY = re.compile(r'(?<=[{ ])"([A-Za-z_][A-Za-z0-9_]*)": ')


_PLAIN_VALUE = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*\Z")


def _key(key: Any) -> str:
    text = str(key)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text + ":"
    return _ENCODE(text) + ":"


def _text(value: str) -> str:
    """A block-context string: plain where YAML reads it back as the same string."""
    if _PLAIN_VALUE.match(value) and value.lower() not in _RESERVED:
        return value
    return _ENCODE(value)


_FLOW = (str, int, float, bool, type(None))      # values of a one-line row


def _block(value: Union[Mapping[Any, Any], List[Any]], indent: int, out: List[str]) -> None:
    """Append the block-style YAML lines of a non-empty dict or list to ``out``."""
    pad = "  " * indent
    if isinstance(value, dict):
        for key, child in value.items():
            head = _KEYS.get(key)
            if head is None:
                head = _KEYS[key] = _key(key)
            if isinstance(child, str):     # the common case first: this runs per port field
                out.append(pad + head + " " + _text(child))
            elif isinstance(child, _Rows):
                out.append(pad + head)
                item = pad + "  - "
                out.extend([item + row for row in child])
            elif isinstance(child, _Profile):
                out.append(pad + head)
                out.extend(_shared_lines(child, indent + 1))
            elif isinstance(child, (dict, list)):
                if not child:
                    out.append(pad + head + (" {}" if isinstance(child, dict) else " []"))
                elif key in SHARED_KEYS:
                    out.append(pad + head)
                    out.extend(_shared_lines(child, indent + 1))
                else:
                    out.append(pad + head)
                    _block(child, indent + 1, out)
            else:
                out.append(pad + head + " " + _scalar(child))
        return
    first = value[0]
    if isinstance(first, dict) and first and all(isinstance(v, _FLOW) for v in first.values()):
        # a table of scalar rows (ports, BGP neighbours): one flow mapping per line, in key
        # order - JSON flow syntax is YAML too, and the C encoder writes it, in one call
        rows = [item for item in value if isinstance(item, dict)]
        if len(rows) == len(value):
            out.extend(pad + "- " + row for row in _flow_rows(rows))
            return
    for item in value:
        if isinstance(item, (dict, list)) and item:
            start = len(out)
            _block(item, indent + 1, out)
            out[start] = pad + "- " + out[start][len(pad) + 2:]
        elif isinstance(item, (dict, list)):
            out.append(pad + ("- {}" if isinstance(item, dict) else "- []"))
        else:
            out.append(pad + "- " + _scalar(item))


def yaml_lines(value: Mapping[str, Any]) -> List[str]:
    """Block-style YAML lines of a dict (plain keys, one-line rows), as the structured intent."""
    out: List[str] = []
    _block(value, 0, out)
    return out


def _shared_lines(value: Union[Mapping[Any, Any], List[Any]], indent: int) -> List[str]:
    # a profile view is rebuilt per switch: identified by its content; anything else by
    # identity (the cached object is kept, so its id is not reused while cached)
    profile = isinstance(value, _Profile)
    key = (cast(_Profile, value).key if profile else id(value), indent)
    hit = _SHARED_LINES.get(key)
    if hit is None or (not profile and hit[0] is not value):
        if len(_SHARED_LINES) > _SHARED_MAX:
            _SHARED_LINES.clear()
        lines: List[str] = []
        _block(value, indent, lines)
        hit = _SHARED_LINES[key] = (value, lines)
    return hit[1]


PORT_FIELDS = ("name", "speed_gbps", "cable_m", "mtu_bytes")   # on the port itself already


def structured_yaml(dev: SwitchIntent) -> str:
    """Deterministic block-style YAML of the structured intent; no PyYAML needed. Each port
    names its lossless profile (``lossless_profile``); every distinct profile (headroom, ECN,
    required/configured headroom of one port class) is written once under
    ``lossless_profiles``, as SONiC's BUFFER_PG rows reference BUFFER_PROFILE. Rows of scalars
    (ports, BGP neighbours) are one flow mapping per line."""
    profiles: Dict[str, _Profile] = {}
    by_id: Dict[Tuple[int, int, int, int, int], str] = {}    # ident -> name
    by_text: Dict[Optional[str], str] = {}         # content key -> name
    by_object: Dict[int, str] = {}                 # id(lossless) -> name
    ports: List[Optional[str]] = []                # each port's profile name (None: down)
    for port in dev["ports"]:
        lossless = port["lossless"]
        if lossless is None:
            ports.append(None)
            continue
        name = by_object.get(id(lossless))      # ports of a class share one lossless object
        if name is not None:
            ports.append(name)
            continue
        # Ports of a class share their objects in a plan built here; a plan that went through
        # Ansible (JSON) has copies, so the profile's identity is its content.
        ident = (id(lossless["headroom"]), id(lossless["ecn"]), lossless["cable_class_m"],
                 lossless["headroom_required_bytes"], lossless["headroom_configured_bytes"])
        if ident not in by_id:
            content = _profile(lossless)
            if content.key not in by_text:
                base = "%dG_%sm_%d" % (port["speed_gbps"], lossless["cable_class_m"],
                                       port["mtu_bytes"])
                name, n = base, 1
                while name in profiles:
                    n += 1
                    name = "%s_v%d" % (base, n)
                by_text[content.key] = name
                profiles[name] = content
            by_id[ident] = by_text[content.key]
        ports.append(by_id[ident])
        by_object[id(lossless)] = by_id[ident]
    view = dict(dev)
    del view["ports"]
    view["lossless_profiles"] = profiles
    view["ports"] = _port_table(dev["ports"], ports)
    out = ["---", "# roce.fabric structured intent of %s (platform-neutral)" % dev["name"]]
    _block(view, 0, out)
    return "\n".join(out) + "\n"


@memo.by_identity(10000)     # identical switches share their ports' lossless intents
def _profile(lossless: LosslessProfile) -> "_Profile":
    """The profile view of a port's lossless intent: its fields but the port's own, with its
    content key (sorted JSON)."""
    content = _Profile((k, v) for k, v in lossless.items() if k not in PORT_FIELDS)
    content.key = _sorted_row(content)
    return content


def _port_table(ports: List[PortIntent],
                names: List[Optional[str]]) -> Union["_Rows", List[Mapping[str, Any]]]:
    """The port rows: each port's fields with ``lossless`` replaced by ``lossless_profile`` (its
    name in ``names``) at the end, or left as it is (None) on an admin-down port. Ports of one
    shape (the same keys, every port lossless) go straight from their columns to the flow lines
    (_Rows), without a view per port; any other table takes the views and _block's path."""
    keys = tuple(ports[0]) if ports else ()
    if "lossless" in keys and None not in names and all(map(keys.__eq__, map(tuple, ports))):
        at = keys.index("lossless")
        columns: List[Sequence[Any]] = list(zip(*map(dict.values,
                                                     cast("List[Dict[str, Any]]", ports))))
        del columns[at]
        columns.append(names)
        lines = _template_lines(keys[:at] + keys[at + 1:] + ("lossless_profile",), columns,
                                len(ports))
        if lines is not None:
            return _Rows(lines)
    views: List[Mapping[str, Any]] = []
    for port, name in zip(ports, names):
        if name is None:
            views.append(port)
            continue
        view = dict(port)
        del view["lossless"]
        view["lossless_profile"] = name
        views.append(view)
    return views


class _Rows(list):
    """Flow lines of a table made already (_port_table): _block writes them as list items."""


class _Profile(dict):
    """A lossless profile view; ``key`` is its content (sorted JSON), the lines-cache key."""
    key: Optional[str] = None


def _sorted_row(row: Mapping[str, Any]) -> str:
    """One-line JSON, keys sorted (a profile's content key). Without indent, json.dumps runs
    the C encoder."""
    return json.dumps(row, sort_keys=True, separators=(", ", ": "))


def _flow(row: Any) -> str:
    """One-line JSON in key order (a row of the structured intent)."""
    return json.dumps(row, separators=(", ", ": "))


def _flow_rows(rows: List[Dict[Any, Any]]) -> List[str]:
    """One-line flow mapping of each row, keys unquoted. A table whose rows share their keys
    (in order) and whose values are scalars is formatted with one template (_templated); any
    other with one encoder call for the table, split at the row boundaries (row by row when a
    value could hide a boundary: the split must give one part per row)."""
    fast = _templated(rows)
    if fast is not None:
        return fast
    plain = _plain_keys(rows)
    parts = _unquoted(rows, plain)[2:-2].split("}, {") if len(rows) > 1 else None
    if parts is None or len(parts) != len(rows):
        return [_unquoted(row, plain) for row in rows]
    return ["{" + part + "}" for part in parts]


def _templated(rows: List[Dict[Any, Any]]) -> Optional[List[str]]:
    """The rows' lines from a "{key: %s, ...}" template and per-column value lists, or None.
    What the encoder + key rewrite gives, without per-value Python code: the checks and the
    formatting run per column (type set, one join) and per row (one % call), in C."""
    keys = tuple(rows[0])
    if not all(map(keys.__eq__, map(tuple, rows))):
        return None
    return _template_lines(keys, zip(*map(dict.values, rows)), len(rows))


def _template_lines(keys: Sequence[Any], columns: Iterable[Sequence[Any]],
                    count: int) -> Optional[List[str]]:
    """_templated's lines of ``count`` rows with ``keys`` from their ``columns``, or None."""
    # str keys only (exactly str: True and 1 are equal keys that json.dumps writes differently)
    # pylint: disable-next=unidiomatic-typecheck
    if any(type(key) is not str for key in keys):
        return None
    slots: List[str] = []
    args: List[Sequence[Any]] = []     # per slot with a %, the values it formats
    for key, column in zip(keys, columns):
        slot = _column(column, args)
        if slot is None:
            return None
        slots.append(_row_key(key) + slot)
    template = "{" + ", ".join(slots) + "}"
    if not args:
        return [template % ()] * count
    return list(map(template.__mod__, zip(*args)))


def _row_key(key: str) -> str:
    """A str key as the rewrite writes it, escaped for the % template: identifiers bare, any
    other key as the JSON encoder quotes it."""
    text = _ROW_KEYS.get(key)
    if text is None:
        text = (key if _IDENT.match(key) else _ENCODE(key)).replace("%", "%%") + ": "
        if len(_ROW_KEYS) < 10000:
            _ROW_KEYS[key] = text
    return text


_ROW_KEYS: Dict[str, str] = {}
_BOOL = {True: "true", False: "false"}


def _column(values: Sequence[Any], args: List[Sequence[Any]]) -> Optional[str]:
    """The template slot of one column, appending the values it formats to ``args``; None when
    the column holds a nested value (the encoder's path). One type is checked once for the
    column: a string the encoder writes as is between quotes (printable ASCII, no quote or
    backslash) goes in unchanged, an int as %d, a finite float as its repr; other scalars are
    encoded one by one as json.dumps does (_scalar)."""
    kinds = set(map(type, values))
    if len(kinds) != 1:
        if all(issubclass(kind, _FLOW) for kind in kinds):    # e.g. None among strings
            args.append(list(map(_scalar, values)))
            return "%s"
        return None
    kind = kinds.pop()
    if kind is str:
        joined = "".join(values)
        if joined.isascii() and joined.isprintable() and '"' not in joined \
                and "\\" not in joined:
            args.append(values)
            return '"%s"'
        args.append(list(map(_ENCODE, values)))
        return "%s"
    if kind is int:
        args.append(values)
        return "%d"
    if kind is bool:
        args.append(list(map(_BOOL.__getitem__, values)))
        return "%s"
    if kind is float and all(map(math.isfinite, values)):
        args.append(values)
        return "%r"
    if kind is type(None):
        return "null"
    if issubclass(kind, _FLOW):           # NaN, subclasses: what the encoder writes
        args.append(list(map(_scalar, values)))
        return "%s"
    return None


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")     # what _ROW_KEY unquotes
_IDENT_KEYS: Dict[Any, bool] = {}
# Separators no encoded value can hold (ensure_ascii writes control characters as \u00XX): a
# key ends exactly where "\0 is, a key starts exactly after \1 (or a row's "{").
_MARKED = json.JSONEncoder(separators=(", \x01", "\x00"))


def _plain_keys(rows: List[Dict[Any, Any]]) -> bool:
    """True when every key of the rows is an identifier string, so _ROW_KEY would unquote all."""
    for key in set().union(*rows):
        plain = _IDENT_KEYS.get(key)
        if plain is None:
            plain = isinstance(key, str) and _IDENT.match(key) is not None
            if len(_IDENT_KEYS) < 10000:
                _IDENT_KEYS[key] = plain
        if not plain:
            return False
    return True


def _unquoted(value: Any, plain: bool) -> str:
    """_flow(value) with every "key": written key: (what _ROW_KEY.sub(r"\1: ", ...) gives).
    re.sub with a group template runs Python code per match (Python 3.11): 3.8x the configs'
    time at 100k GPUs. Instead, with identifier keys only and scalar values, the encoder marks
    the key boundaries and four C-level replaces drop the quotes; anything else (a nested value
    follows a key marker) takes the regex."""
    if plain:
        text = _MARKED.encode(value)
        if "\x00{" not in text and "\x00[" not in text:
            text = text.replace('"\x00', ": ").replace('\x01{"', "{").replace('\x01"', "")
            if text[:2] == '{"':          # a single row
                text = "{" + text[2:]
            elif text[:3] == '[{"':       # a table: its first row
                text = "[{" + text[3:]
            return text.replace("\x01", "")    # left before an empty row: "}, {}"
    return _ROW_KEY.sub(r"\1: ", _flow(value))


def config_db_json(db: Dict[str, Any]) -> str:
    """config_db.json text: indented by 2, keys sorted - json.dumps(indent=2, sort_keys=True).
    orjson, when installed, writes the same bytes about 7x faster (a 100k-GPU fabric renders
    thousands of config_dbs); the standard library is the fallback."""
    if HAS_ORJSON:
        return orjson.dumps(db, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode() + "\n"
    return json.dumps(db, indent=2, sort_keys=True) + "\n"
