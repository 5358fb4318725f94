# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Render-time values made once per plan object that many switches share (a QoS intent, a
port class's lossless intent): identical switches share those objects in a plan built here."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
from typing import Callable, Dict, Tuple, TypeVar

_Obj = TypeVar("_Obj")
_Value = TypeVar("_Value")


def by_identity(limit: int) -> Callable[[Callable[[_Obj], _Value]], Callable[[_Obj], _Value]]:
    """Decorator: ``make(obj)`` once per live ``obj``. Entries are keyed by id and keep the
    object, so an id cannot be reused while cached; past ``limit`` entries (a plan that went
    through JSON shares nothing) the cache starts over. The plan is read-only."""
    def wrap(make: Callable[[_Obj], _Value]) -> Callable[[_Obj], _Value]:
        entries: Dict[int, Tuple[_Obj, _Value]] = {}

        @functools.wraps(make)
        def get(obj: _Obj) -> _Value:
            hit = entries.get(id(obj))
            if hit is None or hit[0] is not obj:
                if len(entries) > limit:
                    entries.clear()
                hit = entries[id(obj)] = (obj, make(obj))
            return hit[1]
        return get
    return wrap
