"""What the NVUE stand-in (nvue_api.py) accepts: the keys and value ranges of the Cumulus Linux 5.14
NVUE tree the deploy and its fixtures touch, each from NVIDIA's documentation
(CumulusNetworks/docs; paths below, the commits read in hardware/cumulus.py's sources), written
here by hand and independently of the renderer: a key the renderer invents or a value out of
range is refused the way NVUE reports it ("Config invalid at <location>: <reason>",
NVUE-API.md's invalid revision; KB NVUE-Breakout-Fails.md: "Config invalid at
interface.swp1.link.breakout: '4x10G' is not of type 'object'").

Sources: IF = nvue-reference Interface.md and CL 5.14 Switch-Port-Attributes.md; QOS = CL 5.14
Quality-of-Service/_index.md and nvue-reference QoS.md; ROCE = CL 5.14 RoCE page; BGP = CL 5.14
Basic/Optional-BGP-Configuration.md and nvue-reference BGP.md; POL = nvue-reference
Router-Policy.md and CL 5.15 Route-Filtering-and-Redistribution.md; ECMP = CL 5.14
Equal-Cost-Multipath-Load-Sharing.md; SYS = CL 5.14 NVUE-CLI.md (system hostname).
"""
import ipaddress
import re

ON_OFF = ("on", "off")                 # 5.14 switches (5.15 renamed to enabled/disabled)
ENABLE = ("enable", "disable")         # QoS's tx/rx/ecn/red/watchdog state (QOS)


class Int:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def check(self, value):
        if isinstance(value, bool) or not isinstance(value, int):
            return "%r is not of type 'integer'" % (value,)
        if not self.lo <= value <= self.hi:
            return "%d is not between %d and %d" % (value, self.lo, self.hi)
        return None


class Enum:
    def __init__(self, *values):
        self.values = values

    def check(self, value):
        return None if value in self.values else "%r is not one of %s" % (
            value, ", ".join(map(str, self.values)))


class Text:
    def __init__(self, pattern=r".*", most=255):
        self.pattern, self.most = re.compile(pattern), most

    def check(self, value):
        if not isinstance(value, str):
            return "%r is not of type 'string'" % (value,)
        if len(value) > self.most or not self.pattern.fullmatch(value):
            return "%r is not a valid value" % (value,)
        return None


class Member:
    """A collection member without attributes: {}."""

    def check(self, value):
        return None if value == {} else "%r is not of type 'object'" % (value,)


class Coll:
    """A collection: any id ``ids`` accepts -> ``spec``."""

    def __init__(self, ids, spec):
        self.ids, self.spec = ids, spec


def _ipv4(text):
    try:
        ipaddress.IPv4Address(text)
        return True
    except ValueError:
        return False


def _prefix(text):
    try:
        ipaddress.ip_network(text, strict=False)
        return "/" in text
    except ValueError:
        return False


def _int_id(lo, hi):
    return lambda text: text.isdigit() and lo <= int(text) <= hi


NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}")
POLICY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")         # POL: starts with a letter
IFNAME = re.compile(r"(swp[0-9]+(s[0-9]+)?|eth[0-9]+|lo|bond[0-9]+|vlan[0-9]+|peerlink)")
SPEEDS = ("auto", "10M", "100M", "1G", "10G", "25G", "40G", "50G", "100G", "200G", "400G",
          "800G")                                                              # CLI help

