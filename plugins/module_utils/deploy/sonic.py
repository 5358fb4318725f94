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

from ansible_collections.roce.fabric.plugins.module_utils.deploy import buffers, sonic_shared

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


# Owned tables keyed by a port (or a loopback) first: a key is the plan's when its port is; the
# plan owns its own ports' keys and nothing of the ports it does not wire (docs/deploy.md).
PORT_KEYED = frozenset((
    "BUFFER_PG", "BUFFER_QUEUE", "DEVICE_NEIGHBOR", "INTERFACE", "LOOPBACK_INTERFACE", "PFC_WD",
    "PORT_QOS_MAP", "QUEUE"))
# DEVICE_METADATA fields whose change only takes effect after a config reload: refused unless
# the inventory allows them by name (switch_deploy_sonic_allow_reload_fields).
SHOWN_RISKS = 10          # shared-object refusals shown; the rest are counted
RELOAD_FIELDS = {
    "docker_routing_config_mode": "bgpcfgd and FRR read it only at start: the switch keeps its "
                                  "routing config mode until a config reload (or a restart of "
                                  "the bgp container), which drops every BGP session",
    "buffer_model": "buffermgrd reads it only at start: the buffer model changes at the next "
                    "config reload, which reprograms every buffer and drops traffic",
}


def plan_names(intended: Dict[str, Any]) -> AbstractSet[str]:
    """The ports and loopbacks the plan wires: the first part of its port-keyed tables' keys
    and its PORT keys."""
    names = set(intended.get("PORT", {}))
    for table in PORT_KEYED:
        for key in intended.get(table, {}):
            names.update(key.split("|")[0].split(","))
    return names - {"GLOBAL", "global"}


def _ip4(text: str) -> Optional[int]:
    parts = text.split(".")
    if len(parts) != 4 or not all(p.isdigit() and int(p) < 256 for p in parts):
        return None
    value = 0
    for part in parts:
        value = value * 256 + int(part)
    return value


def _in_subnets(address: str, subnets: Iterable[str]) -> bool:
    ip = _ip4(address)
    for subnet in subnets:
        net, _slash, length = subnet.partition("/")
        base = _ip4(net)
        if ip is None or base is None or not length.isdigit():
            if address == net:
                return True
            continue
        shift = 32 - int(length)
        if ip >> shift == base >> shift:
            return True
    return False


def owned_key(table: str, key: str, intended: Dict[str, Any], names: AbstractSet[str],
              running: Dict[str, Any]) -> bool:
    """Whether a key of an owned table is the plan's (made equal to the plan, removed when the
    plan no longer has it) or the switch's (left as it runs)."""
    if key in intended.get(table, {}):
        return True
    if table in PORT_KEYED:
        ports = key.split("|")[0].split(",")
        return all(p in names for p in ports)
    if table == "BGP_NEIGHBOR":
        address = key.split("|")[-1]
        subnets = [k.split("|", 1)[1] for t in ("INTERFACE", "LOOPBACK_INTERFACE")
                   for db in (running, intended) for k in db.get(t, {})
                   if "|" in k and k.split("|")[0] in names]
        return _in_subnets(address, subnets)
    return False      # named objects (profiles, maps, schedulers): kept, something may use them


def config_patch(running: Dict[str, Any], intended: Dict[str, Any],
                 owned: AbstractSet[str] = OWNED_TABLES,
                 allow_reload: Iterable[str] = (),
                 allow_buffer_recreate: bool = False,
                 hand_over: Iterable[str] = ()) -> List[Dict[str, Any]]:
    """RFC 6902 operations that turn ``running`` CONFIG_DB into one carrying ``intended``.

    Ownership: in the owned tables the plan's keys (its ports', its loopbacks', its BGP
    neighbours', its named objects) are made equal to the plan, including removals; every other
    key - ports, loopbacks, routed interfaces, BGP neighbours, VLAN/LAG members outside the plan
    and their buffer/QoS keys - is left as it runs. Shared tables only get the plan's keys and
    fields, except the buffer pools the plan replaces (``buffers.retired``: a running pool the
    plan's carve lacks, and the profiles the plan lacks on it), which are removed. Refused
    (ValueError naming both): removing a key that a kept key still references; a DEVICE_METADATA
    change that needs a reload (unless in ``allow_reload``); a change of a field orchagent sets
    only on create (a pool's type/mode, a profile's pool or threshold mode) unless
    ``allow_buffer_recreate`` (then ``config_phases`` deletes and re-creates the object);
    anything in the management plane; an object the plan owns that something it does not own
    hangs on (``sonic_shared.risks``: a plan port in a LAG, VLAN or another VRF, a service
    sourced from an interface the plan readdresses, a differing named object other ports use
    unless in ``hand_over``, a breakout mode the plan's ports do not fit). Field-level where a
    key exists on both sides. Ordered as orchagent takes it (``buffers.order``): removals of
    user rows first, pools and profiles written before the rows that use them, unused profiles
    then pools removed, pools grown last.
    Deterministic: an applied config gives an empty patch."""
    sonic_shared.checked(intended, hand_over)          # a misspelt entry, before anything else
    names = plan_names(intended)
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
                if table in owned and owned_key(table, key, intended, names, running):
                    removes.append({"op": "remove", "path": pointer(table, key)})
                continue
            if key not in have:
                writes.append({"op": "add", "path": pointer(table, key), "value": want[key]})
                continue
            removes_, writes_ = _fields(table, key, have[key], want[key], table in owned)
            removes += removes_
            writes += writes_
    removes += [{"op": "remove", "path": pointer(t, k)}
                for t, k in buffers.retired(running, intended)]
    patch = buffers.order(removes + writes, running)
    touched = sorted(set(op["path"].split("/")[1] for op in patch
                         if op["path"].split("/")[1].startswith(PROTECTED_PREFIXES)))
    if touched:
        raise ValueError("the patch would touch the management plane (%s): refused; the plan "
                         "renders no such table" % ", ".join(touched))
    _refuse_reload(running, patch, allow_reload)
    changes = buffers.create_only(running, intended)
    if changes and not allow_buffer_recreate:
        raise ValueError(buffers.refusal(changes))
    _refuse_referenced(running, intended, names, patch, owned)
    shared = shared_risks(running, intended, hand_over, owned, names)
    if shared:
        raise ValueError("\n".join(shared[:SHOWN_RISKS]) + (
            "\n(and %d more)" % (len(shared) - SHOWN_RISKS) if len(shared) > SHOWN_RISKS
            else ""))
    return patch


