# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The gate in front of the plan: every inventory value checked against schema.py.

JSON Schema (the ``jsonschema`` reference implementation) checks types, ranges, enums, name
grammars and unknown keys; this module turns its errors into one line each that names the host,
the field, the value and what is allowed, with a "did you mean" for misspelled keys. Values are
first made plain (Ansible's tagged strings and dicts become str and dict), so nothing past the
gate meets a type it does not expect. Cross-host rules live here too: one ``roce_fabric`` for
the whole inventory, every planned host in exactly one tier, host names of the device grammar.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import difflib
import json
import math
import re
from typing import (TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple,
                    Union, cast)

try:
    import jsonschema
    from jsonschema import validators as _validators
except ImportError:   # reported by validate_inventory, before anything is planned
    jsonschema = None  # type: ignore[assignment]  # absent: the gate raises its own error

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.inputs import names, schema

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

MAX_LINES = 25          # error lines shown; the rest are counted
TIERS = (("superspine", "superspines"), ("spine", "spines"), ("leaf", "leaves"),
         ("host", "hosts"))
_PATTERNS: Dict[str, "re.Pattern[str]"] = {}
# One input error: (field, value, what is allowed, host).
Found = Tuple[str, Any, str, Optional[str]]


def _fullmatch(validator: Any, pattern: str, instance: Any,
               _schema: Any) -> "Iterator[jsonschema.ValidationError]":
    """``pattern`` must match the whole string: Python's ``$`` also matches before a final
    newline, which would let ``"leaf1\\n"`` through."""
    if not isinstance(instance, str):
        return
    regex = _PATTERNS.get(pattern)
    if regex is None:
        regex = _PATTERNS[pattern] = re.compile(pattern)
    if regex.fullmatch(instance) is None:
        yield jsonschema.ValidationError("%r does not match %r" % (instance, pattern))


_VALIDATORS: Dict[Union[str, int], "Validator"] = {}
_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _validator(kind: Union[str, Mapping[str, Any]]) -> "Validator":
    """The validator of a host kind (switch, host), or of a sub-schema object."""
    key = kind if isinstance(kind, str) else id(kind)
    if key not in _VALIDATORS:
        doc = schema.host_schema(kind) if isinstance(kind, str) else kind
        cls = _validators.extend(_validators.validator_for({"$schema": _DRAFT}),
                                 {"pattern": _fullmatch})
        _VALIDATORS[key] = cls(doc)
    return _VALIDATORS[key]


def check_value(sub: Any, value: Any, field: str, host: Optional[str] = None) -> Any:
    """``value`` made plain and checked against schema ``sub`` (for callers outside the
    inventory gate, such as filters); raises RoceInputErrors with paths under ``field``."""
    if jsonschema is None:
        raise errors.RoceInputError("python", "jsonschema", "installed on the controller "
                                    "(pip install jsonschema)")
    value = plain(value, field, host)
    found: List[Found] = []
    for error in _validator(sub).iter_errors(value):
        for path, bad, allowed in _lines(error, host, None):
            found.append(((field + "." + path) if path else field, bad, allowed, host))
    if found:
        raise RoceInputErrors(found)
    return value


def plain(value: Any, field: str = "value", host: Optional[str] = None) -> Any:
    """A copy of ``value`` made of plain dict, list, str, int, float, bool and None; mapping
    keys become strings (YAML reads ``26: 3`` with an int key). NaN and infinities are errors."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise errors.RoceInputError(field, value, "a finite number", host)
        return float(value)
    if isinstance(value, dict):
        out: Dict[str, Any] = {}
        for key, child in value.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise errors.RoceInputError(field, key, "mapping keys that are names or "
                                            "numbers", host)
            out[str(key)] = plain(child, "%s.%s" % (field, key), host)
        return out
    if isinstance(value, (list, tuple)):
        return [plain(child, "%s[%d]" % (field, i), host) for i, child in enumerate(value)]
    return value      # any other type: the schema reports it with its type name


def path_text(path: Iterable[Any]) -> str:
    """A field's path as a message names it: a key that is not one printable word (a newline, a
    space) in JSON's escaped quotes, so the message stays one line."""
    out = ""
    for part in path:
        text = str(part)
        if not (text.isprintable() and text.split() == [text]):
            text = json.dumps(text)
        out += "[%d]" % part if isinstance(part, int) else ("." if out else "") + text
    return out


