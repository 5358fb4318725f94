#!/usr/bin/env python
"""A stand-in Arista eAPI endpoint (JSON-RPC `runCmds` on /command-api) for tests of the EOS deploy
path with the real arista.eos modules over ansible.netcommon.httpapi. No EOS or cEOS runs here.

It keeps what matters to the deploy the way EOS does:

- configuration sessions: a named session survives between requests and starts as a copy of the
  running config; `rollback clean-config` empties it; `show session-config diffs` prints a unified
  diff of the running config against the session config, both as `show running-config` prints
  them; `commit` makes the session the running config; `abort` drops it;
- the running config is text as EOS prints it: sections nobody sends commands for are kept byte
  for byte (banners, event-handler bash bodies, aliases, comments, header lines);
- modes: a flat command stream is read the way EOS reads typed lines - a command that opens a
  mode (interface, router bgp, qos profile, ...) enters it, a sub-mode (tx-queue, vrf,
  address-family) nests, a command of another mode falls back to the top level; `no X` /
  `default X` remove; lines are printed back 3 spaces per level;
- banners: `{"cmd": "banner motd", "input": "..."}` (what eAPI takes) sets the banner text as
  given, up to EOF;
- exec commands: `end` inside a session leaves configuration mode (the session stays pending)
  and every later command of the request runs in exec mode; privileged-exec commands (`copy`,
  `write`, `reload`, `bash`, `delete`, `clear`) run wherever they are sent, also inside a
  session, as on EOS, and are logged to exec.log in the state directory so a test can prove none
  ran; a `show` command typed in a session answers as in exec mode and is no config line;
- strict where EOS is (eos_grammar_standin.py, which cites its sources): each typed command is
  read against keyword tables per mode - an unambiguous prefix is stored in full (`int lo77` is
  `interface Loopback77`, `interface ethernet1/1` is `Ethernet1/1`), an unknown word answers
  `% Invalid input (at token N: 'word')` and eAPI stops there with JSON-RPC error 1002 (data:
  the results so far and the failing command's errors); interfaces: the DCS-7060X6-64PE's
  Ethernet1/1-64/8, the ports the seeded running config prints, and the creatable logical ones;
  sub-commands of modes the plan does not render are taken as typed;
- one route-map per neighbour and direction (a second `neighbor X route-map M out` replaces the
  first); at most MAX_PENDING pending sessions; an ACL's lines apply when its mode is left
  (arista.eos #476). Configuration mode without a session (`configure terminal`) is not
  served: arista.eos uses sessions, so the ACL deferral is modelled inside sessions only.

Faults (fault.json in the state directory, read per request): ``{"commit": N, "when": "before"
| "after", "down": false}`` drops the connection of the Nth request that commits a session (the
second request of arista.eos's edit_config: `configure session S`, `show session-config diffs`,
`commit`) without an answer - "before": the session's commands are staged and it stays pending,
nothing committed; "after": committed, as when the link goes as EOS answers. An EOS session
commit is atomic (the manual's "Configure Session": a session's changes are applied together on
commit), so the running config is the old one or the new one, never between. ``"down": true``:
every later request is dropped too (the switch unreachable) until the file ``down`` the fault
writes is removed. Dropped requests are logged to dropped.log.

Operational `show ... | json` answers are read per request from files in the state directory
(`show-ip-bgp-summary.json`, `show-ip-route.json`). running-config and startup-config live in the
same directory; every refused command is logged to errors.log there.

Usage: eos_eapi.py STATE_DIR HOSTNAME  (prints the bound 127.0.0.1 port, then serves)
"""
import copy
import difflib
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eos_grammar_standin import EXEC, CommandError, canonical  # noqa: E402

SESSIONS = {}
# EOS keeps at most this many pending (uncommitted) configuration sessions; a further
# 'configure session NEW' fails. The EOS manual ("Configure Session", "Session Management
# Commands") sets the limit with 'service configuration session max pending N'; the default 5
# is not confirmed from a stored Arista page here, nor the exact wording of the error (device
# output parsers match "maximum number of pending sessions").
MAX_PENDING = 5

# Top-level commands that open a mode, and top-level one-line commands (prefixes).
MODES = ("interface ", "router ", "vrf instance ", "management ", "qos profile ", "route-map ",
         "ip prefix-list ", "ipv6 prefix-list ", "platform trident mmu queue profile ",
         "ip access-list ", "ipv6 access-list ", "system control-plane", "event-handler ",
         "daemon ", "role ", "aaa group ", "mlag configuration", "vlan ", "monitor ")
