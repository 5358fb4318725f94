# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The gate for the roles' own variables (switch_*, host_*, nic_*, plan_*, report_*, verify_*).

Ansible checks a role's arguments (roles/*/meta/argument_specs.yml) only when the role starts:
a bad ``switch_deploy_*`` flag set on the leaves is found after the spines are deployed. This
module reads the same argument specs (the one source of truth, loaded as they ship) and checks
every inventory host's variables of the collection's prefixes at the plan gate, before anything
is rendered or pushed: the types, element types and choices Ansible's argument spec
validation accepts (mirrored from ansible/module_utils/common/validation.py check_type_* and
common/parameters.py _validate_argument_values, ansible-core 2.19), and unknown names with a
"did you mean". The roce_* variables are schema.py's (validate.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import decimal
import difflib
import json
import os
from ast import literal_eval
from typing import Any, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

# Prefix -> the role that owns it (the longest prefix wins: switch_deploy_ before switch_).
PREFIXES = (("switch_deploy_", "switch_deploy"), ("switch_", "switch"), ("host_", "host"),
            ("nic_", "nic"), ("plan_", "plan"), ("report_", "report"), ("verify_", "verify"))
ROLES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "roles")
# ansible/module_utils/parsing/convert_bool.py BOOLEANS_TRUE / BOOLEANS_FALSE (strict boolean())
BOOLEANS_TRUE = frozenset(("y", "yes", "on", "1", "true", "t", 1, 1.0, True))
BOOLEANS_FALSE = frozenset(("n", "no", "off", "0", "false", "f", 0, 0.0, False))
ANSIBLE_BOOLEANS = "true or false (also yes/no, on/off, y/n, t/f, 1/0)"

# A variable's argument spec and the role that declares it.
Spec = Dict[str, Any]
Specs = Dict[str, Tuple[str, Spec]]
# One input error, as validate.Found: (field, value, what is allowed, host).
Found = Tuple[str, Any, str, Optional[str]]
_LOADED: Dict[str, Tuple[Specs, FrozenSet[str]]] = {}


def owner(name: str) -> Optional[str]:
    """The role whose prefix ``name`` carries, or None (not the collection's)."""
    return next((role for prefix, role in PREFIXES if name.startswith(prefix)), None)


def load(roles_dir: str = ROLES_DIR) -> Tuple[Specs, FrozenSet[str]]:
    """({variable: (role, spec)} of every role's main entry point, the names the roles set
    at run time (register, set_fact): results such as plan_result, never the user's)."""
    roles_dir = os.path.normpath(roles_dir)
    if roles_dir not in _LOADED:
        import yaml  # type: ignore[import-untyped]  # PyYAML: a dependency of ansible-core
        specs: Specs = {}
        runtime: Set[str] = set()
        for role in sorted(os.listdir(roles_dir)):
            path = os.path.join(roles_dir, role, "meta", "argument_specs.yml")
            if os.path.exists(path):
                with open(path) as handle:
                    doc = yaml.safe_load(handle) or {}
                options = doc["argument_specs"]["main"].get("options") or {}
                specs.update((name, (role, spec)) for name, spec in options.items())
            runtime.update(_set_names(os.path.join(roles_dir, role, "tasks"), yaml))
        _LOADED[roles_dir] = (specs, frozenset(runtime))
    return _LOADED[roles_dir]


def _set_names(tasks_dir: str, yaml: Any) -> Iterator[str]:
    """The variables the tasks under ``tasks_dir`` register or set_fact."""
    if not os.path.isdir(tasks_dir):
        return
    for name in sorted(os.listdir(tasks_dir)):
        if name.endswith((".yml", ".yaml")):
            with open(os.path.join(tasks_dir, name)) as handle:
                yield from _walk(yaml.safe_load(handle))


def _walk(node: Any) -> Iterator[str]:
    if isinstance(node, list):
        for item in node:
            yield from _walk(item)
    elif isinstance(node, dict):
        if isinstance(node.get("register"), str):
            yield node["register"]
        for key in ("ansible.builtin.set_fact", "set_fact"):
            if isinstance(node.get(key), dict):
                yield from (k for k in node[key] if k != "cacheable")
        for key in ("block", "rescue", "always"):
            yield from _walk(node.get(key))