def shared_risks(running: Dict[str, Any], intended: Dict[str, Any],
                 hand_over: Iterable[str] = (), owned: AbstractSet[str] = OWNED_TABLES,
                 names: Optional[AbstractSet[str]] = None) -> List[str]:
    """``sonic_shared.risks`` with this patch's ownership: a running field is kept (not the
    plan's) when its key is not the plan's, or is a shared-table key whose field the plan does
    not write."""
    if names is None:                   # config_patch passes the ones it computed
        names = plan_names(intended)

    def keeps(table: str, key: str, field: str) -> bool:
        want = intended.get(table, {}).get(key)
        if want is not None:         # an owned key is made the plan's, a shared one merged
            return field not in want and table not in owned
        return not (table in owned and owned_key(table, key, intended, names, running))
    return sonic_shared.risks(running, intended, names, keeps, hand_over)


def config_phases(running: Dict[str, Any], intended: Dict[str, Any],
                  owned: AbstractSet[str] = OWNED_TABLES,
                  allow_reload: Iterable[str] = (),
                  allow_buffer_recreate: bool = False,
                  hand_over: Iterable[str] = ()) -> List[List[Dict[str, Any]]]:
    """``config_patch`` as the ``config apply-patch`` runs that keep its order on the switch
    (the updater re-sorts the changes inside one run: ``buffers`` docstring). Usually one run;
    a create-only change allowed by ``allow_buffer_recreate`` is two - remove the rows using the
    object, the object (and the profiles on a re-created pool); then the rest, which creates
    them again with the planned fields and puts kept rows back as they ran - and pools that grow
    while others are removed or shrunk grow in a last run of their own. [] when in sync."""
    patch = config_patch(running, intended, owned, allow_reload, allow_buffer_recreate,
                         hand_over)
    changes = buffers.create_only(running, intended) if allow_buffer_recreate else []
    return buffers.phases(running, patch, changes, pointer)


def _refuse_reload(running: Dict[str, Any], patch: List[Dict[str, Any]],
                   allow_reload: Optional[Iterable[str]]) -> None:
    allowed = set(allow_reload or ())
    for op in patch:
        parts = op["path"].split("/")[1:]
        if parts[:1] != ["DEVICE_METADATA"]:
            continue
        fields = [parts[2]] if len(parts) > 2 else list(
            op.get("value", {}) if len(parts) == 2 else [])
        for field in fields:
            if field not in RELOAD_FIELDS or field in allowed:
                continue
            old = running.get("DEVICE_METADATA", {}).get(parts[1], {}).get(field)
            new = op.get("value") if len(parts) > 2 else op["value"].get(field)
            if old == new:
                continue
            raise ValueError("DEVICE_METADATA|%s %s %s -> %s: refused - %s; allow it by name "
                             "(switch_deploy_sonic_allow_reload_fields) and plan the reload"
                             % (parts[1], field, old, new, RELOAD_FIELDS[field]))


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _refuse_referenced(running: Dict[str, Any], intended: Dict[str, Any],
                       names: AbstractSet[str], patch: List[Dict[str, Any]],
                       owned: AbstractSet[str]) -> None:
    gone = set()
    for op in patch:
        parts = [_unescape(p) for p in op["path"].split("/")[1:]]
        if op["op"] == "remove" and len(parts) == 2:
            gone.add((parts[0], parts[1]))
    if not gone:
        return
    for table, key in sorted(gone):
        wanted = [key, "%s|%s" % (table, key)]
        if "|" in key and "/" in key.split("|")[-1]:
            wanted.append(key.split("|")[-1].split("/")[0])       # an address's IP
        for other, rows in sorted(running.items()):
            for okey, fields in sorted(rows.items()):
                if (other, okey) in gone or other == table and \
                        okey.split("|")[0] == key.split("|")[0]:
                    continue
                if other in owned and owned_key(other, okey, intended, names, running):
                    continue
                values = [okey] + okey.split("|")
                for value in (fields or {}).values():
                    values += value if isinstance(value, list) else [str(value)]
                hit = [w for w in wanted for v in values if v == w] + [
                    v for v in values if "[%s|%s]" % (table, key) in v]
                if hit:
                    raise ValueError(
                        "removing %s|%s is refused: %s|%s still references it (%s); that key is "
                        "not the plan's, so the patch keeps it - change or remove it first%s"
                        % (table, key, other, okey, hit[0],
                           ", or `config reload` with the rendered config_db.json"
                           if table.startswith("BUFFER_") else ""))


