# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The EOS deploy guard: what the plan owns, what a deploy sends, and what it must never send.

Ownership model (docs/deploy.md). The plan owns a declared set of the running config:

- the ports it wires and Loopback0 (``interface`` blocks; every spelling - Et1/1, ethernet1/1,
  ``Ethernet 1/1`` - is canonicalised as EOS does before it is compared);
- its ``router bgp`` instance: the settings it renders and the neighbours it plans; any other
  neighbour, peer group, VRF, VLAN or address family in that instance is kept;
- route-maps, prefix-lists and community-lists named ``RF-*``;
- the hostname, ``service routing protocols model``, ``ip routing`` and the QoS, PFC, ECN,
  buffer (``platform trident``) and load-sharing sections.

Everything else is kept exactly as it runs: the deploy does not replace the running config, it
sends only the commands that turn the plan-owned sections into the plan (a configuration session
that starts from the running config), so a banner, an event-handler's bash body, an alias, a
comment or a management section is never sent at all and stays byte for byte. The inventory may
set sections it does not own through ``roce_eos_base_config`` (sent only where they differ) and
remove sections by name (``switch_deploy_eos_remove``).

What is sent is judged twice before any commit: the command stream arista.eos's eos_config
builds from the file it is given (netcommon's NetworkConfig drops comment-token lines and
indentation; httpapi turns ``banner ... EOF`` into one command with input, every other line is a
command of its own) must carry every line byte for byte and hold no exec command; and the
device's own ``show session-config diffs`` must change nothing outside what the plan owns.

This module imports only typing (it ships to targets with the deploy).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

# (top-level prefix, what it is): the management plane; a change needs
# switch_deploy_allow_management_change even when the inventory asks for it.
PROTECTED = (
    ("interface Management", "management interface"),
    ("vrf instance ", "VRF"),
    ("ip route ", "static route"),
    ("ipv6 route ", "static route"),
    ("ip routing vrf ", "VRF routing"),
    ("no ip routing vrf ", "VRF routing"),
    ("management ", "management service (eAPI, SSH, ...)"),
    ("username ", "local user"),
    ("role ", "role"),
    ("aaa ", "AAA"),
    ("no aaa ", "AAA"),
    ("enable ", "enable secret"),
    ("tacacs-server ", "TACACS+"),
    ("radius-server ", "RADIUS"),
    ("ip tacacs ", "TACACS+ source"),
    ("ip radius ", "RADIUS source"),
    ("ntp ", "NTP"),
    ("ip name-server ", "DNS"),
    ("dns ", "DNS"),
    ("ip domain ", "DNS"),
    ("logging ", "logging"),
    ("snmp-server ", "SNMP"),
    ("no snmp-server ", "SNMP"),
    ("ip access-list ", "access list"),
    ("system control-plane", "control-plane ACL"),
    ("daemon TerminAttr", "CloudVision agent"),
)

# Commands that run in exec mode (or leave configuration mode): sent inside a session they would
# run on the switch (copy, write, reload) or end the session's mode so that every later line
# runs as an exec command (end, exit at the top level).
EXEC_WORDS = frozenset(("end", "exit", "copy", "write", "reload", "configure", "abort", "commit",
                        "rollback", "bash", "delete", "clear", "run", "send", "rename",
                        "zerotouch", "do"))
EXEC_ALONE = frozenset(("enable", "disable"))   # 'enable secret ...' is configuration
# Sub-commands whose body follows on the next lines up to a line "EOF" (EOS multi-line input).
MULTILINE_CHILD = ("action bash", "comment")
# netcommon's NetworkConfig ignores lines starting with these (config.py DEFAULT_COMMENT_TOKENS).
IGNORED_TOKENS = ("#", "!", "/*", "*/", "echo")
INTERFACE_TYPES = (("ethernet", "Ethernet"), ("et", "Ethernet"), ("eth", "Ethernet"),
                   ("loopback", "Loopback"), ("lo", "Loopback"), ("management", "Management"),
                   ("ma", "Management"), ("mgmt", "Management"), ("port-channel", "Port-Channel"),
                   ("po", "Port-Channel"), ("vlan", "Vlan"), ("vl", "Vlan"), ("vxlan", "Vxlan"),
                   ("vx", "Vxlan"), ("tunnel", "Tunnel"), ("tu", "Tunnel"))
