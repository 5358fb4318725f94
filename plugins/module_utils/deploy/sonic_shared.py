# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Objects the SONiC patch would change that something the plan does not own uses, found before
anything is applied (the EOS counterpart: deploy/eos/shared.py).

The patch makes the plan's ports, loopbacks and named objects (profiles, maps, schedulers) equal
to the plan and leaves every other key as it runs (deploy/sonic.py). On a shared switch other
keys hang on those objects: a plan port in a PortChannel or a VLAN, or routed in another VRF;
a loopback TACACS+, NTP or SNMP take their source from; a buffer profile or QoS map other
ports use by name. The patch would give the port an IP and leave its membership, readdress the
service's source, or rewrite the profile under the other ports - silently. Each such use is
refused, naming both objects and the way out. A named object can be handed over by name
(``switch_deploy_sonic_hand_over``): the plan then rewrites it for every user, knowingly; a
port, VRF binding or source interface cannot - freeing it on the switch is the fix.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from typing import AbstractSet, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

# (table, key, field) -> whether the patch leaves that running field as it runs (not the plan's)
Keeps = Callable[[str, str, str], bool]

# Membership tables: key "<group>|<port>" (sonic-portchannel.yang PORTCHANNEL_MEMBER,
# sonic-vlan.yang VLAN_MEMBER); the CLI that frees the port (sonic-utilities config/main.py).
MEMBERSHIP = (("PORTCHANNEL_MEMBER", "config portchannel member del %s %s"),
              ("VLAN_MEMBER", "config vlan member del %s %s"))
# Fields of an interface's own row that bind it to another routing instance
# (sonic-interface.yang L62 vrf_name, L69 vnet_name; sonic-loopback-interface.yang L43 vrf_name).
BINDINGS = ("vrf_name", "vnet_name")
# Services that take their source from an interface by name, (table, key or None = every key,
# field), from sonic-buildimage @086b03b src/sonic-yang-models/yang-models: sonic-system-tacacs
# L163 TACPLUS global src_intf; sonic-system-radius L183 RADIUS_SERVER src_intf; sonic-ntp L95
# NTP global src_intf (a leaf-list); sonic-sflow L169 SFLOW global agent_id; sonic-dhcpv4-relay
# L79 DHCPV4_RELAY source_interface.
Use = Tuple[str, Optional[str], Optional[str]]      # (table, key or None = every key, field)
BY_NAME: Tuple[Use, ...] = (
    ("TACPLUS", "global", "src_intf"), ("RADIUS_SERVER", None, "src_intf"),
    ("NTP", "global", "src_intf"), ("SFLOW", "global", "agent_id"),
    ("DHCPV4_RELAY", None, "source_interface"))
# ... and by address: sonic-system-radius L70 src_ip, L75 nas_ip; sonic-syslog L105
# SYSLOG_SERVER source; sonic-snmp L170-174 SNMP_AGENT_ADDRESS_CONFIG key "agent_ip|port|vrf"
# (field None: the key's first part).
BY_ADDRESS: Tuple[Use, ...] = (
    ("RADIUS", "global", "src_ip"), ("RADIUS", "global", "nas_ip"),
    ("SYSLOG_SERVER", None, "source"), ("SNMP_AGENT_ADDRESS_CONFIG", None, None))
