# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Input validation with messages that name host, field, value and what is allowed.

Every public function of the lossless core validates its inputs through these helpers, so a bad
inventory value surfaces as one readable sentence instead of a traceback deep in the math.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
from typing import TYPE_CHECKING, Any, Collection, Dict, Optional, TypeVar, overload

if TYPE_CHECKING:     # typing.Literal and TypedDict are Python 3.8+; a target host may be older
    from typing import Literal, TypedDict

    # finding()'s dict: the same declaration as records.Finding (errors may not import records,
    # which comes after it; a TypedDict's type is its keys, so mypy takes one for the other and
    # reports a drift between the two where the checks return findings as records.Finding).
    Finding = TypedDict("Finding", {
        "rule": str, "severity": str, "device": str, "location": str, "message": str,
        "hint": str, "numbers": Dict[str, Any],
    })

T = TypeVar("T")


MAX_VALUE_CHARS = 80     # a value is shown up to this length, then elided


class RoceInputError(ValueError):
    """A user-supplied value is out of range or of the wrong type. ``origin`` (set by the
    Ansible shell when it knows where a value came from: {"group": name or None, "where":
    "file:line"}) joins the message; a group's value is reported as the group's."""

    field: str
    value: Any
    allowed: str
    host: Optional[str]
    origin: Optional[Dict[str, Any]]
    # only on the lines of inputs.validate.RoceInputErrors (the first of the hosts a line stands
    # for); unset otherwise, and read with getattr(error, "first_host", error.host)
    first_host: Optional[str]

    def __init__(self, field: str, value: Any, allowed: str, host: Optional[str] = None) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        self.host = host
        self.origin = None
        super(RoceInputError, self).__init__(field, value, allowed, host)

    def __str__(self) -> str:
        origin = self.origin or {}
        if origin.get("group"):
            where = "group %s (%s; host %s): " % (origin["group"], origin["where"], self.host)
        elif origin:
            where = "host %s (%s): " % (self.host, origin["where"])
        else:
            where = "host %s: " % self.host if self.host else ""
        return "%s%s = %s is not valid: %s" % (where, self.field, show(self.value), self.allowed)


def show(value: Any) -> str:
    """repr() of a value, cut to MAX_VALUE_CHARS (control characters stay escaped)."""
    text = repr(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS - 3] + "..."


_PLAIN_TYPES = (bool, int, float, str, list, tuple, dict)


def _describe(value: Any) -> str:
    """The type a user wrote: the plain one for Ansible's tagged subclasses (a templated or
    -e string is an _AnsibleTaggedStr), the class name otherwise."""
    for plain in _PLAIN_TYPES:
        if isinstance(value, plain):
            return plain.__name__
    return type(value).__name__


@overload
def number(field: str, value: Any, lo: Optional[float], hi: Optional[float], unit: str,
           host: Optional[str], integer: "Literal[True]", lo_open: bool = False) -> int:
    ...


@overload
def number(field: str, value: Any, lo: Optional[float] = None, hi: Optional[float] = None,
           unit: str = "", host: Optional[str] = None, *, integer: "Literal[True]",
           lo_open: bool = False) -> int:
    ...


@overload
def number(field: str, value: Any, lo: Optional[float] = None, hi: Optional[float] = None,
           unit: str = "", host: Optional[str] = None, integer: bool = False,
           lo_open: bool = False) -> float:
    ...


def number(field: str, value: Any, lo: Optional[float] = None, hi: Optional[float] = None,
           unit: str = "", host: Optional[str] = None, integer: bool = False,
           lo_open: bool = False) -> float:
    """Return ``value`` if it is a real number within [lo, hi] (or (lo, hi] with lo_open)."""
    # bool is an int subclass; a YAML 'yes' must not pass as 1.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RoceInputError(field, value, "%s (got %s)" % (
            _allowed(lo, hi, unit, integer, lo_open), _describe(value)), host)
    if (isinstance(value, float) and (math.isnan(value) or math.isinf(value))) or \
            (integer and int(value) != value) or \
            (lo is not None and (value <= lo if lo_open else value < lo)) or \
            (hi is not None and value > hi):
        raise RoceInputError(field, value, _allowed(lo, hi, unit, integer, lo_open), host)
    return int(value) if integer else value


def _allowed(lo: Optional[float], hi: Optional[float], unit: str, integer: bool,
             lo_open: bool) -> str:
    kind = "a whole number" if integer else "a number"
    span = ""
    if lo is not None and hi is not None:
        span = (" above %s and at most %s" if lo_open else " from %s to %s") % (lo, hi)
    elif lo is not None:
        span = " %s %s" % (">" if lo_open else ">=", lo)
    elif hi is not None:
        span = " <= %s" % hi
    return "%s%s%s" % (kind, span, " " + unit if unit else "")


def choice(field: str, value: T, choices: Collection[Any], host: Optional[str] = None) -> T:
    """Return ``value`` if it is one of ``choices``."""
    try:
        ok = value in choices
    except TypeError:  # unhashable value such as a list
        ok = False
    if not ok:
        options = sorted(choices, key=str)
        raise RoceInputError(field, value, "one of %s" % ", ".join(str(c) for c in options), host)
    return value


def mapping(field: str, value: Any, known_keys: Collection[Any],
            host: Optional[str] = None) -> Dict[Any, Any]:
    """Return ``value`` if it is a dict whose keys are all in ``known_keys``."""
    if not isinstance(value, dict):
        raise RoceInputError(field, value, "a mapping (got %s)" % _describe(value), host)
    unknown = [k for k in value if k not in known_keys]
    if unknown:
        unknown.sort(key=str)
        raise RoceInputError(
            "%s.%s" % (field, unknown[0]), value[unknown[0]],
            "unknown key; known keys are %s" % ", ".join(sorted(str(k) for k in known_keys)),
            host)
    return value


def finding(rule: str, severity: str, device: str, location: str, message: str, hint: str,
            **numbers: Any) -> "Finding":
    """One check result (a violation): the rule, ERROR or WARN, where, what, how to fix, and
    the numbers behind it. The dict is a records.Finding (typed by its twin above)."""
    return {"rule": rule, "severity": severity, "device": device, "location": location,
            "message": message, "hint": hint, "numbers": numbers}
