# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Buffer pools and profiles on a switch that already runs a buffer configuration (the vendor's
template): which changes orchagent takes, and the order and the apply-patch runs that get the
plan's pools and profiles onto it.

Written from sonic-net/sonic-swss @e6b0c5b ``orchagent/bufferorch.cpp`` (the reading
``render/sonic/buffermgrd.py`` cites; it delegates ``create_only`` and ``stale`` here):

* create-only: a SET on an existing object skips a pool's ``type`` (L433-441) and ``mode``
  (L466-471) and a profile's ``pool`` (L654-661) and threshold mode ``dynamic_th`` /
  ``static_th`` (L692-715): the object keeps its create-time value until it is deleted and
  created again, or the switch is reloaded;
* an object still referenced is not removed (pool L560-563, profile L837-840): the DEL is
  retried while a BUFFER_PG / BUFFER_QUEUE row, a profile list or a profile uses it.

and from sonic-net/sonic-utilities @691b1bb ``generic_config_updater`` (``config apply-patch``):

* ``PatchSorter.sort`` (patch_sorter.py) simulates the patch, diffs the running config against
  that end state and orders the diff so every step validates against YANG. BUFFER_PG / QUEUE
  ``profile``, the profile lists and BUFFER_PROFILE ``pool`` are leafrefs (sonic-buffer-*.yang),
  so inside one patch removals still go users -> profiles -> pools; but a delete and re-create of
  one key collapses into the SET orchagent ignores (``CreateOnlyMoveValidator`` lists no BUFFER_*
  field), and the order of two pool resizes is not a leafref, so it is not kept. Both need their
  own ``config apply-patch`` run: ``phases`` below.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
from typing import Any, Callable, Dict, List, Set, Tuple

# Fields bufferorch sets only when it creates the SAI object (L433-441, L466-471, L654-661,
# L692-715); "threshold_mode" is dynamic_th vs static_th.
CREATE_ONLY = (("BUFFER_POOL", ("type", "mode")), ("BUFFER_PROFILE", ("pool", "threshold_mode")))
# Rows that use a profile: "profile" (BUFFER_PG, BUFFER_QUEUE) or "profile_list".
USERS = ("BUFFER_PG", "BUFFER_QUEUE", "BUFFER_PORT_INGRESS_PROFILE_LIST",
         "BUFFER_PORT_EGRESS_PROFILE_LIST")
REMOVAL_ORDER = USERS + ("BUFFER_PROFILE", "BUFFER_POOL")
REASON = ("orchagent applies this only on create: `config reload` with the rendered "
          "config_db.json, or delete and recreate in a maintenance window")
ALLOW = "switch_deploy_sonic_allow_buffer_recreate / sonic_config allow_buffer_recreate"

Change = Tuple[str, str, str, Any, Any]      # (table, key, field, running value, planned value)
Pointer = Callable[..., str]                 # sonic.pointer: (table[, key[, field]]) -> path


def _name(value: Any) -> str:
    """A reference as CONFIG_DB spells it: ``name`` or the older ``[BUFFER_PROFILE|name]``."""
    text = str(value).strip()
    if text.startswith("[") and text.endswith("]") and "|" in text:
        return text[1:-1].split("|", 1)[1]
    return text


def uses(row: Dict[str, Any]) -> List[str]:
    """The profiles a BUFFER_PG / BUFFER_QUEUE row or a profile list uses."""
    out = []
    if "profile" in row:
        out.append(_name(row["profile"]))
    lists = row.get("profile_list", [])
    for item in lists if isinstance(lists, list) else str(lists).split(","):
        if str(item).strip():
            out.append(_name(item))
    return out


def users(db: Dict[str, Any], table: str, key: str) -> List[Tuple[str, str]]:
    """The keys of ``db`` that reference the pool or profile ``table|key``: orchagent does not
    remove it while there is one (L560-563, L837-840)."""
    if table == "BUFFER_POOL":
        return [("BUFFER_PROFILE", name) for name, row in sorted(
            db.get("BUFFER_PROFILE", {}).items()) if _name((row or {}).get("pool", "")) == key]
    if table == "BUFFER_PROFILE":
        return [(t, k) for t in USERS for k, row in sorted(db.get(t, {}).items())
                if key in uses(row or {})]
    return []


def _field(row: Dict[str, Any], field: str) -> Any:
    if field == "threshold_mode":
        return "dynamic_th" if "dynamic_th" in row else "static_th" if "static_th" in row \
            else None
    return row.get(field)