# Named objects the plan writes and the fields that use them by name (sonic-buffer-pg.yang,
# sonic-buffer-queue.yang, sonic-buffer-port-*-profile-list.yang: profile / profile_list;
# sonic-port-qos-map.yang L85-153; sonic-queue.yang L84-93). A profile's pool is not a use: the
# plan's pools are the plan's carve (deploy/buffers.py).
NAMED = {
    "BUFFER_PROFILE": (("BUFFER_PG", "profile"), ("BUFFER_QUEUE", "profile"),
                       ("BUFFER_PORT_INGRESS_PROFILE_LIST", "profile_list"),
                       ("BUFFER_PORT_EGRESS_PROFILE_LIST", "profile_list")),
    "DSCP_TO_TC_MAP": (("PORT_QOS_MAP", "dscp_to_tc_map"),),
    "TC_TO_QUEUE_MAP": (("PORT_QOS_MAP", "tc_to_queue_map"),),
    "TC_TO_PRIORITY_GROUP_MAP": (("PORT_QOS_MAP", "tc_to_pg_map"),),
    "MAP_PFC_PRIORITY_TO_QUEUE": (("PORT_QOS_MAP", "pfc_to_queue_map"),),
    "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": (("PORT_QOS_MAP", "pfc_to_pg_map"),),
    "DOT1P_TO_TC_MAP": (("PORT_QOS_MAP", "dot1p_to_tc_map"),),
    "TC_TO_DSCP_MAP": (("PORT_QOS_MAP", "tc_to_dscp_map"),),
    "SCHEDULER": (("QUEUE", "scheduler"), ("PORT_QOS_MAP", "scheduler")),
    "WRED_PROFILE": (("QUEUE", "wred_profile"),),
}
HAND_OVER = "switch_deploy_sonic_hand_over"
SHOWN = 3                                   # users named in a message; the rest are counted
# sonic-config-engine portconfig.py L42: one group of a breakout mode, "+"-joined (L348):
# <ports>x<speed>G[<other speeds>](<lanes>).
BREAKOUT = re.compile(r"(\d{1,6})x(\d{1,6})G?(\[[\dG,]*\])?(\((\d{1,6})\))?$")


def risks(running: Dict[str, Any], intended: Dict[str, Any], names: AbstractSet[str],
          keeps: Keeps, hand_over: Iterable[str] = ()) -> List[str]:
    """One line per conflict between the plan and what the running CONFIG_DB hangs on the
    objects the plan owns; ValueError for a ``hand_over`` entry naming no object the plan
    writes. ``names``: the plan's ports and loopbacks, ``keeps``: the patch's ownership
    (deploy/sonic.py ``plan_names``, ``shared_risks``; passed in so this module does not import
    that one)."""
    handed = checked(intended, hand_over)
    return (membership_risks(running, intended, names) + binding_risks(running, intended, names)
            + source_risks(running, intended, names)
            + named_risks(running, intended, keeps, handed)
            + breakout_risks(running, intended))


def checked(intended: Dict[str, Any], hand_over: Iterable[str]) -> AbstractSet[str]:
    """The ``hand_over`` entries, each a named object the plan writes ("TABLE|name"); else
    ValueError naming the entry and the valid names."""
    valid = sorted("%s|%s" % (t, n) for t in NAMED for n in intended.get(t, {}))
    wrong = [h for h in hand_over if h not in valid]
    if wrong:
        raise ValueError("%s entry %s names no object the plan writes: valid are %s"
                         % (HAND_OVER, ", ".join('"%s"' % w for w in wrong),
                            ", ".join(valid) or "none"))
    return frozenset(hand_over)


def membership_risks(running: Dict[str, Any], intended: Dict[str, Any],
                     names: AbstractSet[str]) -> List[str]:
    """A plan port that is a member of a PortChannel or a VLAN the plan does not render."""
    out = []
    for table, free in MEMBERSHIP:
        for key in sorted(running.get(table, {})):
            group, _bar, port = key.partition("|")
            if port in names and key not in intended.get(table, {}):
                out.append("%s|%s is a plan port and a member of %s (%s|%s): the patch would "
                           "route it (%s) and leave the membership - remove it first (`%s`), "
                           "or leave %s out of the plan"
                           % ("PORT", port, group, table, key, _planned(intended, port),
                              free % (group, port), port))
    return out


def _planned(intended: Dict[str, Any], port: str) -> str:
    rows = [k for t in ("INTERFACE", "LOOPBACK_INTERFACE") for k in intended.get(t, {})
            if k.split("|")[0] == port and "|" in k]
    return "planned " + ", ".join(r.split("|", 1)[1] for r in sorted(rows)) if rows else \
        "its planned rows"


