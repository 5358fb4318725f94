#!/usr/bin/env python
"""A stand-in Arista eAPI endpoint (JSON-RPC `runCmds` on /command-api) for tests of the EOS deploy
path with the real arista.eos modules over ansible.netcommon.httpapi. No EOS or cEOS runs here.

It keeps what the EOS manual documents for configuration sessions: a named session survives
between requests, `rollback clean-config` empties it, `show session-config diffs` prints a unified
diff against running-config, `commit` replaces running-config, `abort` drops the session, and
`copy running-config startup-config` saves. It does not parse EOS syntax: a session holds the lines
as sent (flat, as arista.eos sends them), and a commit writes them back indented the way
`show running-config` prints them, for the commands of roce.fabric's configs and a management
plane (modes and sub-modes below); session diffs compare flat lines. Operational `show ... | json` answers are read per request from files in the state
directory (`show-ip-bgp-summary.json`, `show-ip-route.json`), so a test can change the
device's health between runs. running-config and startup-config live in the same directory.

Usage: eos_eapi.py STATE_DIR HOSTNAME  (prints the bound 127.0.0.1 port, then serves)
"""
import difflib
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SESSIONS = {}


class CommandError(Exception):
    """An EOS CLI error (eAPI answers JSON-RPC error 1002 and stops at the failing command)."""


def _read(state, name, default=""):
    path = os.path.join(state, name)
    if not os.path.exists(path):
        return default
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _write(state, name, text):
    with open(os.path.join(state, name), "w", encoding="utf-8") as handle:
        handle.write(text)


def _config_lines(text):
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("!")]


# Commands that open a mode, commands that are top-level without one, and per mode the commands
# that open a sub-mode (EOS: a top-level command typed in a mode leaves it).
MODES = ("interface ", "router bgp ", "vrf instance ", "management ", "qos profile ", "route-map ",
         "ip prefix-list ", "platform trident mmu queue profile ")
SINGLE = ("hostname ", "service ", "qos map ", "priority-flow-control pause watchdog default ",
          "priority-flow-control pause watchdog action ", "platform trident mmu headroom-pool ",
          "ip routing", "no ip routing", "ip route ", "ipv6 route ", "ip community-list ",
          "ip load-sharing ", "ip hardware ", "ip name-server ", "username ", "aaa ", "no aaa ",
          "enable ", "ntp ", "logging ", "snmp-server ", "end")
SUBMODES = {"qos profile ": ("tx-queue ",), "management ": ("vrf ",),
            "router bgp ": ("address-family ", "vrf ")}


def _indented(lines):
    """Flat session lines as show running-config prints them: 3 spaces per level."""
    out, mode, sub = [], None, False
    for line in lines:
        opens = line.startswith(MODES) and not line.endswith(" apply")
        if opens or line.startswith(SINGLE):
            out.append(line)
            mode = next((m for m in MODES if line.startswith(m)), None) if opens else None
            sub = False
        elif mode and line.startswith(SUBMODES.get(mode, ())):
            out.append("   " + line)
            sub = True
        else:
            out.append(("      " if sub else "   " if mode else "") + line)
    return out


def _diffs(running, session):
    lines = difflib.unified_diff(_config_lines(running), session, "system:/running-config",
                                 "session:/session-config", lineterm="")
    return "\n".join(lines)


class Device(object):
    """One runCmds request: EOS starts every request in exec mode."""

    def __init__(self, state, hostname):
        self.state = state
        self.hostname = hostname
        self.session = None

    def run(self, cmd, fmt):
        text = cmd.strip()
        if self.session is not None:
            return self._in_session(text)
        if text == "enable":
            return {}
        if text.startswith("configure session "):
            self.session = text.split(None, 2)[2]
            SESSIONS.setdefault(self.session, _config_lines(_read(self.state, "running-config")))
            return {}
        if text == "show configuration sessions":
            return {"sessions": {name: {"state": "pending"} for name in SESSIONS}}
        if text == "show version":
            return {"modelName": "DCS-7060X5-64S", "version": "4.32.2F", "serialNumber": "TEST"}
        if text == "show hostname":
            return {"hostname": self.hostname, "fqdn": self.hostname}
        if text in ("show running-config", "show startup-config"):
            return {"output": _read(self.state, text.split()[1])}
        if text == "copy running-config startup-config":
            _write(self.state, "startup-config", _read(self.state, "running-config"))
            return {"messages": ["Copy completed successfully."]}
        if text in ("show ip bgp summary", "show ip route") and fmt == "json":
            return json.loads(_read(self.state, text.replace(" ", "-") + ".json"))
        raise CommandError("Invalid input (at token 0: '%s')" % text)

    def _in_session(self, text):
        lines = SESSIONS[self.session]
        if text == "rollback clean-config":
            del lines[:]
        elif text == "show session-config diffs":
            return {"output": _diffs(_read(self.state, "running-config"), lines)}
        elif text == "commit":
            _write(self.state, "running-config", "\n".join(_indented(lines)) + "\n")
            del SESSIONS[self.session]
            self.session = None
        elif text == "end":   # leaves configuration mode; the session stays pending
            self.session = None
        elif text == "exit":   # leaves a sub-mode; this stand-in keeps no modes
            pass
        elif text == "abort":
            del SESSIONS[self.session]
            self.session = None
        elif text.startswith("configure session "):
            self.session = text.split(None, 2)[2]
            SESSIONS.setdefault(self.session, _config_lines(_read(self.state, "running-config")))
        else:
            lines.append(text if not text.startswith(" ") else text.rstrip())
        return {}


def make_handler(state, hostname):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            params = request["params"]
            device = Device(state, hostname)
            results = []
            answer = {"jsonrpc": "2.0", "id": request["id"]}
            with open(os.path.join(state, "requests.log"), "a", encoding="utf-8") as log:
                log.write(json.dumps(params["cmds"]) + "\n")
            try:
                for cmd in params["cmds"]:
                    cmd = cmd["cmd"] if isinstance(cmd, dict) else cmd
                    results.append(device.run(cmd, params.get("format", "json")))
                answer["result"] = results
            except CommandError as exc:
                answer["error"] = {"code": 1002, "message": "CLI command %d of %d '%s' failed: "
                                   "invalid command" % (len(results) + 1, len(params["cmds"]), cmd),
                                   "data": results + [{"errors": [str(exc)]}]}
            body = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

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