def create_only(running: Dict[str, Any], new: Dict[str, Any]) -> List[Change]:
    """Fields of ``new`` orchagent ignores because the object exists in ``running`` with
    another value: [(table, key, field, running value, new value)]."""
    out = []
    for table, names in sorted(CREATE_ONLY):
        old_rows, new_rows = running.get(table, {}), new.get(table, {})
        for key in sorted(set(old_rows) & set(new_rows)):
            for field in names:
                old_v = _field(old_rows[key] or {}, field)
                new_v = _field(new_rows[key] or {}, field)
                if old_v is not None and new_v is not None and old_v != new_v:
                    out.append((table, key, field, old_v, new_v))
    return out


def stale(running: Dict[str, Any], new: Dict[str, Any]) -> List[Tuple[str, str]]:
    """Buffer objects of ``running`` that ``new`` lacks, in the removal order orchagent
    accepts: BUFFER_PG and BUFFER_QUEUE rows and profile lists, then profiles, then pools."""
    return [(table, key) for table in REMOVAL_ORDER
            for key in sorted(set(running.get(table, {})) - set(new.get(table, {})))]


def refusal(changes: List[Change]) -> str:
    """One line per object: the object, the field, the running and planned values, why."""
    return "\n".join(
        "%s|%s %s: running %s, planned %s - %s (or allow it: %s)"
        % (table, key, field, old, new, REASON, ALLOW)
        for table, key, field, old, new in changes)


def retired(running: Dict[str, Any], intended: Dict[str, Any]) -> List[Tuple[str, str]]:
    """Pools and profiles the plan replaces: when the plan renders BUFFER_POOL it renders the
    switch's whole carve, so a running pool it lacks (the vendor template's
    ``ingress_lossy_pool``) holds buffer the carve gave to the plan's pools and goes; so does a
    profile the plan lacks that sits on such a pool. Profiles order before pools."""
    if "BUFFER_POOL" not in intended:
        return []
    pools = sorted(set(running.get("BUFFER_POOL", {})) - set(intended["BUFFER_POOL"]))
    profiles = sorted(name for name, row in running.get("BUFFER_PROFILE", {}).items()
                      if name not in intended.get("BUFFER_PROFILE", {}) and
                      _name((row or {}).get("pool", "")) in pools)
    return [("BUFFER_PROFILE", p) for p in profiles] + [("BUFFER_POOL", p) for p in pools]


def unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _parts(op: Dict[str, Any]) -> List[str]:
    return [unescape(p) for p in op["path"].split("/")[1:]]


def _grows(op: Dict[str, Any], running: Dict[str, Any]) -> bool:
    parts = _parts(op)
    if parts[0] != "BUFFER_POOL" or op["op"] == "remove" or parts[-1] == "type":
        return False
    if len(parts) < 2 or parts[1] not in running.get("BUFFER_POOL", {}):
        return False        # a new pool: created before the profiles on it (rank 1)
    old = running["BUFFER_POOL"][parts[1]]
    new = op["value"] if len(parts) == 2 else {parts[2]: op["value"]} if len(parts) == 3 \
        else {}
    for field in ("size", "xoff"):
        try:
            if field in new and int(new[field]) > int((old or {}).get(field, 0)):
                return True
        except (TypeError, ValueError):
            continue
    return False


def _shrinks(op: Dict[str, Any], running: Dict[str, Any]) -> bool:
    parts = _parts(op)
    if parts[0] != "BUFFER_POOL" or op["op"] != "replace" or len(parts) != 3 or \
            parts[2] not in ("size", "xoff"):
        return False
    try:
        return int(op["value"]) < int(running["BUFFER_POOL"][parts[1]][parts[2]])
    except (KeyError, TypeError, ValueError):
        return False


def rank(op: Dict[str, Any], running: Dict[str, Any]) -> int:
    """Where an operation goes so each step is one orchagent accepts:
    0 removals outside the buffer objects and of user rows; 1 pools added or shrunk; 2 profiles
    added or changed; 3 users re-pointed or added and every other write; 4 profiles removed;
    5 pools removed; 6 pools grown (into what the removed and shrunk pools gave back)."""
    parts = _parts(op)
    table, whole = parts[0], len(parts) <= 2
    if op["op"] == "remove" and whole and table in ("BUFFER_PROFILE", "BUFFER_POOL"):
        return 4 if table == "BUFFER_PROFILE" else 5
    if op["op"] == "remove" and table not in ("BUFFER_PROFILE", "BUFFER_POOL"):
        return 0
    if table == "BUFFER_POOL":
        return 6 if _grows(op, running) else 1
    if table == "BUFFER_PROFILE":
        return 2
    return 3


