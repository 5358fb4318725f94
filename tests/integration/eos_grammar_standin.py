"""The stand-in eAPI endpoint's reading of typed EOS CLI (eos_eapi.py): keyword tables per mode
with EOS's canonical spelling, prefix expansion, the interfaces a DCS-7060X6-64PE has, and the
errors EOS answers. Test code: the collection's own reader (deploy/eos/grammar.py) is not used,
so a bug there cannot hide here.

Sources (read, not copied):
- EOS User Manual, "Command-Line Interface" / "Processing Commands": a keyword may be typed as
  any unambiguous prefix and is stored and shown in full; interface names likewise
  (``int lo77`` is ``interface Loopback77`` in ``show session-config diffs``: ngworx.ag,
  "Arista EOS Config Sessions", 2021); an unknown word answers
  ``% Invalid input (at token N: 'word')`` (pyeapi/arista.eos test fixtures of a vEOS answer,
  CloudVision config-validation fixtures ``> ruter bgp 1111% Invalid input (at token 0:
  'ruter')``); a prefix of several keywords answers ``% Ambiguous command`` (wording seen in
  device-output parsers, not confirmed from an Arista page here).
- Port names: EOS manual "Layer 1 Profiles" (an OSFP cage N is EthernetN/1-8), as cited in
  plugins/module_utils/hardware/models.py for the 7060X6-64PE the example inventory's EOS pair
  runs. The two SFP ports of that model are not modelled (unconfirmed here).

The tables hold what the collection sends (render/eos, deploy/eos/candidate.py and drain.py,
tests/unit/fixtures/eos, the base configs) and the first words of the real running configs in
../shared/running-configs/eos. Modes the plan renders validate their sub-commands' first word;
other modes (event-handler, daemon, aliases, ...) accept any sub-command, since only the first
keyword of their top-level line is the collection's business.
"""
import re


class CommandError(Exception):
    """An EOS CLI error: eAPI answers JSON-RPC error 1002 and stops at the failing command."""


# First keywords of global configuration mode (and 'no'/'default' of them).
TOP = ("aaa", "agent", "alias", "arp", "banner", "boot", "class-map", "clock", "control-plane",
       "daemon", "dhcp", "dns", "dot1x", "email", "enable", "errdisable", "event-handler",
       "event-monitor", "hardware", "hostname", "interface", "ip", "ipv6", "lacp", "link-tracking",
       "lldp", "load-interval", "logging", "mac", "management", "mlag", "monitor", "mpls", "ntp",
       "peer-filter", "platform", "policy-map", "port-channel", "priority-flow-control", "prompt",
       "ptp", "qos", "queue-monitor", "radius-server", "role", "route-map", "router", "sflow",
       "schedule", "service", "snmp-server", "spanning-tree", "system", "tacacs-server", "tap",
       "terminal", "traffic-policies", "transceiver", "username", "vlan", "vrf")
ROUTER = ("bfd", "bgp", "general", "igmp", "isis", "msdp", "multicast", "ospf", "ospfv3", "pim",
          "traffic-engineering")
# Sub-commands of the modes the plan renders (first word; the mode's nested sub-modes folded in:
# router bgp's address-family/vrf, qos profile's tx-queue).
CHILDREN = {
    "interface": ("arp", "autostate", "bfd", "channel-group", "description", "dhcp",
                  "encapsulation", "error-correction", "flowcontrol", "ip", "ipv6", "l2",
                  "link-debounce", "lldp", "load-interval", "logging", "mac", "mlag", "mtu",
                  "multicast", "pim", "priority-flow-control", "ptp", "qos", "service-policy",
                  "service-profile", "sflow", "shutdown", "snmp", "spanning-tree", "speed",
                  "storm-control", "switchport", "transceiver", "tx-queue", "uc-tx-queue",
                  "vrf", "vxlan"),
    "router bgp": ("activate", "address-family", "aggregate-address", "bgp", "distance",
                   "graceful-restart", "graceful-restart-helper", "maximum-paths", "neighbor",
                   "network", "rd", "redistribute", "route", "route-target", "router-id",
                   "shutdown", "timers", "ucmp", "update", "vlan", "vlan-aware-bundle", "vrf"),
    "qos profile": ("bandwidth", "mc-tx-queue", "priority", "priority-flow-control", "qos",
                    "random-detect", "service-policy", "shape", "tx-queue", "uc-tx-queue"),
    "route-map": ("continue", "description", "match", "set", "sub-route-map"),
    "prefix-list": ("deny", "permit", "seq"),
    "platform trident": ("egress", "ingress"),
}
# Exec commands: EOS runs privileged-exec commands from any configuration mode, so also inside a
# configuration session, where they act at once on the system, not on the session (the
# stand-in already modelled copy/write/reload so; bash, delete and clear are privileged-exec
# commands in the EOS manual's command references ("bash", "delete", "clear counters"); that a
# config session runs them as exec is inferred from the CLI's mode rules, not confirmed from an
# Arista page here).
EXEC = ("bash", "clear", "copy", "delete", "reload", "write")
PORTS = frozenset("Ethernet%d/%d" % (cage, lane) for cage in range(1, 65) for lane in range(1, 9))
# Logical interfaces a configuration creates (EOS manual "Interface Configuration": loopback,
# SVI, port-channel, tunnel; Management1 is the fixed management port; Vxlan1 the VTEP).
CREATABLE = re.compile(r"^(Loopback|Vlan|Port-Channel|Tunnel|Vxlan)\d+(\.\d+)?$|^Management[12]$")
INTERFACE_TYPES = ("Ethernet", "Loopback", "Management", "Port-Channel", "Tunnel", "Vlan",
                   "Vxlan")