def _fields(table: str, key: str, have: Dict[str, Any], want: Dict[str, Any], owned: bool
            ) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
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
    out = {}   # type: Dict[str, Dict[str, int]]
    for op in patch:
        table = op["path"].split("/")[1].replace("~1", "/").replace("~0", "~")
        counts = out.setdefault(table, {"add": 0, "replace": 0, "remove": 0})
        counts[op["op"]] += 1
    return out


def steps(checkpoint: str, patch_path: str, frr_path: str,
          vty_socket: Optional[str] = None, phase_paths: Iterable[str] = ()
          ) -> Dict[str, List[str]]:
    """The deploy sequence as argv lists: checkpoint, dry run, apply, FRR, save; and the way
    back. FRR is applied with frr-reload.py, which diffs against ``show running-config`` and
    emits the ``no`` lines a plain ``vtysh -f`` would miss. ``phase_paths``: a patch applied in
    several runs (``config_phases``) gets ``apply_1``, ``apply_2``, ... (the dry run still
    validates the whole patch in ``patch_path``)."""
    reload = ["/usr/lib/frr/frr-reload.py", "--daemon", "bgpd"]
    if vty_socket:
        reload += ["--vty_socket", vty_socket]
    out = {
        "checkpoint": ["config", "checkpoint", checkpoint],
        "dry_run": ["config", "apply-patch", "-f", "CONFIGDB", "-d", patch_path],
        "apply": ["config", "apply-patch", "-f", "CONFIGDB", patch_path],
        "frr_test": reload + ["--test", frr_path],
        "frr_apply": reload + ["--reload", frr_path],
        "save": ["config", "save", "-y"],
        "rollback": ["config", "rollback", checkpoint],
        "forget": ["config", "delete-checkpoint", checkpoint],
    }
    for n, path in enumerate(phase_paths, 1):
        out["apply_%d" % n] = ["config", "apply-patch", "-f", "CONFIGDB", path]
    return out


def rollback_needed(results: Iterable[Tuple[str, int]]) -> bool:
    """Whether a failed deploy must roll back: once anything past the dry run ran (the dry run
    changes nothing), a failure leaves a half-applied switch. ``results``: [(step, rc)] in
    order."""
    applied = False
    for step, rc in results:
        if step in ("frr_apply", "save") or step.startswith("apply"):
            applied = True
        if rc != 0:
            return applied
    return False


_ABSENT = object()


def _value_at(config: Dict[str, Any], path: str) -> Any:
    """The value a JSON pointer (RFC 6901) names in ``config``, or _ABSENT."""
    node: Any = config
    for part in path.split("/")[1:]:
        part = _unescape(part)
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _ABSENT
    return node


def ends_at(now: Dict[str, Any], before: Dict[str, Any],
            patch: List[Dict[str, Any]]) -> Tuple[str, List[str]]:
    """Where a failed deploy left CONFIG_DB, read again after it: ("old" | "new" | "between",
    the paths of ``patch`` that hold neither their old nor their new value, or - between - the
    ones already at their new value). sonic-utilities' generic config updater applies a patch
    as a sequence of changes and undoes none when one fails (generic_updater.py,
    PatchApplier.apply), so only reading the switch again tells which it is."""
    old, new, neither = [], [], []
    for op in patch:
        have = _value_at(now, op["path"])
        want = _ABSENT if op["op"] == "remove" else op.get("value")
        if have == want:
            new.append(op["path"])
        elif have == _value_at(before, op["path"]):
            old.append(op["path"])
        else:
            neither.append(op["path"])
    if neither:
        return "between", neither
    if not new:
        return "old", []
    return ("new", []) if not old else ("between", new)