RF_PREFIX = "RF-"

Block = Tuple[str, List[str]]          # (head line, every following line of the block, raw)


# ---------------------------------------------------------------------------------- grammar


def canonical_interface(name: str) -> str:
    """EOS's own spelling of an interface name: Et1/1, eth1/1, ethernet 1/1 -> Ethernet1/1."""
    text = "".join(name.split())
    low = text.lower()
    for short, full in sorted(INTERFACE_TYPES, key=lambda p: -len(p[0])):
        if low.startswith(short) and low[len(short):len(short) + 1].isdigit():
            return full + text[len(short):]
    return text


def head_key(head: str) -> str:
    """The identity of a top-level line: keywords lower-case, interface names canonical, names
    (route-maps, users, ...) as written."""
    words = head.split()
    if not words:
        return ""
    if words[0].lower() == "no" and len(words) > 1:
        return "no " + head_key(" ".join(words[1:]))
    if words[0].lower() == "interface" and len(words) > 1:
        return "interface " + canonical_interface(" ".join(words[1:]))
    if words[0].lower() == "banner":
        return " ".join(w.lower() for w in words)
    lowered = [word.lower() if word.lower() in _KEYWORDS else word for word in words]
    return " ".join(lowered)


_KEYWORDS = frozenset((
    "router", "bgp", "hostname", "service", "routing", "protocols", "model", "multi-agent",
    "qos", "map", "profile", "priority-flow-control", "pause", "watchdog", "platform", "trident",
    "mmu", "queue", "ip", "ipv6", "load-sharing", "hardware", "fib", "route-map", "prefix-list",
    "community-list", "permit", "deny", "management", "api", "http-commands", "ssh", "vrf",
    "instance", "username", "aaa", "ntp", "logging", "snmp-server", "tacacs-server",
    "radius-server", "event-handler", "alias", "daemon", "role", "system", "control-plane",
    "access-list", "standard", "route", "name-server", "domain", "dns"))


def is_multiline_head(line: str) -> bool:
    """A line whose body follows up to 'EOF': banners, event-handler bash, comments."""
    text = line.strip().lower()
    if not line.startswith(" "):
        return text.startswith("banner ")
    return text in MULTILINE_CHILD


def read(text: str) -> List[Block]:
    """Top-level blocks of EOS CLI as show running-config prints it, lines kept raw.

    A block is its head and every line up to the next top-level line: children at any
    indentation, comment lines inside it, the body of a banner (up to EOF) or of a multi-line
    sub-command (``action bash``, ``comment``: up to its EOF, whatever the body's indentation or
    first characters). Top-level comments, '!' separators and 'end' belong to no block."""
    out = []  # type: List[Block]
    body_until = None
    for raw in (text or "").splitlines():
        line = raw.rstrip("\r")
        if body_until is not None:
            out[-1][1].append(line)
            if line.strip() == "EOF":
                body_until = None
            continue
        if not line.strip():
            continue
        if not line.startswith(" "):
            if line.startswith("!") or line.strip() == "end":
                continue
            out.append((line, []))
            if is_multiline_head(line):
                body_until = "EOF"
            continue
        if not out:
            continue
        out[-1][1].append(line)
        if is_multiline_head(line):
            body_until = "EOF"
    return out