def describe(sub: Any) -> str:
    """What a schema allows, in words (the end of an error line)."""
    if not isinstance(sub, dict):
        return "nothing (unknown key)"
    unit = (" " + sub["x-unit"]) if sub.get("x-unit") else ""
    if "x-allowed" in sub:
        return sub["x-allowed"]
    if "x-grammar" in sub:
        return names.allowed(sub["x-grammar"])
    if "enum" in sub:
        return "one of %s" % ", ".join(str(v) for v in sub["enum"])
    types = sub.get("type")
    types = types if isinstance(types, list) else [types]
    nullable = " or null (derived)" if "null" in types else ""
    if "integer" in types or "number" in types:
        kind = "a whole number" if "integer" in types else "a number"
        lo = sub.get("minimum", sub.get("exclusiveMinimum"))
        rel = "above" if "exclusiveMinimum" in sub else "from"
        if lo is not None and "maximum" in sub:
            return "%s %s %s to %s%s%s" % (kind, rel, _num(lo), _num(sub["maximum"]), unit,
                                           nullable)
        return kind + unit + nullable
    if "boolean" in types:
        return "true or false"
    if "array" in types:
        once = " (each once)" if sub.get("uniqueItems") else ""
        return "a list of %s%s%s" % (describe(sub.get("items")), once, nullable)
    if "object" in types:
        known = sorted(sub.get("properties", {}))
        if known:
            return "a mapping with keys %s" % ", ".join(known)
        return "a mapping of %s to %s" % (sub.get("propertyNames", {}).get("description", "keys"),
                                          describe(sub.get("additionalProperties")))
    if "string" in types:
        return sub.get("description", "a string")
    return sub.get("description", "see docs/fabric-and-checks.md")


def _num(value: Any) -> str:
    return "{:,}".format(value) if isinstance(value, int) and abs(value) >= 10000 else str(value)


def _suggest(key: Any, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(key), list(known), n=1, cutoff=0.6)
    return "; did you mean %s?" % close[0] if close else ""


def _lines(error: "jsonschema.ValidationError", host: Optional[str],
           kind: Optional[str]) -> List[Tuple[str, Any, str]]:
    """(field, value, allowed) of one jsonschema error."""
    path = list(error.absolute_path)
    sub = cast(Mapping[str, Any], error.schema)   # schema.py's documents: mappings, never bool
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = sub.get("properties", {})
        out = []
        for key in error.instance:
            if key in known:
                continue
            allowed = "unknown key" + _suggest(key, known)
            retired = _retired(path + [key])
            if retired:
                out.append((path_text(path + [key]), error.instance[key],
                            "not set: no longer read (%s)" % retired))
                continue
            if not path and kind:          # a top-level roce_* variable
                other = schema.HOST_VARS if kind == "switch" else schema.SWITCH_VARS
                allowed = ("a %s variable: a %s does not read it" % (
                    "GPU-host" if kind == "switch" else "switch",
                    "switch" if kind == "switch" else "GPU host")) if key in other else \
                    "unknown variable" + _suggest(key, known)
            out.append((path_text(path + [key]), error.instance[key],
                        allowed + ("" if "did you mean" in allowed else
                                   " (known: %s)" % ", ".join(sorted(known)))))
        return out
    if "propertyNames" in error.schema_path:      # a mapping key of the wrong grammar
        return [(path_text(path + [error.instance]), error.instance, describe(sub))]
    if error.validator == "required":
        instance: Any = error.instance       # the mapping that lacks keys (or None)
        missing = [k for k in sub.get("required", []) if k not in (instance or {})]
        return [(path_text(path + [k]), None, "required: " +
                 describe(sub["properties"][k])) for k in missing]
    allowed = describe(sub)
    if error.validator == "type":
        allowed += " (got %s)" % _type_name(error.instance)
    elif error.validator == "enum" and isinstance(error.instance, str):
        # a misspelt choice (roce_platform: cumuls) is named like a misspelt key
        allowed += _suggest(error.instance, [str(v) for v in sub["enum"]])
    return [(path_text(path), error.instance, allowed)]


