# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""One planned change of a host: an argv to run, a sysfs/configfs/debugfs value to write, or a
setting the NIC cannot take (with the reason and what to do). Every change is an argv list or a
path, never a shell string built from inventory."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

# One decision: {setting, current, desired, argv, write, unsupported} (and the caller's keys).
Change = Dict[str, Any]
# The host's side effects, passed in (tests give fakes): run(argv) -> (rc, stdout, stderr),
# read(path) -> text or None, listdir(path) -> names or None, exists(path) -> bool.
Run = Callable[[List[str]], Tuple[int, str, str]]
Read = Callable[[str], Optional[str]]
ListDir = Callable[[str], Optional[List[str]]]
Exists = Callable[[str], bool]


def change(setting: str, current: Any, desired: Any, argv: Optional[List[str]]) -> Change:
    return {"setting": setting, "current": current, "desired": desired, "argv": argv,
            "write": None, "unsupported": None}


def write(setting: str, current: Any, desired: Any, path: str, value: Any,
          mkdir: Optional[str] = None) -> Change:
    """A sysfs/configfs/debugfs write (``mkdir`` first when a configfs group must exist)."""
    return {"setting": setting, "current": current, "desired": desired, "argv": None,
            "write": {"path": path, "value": str(value), "mkdir": mkdir}, "unsupported": None}


def unsupported(setting: str, current: Any, desired: Any, reason: str) -> Change:
    return {"setting": setting, "current": current, "desired": desired, "argv": None,
            "write": None, "unsupported": reason}


def setting_diffs(changes: Iterable[Change], owner: str) -> List[Dict[str, str]]:
    """Ansible diff entries, one per change: "<owner> <setting>: <value>" before and after
    (``owner``: the key naming the interface or netdev in each change)."""
    return [{"before": "%s %s: %s\n" % (c[owner], c["setting"], c["current"]),
             "after": "%s %s: %s\n" % (c[owner], c["setting"], c["desired"])} for c in changes]