def binding_risks(running: Dict[str, Any], intended: Dict[str, Any],
                  names: AbstractSet[str]) -> List[str]:
    """A plan interface whose running row binds it to a VRF/VNET the plan's row drops or
    changes (a routed port in an in-band management VRF)."""
    out = []
    for table in ("INTERFACE", "LOOPBACK_INTERFACE"):
        for name, row in sorted(running.get(table, {}).items()):
            if "|" in name or name not in names:
                continue
            want = intended.get(table, {}).get(name, {}) or {}
            for field in BINDINGS:
                if field in (row or {}) and want.get(field) != row[field]:
                    out.append("%s|%s %s %s -> %s: the plan would move %s out of %s %s, which "
                               "the plan does not render - move it out on the switch first, or "
                               "leave %s out of the plan"
                               % (table, name, field, row[field], want.get(field, "(none)"),
                                  name, "VRF" if field == "vrf_name" else "VNET", row[field],
                                  name))
    return out


def _addresses(db: Dict[str, Any], name: str) -> List[str]:
    return sorted(k for t in ("INTERFACE", "LOOPBACK_INTERFACE") for k in db.get(t, {})
                  if "|" in k and k.split("|")[0] == name)


def _values(value: Any) -> List[str]:
    items = value if isinstance(value, list) else str(value).split(",")
    return [str(v).strip() for v in items if str(v).strip()]


def _refs(value: Any) -> List[str]:
    """The names a reference field holds: ``name``, a comma list, or the older
    ``[TABLE|name]`` form (as buffers.uses reads a profile list)."""
    return [v[1:-1].split("|", 1)[1] if v.startswith("[") and v.endswith("]") and "|" in v
            else v for v in _values(value)]


def _rows(running: Dict[str, Any], table: str, key: Optional[str]) -> List[Tuple[str, Any]]:
    rows = running.get(table, {})
    return sorted(rows.items()) if key is None else [(key, rows[key])] if key in rows else []


def source_risks(running: Dict[str, Any], intended: Dict[str, Any],
                 names: AbstractSet[str]) -> List[str]:
    """A service that takes its source from a plan interface the plan readdresses (by the
    interface's name) or from an address the plan removes (by the address)."""
    out = []
    for name in sorted(names):
        old, new = _addresses(running, name), _addresses(intended, name)
        if not old or old == new:
            continue
        change = "%s -> %s" % (", ".join(a.split("|", 1)[1] for a in old),
                               ", ".join(a.split("|", 1)[1] for a in new) or "none")
        for table, key, field in BY_NAME:
            for rkey, row in _rows(running, table, key):
                if field and name in _values((row or {}).get(field, "")):
                    out.append(_source_msg("%s|%s %s %s" % (table, rkey, field, name), name,
                                           change))
        gone = [a for a in old if a not in new]
        for table, key, afield in BY_ADDRESS:
            for rkey, row in _rows(running, table, key):
                ip = rkey.split("|")[0] if afield is None else str((row or {}).get(afield, ""))
                hit = [a for a in gone if a.split("|", 1)[1].split("/")[0] == ip]
                if hit:
                    user = "%s|%s" % (table, rkey) if afield is None else "%s|%s %s %s" % (
                        table, rkey, afield, ip)
                    out.append(_source_msg(user, name, change, "%s|%s" % (
                        _table(running, hit[0]), hit[0])))
    return out


def _table(db: Dict[str, Any], key: str) -> str:
    return "LOOPBACK_INTERFACE" if key in db.get("LOOPBACK_INTERFACE", {}) else "INTERFACE"


def _source_msg(user: str, name: str, change: str, address: str = "") -> str:
    return ("%s takes its source from %s, whose address the plan changes (%s%s): the service "
            "would lose its source - point it at another interface or address first, or keep "
            "%s's address in the plan"
            % (user, name, change, "; it uses %s" % address if address else "", name))