SINGLE = ("hostname ", "service ", "qos ", "priority-flow-control ", "platform ", "ip routing",
          "no ip routing", "ip route ", "ipv6 route ", "ip community-list ", "ip load-sharing ",
          "ip hardware ", "ip name-server ", "ip domain ", "dns ", "ip tacacs ", "ip radius ",
          "ip virtual-router ", "ip address virtual ", "ipv6 unicast-routing", "username ",
          "aaa ", "enable ", "ntp ", "logging ", "snmp-server ", "tacacs-server ",
          "radius-server ", "spanning-tree ", "transceiver ", "hardware ", "queue-monitor ",
          "clock ", "alias ", "boot ", "vlan internal ")
# Per mode: sub-modes, and its own commands that look like top-level ones.
SUBMODES = {"qos profile ": ("tx-queue ", "uc-tx-queue ", "mc-tx-queue "),
            "management ": ("vrf ",),
            "router bgp ": ("address-family ", "vrf ", "vlan-aware-bundle ", "vlan ")}
CHILD_FIRST = {
    "interface ": ("ip address", "ip access-group", "ip virtual-router", "ip helper-address",
                   "ip proxy-arp", "ipv6 address", "ipv6 enable", "qos trust", "qos cos",
                   "qos dscp", "priority-flow-control on", "priority-flow-control priority",
                   "priority-flow-control pause", "spanning-tree portfast",
                   "spanning-tree bpduguard", "vrf ", "logging event"),
    "qos profile ": ("qos trust", "qos cos", "qos dscp", "priority-flow-control "),
    "management ": ("ip access-group", "ipv6 access-group"),
    "system control-plane": ("ip access-group", "ipv6 access-group"),
    "vlan ": ("name ", "trunk group "),
}


def _read(state, name, default=""):
    path = os.path.join(state, name)
    if not os.path.exists(path):
        return default
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _write(state, name, text):
    with open(os.path.join(state, name), "w", encoding="utf-8") as handle:
        handle.write(text)


def _log_exec(state, text):
    with open(os.path.join(state, "exec.log"), "a", encoding="utf-8") as handle:
        handle.write(text + "\n")


def _multiline(line):
    text = line.strip().lower()
    return text.startswith("banner ") if not line.startswith(" ") else text in (
        "action bash", "comment")


def parse(text):
    """{'pre': header lines, 'blocks': [[head, body, separators]], 'end': bool}."""
    config = {"pre": [], "blocks": [], "end": False}
    body = False
    for line in text.splitlines():
        blocks = config["blocks"]
        if body:
            blocks[-1][1].append(line)
            body = line.strip() != "EOF"
            continue
        if line == "end":
            config["end"] = True
            continue
        if not line.startswith(" ") and line.strip() and not line.startswith("!"):
            blocks.append([line, [], []])
            body = _multiline(line)
            continue
        if not blocks:
            config["pre"].append(line)
        elif line.startswith(" "):
            if blocks[-1][2]:          # an indented line after a separator: still the block's
                blocks[-1][1].extend(blocks[-1][2])
                blocks[-1][2] = []
            blocks[-1][1].append(line)
            body = _multiline(line)
        else:
            blocks[-1][2].append(line)
    return config


def show(config):
    out = list(config["pre"])
    for head, body, seps in config["blocks"]:
        if body is None:
            continue
        out += [head] + body + seps
    if config["end"]:
        out.append("end")
    return "\n".join(out) + "\n"


def _key(line):
    return " ".join(line.split())


def _top(line, mode):
    """Whether a typed line is a top-level command (EOS falls back to the global mode)."""
    if mode is not None:
        head = mode[0]
        for prefix, subs in SUBMODES.items():
            if head.startswith(prefix) and line.startswith(subs):
                return False
        for prefix, kids in CHILD_FIRST.items():
            if head.startswith(prefix) and line.startswith(kids):
                return False
    return line.startswith(MODES) or line.startswith(SINGLE)


ACL_MODES = ("ip access-list ", "ipv6 access-list ", "mac access-list ")


def _opens(line):
    return line.startswith(MODES) and not line.endswith(" apply") and not (
        line.startswith("alias ") and len(line.split()) > 2)