PROFILE = {"profile": Text(NAME.pattern)}
IFACE = {
    "type": Enum("swp", "eth", "bond", "loopback", "svi", "sub", "peerlink", "tunnel",
                 "bridge", "vrf"),                                              # IF
    "description": Text(r"[^'\n]*", 255),                     # IF: at most 255 characters
    "link": {
        "mtu": Int(552, 9216),                                                  # IF
        "speed": Enum(*SPEEDS),
        "state": Coll(lambda t: t in ("up", "down"), Member()),   # NVUE-API: {"up": {}}
        "breakout": Coll(lambda t: t in ("1x", "2x", "4x", "8x"),             # IF
                         {"lanes-per-port": Int(1, 8)}),
        "fec": Enum("auto", "rs", "baser", "off"),
        "auto-negotiate": Enum(*ON_OFF),
    },
    "ip": {"address": Coll(_prefix, Member()), "vrf": Text(NAME.pattern)},
    "qos": {"pfc": PROFILE, "congestion-control": PROFILE, "link-pause": PROFILE,
            "mapping": PROFILE, "egress-scheduler": PROFILE,
            "pfc-watchdog": {"state": Enum(*ENABLE)}},                          # QOS
    "router": {"adaptive-routing": {"enable": Enum(*ON_OFF),                     # ECMP
                                    "link-utilization-threshold": Int(1, 100)}},
    "bond": {"member": Coll(IFNAME.fullmatch, Member())},
    "bridge": {"domain": Coll(NAME.fullmatch, {"access": Int(1, 4094)})},
}
SP = Coll(_int_id(0, 7), Member())
QOS = {
    "roce": {"enable": Enum(*ON_OFF), "mode": Enum("lossy", "lossless",
                                                   "lossless-single-ipool", "lossy-multi-tc")},
    "mapping": Coll(NAME.fullmatch, {                                            # QOS
        "trust": Enum("l2", "l3", "port", "both"),
        "dscp": Coll(_int_id(0, 63), {"switch-priority": Int(0, 7)}),
        "pcp": Coll(_int_id(0, 7), {"switch-priority": Int(0, 7)}),
        "port-default-sp": Int(0, 7)}),
    # QOS: "NVUE only supports the default-global profile"
    "egress-queue-mapping": Coll(lambda t: t == "default-global", {
        "switch-priority": Coll(_int_id(0, 7), {"traffic-class": Int(0, 7)})}),
    "egress-scheduler": Coll(NAME.fullmatch, {"traffic-class": Coll(_int_id(0, 7), {
        "mode": Enum("dwrr", "strict"), "bw-percent": Int(1, 100)})}),
    "traffic-pool": Coll(lambda t: t in ("default-lossy", "default-lossless", "mc-lossy",
                                         "roce-lossy", "roce-lossless"),
                         {"memory-percent": Int(1, 100), "switch-priority": SP}),
    "pfc": Coll(NAME.fullmatch, {"switch-priority": SP, "tx": Enum(*ENABLE),
                                 "rx": Enum(*ENABLE), "cable-length": Int(1, 100000),
                                 "port-buffer": Int(0, 2 ** 32), "xoff-threshold": Int(0, 2 ** 32),
                                 "xon-threshold": Int(0, 2 ** 32)}),
    "link-pause": Coll(NAME.fullmatch, {"tx": Enum(*ENABLE), "rx": Enum(*ENABLE),
                                        "cable-length": Int(1, 100000)}),
    "congestion-control": Coll(NAME.fullmatch, {"traffic-class": Coll(_int_id(0, 7), {
        "ecn": Enum(*ENABLE), "red": Enum(*ENABLE), "probability": Int(1, 100),
        "min-threshold": Int(1, 2 ** 32), "max-threshold": Int(1, 2 ** 32)})}),
    "pfc-watchdog": {"polling-interval": Int(100, 5000), "robustness": Int(1, 1000)},
}
ASN = Int(1, 4294967295)                                                          # BGP
AF = {"enable": Enum(*ON_OFF),
      "policy": {"inbound": {"route-map": Text(POLICY.pattern)},
                 "outbound": {"route-map": Text(POLICY.pattern)}},
      "prefix-limits": {"inbound": {"maximum": Int(0, 4294967295)}},
      "aspath": {"allow-my-asn": {"enable": Enum(*ON_OFF), "occurrences": Int(1, 10)}}}
NEIGHBOR = {"remote-as": ASN, "type": Enum("numbered", "unnumbered"),
            "description": Text(r".*", 80),
            "timers": {"keepalive": Int(0, 65535), "hold": Int(3, 65535)},
            "bfd": {"enable": Enum(*ON_OFF)}, "update-source": Text(NAME.pattern),
            "address-family": {"ipv4-unicast": AF}}