def _users(running: Dict[str, Any], table: str, name: str, keeps: Keeps
           ) -> List[Tuple[str, str]]:
    """The running keys outside the plan that use ``table|name``: a key the patch leaves as it
    runs, or a shared-table key whose using field the plan does not write."""
    out = []
    for utable, field in NAMED[table]:
        for key, row in sorted(running.get(utable, {}).items()):
            if field in (row or {}) and name in _refs(row[field]) and \
                    keeps(utable, key, field):
                out.append((utable, key))
    return out


def named_risks(running: Dict[str, Any], intended: Dict[str, Any], keeps: Keeps,
                handed: AbstractSet[str]) -> List[str]:
    """A named object the plan writes that runs with other fields and that keys outside the
    plan use: the patch would rewrite it under them. Identical objects are reused as they are
    and an object only the plan uses is the plan's.

    Renaming the plan's object is not a free way out: SONiC's traditional buffermgrd points
    every lossless PG at pg_lossless_<speed>_<cable>_profile by name and reuses a configured
    profile of that name (render/sonic/config_db.py _pg_profile, render/sonic/buffermgrd.py),
    so the plan takes the standard name, and the switch's other ports already hold it."""
    out = []
    for table in sorted(NAMED):
        for name, want in sorted(intended.get(table, {}).items()):
            have = running.get(table, {}).get(name)
            if have is None or have == want or "%s|%s" % (table, name) in handed:
                continue
            users = _users(running, table, name, keeps)
            if users:
                out.append(_named_msg(table, name, have or {}, want or {}, users))
    return out


def _named_msg(table: str, name: str, have: Dict[str, Any], want: Dict[str, Any],
               users: Sequence[Tuple[str, str]]) -> str:
    fields = ", ".join("%s %s -> %s" % (f, have.get(f, "(none)"), want.get(f, "(none)"))
                       for f in sorted(set(have) | set(want)) if have.get(f) != want.get(f))
    shown = ", ".join("%s|%s" % u for u in users[:SHOWN])
    more = " and %d more" % (len(users) - SHOWN) if len(users) > SHOWN else ""
    extra = ""
    rows = [u for u in users if u[0] in ("BUFFER_PG", "BUFFER_QUEUE")]
    if table == "BUFFER_PROFILE" and rows and have.get("size") != want.get("size"):
        delta = _int(want.get("size")) - _int(have.get("size"))
        # bufferorch sets the profile on each PG/queue of a row's range (sonic-swss @e6b0c5b
        # orchagent/bufferorch.cpp L1044 queues, L1440 PGs): a 3-4 row reserves it twice
        units = sum(_width(k) for _t, k in rows)
        extra = "; %+d bytes reserved per PG row x %d rows = %+d bytes%s" % (
            delta, len(rows), delta * len(rows),
            " (the rows cover %d PGs/queues: %+d bytes)" % (units, delta * units)
            if units != len(rows) else "")
    return ("%s|%s runs with other fields (%s) and %d keys outside the plan use it (%s%s): "
            "the patch would rewrite it for them too%s - hand it over by name (%s: [\"%s|%s\"]) "
            "or change the plan" % (table, name, fields, len(users), shown, more, extra,
                                    HAND_OVER, table, name))


def _int(value: Any) -> int:
    return int(value) if str(value).isdigit() else 0


def _width(key: str) -> int:
    """How many PGs/queues a BUFFER_PG/BUFFER_QUEUE key covers: "Ethernet0|3-4" two."""
    low, _dash, high = key.split("|")[-1].partition("-")
    return int(high) - int(low) + 1 if low.isdigit() and high.isdigit() else 1


def _lanes(row: Dict[str, Any]) -> List[int]:
    return [int(x) for x in str(row.get("lanes", "")).split(",") if x.strip().isdigit()]