class Session(object):
    def __init__(self, config):
        self.config = config
        self.mode = None      # the block being configured
        self.sub = None       # index of the sub-mode line in the block's body
        self.pending = []     # ACL lines typed in an ACL mode not yet left
        # a physical interface the running config prints exists on this switch (EOS prints
        # only interfaces it has), whatever the model's port list says
        self.known = frozenset(b[0].split(None, 1)[1] for b in config["blocks"]
                               if b[0].startswith("interface ") and len(b[0].split()) == 2)

    def leave(self):
        """Leave the current mode. An ACL's changes are applied when its mode is exited, not
        line by line (arista.eos issue #476: 'show session-config diffs' typed while still in
        an ACL's mode does not show that ACL's lines yet)."""
        pending, self.pending = self.pending, []
        for text in pending:
            self._child(text)
        self.mode, self.sub = None, None

    def mode_head(self):
        return self.mode[0] if self.mode is not None else None

    def _find(self, line):
        for block in self.config["blocks"]:
            if _key(block[0]) == _key(line):
                return block
        return None

    def _items(self, body, indent):
        """(start, end) of each item at ``indent`` in body."""
        out, start = [], None
        for i, line in enumerate(body):
            lead = len(line) - len(line.lstrip(" "))
            if line.strip() and not line.strip().startswith("!") and lead == indent:
                if start is not None:
                    out.append((start, i))
                start = i
            elif start is not None and (lead < indent or line.strip() == "!" and lead <= indent):
                out.append((start, i))
                start = None
        if start is not None:
            out.append((start, len(body)))
        return out

    def apply(self, text):
        words = text.split()
        negated = words[:1] in (["no"], ["default"]) and len(words) > 1
        target = " ".join(words[1:]) if negated else text
        if _top(target if negated else text, self.mode) or self.mode is None:
            self.leave()
            if negated:
                block = self._find(target)
                if block is None and text.startswith("default "):
                    block = self._find("no " + target)
                if block is not None:
                    block[1] = None
                    return
                if text.startswith("default ") or target.startswith("interface "):
                    return
                # 'no X' of a one-line command that is not there: EOS prints 'no X' as a line
                # when it is a setting (no aaa root, no ip routing vrf ...)
                existing = self._find(text)
                if existing is None:
                    self.config["blocks"].append([text, [], ["!"]])
                return
            block = self._find(text)
            if block is None and text.startswith("hostname "):   # one hostname: replaced
                block = next((b for b in self.config["blocks"]
                              if b[0].startswith("hostname ") and b[1] is not None), None)
                if block is not None:
                    block[0] = text
            if block is None:
                block = [text, [], ["!"]]
                self.config["blocks"].append(block)
            elif block[1] is None:
                block[1] = []
            if _opens(text):
                self.mode = block
            return
        if self.mode[0].startswith(ACL_MODES):
            self.pending.append(text)
            return
        self._child(text)

    def _child(self, text):
        words = text.split()
        negated = words[:1] in (["no"], ["default"]) and len(words) > 1
        target = " ".join(words[1:]) if negated else text
        body = self.mode[1]
        head = self.mode[0]
        subs = next((s for p, s in SUBMODES.items() if head.startswith(p)), ())
        in_bundle = self.sub is not None and body[self.sub].strip().startswith(
            "vlan-aware-bundle ") and (target if negated else text).startswith("vlan ")
        if self.sub is not None and (in_bundle or not text.startswith(subs) and (
                not negated or not target.startswith(subs))):
            indent, base = 6, self.sub
            span = [s for s in self._items(body, 3) if s[0] == base][0]
        else:
            self.sub = None
            indent, span = 3, (0, len(body))
        if negated:
            kill = [s for s in self._items(body[:span[1]], indent) if s[0] >= span[0] and
                    body[s[0]].strip() in (target, "no " + target)]
            for start, end in reversed(kill):
                del body[start:end]
                if self.sub is not None and start < self.sub:
                    self.sub -= end - start
            if kill or not text.startswith("no "):
                return
            # nothing to remove: 'no X' is itself a setting EOS prints (no priority, no
            # shutdown under management api, no switchport)
        line = " " * indent + text
        if text.startswith(subs) and indent == 3 and not in_bundle:
            for i, existing in enumerate(body):
                if existing == line:
                    self.sub = i
                    return
            if body and body[-1].strip() != "!":
                body.append("   !")
            body.append(line)
            self.sub = len(body) - 1
            return
        if line in body[span[0]:span[1]]:
            return
        if words[:1] == ["neighbor"] and len(words) == 5 and words[2] == "route-map":
            # one route-map per neighbour and direction: a second replaces the first (the
            # collection's drain relies on it, deploy/drain.py eos_out_policies; the command
            # takes one map name per direction in the EOS manual's BGP chapter, 'neighbor
            # route-map'; the replacement itself is not stated on a stored Arista page here -
            # FRR, whose CLI follows the same industry form, replaces in place, frr commit
            # 6293c218 "limit bgp route-maps to direct changes only")
            same = [i for i in range(span[0], span[1]) if body[i].startswith(" " * indent + "n")
                    and body[i].split()[:3] == words[:3] and body[i].split()[4:] == words[4:]
                    and len(body[i].split()) == 5]
            for i in reversed(same):
                del body[i]
            span = (span[0], span[1] - len(same))
        if indent == 3:
            at = next((i for i, existing in enumerate(body) if existing == "   !"), len(body))
            body.insert(at, line)
        else:
            body.insert(span[1], line)