def order(patch: List[Dict[str, Any]], running: Dict[str, Any]) -> List[Dict[str, Any]]:
    """``patch`` in the order of ``rank`` (stable: the rest keeps its order)."""
    return sorted(patch, key=lambda op: rank(op, running))


def apply(db: Dict[str, Any], patch: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The RFC 6902 add/replace/remove this deploy emits (paths of 1-3 levels), on a copy."""
    out = copy.deepcopy(db)
    for op in patch:
        parts = _parts(op)
        node = out
        for part in parts[:-1]:
            node = node[part]
        if op["op"] == "remove":
            del node[parts[-1]]
        else:
            node[parts[-1]] = copy.deepcopy(op["value"])
    return out


def diff(old: Dict[str, Any], new: Dict[str, Any], pointer: Pointer) -> List[Dict[str, Any]]:
    """Every key and field that differs between two whole configs (no ownership: ``new`` is
    already the end state the ownership rules give)."""
    ops = []
    for table in sorted(set(old) | set(new)):
        have, want = old.get(table), new.get(table)
        if want is None:
            ops.append({"op": "remove", "path": pointer(table)})
        elif have is None:
            ops.append({"op": "add", "path": pointer(table), "value": want})
        else:
            for key in sorted(set(have) | set(want)):
                if key not in want:
                    ops.append({"op": "remove", "path": pointer(table, key)})
                elif key not in have:
                    ops.append({"op": "add", "path": pointer(table, key), "value": want[key]})
                elif have[key] != want[key]:
                    for field in sorted(set(have[key]) | set(want[key])):
                        if field not in want[key]:
                            ops.append({"op": "remove", "path": pointer(table, key, field)})
                        elif field not in have[key]:
                            ops.append({"op": "add", "path": pointer(table, key, field),
                                        "value": want[key][field]})
                        elif have[key][field] != want[key][field]:
                            ops.append({"op": "replace", "path": pointer(table, key, field),
                                        "value": want[key][field]})
    return ops


def release(running: Dict[str, Any], changes: List[Change], pointer: Pointer
            ) -> List[Dict[str, Any]]:
    """The first apply-patch run of a re-create: remove every row that uses a profile being
    re-created, then those profiles (and every profile on a pool being re-created), then those
    pools. The next run (``phases``) adds them back with the planned values, kept rows as they
    ran."""
    pools = set(k for t, k, _f, _o, _n in changes if t == "BUFFER_POOL")
    profiles = set(k for t, k, _f, _o, _n in changes if t == "BUFFER_PROFILE")
    for pool in pools:
        profiles.update(k for _t, k in users(running, "BUFFER_POOL", pool))
    rows: Set[Tuple[str, str]] = set()
    for profile in profiles:
        rows.update(users(running, "BUFFER_PROFILE", profile))
    gone: Dict[str, Set[str]] = dict((t, set()) for t in REMOVAL_ORDER)
    for table, key in rows:
        gone[table].add(key)
    gone["BUFFER_PROFILE"], gone["BUFFER_POOL"] = profiles, pools
    ops = []
    for table in REMOVAL_ORDER:
        if gone[table] and gone[table] == set(running.get(table, {})):
            # the updater refuses an end state with an empty table (NoEmptyTableMoveValidator,
            # CONFIG_DB does not keep one): the table goes as a whole
            ops.append({"op": "remove", "path": pointer(table)})
            continue
        ops += [{"op": "remove", "path": pointer(table, k)} for k in sorted(gone[table])]
    return ops


def phases(running: Dict[str, Any], patch: List[Dict[str, Any]], changes: List[Change],
           pointer: Pointer) -> List[List[Dict[str, Any]]]:
    """The ordered ``patch`` as the ``config apply-patch`` runs that keep its order on the
    switch (the updater re-sorts inside one run, see the module docstring):

    * with create-only ``changes`` (allowed): ``release`` first, then the rest from what is
      left to the end state - the objects come back created with the planned fields;
    * when pools grow while others are removed or shrunk: the growth last, on its own, so the
      buffer the others give back is free before it is taken.
    """
    out = []
    if changes:
        first = release(running, changes, pointer)
        out.append(first)
        start = apply(running, first)
        patch = order(diff(start, apply(running, patch), pointer), running)
    growth = [op for op in patch if rank(op, running) == 6]
    if growth and any(rank(op, running) == 5 or _shrinks(op, running) for op in patch):
        out += [[op for op in patch if rank(op, running) != 6], growth]
    elif patch:
        out.append(patch)
    return out