def expand(word, table, token):
    """The keyword of ``table`` that ``word`` names (exact, or its only prefix), or None when
    none does; CommandError when it is a prefix of several."""
    low = word.lower()
    if low in table:
        return low
    hits = [k for k in table if k.startswith(low)]
    if len(hits) > 1:
        raise CommandError("Ambiguous command (at token %d: '%s')" % (token, word))
    return hits[0] if hits else None


def invalid(token, word):
    return CommandError("Invalid input (at token %d: '%s')" % (token, word))


def interface_name(text, token, known):
    """EOS's spelling of an interface name (``lo77``, ``loopback 77`` -> Loopback77); refused
    when the type is unknown or the port does not exist on this switch."""
    match = re.match(r"^([A-Za-z-]+)\s*(\d[\d/.]*)$", text.strip())
    if not match:
        raise invalid(token, text.split()[0] if text.split() else text)
    kind = expand(match.group(1), tuple(t.lower() for t in INTERFACE_TYPES), token)
    if kind is None:
        raise invalid(token, match.group(1))
    name = next(t for t in INTERFACE_TYPES if t.lower() == kind) + match.group(2)
    if name.startswith("Ethernet") and name not in PORTS and name not in known:
        raise invalid(token, match.group(2) if " " in text.strip() else text.strip())
    if not name.startswith("Ethernet") and not CREATABLE.match(name):
        raise invalid(token, text.strip())
    return name


def mode_kind(head):
    """The CHILDREN key of the mode a block head opens, or None (a mode read permissively)."""
    words = head.split()
    if words[:1] == ["interface"]:
        return "interface"
    if words[:2] == ["router", "bgp"]:
        return "router bgp"
    if words[:2] == ["qos", "profile"]:
        return "qos profile"
    if words[:1] == ["route-map"]:
        return "route-map"
    if words[1:2] == ["prefix-list"]:
        return "prefix-list"
    if words[:2] == ["platform", "trident"]:
        return "platform trident"
    return None


def canonical(text, mode_head, known=()):
    """``text`` typed in the mode of ``mode_head`` (None: global) as EOS stores it: the first
    keyword (after no/default) expanded, ``router X`` and interface names canonical. Raises
    CommandError as EOS does for a word no table holds."""
    words = text.split()
    lead = []
    if words and words[0].lower() in ("no", "default") and len(words) > 1:
        lead, words = [words[0].lower()], words[1:]
    at = len(lead)
    kind = mode_kind(mode_head) if mode_head is not None else None
    first = None
    if kind is not None:
        first = expand(words[0], CHILDREN[kind], at)
    if first is None:
        first = expand(words[0], TOP, at)
        if first is None:
            if mode_head is not None and kind is None:
                return text                  # a sub-command of a mode read permissively
            raise invalid(at, words[0])
        if first == "router" and len(words) > 1:
            sub = expand(words[1], ROUTER, at + 1)
            if sub is None:
                raise invalid(at + 1, words[1])
            words = [words[0], sub] + words[2:]
        if first == "interface" and len(words) > 1:
            name = interface_name(" ".join(words[1:]), at + 1, known)
            return " ".join(lead + ["interface", name])
    return " ".join(lead + [first] + words[1:])