def _mode_ports(parent: str, mode: str, lanes: List[int]
                ) -> Optional[Dict[str, Tuple[List[int], AbstractSet[int]]]]:
    """{port: (lanes, speeds in Mb/s)} a breakout mode gives the parent, as sonic-config-engine
    portconfig.py get_config (L356-395) names them: Ethernet<base + lane offset>, each group's
    lanes (all the parent's unless given) split evenly; None for a mode it cannot parse."""
    base = re.match(r"Ethernet(\d+)$", parent)
    groups = [BREAKOUT.match(g) for g in mode.split("+")]
    if base is None or not all(groups):
        return None
    out: Dict[str, Tuple[List[int], AbstractSet[int]]] = {}
    at = 0
    for group in groups:
        if group is None:
            raise AssertionError("a breakout group that did not match")
        count, speed, others, _l, assigned = group.groups()
        width = (int(assigned) if assigned else len(lanes)) // int(count)
        speeds = frozenset(int(s.rstrip("G")) * 1000 for s in
                           [speed] + (others or "").strip("[]").split(",") if s.rstrip("G"))
        for _n in range(int(count)):
            out["Ethernet%d" % (int(base.group(1)) + at)] = (lanes[at:at + width], speeds)
            at += width
    return out


def breakout_risks(running: Dict[str, Any], intended: Dict[str, Any]) -> List[str]:
    """A plan port that the device's breakout mode of its front-panel port does not have (other
    lanes, a speed the mode lacks, a port the mode does not create): the patch would rewrite
    PORT lanes and add ports while BREAKOUT_CFG keeps the mode. The ports of one front-panel
    port share PORT ``index`` (platform.json: one index per lane, e.g. sn5600 L674-681)."""
    out = []
    ports, plan = running.get("PORT", {}), intended.get("PORT", {})
    for parent, row in sorted(running.get("BREAKOUT_CFG", {}).items()):
        mode, index = str((row or {}).get("brkout_mode", "")), ports.get(parent, {}).get("index")
        if index is None:
            continue
        mine = sorted(p for p, r in plan.items()
                      if (r or {}).get("index", ports.get(p, {}).get("index")) == index)
        if not mine:
            continue
        wanted = intended.get("BREAKOUT_CFG", {}).get(parent, {}).get("brkout_mode")
        lanes = sorted(set(x for p, r in ports.items() if r.get("index") == index
                           for x in _lanes(r)))
        children = _mode_ports(parent, mode, lanes)
        bad = [p for p in mine if wanted is None and children is not None and not _fits(
            dict(ports.get(p, {}), **plan[p]), children.get(p))]
        if wanted not in (None, mode) or bad:
            out.append(_breakout_msg(parent, mode, wanted or _implied(
                [dict(ports.get(p, {}), **plan[p]) for p in mine], len(lanes)), bad or mine,
                plan))
    return out


def _fits(row: Dict[str, Any], child: Optional[Tuple[List[int], AbstractSet[int]]]) -> bool:
    speed = str(row.get("speed", ""))
    return child is not None and _lanes(row) == child[0] and (
        not speed.isdigit() or int(speed) in child[1])


def _implied(rows: Sequence[Dict[str, Any]], width: int) -> str:
    """The mode the plan's PORT rows of one front-panel port describe: <n>x<speed>G when they
    have one lane count and speed."""
    shapes = set((len(_lanes(r)), str(r.get("speed", ""))) for r in rows)
    if len(shapes) != 1:
        return "a mixed mode"
    count, speed = shapes.pop()
    if not count or not speed.isdigit():
        return "another mode"
    return "%dx%dG" % (width // count, int(speed) // 1000)


def _breakout_msg(parent: str, mode: str, implied: str, bad: Sequence[str],
                  plan: Dict[str, Any]) -> str:
    shown = ", ".join("%s (lanes %s, speed %s)" % (p, plan[p].get("lanes", "?"),
                                                   plan[p].get("speed", "?")) for p in bad)
    return ("BREAKOUT_CFG|%s brkout_mode is %s on the device, but the plan's PORT rows %s "
            "describe %s: the patch would rewrite lanes and add ports while the breakout mode "
            "stays - `config interface breakout %s <mode>` (dynamic port breakout) first, or "
            "change the plan" % (parent, mode, shown, implied, parent))
