# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Numbers of the fabric model (see fabric.py): loopbacks and link /31s from sequential pools,
ASNs per tier (RFC 7938: one per tier, per pod for three-tier spines, one per leaf), and the
checks that no address or ASN clashes. Linear in switches and links."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Union, cast

from ansible_collections.roce.fabric.plugins.module_utils import errors

try:
    import netaddr
except ImportError:  # fabric.build_fabric reports it before anything here runs
    netaddr = None  # type: ignore[assignment]  # build_fabric stops on None before any use

# switches that may share an ASN: ("superspine", plane), ("spine", pod or plane), ("switch", name)
AsnGroup = Tuple[str, Union[int, str]]


class _Pool:
    """Sequential /31s (or /32s) from one netaddr network; linear, no per-address objects."""

    def __init__(self, field: str, cidr: str, step: int) -> None:
        try:
            self.net = netaddr.IPNetwork(cidr, version=4)
        except (netaddr.AddrFormatError, TypeError, ValueError):
            raise errors.RoceInputError(field, cidr, "an IPv4 prefix such as 198.18.0.0/24 "
                                        "(IPv6 fabrics are not supported)") from None
        if self.net.ip != self.net.network:
            raise errors.RoceInputError(field, cidr, "a prefix on its network boundary (%s)"
                                        % self.net.cidr)
        self.field, self.step, self.next = field, step, 0
        self.prefixlen = (32 if self.net.version == 4 else 128) - (1 if step == 2 else 0)
        self.first, self.last = self.net.first, self.net.last
        self.text: Callable[[int], str] = _ipv4_text if self.net.version == 4 else _ipv6_text
        # take(): the last /31s' first three octets (head_of None: none formatted yet)
        self.head_of: Optional[int] = None
        self.head = ""

    def fits(self, need: int, what: str) -> None:
        """Refuse a pool smaller than ``need`` addresses (/31s at step 2) for ``what``, with
        the numbers: the need, this prefix's capacity and the smallest prefix that fits."""
        size = self.last - self.first + 1
        if need * self.step <= size:
            return
        unit = "/31s" if self.step == 2 else "addresses (/32)"
        fit = 32 - (need * self.step - 1).bit_length()
        raise errors.RoceInputError(self.field, str(self.net), "a prefix large enough, /%d or "
                                    "shorter: %s need %d %s and a /%d holds %d" % (
                                        fit, what, need, unit, self.net.prefixlen,
                                        size // self.step))

    def take(self) -> Union[str, Tuple[str, str]]:
        """The next address: a /32 text (step 1), or a /31's two address texts (step 2)."""
        first = self.first + self.next * self.step
        if first + self.step - 1 > self.last:
            raise errors.RoceInputError(self.field, str(self.net),
                                        "a prefix large enough for every address (ran out)")
        self.next += 1
        if self.step == 1:
            return "%s/%d" % (self.text(first), self.prefixlen)
        # a /31's two addresses differ in the last octet only (the pool starts on a boundary),
        # and 128 /31s in a row share the first three octets: formatted once for them
        if first >> 8 != self.head_of:
            self.head_of = first >> 8
            self.head = "%d.%d.%d." % (first >> 24, (first >> 16) & 255, (first >> 8) & 255)
        last = first & 255
        return (self.head + _OCTET31[last], self.head + _OCTET31[last + 1])


_OCTET31 = ["%d/31" % octet for octet in range(256)]     # a /31 address's last octet


def _ipv4_text(value: int) -> str:
    # dotted quad by arithmetic: a large fabric formats a million addresses
    return "%d.%d.%d.%d" % (value >> 24, (value >> 16) & 255, (value >> 8) & 255, value & 255)


def _ipv6_text(value: int) -> str:
    return str(netaddr.IPAddress(value, 6))


def assign(fab: Any, schemes: Sequence[str]) -> None:
    """Loopbacks and ASNs of every switch, a /31 per link; checked for clashes."""
    s = fab.settings
    asn = s["asn"]
    pools = s["addressing"]
    loop = _Pool("roce_fabric.addressing.loopbacks", pools["loopbacks"], 1)
    fabric_pool = _Pool("roce_fabric.addressing.fabric_p2p", pools["fabric_p2p"], 2)
    host_pool = _Pool("roce_fabric.addressing.host_p2p", pools["host_p2p"], 2)
    _check_pools_apart((loop, fabric_pool, host_pool))
    switch_links = sum(1 for link in fab.links if link[0] == "fabric")
    switches = len(fab.switches)
    loop.fits(switches, "the %d switches' loopbacks" % switches)
    fabric_pool.fits(switch_links, "the %d switch-to-switch links" % switch_links)
    if s["routing"]["advertise"] == "aggregate":
        take_leaf = _leaf_blocks(fab, host_pool)
    else:
        host_pool.fits(len(fab.links) - switch_links, "the %d host links"
                       % (len(fab.links) - switch_links))
        take_leaf = None
    errors.choice("roce_fabric.asn.superspine_scheme", asn["superspine_scheme"], schemes)
    for sw in fab.all_switches():
        auto = loop.take()
        sw.loopback = sw.vars.get("roce_loopback", auto)
        if sw.role == "superspine":
            default = asn["superspine"] + (sw.index if asn["superspine_scheme"] == "unique"
                                           else 0)
        elif sw.role == "spine" and asn["spine_scheme"] == "unique":
            default = asn["spine"] + sw.index
        elif sw.role == "spine":    # shared: by all spines (two tiers) or a pod's (three)
            default = asn["spine"] + (sw.pod if fab.tiers == 3 else 0)
        else:
            default = asn["leaf_first"] + sw.index
        sw.asn = errors.number("roce_asn", sw.vars.get("roce_asn", default), 1, 4294967295, "",
                               sw.name, integer=True)
    _check_asns(fab)
    overridden = set(id(sw.loopback) for sw in fab.switches.values()
                     if "roce_loopback" in sw.vars)
    # a /31 pool's take() gives the /31's two addresses
    take_fabric = cast("Callable[[], Tuple[str, str]]", fabric_pool.take)
    take_host = cast("Callable[[], Tuple[str, str]]", host_pool.take)
    for kind, a, b in fab.links:
        # Lower tier gets the odd address: spine .0 / leaf .1, leaf .0 / NIC .1 (JVD style).
        if kind == "fabric":
            upper, lower = take_fabric()
        elif take_leaf is not None:
            upper, lower = take_leaf[a.switch]()
        else:
            upper, lower = take_host()
        if a.address is None:
            a.address = upper
        else:
            overridden.add(id(a.address))
        if b.address is None:
            b.address = lower
        else:
            overridden.add(id(b.address))
        if kind == "fabric":
            a.peer_address, b.peer_address = b.address, a.address
        else:
            a.peer_address = b.address
            b.gateway = a.address
    # Addresses from one pool never repeat and pools may not overlap; only inventory-given
    # addresses can collide, and then every address is checked (a 100k-GPU fabric has a million).
    if overridden:
        _check_unique_addresses(fab, overridden)


def _leaf_blocks(fab: Any, pool: _Pool) -> Dict[str, Callable[[], Tuple[str, str]]]:
    """routing.advertise aggregate: each leaf's host /31s from one aligned block of its own -
    the smallest power of two holding them - so the leaf announces the block alone. Blocks go
    largest first, which keeps each on its boundary; the pool is refused with the numbers when
    they do not fit. {leaf: its block's take()}; each leaf's host_aggregate is set."""
    count: Dict[str, int] = {}
    for kind, a, _b in fab.links:
        if kind == "host":
            count[a.switch] = count.get(a.switch, 0) + 1
    size = dict((leaf, 2 << max(0, n - 1).bit_length()) for leaf, n in count.items())
    need = sum(size.values())
    capacity = pool.last - pool.first + 1
    if need > capacity:
        fit = 32 - (need - 1).bit_length()
        raise errors.RoceInputError(
            pool.field, str(pool.net), "a prefix large enough, /%d or shorter: the %d host "
            "links in one aligned block per leaf (routing.advertise aggregate) need %d addresses "
            "and a /%d holds %d" % (fit, sum(count.values()), need, pool.net.prefixlen,
                                    capacity))
    out: Dict[str, Callable[[], Tuple[str, str]]] = {}
    first = pool.first
    for leaf in sorted(size, key=lambda name: -size[name]):      # stable: leaf order kept
        block = "%s/%d" % (pool.text(first), 32 - (size[leaf] - 1).bit_length())
        if count[leaf] > 1:     # one host link: its /31 announced as it is (an aggregate
            fab.switches[leaf].host_aggregate = block   # of one more-specific sums up nothing)
        out[leaf] = cast("Callable[[], Tuple[str, str]]", _Pool(pool.field, block, 2).take)
        first += size[leaf]
    return out


def _check_pools_apart(pools: Sequence[_Pool]) -> None:
    for i, x in enumerate(pools):
        for y in pools[i + 1:]:
            if x.first <= y.last and y.first <= x.last:
                raise errors.RoceInputError(y.field, str(y.net), "a prefix apart from %s (%s)"
                                            % (x.field, x.net))


def _asn_group(fab: Any, sw: Any) -> AsnGroup:
    """Switches that may share an ASN: all super-spines (shared scheme), the spines of a pod
    (all spines in two tiers) with the shared scheme; otherwise each switch alone. Planes are
    separate fabrics, so equal ASNs in different planes are fine."""
    scheme = fab.settings["asn"]
    if sw.role == "superspine" and scheme["superspine_scheme"] == "shared":
        return ("superspine", sw.plane)
    if sw.role == "spine" and scheme["spine_scheme"] == "shared":
        return ("spine", sw.pod if fab.tiers == 3 else sw.plane)
    return ("switch", sw.name)


def _check_asns(fab: Any) -> None:
    """Leaves have their own ASN; spines and super-spines share theirs per scheme (RFC 7938:
    one ASN per tier, per pod for three-tier spines), and no ASN spans two groups."""
    owner: Dict[Tuple[int, int], Tuple[AsnGroup, str]] = {}    # (plane, ASN): (group, switch)
    for sw in fab.all_switches():
        group = _asn_group(fab, sw)
        key = (sw.plane, sw.asn)
        if key in owner and owner[key][0] != group:
            other = owner[key][1]
            if sw.role == "leaf":
                want = ("an ASN no other switch uses (%s has it too; move roce_fabric.asn."
                        "leaf_first past the spine ASNs)" % other)
            elif group[0] == "switch":
                want = ("an ASN of this %s alone (%s_scheme unique; %s has it too)"
                        % (sw.role, sw.role, other))
            else:
                want = ("an ASN no switch outside its %s group uses (%s has it too)"
                        % (sw.role, other))
            raise errors.RoceInputError("roce_asn", sw.asn, want, sw.name)
        owner.setdefault(key, (group, sw.name))


def _check_unique_addresses(fab: Any, overridden: Set[int]) -> None:
    """Every address once. Given addresses are claimed first, so a clash is always reported
    on an address the inventory set (pool addresses never clash with each other), naming the
    other holder; an address derived from the other end of a /31 names that end's field."""
    derived = getattr(fab, "derived_addresses", {})
    entries: List[Tuple[str, str, str, str]] = []     # (address, field, owner, label)
    for sw in fab.all_switches():
        entries.append((sw.loopback, "roce_loopback", sw.name, "%s loopback" % sw.name))
        for p in sw.ports.values():
            entries.append((p.address, "roce_link_overrides.%s.address" % p.name, sw.name,
                            "%s %s" % (sw.name, p.name)))
    for host, nics in fab.hosts:
        for nic in nics:
            entries.append((nic.address, "roce_nic_overrides.%d.address" % nic.index, host,
                            "%s %s" % (host, nic.name)))
    entries.sort(key=lambda e: id(e[0]) not in overridden)
    seen: Dict[str, Tuple[str, str, str, str]] = {}   # ip: (field, owner, label, address)
    for addr, field, owner, label in entries:
        given = id(addr) in overridden
        if id(addr) in derived:
            owner, field = derived[id(addr)]
        if given:
            _parse(addr, field, owner)
        ip = addr.split("/")[0]
        if ip in seen:
            other = seen[ip]
            if given:
                raise errors.RoceInputError(field, addr, "an address used once (%s has it too)"
                                            % other[2], owner)
            raise errors.RoceInputError(other[0], other[3], "an address apart from the pools "
                                        "(the pool gives it to %s too)" % label, other[1])
        seen[ip] = (field, owner, label, addr)


def _parse(addr: str, field: str, owner: str) -> None:
    try:
        netaddr.IPNetwork(addr, version=4)
    except (netaddr.AddrFormatError, TypeError, ValueError):
        raise errors.RoceInputError(field, addr, "an IPv4 address with its prefix length such "
                                    "as 198.18.8.1/31", owner) from None
