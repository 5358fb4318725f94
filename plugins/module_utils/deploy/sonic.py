# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Deploying a rendered SONiC config_db.json: the patch against the running CONFIG_DB, and the
command sequence that applies it with a way back.

Why ``config apply-patch`` and not ``config load`` + ``config save``: ``config load`` merges a
file into CONFIG_DB without validating it and never deletes a stale key (a removed BGP
neighbour or buffer profile stays), and ``config reload`` replaces everything and restarts the
services (traffic loss). sonic-utilities' generic config updater takes an RFC 6902 JSON patch,
validates the result against the switch's own YANG models, orders the changes so running
daemons see a consistent config, and pairs with ``config checkpoint`` / ``config rollback`` for
the way back (sonic-utilities config/main.py: apply-patch [-f CONFIGDB] [-d] [-v], checkpoint,
rollback, delete-checkpoint).

The patch is computed here, not on the switch, so check mode and diff show exactly what would
be written, and a second run computes an empty patch.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import AbstractSet, Any, Dict, Iterable, List, Optional, Tuple

# Tables whose every key comes from the plan: keys the plan no longer has are removed.
OWNED_TABLES = frozenset((
    "BGP_NEIGHBOR", "BUFFER_PG", "BUFFER_PROFILE", "BUFFER_QUEUE", "DEVICE_NEIGHBOR",
    "DSCP_TO_TC_MAP", "INTERFACE", "LOOPBACK_INTERFACE", "MAP_PFC_PRIORITY_TO_QUEUE", "PFC_WD",
    "PORT_QOS_MAP", "QUEUE", "SCHEDULER", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP",
    "WRED_PROFILE"))
# Every other table is shared with the platform (PORT, DEVICE_METADATA, BUFFER_POOL, ...):
# the plan's keys and fields are written, nothing else is touched.
# The management plane is never the plan's: a patch that would touch one of these tables is
# refused before anything is applied (management port and VRF, AAA, users' TACACS/RADIUS,
# NTP, syslog, SNMP, SSH, the REST/gNMI services, the sonic-utilities feature table).
PROTECTED_PREFIXES = ("MGMT_", "AAA", "TACPLUS", "RADIUS", "NTP", "SYSLOG", "SNMP", "SSH_SERVER",
                      "PASSW_HARDENING", "RESTAPI", "TELEMETRY", "GNMI", "FEATURE", "KDUMP")


def pointer(*parts: Any) -> str:
    """RFC 6901 JSON pointer; '~' and '/' in keys (INTERFACE "Ethernet0|198.18.64.0/31") are
    escaped as ~0 and ~1."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def config_patch(running: Dict[str, Any], intended: Dict[str, Any],
                 owned: AbstractSet[str] = OWNED_TABLES) -> List[Dict[str, Any]]:
    """RFC 6902 operations that turn ``running`` CONFIG_DB into one carrying ``intended``.

    Field-level where a key exists on both sides, so an MTU change does not rewrite the whole
    port. Removals come first (a stale key may hold a name the plan reuses). Deterministic order:
    the same inputs give the same patch, and an applied config gives an empty one."""
    removes, writes = [], []
    for table in sorted(set(running) | set(intended)):
        have, want = running.get(table), intended.get(table)
        if want is None:
            continue                                   # not ours to remove
        if have is None:
            writes.append({"op": "add", "path": pointer(table), "value": want})
            continue
        for key in sorted(set(have) | set(want)):
            if key not in want:
                if table in owned:
                    removes.append({"op": "remove", "path": pointer(table, key)})
                continue
            if key not in have:
                writes.append({"op": "add", "path": pointer(table, key), "value": want[key]})
                continue
            removes_, writes_ = _fields(table, key, have[key], want[key], table in owned)
            removes += removes_
            writes += writes_
    patch = removes + writes
    touched = sorted(set(op["path"].split("/")[1] for op in patch
                         if op["path"].split("/")[1].startswith(PROTECTED_PREFIXES)))
    if touched:
        raise ValueError("the patch would touch the management plane (%s): refused; the plan "
                         "renders no such table" % ", ".join(touched))
    return patch


def _fields(table, key, have, want, owned):
    removes, writes = [], []
    for field in sorted(set(have) | set(want)):
        if field not in want:
            if owned:
                removes.append({"op": "remove", "path": pointer(table, key, field)})
        elif field not in have:
            writes.append({"op": "add", "path": pointer(table, key, field),
                           "value": want[field]})
        elif have[field] != want[field]:
            writes.append({"op": "replace", "path": pointer(table, key, field),
                           "value": want[field]})
    return removes, writes


def summarize(patch: List[Dict[str, Any]]) -> Dict[str, Dict[str, int]]:
    """{table: {"add": n, "replace": n, "remove": n}} for reports and diffs."""
    out = {}
    for op in patch:
        table = op["path"].split("/")[1].replace("~1", "/").replace("~0", "~")
        counts = out.setdefault(table, {"add": 0, "replace": 0, "remove": 0})
        counts[op["op"]] += 1
    return out


def steps(checkpoint: str, patch_path: str, frr_path: str,
          vty_socket: Optional[str] = None) -> Dict[str, List[str]]:
    """The deploy sequence as argv lists: checkpoint, dry run, apply, FRR, save; and the way
    back. FRR is applied with frr-reload.py, which diffs against ``show running-config`` and
    emits the ``no`` lines a plain ``vtysh -f`` would miss."""
    reload = ["/usr/lib/frr/frr-reload.py", "--daemon", "bgpd"]
    if vty_socket:
        reload += ["--vty_socket", vty_socket]
    return {
        "checkpoint": ["config", "checkpoint", checkpoint],
        "dry_run": ["config", "apply-patch", "-f", "CONFIGDB", "-d", patch_path],
        "apply": ["config", "apply-patch", "-f", "CONFIGDB", patch_path],
        "frr_test": reload + ["--test", frr_path],
        "frr_apply": reload + ["--reload", frr_path],
        "save": ["config", "save", "-y"],
        "rollback": ["config", "rollback", checkpoint],
        "forget": ["config", "delete-checkpoint", checkpoint],
    }


def rollback_needed(results: Iterable[Tuple[str, int]]) -> bool:
    """Whether a failed deploy must roll back: once anything past the dry run ran (the dry run
    changes nothing), a failure leaves a half-applied switch. ``results``: [(step, rc)] in
    order."""
    applied = False
    for step, rc in results:
        if step in ("apply", "frr_apply", "save"):
            applied = True
        if rc != 0:
            return applied
    return False