def _retired(path: List[Any]) -> Optional[str]:
    """What replaced a variable or key schema.RETIRED lists (``*``: any one key), or None."""
    for pattern, why in schema.RETIRED.items():
        parts = pattern.split(".")
        if len(parts) == len(path) and all(p in ("*", str(k)) for p, k in zip(parts, path)):
            return why
    return None


def _type_name(value: Any) -> str:
    names_ = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean",
              int: "a whole number", float: "a number", type(None): "null"}
    return names_.get(type(value), type(value).__name__)


def _host_errors(kind: str, host: Optional[str], hv: Dict[str, Any], out: List[Found]) -> None:
    validator = _validator(kind)
    for error in sorted(validator.iter_errors(hv), key=lambda e: list(map(str, e.path))):
        for field, value, allowed in _lines(error, host, kind):
            out.append((field, value, allowed, host))


def _first_difference(a: Any, b: Any, path: str = "") -> Tuple[str, Any, Any]:
    """(path, value in a, value in b) of the first place two nested mappings differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), "%s.%s" % (path, key))
    return path, a, b


def tier_groups(fabric: Any) -> List[str]:
    """The inventory groups of the planned tiers, from a ``roce_fabric`` value as given (the
    defaults where it or its ``groups`` is malformed: the gate reports that itself)."""
    names_ = dict(schema.fabric_defaults()["groups"])
    given = fabric.get("groups") if isinstance(fabric, dict) else None
    if isinstance(given, dict):
        names_.update((k, v) for k, v in given.items() if k in names_ and isinstance(v, str))
    return [names_[key] for _kind, key in TIERS]


def validate_inventory(
        groups: Dict[str, Any], hostvars: Dict[str, Dict[str, Any]]
) -> Tuple[Dict[str, Any], Dict[str, str], Dict[str, Dict[str, Any]], Optional[str]]:
    """Check every planned host's roce_* variables. Returns (fabric, kinds, plain hostvars,
    fabric host): ``fabric`` the plain ``roce_fabric`` (or {}), ``kinds`` {host: superspine|
    spine|leaf|host}, the host whose roce_fabric it is (or None). Raises RoceInputErrors
    listing every problem, one line each."""
    if jsonschema is None:
        raise errors.RoceInputError("python", "jsonschema", "installed on the controller "
                                    "(pip install jsonschema)")
    found: List[Found] = []
    first: Optional[str] = None
    for group in ("roce_switches", "all"):
        for host in groups.get(group, []):
            if "roce_fabric" in hostvars.get(host, {}):
                first = host
                break
        if first:
            break
    fabric = {}
    if first:
        fabric = _plain_or_error(hostvars[first]["roce_fabric"], "roce_fabric", first, found)
        if fabric is not None and not isinstance(fabric, dict):
            found.append(("roce_fabric", fabric, "a mapping of the fabric design (got %s)"
                          % _type_name(fabric), first))
            fabric = {}
    group_names = dict(schema.fabric_defaults()["groups"])
    if not found:
        errs: List[Found] = []
        _host_errors("host", first, {"roce_fabric": fabric}, errs)
        found += errs
        if not errs:
            group_names.update(fabric.get("groups") or {})
    kinds = _kinds(groups, group_names, found)
    raw_fabric = hostvars[first]["roce_fabric"] if first else None
    plain_vars = {}
    memo = {}
    for host, kind in kinds.items():
        hv = hostvars.get(host, {})
        if not names.matches("device", host):
            found.append(("inventory host name", host, names.allowed("device"), None))
            continue
        if "roce_fabric" in hv and hv["roce_fabric"] is not raw_fabric and \
                hv["roce_fabric"] != raw_fabric:
            path, theirs, mine = _first_difference(raw_fabric, hv["roce_fabric"])
            theirs = _plain_or_error(theirs, "roce_fabric", first, [])
            found.append(("roce_fabric" + path, _plain_or_error(mine, "roce_fabric", host, []),
                          "one roce_fabric for the whole fabric, set once in group_vars/all "
                          "(%s has %r)" % (first, theirs), host))
            continue
        own = dict((k, v) for k, v in hv.items() if k != "roce_fabric")
        own = _plain_or_error(own, "vars", host, found)
        if not isinstance(own, dict):
            continue
        role = "switch" if kind != "host" else "host"
        key = (role, repr(own))
        if key not in memo:
            errs = []
            _host_errors(role, host, own, errs)
            memo[key] = errs
            found += errs
        elif memo[key]:       # the same group variables: count this host under each line
            found += [err[:3] + (host,) for err in memo[key]]
        plain_vars[host] = own
    _top_tier_uplinks(kinds, plain_vars, found)
    if found:
        raise RoceInputErrors(found)
    return fabric, kinds, plain_vars, first


def _top_tier_uplinks(kinds: Dict[str, str], plain_vars: Dict[str, Dict[str, Any]],
                      found: List[Found]) -> None:
    """roce_uplink_overrides on the top tier (the spines of two tiers, the super-spines of
    three): that tier has no links above it, so model/links.py would apply it to nothing."""
    three = "superspine" in kinds.values()
    top, below = ("superspine", "spines") if three else ("spine", "leaves")
    for host, kind in kinds.items():
        value = plain_vars.get(host, {}).get("roce_uplink_overrides")
        if kind == top and value:
            found.append(("roce_uplink_overrides", value, "unset on a %s: the top tier of a "
                          "%d-tier fabric has no uplinks (its links to the %s: "
                          "roce_downlink_overrides here, or roce_uplink_overrides on the %s)"
                          % (top.replace("superspine", "super-spine"), 3 if three else 2,
                             below, below), host))


def _plain_or_error(value: Any, field: str, host: Optional[str], found: List[Found]) -> Any:
    try:
        return plain(value, field, host)
    except errors.RoceInputError as exc:
        found.append((exc.field, exc.value, exc.allowed, exc.host))
        return None


def _kinds(groups: Dict[str, Any], group_names: Dict[str, str],
           found: List[Found]) -> Dict[str, str]:
    """{host: tier} for every host of the tier groups; a host in two tiers is an error."""
    kinds: Dict[str, str] = {}
    where: Dict[str, str] = {}
    for kind, key in TIERS:
        group = group_names[key]
        for host in groups.get(group) or []:
            if host in kinds and kinds[host] != kind:
                found.append(("inventory", host, "a host in one tier only (in groups %s and %s)"
                              % (where[host], group), host))
                continue
            kinds[host], where[host] = kind, group
    return kinds


class RoceInputErrors(errors.RoceInputError):
    """Several input errors, one line each (identical lines from shared group variables are
    reported once, with the number of hosts that carry them)."""

    def __init__(self, found: List[Found]) -> None:
        groups: Dict[Tuple[str, str, str], List[Any]] = {}   # key -> [first item, more hosts]
        for item in found:
            key = (item[0], repr(item[1]), item[2])
            if key in groups:
                groups[key][1] += 1
            else:
                groups[key] = [item, 0]
        self.lines: List[errors.RoceInputError] = []
        for (field, value, allowed, host), more in groups.values():
            label = "%s and %d more host%s" % (host, more, "s" if more > 1 else "") if more \
                else host
            line = errors.RoceInputError(field, value, allowed, label)
            # plugins/action/plan.py reads it back (with getattr: other errors lack it)
            line.first_host = host
            self.lines.append(line)
        first = self.lines[0]
        super(RoceInputErrors, self).__init__(first.field, first.value, first.allowed,
                                              first.host)

    def __str__(self) -> str:
        shown = [str(e) for e in self.lines[:MAX_LINES]]
        if len(self.lines) > MAX_LINES:
            shown.append("... and %d more" % (len(self.lines) - MAX_LINES))
        return "\n".join(shown)