VRF_BGP = {
    "enable": Enum(*ON_OFF), "autonomous-system": ASN, "router-id": Text(r"[0-9.]+"),
    "path-selection": {"multipath": {"aspath-ignore": Enum(*ON_OFF)}},
    "address-family": {"ipv4-unicast": {
        "enable": Enum(*ON_OFF),
        "multipaths": {"ebgp": Int(1, 128), "ibgp": Int(1, 128)},                # BGP
        "redistribute": {"connected": {"enable": Enum(*ON_OFF),
                                       "route-map": Text(POLICY.pattern)}},
        "aggregate-route": Coll(_prefix, {"summary-only": Enum(*ON_OFF),
                                          "as-set": Enum(*ON_OFF)}),
        "network": Coll(_prefix, Member())}},
    "neighbor": Coll(lambda t: _ipv4(t) or bool(IFNAME.fullmatch(t)), NEIGHBOR),
}
RULE = _int_id(1, 4294967295)
ROUTER = {
    "bgp": {"autonomous-system": ASN, "router-id": Text(r"[0-9.]+"), "enable": Enum(*ON_OFF),
            "graceful-shutdown": Enum(*ON_OFF)},
    "adaptive-routing": {"enable": Enum(*ON_OFF)},                               # ECMP
    "policy": {
        "prefix-list": Coll(POLICY.fullmatch, {"type": Enum("ipv4", "ipv6"), "rule": Coll(
            RULE, {"action": Enum("permit", "deny"), "match": Coll(_prefix, {
                "min-prefix-len": Int(0, 128), "max-prefix-len": Int(0, 128)})})}),
        "community-list": Coll(NAME.fullmatch, {"rule": Coll(RULE, {
            "action": Enum("permit", "deny"),
            "community": Coll(lambda t: bool(re.fullmatch(r"\d+:\d+", t)) or t in (
                "local-AS", "no-advertise", "no-export"), Member())})}),
        "route-map": Coll(POLICY.fullmatch, {"rule": Coll(RULE, {
            "action": Coll(lambda t: t in ("permit", "deny"), {}),
            "match": {"type": Enum("ipv4", "ipv6"), "ip-prefix-list": Text(POLICY.pattern),
                      "community-list": Text(NAME.pattern)},
            "set": {"local-preference": Int(0, 4294967295)}})}),
    },
}
HASH_FIELDS = ("source-ip", "destination-ip", "ip-protocol", "source-port", "destination-port",
               "ingress-interface", "ipv6-label")                                 # ECMP
SYSTEM = {"hostname": Text(r"[A-Za-z0-9][A-Za-z0-9-]{0,62}"),                      # SYS
          "forwarding": {"ecmp-hash": dict((f, Enum(*ON_OFF)) for f in HASH_FIELDS),
                         "hash-seed": Int(0, 4294967295)}}
# management: NTP servers and the SNMP agent's listening address (CL 5.14 Network Time
# Protocol, SNMP pages), what a fixture's foreign config names
SERVICE = {"ntp": Coll(NAME.fullmatch, {"server": Coll(NAME.fullmatch, Member()),
                                        "listen": Text(IFNAME.pattern)}),
           "snmp-server": {"enable": Enum(*ON_OFF), "listening-address": Coll(
               lambda t: _ipv4(t) or t == "localhost", {"vrf": Text(NAME.pattern)})}}
ROOT = {
    "interface": Coll(IFNAME.fullmatch, IFACE), "qos": QOS, "router": ROUTER,
    "system": SYSTEM, "service": SERVICE,
    "vrf": Coll(NAME.fullmatch, {"router": {"bgp": VRF_BGP}}),
}


def problems(tree, spec=None, at=""):
    """[(location, reason)] of every key ``spec`` (the whole tree's: ROOT) does not have and
    value it refuses."""
    spec = ROOT if spec is None else spec
    out = []
    if isinstance(spec, Coll):
        if not isinstance(tree, dict):
            return [(at, "%r is not of type 'object'" % (tree,))]
        for key, value in tree.items():
            where = "%s.%s" % (at, key) if at else key
            if not spec.ids(str(key)):
                out.append((where, "%r is not a valid id" % key))
            else:
                out += problems(value, spec.spec, where)
        return out
    if isinstance(spec, dict):
        if not isinstance(tree, dict):
            return [(at, "%r is not of type 'object'" % (tree,))]
        for key, value in tree.items():
            where = "%s.%s" % (at, key) if at else key
            if key not in spec:
                out.append((where, "Additional properties are not allowed (%r was unexpected)"
                            % key))
            else:
                out += problems(value, spec[key], where)
        return out
    reason = spec.check(tree)
    return [(at, reason)] if reason else []
