# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A link is one object: overrides of cable, speed, media and MTU apply to both of its ends.

An override may name either end (a switch's ``roce_link_overrides.<port>`` or a GPU host's
``roce_nic_overrides.<index>``). Cable length, speed and media belong to the link: both ends are
sized from the same values, and two ends that set different values are an error naming both.
The MTU is one value for both ends of a switch-switch link; on a leaf-NIC link each end keeps
its own (the NIC's IP MTU sits below the leaf's, checked by the mtu-chain rule): a switch's
override of a host link's MTU (its own port's or its roce_downlink_overrides) sets the leaf's
end only. A switch port's MTU above its platform's maximum (hardware/platforms.py
mtu_max_bytes) is refused, naming the override that sets it. Addresses are
per end, but a /31 has two halves: giving one end's address gives the other end the other half,
and two given addresses must be the two halves of one /31. Admin state, pinned headroom, lanes
and alias are per end. Linear in overrides and links.

A switch (usually through a group: a leaf pair's group_vars, one pod's spines) can set link
properties for all of its links towards the tier above (``roce_uplink_overrides``) or below
(``roce_downlink_overrides``: a spine's leaf links, a leaf's host links) in one line. They are
link overrides like any other: both ends take the value, and the other end setting another value
is an error naming both. A port's own ``roce_link_overrides`` entry is more specific and wins
over the group form on the same end.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, List, NamedTuple, Tuple, Union

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import platforms

LINK_KEYS = ("cable_m", "speed_gbps", "media", "mtu_bytes")
PEERS = {"host": "hosts", "leaf": "leaves", "spine": "spines", "superspine": "super-spines"}
GROUP_VARS = ("roce_uplink_overrides", "roce_downlink_overrides")
# a link end: (switch, port) or ("nic", host, NIC index)
EndKey = Tuple[Union[str, int], ...]
# per link index: {key: (value, host, field)} the overrides of either end want
Wanted = Dict[int, Dict[str, Tuple[Any, str, str]]]


class Link(NamedTuple):
    """One link of the fabric: ``kind`` "fabric" (switch-switch; ``a`` is the upper tier's
    Port, ``b`` the lower's) or "host" (``a`` the leaf's Port, ``b`` the host's Nic). A tuple,
    so ``for kind, a, b in fab.links`` unpacks it."""
    kind: str
    a: Any      # fabric.Port (typed Any: fabric.py imports this module)
    b: Any      # fabric.Port or fabric.Nic


def _end_key(kind: str, end: Any) -> EndKey:
    return ("nic", end.host, end.index) if kind == "host" else (end.switch, end.name)


def apply_overrides(fab: Any, relane: Callable[[Any], None]) -> None:
    """Apply every switch's roce_link_overrides and every NIC's cable override to the links.
    ``relane(port)`` recomputes a port's default lanes after a speed change."""
    if not _any_override(fab):
        return      # the common case: no index of a million link ends to build
    by_end: Dict[EndKey, int] = {}
    for i, (kind, a, b) in enumerate(fab.links):
        by_end[(a.switch, a.name)] = i
        by_end[_end_key(kind, b)] = i
    wanted: Wanted = {}
    for sw in fab.all_switches():
        ports = sw.vars.get("roce_link_overrides") or {}
        _group_wants(fab, sw, by_end, ports, wanted)
        for pname, ov in ports.items():
            field = "roce_link_overrides.%s" % pname
            port = sw.ports.get(pname)
            if port is None:
                raise errors.RoceInputError(field, pname, "a port %s has wired: %s" % (
                    sw.name, wired_ports(sw)), sw.name)
            i = by_end[(sw.name, pname)]
            for key, value in ov.items():
                if key in LINK_KEYS and not (key == "mtu_bytes" and fab.links[i][0] == "host"):
                    _want(wanted, i, key, value, sw.name, "%s.%s" % (field, key))
                elif key == "mtu_bytes":       # a host link: the leaf's end only
                    check_mtu(fab, sw.name, value, sw.name, "%s.%s" % (field, key))
                    port.mtu_bytes = value
                elif key == "state":
                    port.up = value == "up"
                else:
                    setattr(port, key, value)
    for host, nics in fab.hosts:
        overrides = fab.host_vars(host).get("roce_nic_overrides") or {}
        for nic in nics:
            ov = overrides.get(str(nic.index)) or {}
            if "cable_m" in ov:
                _want(wanted, by_end[("nic", host, nic.index)], "cable_m", ov["cable_m"], host,
                      "roce_nic_overrides.%d.cable_m" % nic.index)
    for i, settings in wanted.items():
        kind, a, b = fab.links[i]
        for key, (value, host, field) in settings.items():
            if key == "mtu_bytes":          # a switch-switch link: both ends take it
                check_mtu(fab, a.switch, value, host, field)
                check_mtu(fab, b.switch, value, host, field)
            setattr(a, key, value)
            setattr(b, key, value)
            if key == "speed_gbps":
                relane(a)
                if kind == "fabric":
                    relane(b)


def _any_override(fab: Any) -> bool:
    """Whether any switch or NIC overrides a link (what apply_overrides reads)."""
    for sw in fab.all_switches():
        if sw.vars.get("roce_link_overrides") or any(sw.vars.get(v) for v in GROUP_VARS):
            return True
    return any(fab.host_vars(host).get("roce_nic_overrides") for host, _nics in fab.hosts)