def items(body: Sequence[str]) -> List[Tuple[str, ...]]:
    """First-level children of a block, each with its nested lines (comment lines dropped,
    multi-line bodies kept with their line), as comparable tuples of stripped-right lines."""
    out = []  # type: List[List[str]]
    level = None
    in_body = False
    for line in body:
        if in_body:
            out[-1].append(line)
            in_body = line.strip() != "EOF"
            continue
        if not line.strip() or line.strip().startswith("!"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if level is None or indent <= level:
            level = indent
            out.append([line.rstrip()])
        else:
            out[-1].append(line.rstrip())
        in_body = is_multiline_head(line)
    return [tuple(item) for item in out]


def sections(text: str) -> Dict[str, List[str]]:
    """{top-level line: [child lines, indentation kept]}; comments, blank lines and 'end'
    dropped. Tolerant: it never fails on what a running config may hold."""
    out = {}  # type: Dict[str, List[str]]
    for head, body in read(text):
        out.setdefault(head, []).extend(
            line for line in body if line.strip() and not line.strip().startswith("!"))
    return out


# ------------------------------------------------------------------------------- ownership


class Ownership(object):
    """What the plan owns on one switch, read from its rendered config (the base config's
    lines excluded)."""

    def __init__(self, plan_blocks: Sequence[Block]) -> None:
        self.ports = set()   # type: set
        self.asn = None      # type: Optional[str]
        self.neighbors = set()   # type: set
        self.bgp_keys = set()    # type: set
        self.keys = set(head_key(head) for head, _body in plan_blocks)
        for head, body in plan_blocks:
            words = head.split()
            if words[0].lower() == "interface":
                self.ports.add(canonical_interface(" ".join(words[1:])))
            elif words[:2] == ["router", "bgp"]:
                self.asn = words[2] if len(words) > 2 else None
                for item in items(body):
                    key = child_key(item[0])
                    if key.startswith("neighbor "):
                        self.neighbors.add(key.split()[1])
                    else:
                        self.bgp_keys.add(key)

    def owner(self, head: str) -> Optional[str]:
        """What of the plan owns this top-level line, or None when the switch keeps it."""
        words = head_key(head).split()
        if words[:1] == ["no"]:
            words = words[1:]
        low = [w.lower() for w in words]
        if not low:
            return None
        if low[0] == "interface" and len(words) > 1:
            return "plan port" if words[1] in self.ports else None
        if low[:2] == ["router", "bgp"]:
            return "BGP instance"
        if low[0] in ("hostname",) or low[:3] == ["service", "routing", "protocols"]:
            return "plan setting"
        if low == ["ip", "routing"]:
            return "plan setting"
        if low[0] in ("qos", "priority-flow-control") or low[:2] == ["platform", "trident"] \
                or low[:2] == ["ip", "load-sharing"] or low[:3] == ["ip", "hardware", "fib"] \
                or low[:1] == ["load-balance"]:
            return "QoS/PFC/ECN/buffer/load-sharing section"
        if low[0] == "route-map" and len(words) > 1 and words[1].startswith(RF_PREFIX):
            return "plan policy (RF-*)"
        if low[:2] in (["ip", "prefix-list"], ["ip", "community-list"]) and len(words) > 2 \
                and words[-1 if low[2:3] == ["regexp"] else 2].startswith(RF_PREFIX):
            return "plan policy (RF-*)"
        return None

    def owns_bgp_child(self, line: str) -> bool:
        key = child_key(line)
        if key.startswith("neighbor "):
            return key.split()[1] in self.neighbors
        return key in self.bgp_keys


def child_key(line: str) -> str:
    """The setting a router bgp child line sets: 'neighbor <peer>' for any neighbour line, two
    words for bgp/no/redistribute/address-family/vrf lines, else the first word."""
    words = line.split()
    if not words:
        return ""
    if words[0] == "neighbor" and len(words) > 1:
        if words[1] == "interface":
            return "neighbor interface " + " ".join(words[2:3])
        return "neighbor " + words[1]
    if words[0] in ("bgp", "no", "redistribute", "address-family", "vrf", "vlan",
                    "vlan-aware-bundle", "graceful-restart") and len(words) > 1:
        return " ".join(words[:2])
    return words[0]


def split_rendered(rendered: str) -> Tuple[List[Block], List[Block]]:
    """(plan blocks, base-config blocks) of a rendered config: the renderer writes the base
    config between '! base config (roce_eos_base_config)' and the first plan line after it."""
    lines = (rendered or "").splitlines()
    marker = [i for i, line in enumerate(lines) if line.startswith("! base config")]
    if not marker:
        return read(rendered), []
    start = marker[0] + 1
    end = next((i for i in range(start, len(lines))
                if lines[i].startswith("service routing protocols")), len(lines))
    base = "\n".join(lines[start:end])
    plan = "\n".join(lines[:marker[0]] + lines[end:])
    return read(plan), read(base)


# ------------------------------------------------------------------------------ candidate


def _merge_bgp(own: Ownership, plan: Block, running: Block) -> Block:
    kept = [line for item in items(running[1]) if not own.owns_bgp_child(item[0])
            for line in item]
    return plan[0], list(plan[1]) + kept


def candidate(running: str, rendered: str, remove: Iterable[str] = ()
              ) -> Tuple[List[Block], List[str], Ownership, List[Block]]:
    """(blocks the switch should run, refusals, ownership, base blocks): every running block the
    plan does not own, as it runs; the base config's blocks where the inventory set them; the
    plan's blocks; minus the blocks ``remove`` names (top-level lines, any spelling)."""
    plan_blocks, base_blocks = split_rendered(rendered)
    own = Ownership(plan_blocks)
    removed = set(head_key(h) for h in remove)
    base = dict((head_key(h), (h, b)) for h, b in base_blocks)
    plan = dict((head_key(h), (h, b)) for h, b in plan_blocks)
    out, placed, refusals = [], set(), []   # type: List[Block], set, List[str]
    for head, body in read(running):
        key = head_key(head)
        if key in removed:
            placed.add(key)
            continue
        if key in base:
            out.append(base[key])
            placed.add(key)
            continue
        what = own.owner(head)
        if what is None:
            out.append((head, body))
            continue
        if what == "BGP instance":
            mine = [k for k in plan if k.startswith("router bgp ")]
            if mine and mine[0] != key:
                refusals.append('"%s" runs where the plan has "%s": EOS has one BGP instance; '
                                'name it in switch_deploy_eos_remove to replace it with its '
                                'neighbours and settings' % (head, plan[mine[0]][0]))
                out.append((head, body))
                placed.add(mine[0])
                continue
            if mine:
                out.append(_merge_bgp(own, plan[key], (head, body)))
                placed.add(key)
            continue
        if key in plan:
            out.append(plan[key])
            placed.add(key)
        # else: a plan-owned section the plan no longer has - removed
    for key, block in list(base.items()) + list(plan.items()):
        if key not in placed and key not in removed:
            out.append(block)
            placed.add(key)
    return out, refusals, own, base_blocks


# ---------------------------------------------------------------------------------- delta


def _negate(line: str) -> str:
    text = line.strip()
    if text.lower().startswith("no "):
        return "default " + text[3:]
    if text.lower().startswith("default "):
        return text
    return "no " + text


def delta(before: Sequence[Block], after: Sequence[Block]) -> List[str]:
    """The command lines (indented as EOS prints them) that turn ``before`` into ``after``
    inside a configuration session started from ``before``: removed blocks negated, new blocks
    whole, changed blocks entered with their removed children negated and new ones added.
    Blocks equal on both sides are not sent at all."""
    have = dict((head_key(h), (h, b)) for h, b in before)
    want = dict((head_key(h), (h, b)) for h, b in after)
    removes, writes = [], []   # type: List[str], List[str]
    settings = set(k.split()[0] for k in want if k.split()[:1] == ["hostname"])
    for key, (head, _body) in have.items():
        if key not in want and key.split()[0] not in settings:
            removes.append(_negate(head) if not is_multiline_head(head) else
                           "no " + " ".join(head.split()[:2]))
    for head, body in after:
        key = head_key(head)
        if key not in have:
            writes += [head] + list(body)
            continue
        old = have[key][1]
        if items(old) == items(body) and (not is_multiline_head(head) or old == body):
            continue
        if is_multiline_head(head):
            writes += [head] + list(body)
            continue
        old_items, new_items = items(old), items(body)
        lines = [head]
        for item in old_items:
            if item not in new_items:
                lines.append(item[0][:len(item[0]) - len(item[0].lstrip())] + _negate(item[0]))
        for item in new_items:
            if item not in old_items:
                lines += list(item)
        if len(lines) > 1:
            writes += lines
    return removes + writes


# ------------------------------------------------------------------------- what is sent


def sent(src: str, transport: str = "httpapi") -> List[Any]:
    """The commands arista.eos's eos_config sends into the session for ``src`` (match: none):
    netcommon's NetworkConfig drops blank and comment-token lines ('#', '!', '/*', '*/',
    'echo', and lines that are only braces or semicolons) and strips indentation; over httpapi
    ``banner ...`` up to ``EOF`` becomes one command with the lines between as input, every
    other line one command ('end' too); over network_cli 'end' is skipped and banner lines are
    typed one by one. A list of str, and (command, input) tuples for banners."""
    lines = []
    for raw in (src or "").split("\n"):
        text = raw.replace("{", "").replace("}", "").replace(";", "").strip()
        if not text or text.startswith(IGNORED_TOKENS):
            continue
        lines.append(raw.strip())
    out = []   # type: List[Any]
    banner, body = None, []   # type: Optional[str], List[str]
    for cmd in lines:
        if transport == "network_cli" and cmd == "end":
            continue
        if banner is None and cmd.startswith("banner"):
            banner, body = cmd, []
            continue
        if banner is not None:
            if cmd == "EOF":
                out.append((banner, "\n".join(body)) if transport != "network_cli"
                           else (banner, "\n".join(body)))
                banner = None
            else:
                body.append(cmd)
            continue
        out.append(cmd)
    if banner is not None:   # no EOF: every later line became banner text
        out.append((banner, "\n".join(body)))
    return out


def exec_word(cmd: str) -> Optional[str]:
    """The exec command a config line would run ('end', 'copy', 'write', 'reload', ...)."""
    words = cmd.split()
    if not words:
        return None
    first = words[0].lower()
    if first in EXEC_WORDS or (first in EXEC_ALONE and len(words) == 1):
        return first
    return None


def stream_risks(lines: Sequence[str], transport: str = "httpapi") -> List[str]:
    """Why the command stream for ``lines`` (a delta) cannot be sent as it is: an exec command,
    a line arista.eos would drop or change, a banner without EOF, a multi-line body that would
    be typed as commands. Each message names the line (secrets redacted)."""
    out = []
    stream = sent("\n".join(lines), transport)
    for cmd in stream:
        if isinstance(cmd, tuple):
            continue
        word = exec_word(cmd)
        if word:
            out.append('"%s": %s is an exec command; sent inside the configuration session it '
                       'would run on the switch (or leave configuration mode so that every '
                       'later line runs as one)' % (redact(cmd), word))
    banner_open = None
    multiline = None   # type: Optional[str]
    for raw in lines:
        text = raw.strip()
        if banner_open is not None or multiline is not None:
            if text == "EOF":
                banner_open = multiline = None
            elif multiline is not None:
                pass
            elif raw != text or text.replace("{", "").replace("}", "").replace(
                    ";", "").strip() == "" or text.startswith(IGNORED_TOKENS):
                out.append('"%s": banner line arista.eos would not send as written '
                           '(indentation, or a comment token it drops)' % redact(raw))
            continue
        if not raw.startswith(" ") and text.lower().startswith("banner "):
            banner_open = text
        elif is_multiline_head(raw) and raw.startswith(" "):
            multiline = text
            out.append('"%s": a multi-line body (up to EOF) is typed line by line by '
                       'arista.eos, each line as a command: it cannot be sent; keep it as it '
                       'runs (leave it out of roce_eos_base_config)' % redact(raw))
        elif text and text.startswith(("{{", "{%", "{#")) or "{{" in text or "{%" in text:
            out.append('"%s": eos_config renders its src as a template' % redact(raw))
    if banner_open is not None:
        out.append('"%s": no EOF line - every later line would become banner text' % banner_open)
    return out


# ------------------------------------------------------------------------------ the guard


def _kind(head: str) -> Optional[str]:
    for prefix, what in PROTECTED:
        if head.startswith(prefix) or head_key(head).startswith(prefix):
            return what
    return None


def lockout_risks(running: str, rendered: str) -> List[str]:
    """['<what> "<line>": removed' or '...: changed (-old, +new)'] for every protected section
    of ``running`` that ``rendered`` does not carry exactly (a whole-config replace)."""
    return _protected_changes(read(running), read(rendered))


def _protected_changes(before: Sequence[Block], after: Sequence[Block],
                       only: Optional[Iterable[str]] = None) -> List[str]:
    have = dict((head_key(h), (h, b)) for h, b in before)
    want = dict((head_key(h), (h, b)) for h, b in after)
    keys = set(only) if only is not None else set(have)
    out = []
    for key in [k for k in have if k in keys] + [k for k in want if k in keys and k not in have]:
        head = (have.get(key) or want[key])[0]
        what = _kind(head)
        if what is None:
            continue
        if key not in want:
            out.append('%s "%s": removed' % (what, redact(head)))
        elif key not in have:
            out.append('%s "%s": added' % (what, redact(head)))
        elif items(have[key][1]) != items(want[key][1]):
            old, new = items(have[key][1]), items(want[key][1])
            lost = [redact(i[0].strip()) for i in old if i not in new]
            gained = [redact(i[0].strip()) for i in new if i not in old]
            out.append('%s "%s": changed (%s)' % (what, redact(head), ", ".join(
                ["-" + c for c in lost] + ["+" + c for c in gained]) or "order"))
    return out


def acl_risks(blocks: Sequence[Block], changed: Iterable[str]) -> List[str]:
    """ACLs the control plane or a management service applies (system control-plane,
    management api/ssh, snmp-server) that the deploy would add or change and that hold a deny
    rule matching management traffic (any deny of ip, ssh, https or http, or a standard ACL's
    deny): such a commit can cut off the session deploying it."""
    used = set()
    for head, body in blocks:
        low = head.lower()
        if low.startswith(("system control-plane", "management ")):
            for line in body:
                words = line.split()
                if words[:2] in (["ip", "access-group"], ["ipv6", "access-group"]) and \
                        len(words) > 2:
                    used.add(words[2])
        elif low.startswith("snmp-server") and "access-list" in low:
            words = head.split()
            idx = [i for i, w in enumerate(words) if w.endswith("access-list")][0]
            if idx + 1 < len(words):
                used.add(words[idx + 1])
    changed = set(changed)
    out = []
    for head, body in blocks:
        words = head.split()
        if words[:2] not in (["ip", "access-list"], ["ipv6", "access-list"]):
            continue
        name = words[-1]
        if name not in used or head_key(head) not in changed:
            continue
        standard = "standard" in [w.lower() for w in words]
        for line in body:
            rule = line.split()
            if rule and rule[0].isdigit():
                rule = rule[1:]
            if not rule or rule[0].lower() != "deny":
                continue
            proto = rule[1].lower() if len(rule) > 1 else ""
            ports = [w.lower() for w in rule[2:]]
            mgmt = standard or proto == "ip" or (proto == "tcp" and (
                "eq" not in ports or set(ports) & {"ssh", "22", "https", "443", "www", "80"}))
            if mgmt:
                out.append('"%s" in "%s": the ACL is applied to management or the control '
                           'plane and this rule denies management traffic'
                           % (line.strip(), head))
    return out


def plan_deploy(running: str, rendered: str, remove: Iterable[str] = (),
                transport: str = "httpapi", allow_management_change: bool = False,
                drain: bool = False) -> Dict[str, Any]:
    """Everything the EOS roll needs, computed before anything is sent.

    Returns {'refusals': [...], 'check': lines, 'drain': lines, 'apply': lines,
    'undrain': lines, 'kept': number of running lines kept as they are, 'owned': sorted owned
    section heads, 'secrets': whether a delta carries a secret}. The deltas are indented command
    lines for eos_config ``src`` (match: none); empty when nothing differs."""
    from ansible_collections.roce.fabric.plugins.module_utils.deploy import drain as drains

    remove = list(remove or [])
    running_blocks = read(running)
    want, refusals, own, base_blocks = candidate(running, rendered, remove)
    base_keys = set(head_key(h) for h, _body in base_blocks)
    removed = set(head_key(h) for h in remove)
    have_keys = set(head_key(h) for h, _body in running_blocks)
    for name in remove:
        if head_key(name) not in have_keys:
            refusals.append('switch_deploy_eos_remove names "%s", which the running config '
                            'does not hold' % name)
    if not allow_management_change:
        refusals += [r + " - set switch_deploy_allow_management_change to change the "
                     "management plane on purpose" for r in _protected_changes(
                         running_blocks, want, base_keys | removed)]
    changed = set(k for k in base_keys) | set(own.keys)
    refusals += acl_risks(want, changed)
    check = delta(running_blocks, want)
    plan = {"check": check}
    if drain:
        drained_running = read(drains.eos_drained(running))
        drained_want = read(drains.eos_drained(render(want)))
        plan.update(drain=delta(running_blocks, drained_running),
                    apply=delta(drained_running, drained_want),
                    undrain=delta(drained_want, want))
    else:
        plan.update(drain=[], apply=check, undrain=[])
    for step in ("check", "drain", "apply", "undrain"):
        refusals += ["%s: %s" % (step, r) for r in stream_risks(plan[step], transport)
                     if step == "check" or "exec command" in r]
    kept = [b for b in running_blocks if own.owner(b[0]) is None and
            head_key(b[0]) not in base_keys | removed]
    plan.update(
        refusals=_unique(refusals), kept=sum(1 + len(b[1]) for b in kept),
        kept_sections=len(kept),
        owned=sorted(h for h, _body in want if own.owner(h) is not None),
        secrets=any(redact(line) != line for step in ("check", "drain", "apply", "undrain")
                    for line in plan[step]))
    return plan


def restore(current: str, previous: str) -> List[str]:
    """The delta that returns the switch from ``current`` to ``previous`` (every section that
    differs; sections equal on both sides - banners, event-handlers - are not sent)."""
    return delta(read(current), read(previous))


def render(blocks: Sequence[Block]) -> str:
    """Blocks back to text, '!' between them."""
    out = []
    for head, body in blocks:
        out += [head] + list(body) + ["!"]
    return "\n".join(out) + "\n"


def _unique(values: Iterable[str]) -> List[str]:
    seen, out = set(), []
    for value in values:
        if value not in seen:
            seen.add(value)
            out.append(value)
    return out


# --------------------------------------------------------------------------- session diff


def apply_unified_diff(text: str, diff: str) -> Optional[str]:
    """``text`` with the unified diff applied (EOS ``show session-config diffs``); None when a
    hunk does not match (the diff is not against this text)."""
    old = text.splitlines()
    out, pos = [], 0
    hunk = False
    for line in (diff or "").splitlines():
        if line.startswith(("---", "+++")) and not hunk:
            continue
        if line.startswith("@@"):
            hunk = True
            try:
                start = int(line.split()[1].split(",")[0].lstrip("-"))
            except (IndexError, ValueError):
                return None
            start = max(start - 1, 0) if "," not in line.split()[1] or \
                line.split()[1].split(",")[1] != "0" else start
            if start < pos:
                return None
            out += old[pos:start]
            pos = start
            continue
        if not hunk:
            continue
        tag, body = line[:1], line[1:]
        if tag == " " or (tag == "" and line == ""):
            if pos >= len(old) or old[pos].rstrip() != body.rstrip():
                return None
            out.append(old[pos])
            pos += 1
        elif tag == "-":
            if pos >= len(old) or old[pos].rstrip() != body.rstrip():
                return None
            pos += 1
        elif tag == "+":
            out.append(body)
        elif tag == "\\":
            continue
        else:
            return None
    out += old[pos:]
    return "\n".join(out) + "\n"


def session_risks(running: str, diff: str, rendered: str, remove: Iterable[str] = (),
                  allow_management_change: bool = False) -> List[str]:
    """Judge the device's own session diff before commit: every section it changes must be
    the plan's, the inventory's (base config) or named for removal; a kept section changed or
    removed is refused by name (secrets redacted)."""
    if not (diff or "").strip():
        return []
    after = apply_unified_diff(running, diff)
    if after is None:
        return ["the session diff does not apply to the running config read before it: "
                "cannot judge it, nothing committed"]
    remove = list(remove or [])
    plan_blocks, base_blocks = split_rendered(rendered)
    own = Ownership(plan_blocks)
    allowed = set(head_key(h) for h, _body in base_blocks) | set(head_key(h) for h in remove)
    have = dict((head_key(h), (h, b)) for h, b in read(running))
    want = dict((head_key(h), (h, b)) for h, b in read(after))
    out = []
    for key in list(have) + [k for k in want if k not in have]:
        old, new = have.get(key), want.get(key)
        if old is not None and new is not None and items(old[1]) == items(new[1]) and \
                (not is_multiline_head(old[0]) or old[1] == new[1]):
            continue
        head = (old or new)[0]
        if key in allowed:
            continue
        what = own.owner(head)
        if what == "BGP instance" and old is not None and new is not None:
            lost = [i for i in items(old[1]) if not own.owns_bgp_child(i[0]) and
                    i not in items(new[1])]
            if lost:
                out.append('"%s": the session changes "%s", which the plan does not own' % (
                    head, redact(lost[0][0].strip())))
            continue
        if what is not None:
            continue
        if what is None and key.startswith("route-map " + "RF-DRAIN-OUT"):
            continue
        out.append('"%s": the session would %s it, and the plan does not own it' % (
            redact(head), "remove" if new is None else "add" if old is None else "change"))
    if not allow_management_change:
        out += _protected_changes(read(running), read(after),
                                  set(head_key(h) for h, _body in base_blocks))
    return out


# -------------------------------------------------------------------------------- secrets

_SECRET_WORDS = ("secret", "password", "key", "authentication-key", "auth", "priv")
_TYPE_WORDS = frozenset(("0", "5", "6", "7", "8a", "sha512", "md5", "sha", "sha1", "sha256",
                         "sha384", "aes", "aes128", "aes192", "aes256", "des", "3des", "type",
                         "localized", "encrypted", "hmac-sha1", "hmac-md5"))
REDACTED = "<redacted>"


def redact(line: str) -> str:
    """The line with password hashes, type-7 and plain keys, SNMP communities and similar
    secrets replaced by <redacted>; indentation and every other word kept."""
    if not line:
        return line
    indent = line[:len(line) - len(line.lstrip())]
    words = line.split()
    low = [w.lower() for w in words]
    hide = set()
    for i, word in enumerate(low):
        if word in _SECRET_WORDS and i + 1 < len(words):
            if word in ("auth", "priv") and (not low or low[0] != "snmp-server"):
                continue
            j = i + 1
            if word == "authentication-key" and j < len(words) and words[j].isdigit() and \
                    j + 1 < len(words):
                j += 1
            skipped = 0
            while j < len(words) - 1 and low[j] in _TYPE_WORDS and skipped < 2:
                j += 1
                skipped += 1
            if j < len(words) and low[j] not in ("nopassword",):
                hide.add(j)
        if "=key," in word:
            hide.add(-(i + 1))
    if low[:2] == ["snmp-server", "community"] and len(words) > 2:
        hide.add(2)
    if low[:1] == ["snmp-server"] and "host" in low[:2]:
        for i, word in enumerate(low):
            if word == "version" and i + 2 < len(words) and low[i + 1] in ("1", "2c"):
                hide.add(i + 2)
    if not hide:
        return line
    out = []
    for i, word in enumerate(words):
        if i in hide:
            out.append(REDACTED)
        elif -(i + 1) in hide:
            head, _sep, rest = word.partition("=key,")
            tail = rest.split(",", 1)
            out.append(head + "=key," + REDACTED + ("," + tail[1] if len(tail) > 1 else ""))
        else:
            out.append(word)
    return indent + " ".join(out)


def redact_text(text: str) -> str:
    """Every line redacted; diff lines (+/-/space prefixed) keep their prefix."""
    out = []
    for line in (text or "").splitlines():
        if line[:1] in ("+", "-", " ") and not line.startswith(("+++", "---")):
            out.append(line[:1] + redact(line[1:]))
        else:
            out.append(redact(line))
    return "\n".join(out)