class Device(object):
    """One runCmds request: EOS starts every request in exec mode."""

    def __init__(self, state, hostname):
        self.state = state
        self.hostname = hostname
        self.session = None
        self.left = False       # a session was left with 'end' in this request

    def run(self, cmd, fmt):
        banner = None
        if isinstance(cmd, dict):
            banner = cmd.get("input")
            cmd = cmd["cmd"]
        text = cmd.strip()
        if self.session is not None:
            return self._in_session(text, banner)
        if text == "enable":
            return {}
        if text.startswith("configure session "):
            self._open(text.split(None, 2)[2])
            return {}
        if text.split()[:1] and text.split()[0].lower() in EXEC:
            return self._exec(text, "exec after end" if self.left else "exec")
        return self._show(text, fmt)

    def _show(self, text, fmt):
        if text == "show configuration sessions":
            return {"sessions": {name: {"state": "pending"} for name in SESSIONS}}
        if text == "show version":
            return {"modelName": "DCS-7060X6-64PE", "version": "4.32.2F", "serialNumber": "TEST"}
        if text == "show hostname":
            return {"hostname": self.hostname, "fqdn": self.hostname}
        if text in ("show running-config", "show startup-config"):
            return {"output": _read(self.state, text.split()[1])}
        if text in ("show ip bgp summary", "show ip route") and fmt == "json":
            return json.loads(_read(self.state, text.replace(" ", "-") + ".json"))
        words = text.split()
        raise CommandError("Invalid input (at token %d: '%s')" % (min(1, len(words) - 1),
                                                                  words[min(1, len(words) - 1)]))

    def _exec(self, text, where="exec"):
        _log_exec(self.state, "%s: %s" % (where, text))
        if text in ("copy running-config startup-config", "write", "write memory"):
            _write(self.state, "startup-config", _read(self.state, "running-config"))
            return {"messages": ["Copy completed successfully."]}
        return {}

    def _open(self, name):
        if name not in SESSIONS and len(SESSIONS) >= MAX_PENDING:
            raise CommandError("Maximum number of pending sessions has been reached. Commit or "
                               "abort a pending session (%d pending)" % len(SESSIONS))
        if self.session is not None:
            SESSIONS[self.session].leave()
        self.session = name
        if name not in SESSIONS:
            SESSIONS[name] = Session(parse(_read(self.state, "running-config")))
        SESSIONS[name].leave()

    def close(self):
        """The request's CLI ends: a mode still open is left (an ACL's lines applied)."""
        if self.session is not None:
            SESSIONS[self.session].leave()

    def _in_session(self, text, banner):
        session = SESSIONS[self.session]
        if banner is not None:
            block = session._find(text)
            lines = banner.split("\n") + ["EOF"]
            if block is None:
                session.config["blocks"].append([text, lines, ["!"]])
            else:
                block[1] = lines
            session.mode = session.sub = None
            return {}
        if text == "rollback clean-config":
            session.config["blocks"] = []
        elif text == "show session-config diffs":
            before = _read(self.state, "running-config").splitlines()
            after = show(session.config).splitlines()
            return {"output": "\n".join(difflib.unified_diff(
                before, after, "system:/running-config", "session:/session-config", lineterm=""))}
        elif text == "show session-config":
            return {"output": show(session.config)}
        elif text == "commit":
            session.leave()
            _write(self.state, "running-config", show(session.config))
            del SESSIONS[self.session]
            self.session = None
        elif text == "end":   # leaves configuration mode; the session stays pending
            session.leave()
            self.session = None
            self.left = True
        elif text == "exit":
            if session.sub is not None:
                session.sub = None
            elif session.mode is not None:
                session.leave()
            else:
                self.session = None
                self.left = True
        elif text == "abort":
            del SESSIONS[self.session]
            self.session = None
        elif text.startswith("configure session "):
            self._open(text.split(None, 2)[2])
        elif text.split()[0].lower() in EXEC:
            # privileged-exec commands act on the system at once, also from a session
            # (eos_grammar_standin.EXEC); logged so a test can prove none ran there
            return self._exec(text, "session %s" % self.session)
        elif text.split()[0].lower() == "show":
            # EOS runs a show command typed in a configuration mode as in exec mode; it does
            # not become a config line (the mode is kept)
            return self._show(text, "json")
        else:
            session.apply(canonical(text, session.mode_head(), session.known))
        return {}