def _bool(value: Any) -> bool:
    """Ansible's check_type_bool with strict boolean(): anything else raises TypeError."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (str, int, float)):
        normal = value.lower().strip() if isinstance(value, str) else value
        if normal in BOOLEANS_TRUE:
            return True
        if normal in BOOLEANS_FALSE:
            return False
    raise TypeError(value)


def _int(value: Any) -> int:
    """check_type_int: an int (bool included), or a str/float of no decimal part."""
    if isinstance(value, int):
        return value
    try:
        number = decimal.Decimal(value)
        if number != int(number):
            raise TypeError(value)
        return int(number)
    except (decimal.DecimalException, ValueError, OverflowError):
        raise TypeError(value) from None


def _list(value: Any) -> List[Any]:
    """check_type_list: a list; a string splits on commas; a number is a one-item list."""
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return value.split(",")
    if isinstance(value, (int, float)):
        return [str(value)]
    raise TypeError(value)


def _dict(value: Any) -> Dict[Any, Any]:
    """check_type_dict: a mapping, JSON or Python text of one, or k=v text."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.startswith("{"):
        for parse in (json.loads, literal_eval):
            try:
                out = parse(value)
            except Exception:     # pylint: disable=broad-except  # as Ansible: try the next
                continue
            if isinstance(out, dict):
                return out
    elif isinstance(value, str) and "=" in value:
        return {}             # k=v text: Ansible parses it; its keys are not ours to check
    raise TypeError(value)


def _str(value: Any) -> str:
    """check_type_str with conversion (Ansible's default): everything becomes text."""
    return "" if value is None else str(value)


def _float(value: Any) -> float:
    """check_type_float: whatever float() takes."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(value) from None


CONVERT = {"bool": _bool, "int": _int, "float": _float, "list": _list, "dict": _dict,
           "str": _str, "path": _str, "raw": lambda value: value}


def accepts(spec: Spec, value: Any) -> bool:
    """True if Ansible's argument spec validation accepts ``value`` for ``spec``: the type
    (after its conversion), the list's element type, then the choices."""
    # _validate_argument_types skips a None without a default; the choices still see it
    if value is not None or spec.get("required") or spec.get("default") is not None:
        try:
            value = CONVERT[spec.get("type", "str")](value)
            if spec.get("elements"):
                value = [CONVERT[spec["elements"]](item) for item in value]
        except TypeError:
            return False
    choices = spec.get("choices")
    if choices is None:
        return True
    if isinstance(value, list):
        return all(item in choices for item in value)
    if value in choices:
        return True
    # _validate_argument_values: 'True'/'False' text maps back to the one boolean choice of it
    for text, booleans in (("True", BOOLEANS_TRUE), ("False", BOOLEANS_FALSE)):
        if value == text and len(booleans.intersection(choices)) == 1:
            return True
    return False


def describe(role: str, spec: Spec) -> str:
    """What a spec allows, in words, and where it is declared."""
    kind = str(spec.get("type", "str"))
    element = str(spec.get("elements") or "raw")
    choices = ", ".join(_word(c) for c in spec.get("choices") or ())
    if kind == "list":
        what = "a list of %s" % ("any of " + choices if choices else
                                 _KINDS.get(element, element))
    elif choices:
        what = "one of " + choices
    else:
        what = _ONE.get(kind, kind)
    return what


def where(role: str) -> str:
    return "roce.fabric.%s declares it in roles/%s/meta/argument_specs.yml" % (role, role)


_ONE = {"bool": ANSIBLE_BOOLEANS, "int": "a whole number", "float": "a number",
        "dict": "a mapping", "str": "a string", "path": "a path", "raw": "any value"}
_KINDS = {"str": "strings", "int": "whole numbers", "bool": "booleans", "path": "paths",
          "dict": "mappings", "raw": "values"}


def _word(choice: Any) -> str:
    return str(choice).lower() if isinstance(choice, bool) else str(choice)


def _type_name(value: Any) -> str:
    names = ((bool, "a boolean"), (dict, "a mapping"), (list, "a list"), (str, "a string"),
             (int, "a whole number"), (float, "a number"), (type(None), "null"))
    return next((name for kind, name in names if isinstance(value, kind)),
                type(value).__name__)


def unknown(name: str, specs: Specs) -> str:
    """What an unknown variable of an owned prefix is told: the closest known name, else the
    variables of the role its prefix names."""
    close = difflib.get_close_matches(name, list(specs), n=1, cutoff=0.6)
    if close:
        return "unknown variable: no roce.fabric role reads it; did you mean %s?" % close[0]
    role = owner(name)
    known = sorted(k for k, (r, _s) in specs.items() if r == role)
    return "unknown variable: no roce.fabric role reads it (roce.fabric.%s reads %s)" % (
        role, ", ".join(known) if known else "none")


def check_vars(host: Optional[str], variables: Dict[str, Any],
               roles_dir: str = ROLES_DIR) -> List[Found]:
    """The errors of one host's variables of the collection's prefixes (roce_* excluded)."""
    specs, runtime = load(roles_dir)
    found: List[Found] = []
    for name in sorted(variables):
        if owner(name) is None or name in runtime:
            continue
        value = variables[name]
        if name not in specs:
            found.append((name, value, unknown(name, specs), host))
            continue
        role, spec = specs[name]
        if not accepts(spec, value):
            allowed = describe(role, spec)
            if not accepts(dict(spec, choices=None), value):     # the type itself is wrong
                allowed += " (got %s)" % _type_name(value)
            found.append((name, value, "%s; %s" % (allowed, where(role)), host))
    return found


def check_hosts(hostvars: Dict[str, Dict[str, Any]],
                roles_dir: str = ROLES_DIR) -> List[Found]:
    """check_vars of every host; hosts of the same group variables are checked once."""
    found: List[Found] = []
    memo: Dict[str, List[Found]] = {}
    for host in sorted(hostvars):
        key = repr(sorted(hostvars[host].items(), key=lambda item: item[0]))
        if key not in memo:
            memo[key] = check_vars(None, hostvars[host], roles_dir)
        found += [err[:3] + (host,) for err in memo[key]]
    return found