def wired_ports(sw: Any, runs: int = 4) -> str:
    """The ports a switch has wired, for messages: each run of neighbouring ports towards one
    tier as its first two names (the step) and its last, e.g. 'Ethernet0, Ethernet4 ..
    Ethernet60 (16 to hosts), Ethernet64, Ethernet68 .. Ethernet124 (16 to spines)'."""
    ports = sorted(sw.ports.values(), key=lambda p: p.index)
    groups: List[Tuple[str, List[Any]]] = []     # runs: (peer kind, ports)
    for p in ports:
        if groups and groups[-1][0] == p.peer_kind and groups[-1][1][-1].index == p.index - 1:
            groups[-1][1].append(p)
        else:
            groups.append((p.peer_kind, [p]))
    out = []
    for kind, run in groups[:runs]:
        names = [p.name for p in run]
        shown = ", ".join(names) if len(names) <= 3 else "%s, %s .. %s" % (
            names[0], names[1], names[-1])
        out.append("%s (%d to %s)" % (shown, len(names), PEERS.get(kind, kind)))
    if len(groups) > runs:
        out.append("and %d more ports" % sum(len(run) for _kind, run in groups[runs:]))
    text = ", ".join(out) or "none"
    return "%s; the switch's ports: %s" % (text, sw.portmap.describe())


def _group_wants(fab: Any, sw: Any, by_end: Dict[EndKey, int], ports: Dict[str, Any],
                 wanted: Wanted) -> None:
    """roce_uplink_overrides / roce_downlink_overrides of switch ``sw``: every link of the switch
    towards the tier above / below takes the values, unless the port's own override sets the
    key."""
    for var in GROUP_VARS:
        ov = sw.vars.get(var)
        if not ov:
            continue
        up = var == "roce_uplink_overrides"
        for pname in sw.ports:
            i = by_end.get((sw.name, pname))
            if i is None:
                continue
            kind, a, _b = fab.links[i]
            is_up = kind == "fabric" and a.switch != sw.name
            if is_up != up:
                continue
            own = ports.get(pname) or {}
            for key, value in ov.items():
                if key in own:
                    continue
                if key == "mtu_bytes" and kind == "host":
                    # a leaf's host links: the leaf's end takes it, the NIC keeps its own MTU
                    check_mtu(fab, sw.name, value, sw.name, "%s.%s" % (var, key))
                    a.mtu_bytes = value
                    continue
                _want(wanted, i, key, value, sw.name, "%s.%s" % (var, key))


def check_mtu(fab: Any, switch: str, value: int, host: str, field: str) -> None:
    """Refuse ``value`` as a port MTU of ``switch`` above its platform's maximum; the error
    names the host and field that set it."""
    check_mtu_value(fab.switches[switch].platform, switch, value, host, field)


def check_mtu_value(platform_name: str, switch: str, value: int, host: str, field: str) -> None:
    """check_mtu for a switch of platform ``platform_name``."""
    platform = platforms.PLATFORMS[platform_name]
    if value > platform.mtu_max_bytes:
        raise errors.RoceInputError(
            field, value, "at most %d on %s: the largest port MTU %s takes (%s)"
            % (platform.mtu_max_bytes, switch, platform.title, platform.mtu_source), host)


def _want(wanted: Wanted, link: int, key: str, value: Any, host: str, field: str) -> None:
    have = wanted.setdefault(link, {}).get(key)
    if have is not None and have[0] != value:
        raise errors.RoceInputError(
            field, value, "the same %s on both ends of one link: %s sets %s = %r for the other "
            "end; set it on one end only" % (key, have[1], have[2], have[0]), host)
    wanted[link][key] = (value, host, field)


def pair_addresses(fab: Any, netaddr: Any) -> None:
    """Give each end whose peer's address was set the other half of that /31; check ends that
    both were set share one /31. Runs before the pools hand out the rest. Derived addresses are
    remembered with the field they came from (fab.derived_addresses), for clash messages."""
    fab.derived_addresses = {}
    for kind, a, b in fab.links:
        if a.address is None and b.address is None:
            continue
        ends = [(a, a.switch, "roce_link_overrides.%s.address" % a.name)]
        if kind == "host":
            ends.append((b, b.host, "roce_nic_overrides.%d.address" % b.index))
        else:
            ends.append((b, b.switch, "roce_link_overrides.%s.address" % b.name))
        given = [(end, host, field, _net(netaddr, end.address, field, host))
                 for end, host, field in ends if end.address is not None]
        if len(given) == 1:
            end, host, field, ip = given[0]
            other = a if end is b else b
            other.address = "%s/31" % netaddr.IPAddress(int(ip) ^ 1)
            fab.derived_addresses[id(other.address)] = (host, field)
            continue
        (_end_a, host_a, field_a, ip_a), (_end_b, host_b, field_b, ip_b) = given
        if int(ip_a) >> 1 != int(ip_b) >> 1 or ip_a == ip_b:
            raise errors.RoceInputError(
                field_b, b.address, "the other half of the /31 that %s %s = %s sets (%s), or "
                "no address (it is then derived)" % (host_a, field_a, a.address,
                                                     netaddr.IPAddress(int(ip_a) ^ 1)), host_b)


def _net(netaddr: Any, text: str, field: str, host: str) -> Any:
    try:
        return netaddr.IPAddress(text.split("/")[0], 4, flags=netaddr.INET_PTON)
    except (netaddr.AddrFormatError, ValueError, TypeError):
        raise errors.RoceInputError(field, text, "an IPv4 /31 such as 198.18.8.1/31",
                                    host) from None