def error(exc, results, total, cmd):
    """eAPI's answer to a failing command: JSON-RPC error 1002, 'CLI command N of M ...', data
    holding the results so far and the failing command's errors; later commands are not run
    (the form of a vEOS answer in arista.eos/pyeapi test fixtures)."""
    text = cmd["cmd"] if isinstance(cmd, dict) else cmd
    return {"code": 1002, "message": "CLI command %d of %d '%s' failed: invalid command" % (
        len(results) + 1, total, text), "data": results + [
        {"errors": [str(exc)], "output": "%% %s\n" % exc}]}


COMMITS = [0]      # requests that committed (or were to commit) a session, for fault.json


def _fault(state, cmds):
    """"before" / "after" when this request's commit is the faulted one (fault.json), else None;
    "down" while the file ``down`` is in the state directory (a fault with "down" writes it; a
    test removes it to bring the switch back)."""
    if os.path.exists(os.path.join(state, "down")):
        return "down"
    path = os.path.join(state, "fault.json")
    texts = [c if isinstance(c, str) else c.get("cmd") for c in cmds]
    if not texts or texts[-1] != "commit" or not os.path.exists(path):
        return None
    COMMITS[0] += 1
    with open(path, encoding="utf-8") as handle:
        fault = json.load(handle)
    if fault.get("commit") != COMMITS[0]:
        return None
    if fault.get("down"):
        _write(state, "down", "")
    return fault.get("when", "after")


def make_handler(state, hostname):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            params = request["params"]
            fault = _fault(state, params["cmds"])
            if fault is not None:
                self._drop(fault, params)
                return
            device = Device(state, hostname)
            results = []
            answer = {"jsonrpc": "2.0", "id": request["id"]}
            with open(os.path.join(state, "requests.log"), "a", encoding="utf-8") as log:
                log.write(json.dumps(params["cmds"]) + "\n")
            cmd = None
            try:
                for cmd in params["cmds"]:
                    if isinstance(cmd, dict) and "input" not in cmd:
                        cmd = cmd["cmd"]
                    results.append(device.run(copy.deepcopy(cmd), params.get("format", "json")))
                device.close()
                answer["result"] = results
            except CommandError as exc:
                device.close()
                answer["error"] = error(exc, results, len(params["cmds"]), cmd)
                with open(os.path.join(state, "errors.log"), "a", encoding="utf-8") as log:
                    log.write("%s: %s\n" % (answer["error"]["message"], exc))
            body = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _drop(self, fault, params):
            """The connection goes without an answer; "before": the session's commands staged,
            no commit; "after": committed; "down": nothing runs."""
            with open(os.path.join(state, "dropped.log"), "a", encoding="utf-8") as log:
                log.write("%s %s\n" % (fault, json.dumps(params["cmds"])))
            cmds = params["cmds"][:-1] if fault == "before" else params["cmds"]
            if fault != "down":
                device = Device(state, hostname)
                try:
                    for cmd in cmds:
                        device.run(copy.deepcopy(cmd), params.get("format", "json"))
                finally:
                    device.close()
            self.close_connection = True

        def log_message(self, *args):
            pass

    return Handler


def main():
    state, hostname = sys.argv[1], sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state, hostname))
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
