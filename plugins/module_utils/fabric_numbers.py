# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Numbers of the fabric model (see fabric.py): loopbacks and link /31s from sequential pools,
ASNs per tier (RFC 7938: one per tier, per pod for three-tier spines, one per leaf), and the
checks that no address or ASN clashes. Linear in switches and links."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.roce.fabric.plugins.module_utils import errors

try:
    import netaddr
except ImportError:  # fabric.build_fabric reports it before anything here runs
    netaddr = None


class _Pool:
    """Sequential /31s (or /32s) from one netaddr network; linear, no per-address objects."""

    def __init__(self, field, cidr, step):
        try:
            self.net = netaddr.IPNetwork(cidr)
        except (netaddr.AddrFormatError, TypeError, ValueError):
            raise errors.RoceInputError(field, cidr, "an IPv4 or IPv6 prefix such as 198.18.0.0/24")
        self.field, self.step, self.next = field, step, 0
        self.prefixlen = (32 if self.net.version == 4 else 128) - (1 if step == 2 else 0)
        self.first, self.last = self.net.first, self.net.last
        self.text = _ipv4_text if self.net.version == 4 else _ipv6_text

    def take(self):
        first = self.first + self.next * self.step
        if first + self.step - 1 > self.last:
            raise errors.RoceInputError(self.field, str(self.net),
                                        "a prefix large enough for every address (ran out)")
        self.next += 1
        if self.step == 1:
            return "%s/%d" % (self.text(first), self.prefixlen)
        return ("%s/%d" % (self.text(first), self.prefixlen),
                "%s/%d" % (self.text(first + 1), self.prefixlen))


def _ipv4_text(value):
    # dotted quad by arithmetic: a large fabric formats a million addresses
    return "%d.%d.%d.%d" % (value >> 24, (value >> 16) & 255, (value >> 8) & 255, value & 255)


def _ipv6_text(value):
    return str(netaddr.IPAddress(value, 6))


def assign(fab, schemes):
    """Loopbacks and ASNs of every switch, a /31 per link; checked for clashes."""
    s = fab.settings
    asn = s["asn"]
    pools = s["addressing"]
    loop = _Pool("roce_fabric.addressing.loopbacks", pools["loopbacks"], 1)
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
    fabric_pool = _Pool("roce_fabric.addressing.fabric_p2p", pools["fabric_p2p"], 2)
    host_pool = _Pool("roce_fabric.addressing.host_p2p", pools["host_p2p"], 2)
    overridden = set(id(sw.loopback) for sw in fab.switches.values()
                     if "roce_loopback" in sw.vars)
    for kind, a, b in fab.links:
        # Lower tier gets the odd address: spine .0 / leaf .1, leaf .0 / NIC .1 (JVD style).
        pair = (fabric_pool if kind == "fabric" else host_pool).take()
        for end, auto in ((a, pair[0]), (b, pair[1])):
            if end.address is None:
                end.address = auto
            else:
                overridden.add(id(end.address))
        if kind == "fabric":
            a.peer_address, b.peer_address = b.address, a.address
        else:
            a.peer_address = b.address
            b.gateway = a.address
    # Addresses from one pool never repeat; only inventory-given addresses or pools that overlap
    # can collide, and then every address is checked (a 100k-GPU fabric has a million).
    pools = (loop, fabric_pool, host_pool)
    if overridden or any(x.first <= y.last and y.first <= x.last
                         for i, x in enumerate(pools) for y in pools[i + 1:]):
        _check_unique_addresses(fab, overridden)


def _asn_group(fab, sw):
    """Switches that may share an ASN: all super-spines (shared scheme), the spines of a pod
    (all spines in two tiers) with the shared scheme; otherwise each switch alone. Planes are
    separate fabrics, so equal ASNs in different planes are fine."""
    scheme = fab.settings["asn"]
    if sw.role == "superspine" and scheme["superspine_scheme"] == "shared":
        return ("superspine", sw.plane)
    if sw.role == "spine" and scheme["spine_scheme"] == "shared":
        return ("spine", sw.pod if fab.tiers == 3 else sw.plane)
    return ("switch", sw.name)


def _check_asns(fab):
    """Leaves have their own ASN; spines and super-spines share theirs per scheme (RFC 7938:
    one ASN per tier, per pod for three-tier spines), and no ASN spans two groups."""
    owner = {}
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


def _check_unique_addresses(fab, overridden):
    seen = {}
    for sw in fab.all_switches():
        _claim(seen, sw.loopback, "roce_loopback", sw.name, overridden)
        for p in sw.ports.values():
            _claim(seen, p.address, "roce_link_overrides.%s.address" % p.name, sw.name,
                   overridden)
    for host, nics in fab.hosts:
        for nic in nics:
            _claim(seen, nic.address, "roce_nic_overrides.%d.address" % nic.index, host,
                   overridden)


def _claim(seen, addr, field, owner, overridden):
    if id(addr) in overridden:   # only inventory-given addresses need parsing
        try:
            netaddr.IPNetwork(addr)
            if "/" not in addr:
                raise ValueError(addr)
        except (netaddr.AddrFormatError, TypeError, ValueError):
            raise errors.RoceInputError(field, addr, "an address with prefix length such as "
                                        "198.18.8.1/31", owner)
    ip = addr.split("/")[0]
    if ip in seen:
        raise errors.RoceInputError(field, addr, "an address used once (also on %s)" % seen[ip],
                                    owner)
    seen[ip] = owner
