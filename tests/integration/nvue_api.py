#!/usr/bin/env python
"""A stand-in NVUE REST API (Cumulus Linux 5.14) on 127.0.0.1 for tests of the Cumulus deploy path.
No Cumulus Linux runs here; each behaviour below is written from NVIDIA's documentation
(CumulusNetworks/docs, content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-
NVUE/NVUE-API.md unless another page is named) and refuses what it says NVUE refuses:

- HTTPS with a self-signed certificate ("Cumulus Linux ... generates a self-signed certificate"),
  base path /nvue_v1, HTTP basic authentication; the factory password refused with 403 ("you
  must change the password for the cumulus user; otherwise you see 403 responses");
- ``GET /nvue_v1/<path>?rev=applied|startup|<id>&filled=false``: that revision's config below
  the path (the whole tree with a ``header``, as nv config show prints one); without ``rev``:
  operational state (interfaces with link.oper-status, mtu and speed; BGP neighbours with their
  state; the IPv4 RIB and the next-hop groups from files the test writes, rib.json and
  nexthop.json);
- ``POST /nvue_v1/revision``: a new pending revision, "using the latest applied revision as the
  branch point" (OpenAPI 5.2), answered ``{"<id>": {"state": "pending", "transition": ...}}``
  with integer ids;
- ``PATCH /nvue_v1/<path>?rev=<id>``: the body merged below the path, ``null`` unsets ("To unset
  a configuration change, use the null value"); only a pending revision takes patches;
- ``PATCH /nvue_v1/revision/<id>`` ``{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}``:
  the revision is validated as a whole - every key and range of nvue_schema.py, and the
  documented rules across keys (pools at most 100 % in all, QoS _index.md; DWRR shares at most
  100 % with NVUE's defaults on the classes not set and a share on every DWRR class, QoS.md and
  QoS _index.md; PFC watchdog only on a port with PFC or link pause, and not both of those on one
  port, QoS _index.md; no adaptive routing on 800G, ECMP page; a breakout port needs its cage
  broken out, Switch-Port-Attributes.md; BGP needs its router-id and ASN, the documented
  "BGP requires router-id to be set globally or in the VRF"; a port's profile must exist) - an
  invalid one ends in state ``invalid`` with issue ``config_invalid`` "Config invalid at
  <location>: <reason>"; without the ``ays`` answer ``ays_fail`` ("Aborted apply after
  warnings"); with ``state-controls.confirm`` N (OpenAPI 5.2: "the number of seconds to wait for
  confirmation before rolling back the config") the revision is applied and waits in state
  ``confirm``; unconfirmed after N seconds the applied config goes back to what it was and the
  revision ends ``confirm_fail`` (nv config apply --confirm: "If you do not confirm ... the
  configuration rolls back automatically"); applied, it is saved (auto-save, on since 5.9);
- ``PATCH /nvue_v1/revision/<id>`` ``{"state": "confirm_yes"}``: confirms a revision waiting in
  ``confirm`` (the REST form is the third-party clients' one: not documented by NVIDIA);
- ``PATCH /nvue_v1/revision/applied`` ``{"state": "save"}``: applied -> startup.

Faults (fault.json in the state directory, read per request): ``{"bgp_idle_while_confirming":
true}`` - BGP neighbours report ``idle`` while a revision waits for its confirmation (a change
that breaks routing); ``{"down": true}`` - every request is dropped unanswered;
``{"down_while_confirming": true}`` - so is every request while a revision waits for its
confirmation (the switch lost to the controller right after it applied one).
Every request is logged to requests.log; applied.json and startup.json are kept there (a test
may edit applied.json between runs: it is read again, as a hand edit on the switch).

Usage: nvue_api.py STATE_DIR USER PASSWORD  (prints the bound port, then serves)
"""
import base64
import copy
import json
import os
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nvue_schema  # noqa: E402

BASE = "/nvue_v1"
# QoS _index.md: "the bandwidth allocated to egress queues 0,2,4,6 is 12 percent and ... 1,3,5,7
# is 13 percent"; "Cumulus Linux allocates 100% of the buffer memory to the default-lossy
# traffic pool by default"
SCHEDULER_DEFAULT = dict((str(tc), {"mode": "dwrr", "bw-percent": 12 + tc % 2}) for tc in range(8))
POOLS_DEFAULT = {"default-lossy": {"memory-percent": 100}}


def get(tree, path):
    node = tree
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def merge(tree, body):
    """A PATCH merged: a value set, ``null`` unsets, an object merged key by key (an empty one
    names the node and changes nothing that is there)."""
    for key, value in body.items():
        if value is None:
            tree.pop(key, None)
        elif isinstance(value, dict) and isinstance(tree.get(key), dict):
            merge(tree[key], value)
        else:
            tree[key] = copy.deepcopy(value)


def cross_checks(tree):
    """[(location, reason)] of the documented rules across keys (module docstring)."""
    out = []
    qos = tree.get("qos") or {}
    pools = copy.deepcopy(POOLS_DEFAULT)
    merge(pools, qos.get("traffic-pool") or {})
    total = sum(p.get("memory-percent", 0) for p in pools.values())
    if total > 100:
        out.append(("qos.traffic-pool", "The total memory allocation across pools must not "
                                        "exceed 100%% (%d%%)" % total))
    for name, sched in (qos.get("egress-scheduler") or {}).items():
        classes = copy.deepcopy(SCHEDULER_DEFAULT) if name == "default-global" else {}
        merge(classes, sched.get("traffic-class") or {})
        share = sum(c.get("bw-percent", 0) for c in classes.values() if c.get("mode") == "dwrr")
        if share > 100:
            out.append(("qos.egress-scheduler.%s" % name,
                        "The combined total of bw-percent values must be <= 100 (%d)" % share))
        for tc, c in sorted(classes.items()):
            if c.get("mode") == "dwrr" and not c.get("bw-percent"):
                out.append(("qos.egress-scheduler.%s.traffic-class.%s" % (name, tc),
                            "dwrr mode needs a bw-percent between 1 and 100"))
    bgp = get(tree, ("router", "bgp")) or {}
    vrf = get(tree, ("vrf", "default", "router", "bgp")) or {}
    if bgp.get("enable") == "on" or vrf.get("enable") == "on":
        if not (bgp.get("router-id") or vrf.get("router-id")):
            out.append(("router.bgp.enable", "BGP requires router-id to be set globally or in "
                                             "the VRF.\n"))
        if not (bgp.get("autonomous-system") or vrf.get("autonomous-system")):
            out.append(("router.bgp.enable", "BGP requires autonomous-system to be set globally "
                                             "or in the VRF.\n"))
    for name, port in (tree.get("interface") or {}).items():
        out += _port_checks(tree, name, port or {})
    return out


def _port_checks(tree, name, port):
    out = []
    pq = port.get("qos") or {}
    for kind in ("pfc", "congestion-control", "link-pause", "mapping", "egress-scheduler"):
        profile = (pq.get(kind) or {}).get("profile")
        if profile and profile not in (get(tree, ("qos", kind)) or {}):
            out.append(("interface.%s.qos.%s.profile" % (name, kind),
                        "%r is not a configured %s profile" % (profile, kind)))
    if "pfc" in pq and "link-pause" in pq:
        out.append(("interface.%s.qos" % name, "You can not configure link pause and PFC on "
                                               "the same port"))
    if (pq.get("pfc-watchdog") or {}).get("state") == "enable" and not (
            "pfc" in pq or "link-pause" in pq):
        out.append(("interface.%s.qos.pfc-watchdog" % name, "You can only configure PFC "
                                                            "watchdog on a port with PFC (or "
                                                            "link pause) configuration"))
    link = port.get("link") or {}
    if get(port, ("router", "adaptive-routing", "enable")) == "on" and link.get("speed") == "800G":
        out.append(("interface.%s.router.adaptive-routing" % name,
                    "The Spectrum-4 switch does not support adaptive routing on 800G links"))
    if "s" in name[3:] and name.startswith("swp"):
        cage, sub = name[3:].split("s", 1)
        modes = get(tree, ("interface", "swp" + cage, "link", "breakout")) or {}
        ways = max([int(m[:-1]) for m in modes] or [0])     # 1x: the cage is the port
        if ways < 2 or int(sub) >= ways:
            out.append(("interface.%s" % name, "swp%s is not broken out into %d ports"
                        % (cage, int(sub) + 1)))
    return out


def validate(tree):
    """The schema's problems; the rules across keys only on a tree the schema takes."""
    return nvue_schema.problems(tree) or cross_checks(tree)


class State:
    def __init__(self, root, user, password):
        self.root, self.user, self.password = root, user, password
        self.lock = threading.RLock()
        self.applied = self._read("applied.json") or {}
        self.startup = self._read("startup.json") or copy.deepcopy(self.applied)
        self.revisions = {}
        self.next_id = 1
        self.confirming = None          # (revision id, applied before it, timer)

    def _read(self, name):
        path = os.path.join(self.root, name)
        if os.path.exists(path):
            with open(path) as handle:
                return json.load(handle)
        return None

    def write(self):
        for name, tree in (("applied.json", self.applied), ("startup.json", self.startup)):
            with open(os.path.join(self.root, name), "w") as handle:
                json.dump(tree, handle, indent=1, sort_keys=True)
        self.seen = os.stat(os.path.join(self.root, "applied.json")).st_mtime_ns

    def sync(self):
        """A test that edits applied.json between runs changes what the switch runs (as a hand
        edit on the switch would): read again unless a revision waits for its confirmation."""
        path = os.path.join(self.root, "applied.json")
        if os.path.exists(path) and not self.confirming and \
                os.stat(path).st_mtime_ns != getattr(self, "seen", None):
            self.applied = self._read("applied.json")
            self.seen = os.stat(path).st_mtime_ns

    def fault(self):
        return self._read("fault.json") or {}

    def log(self, name, line):
        with open(os.path.join(self.root, name), "a") as handle:
            handle.write(line + "\n")

    # -- revisions --------------------------------------------------------------------------
    def create(self):
        rid = str(self.next_id)
        self.next_id += 1
        self.revisions[rid] = {"state": "pending", "config": copy.deepcopy(self.applied),
                               "transition": {"issue": {}, "progress": ""}}
        return rid

    def apply(self, rid, body):
        rev = self.revisions[rid]
        if rev["state"] != "pending":
            return 400, {"message": "revision %s is %s, not pending" % (rid, rev["state"])}
        if self.confirming:
            return 400, {"message": "revision %s waits for its confirmation" % self.confirming[0]}
        issues = validate(rev["config"])
        if issues:
            rev["state"] = "invalid"
            rev["transition"] = {"progress": "Invalid config", "issue": dict(
                (str(i), {"code": "config_invalid", "severity": "error",
                          "data": {"location": loc, "reason": why},
                          "message": "Config invalid at %s: %s" % (loc, why)})
                for i, (loc, why) in enumerate(issues))}
            return 200, {"state": "apply", "transition": {"issue": {}, "progress": ""}}
        if (body.get("auto-prompt") or {}).get("ays") != "ays_yes":
            rev["state"] = "ays_fail"
            rev["transition"] = {"progress": "Aborted apply after warnings", "issue": {"0": {
                "code": "client_timeout", "message": "Timeout while waiting for client response",
                "severity": "error"}}}
            return 200, {"state": "apply", "transition": {"issue": {}, "progress": ""}}
        before = self.applied
        self.applied = copy.deepcopy(rev["config"])
        seconds = int((body.get("state-controls") or {}).get("confirm") or 0)
        if seconds:
            rev["state"] = "confirm"
            timer = threading.Timer(seconds, self.expire, (rid,))
            timer.daemon = True
            self.confirming = (rid, before, timer)
            timer.start()
        else:
            rev["state"] = "applied"
            self.startup = copy.deepcopy(self.applied)
        self.write()
        self.log("revisions.log", "%s %s" % (rid, rev["state"]))
        return 200, {"state": "apply", "transition": {"issue": {}, "progress": ""}}

    def expire(self, rid):
        with self.lock:
            if not self.confirming or self.confirming[0] != rid:
                return
            self.applied = self.confirming[1]
            self.revisions[rid]["state"] = "confirm_fail"
            self.confirming = None
            self.write()
            self.log("revisions.log", "%s rolled back (not confirmed)" % rid)

    def confirm(self, rid):
        if not self.confirming or self.confirming[0] != rid:
            return 400, {"message": "revision %s does not wait for a confirmation" % rid}
        self.confirming[2].cancel()
        self.confirming = None
        self.revisions[rid]["state"] = "applied"
        self.startup = copy.deepcopy(self.applied)
        self.write()
        self.log("revisions.log", "%s confirmed" % rid)
        return 200, {"state": "confirm_yes", "transition": {"issue": {}, "progress": ""}}

    # -- operational --------------------------------------------------------------------------
    def operational(self, path):
        if path == ["interface"]:
            return dict((name, self._oper_port(port or {}))
                        for name, port in (self.applied.get("interface") or {}).items())
        if path == ["vrf", "default", "router", "bgp", "neighbor"]:
            idle = self.fault().get("bgp_idle_while_confirming") and self.confirming
            peers = get(self.applied, ("vrf", "default", "router", "bgp", "neighbor")) or {}
            return dict((peer, {"remote-as": body.get("remote-as"),
                                "state": "idle" if idle else "established"})
                        for peer, body in peers.items())
        if path == ["vrf", "default", "router", "rib", "ipv4", "route"]:
            return self._read("rib.json") or {}
        if path == ["router", "nexthop"]:
            return self._read("nexthop.json") or {}
        return None

    @staticmethod
    def _oper_port(port):
        link = port.get("link") or {}
        up = "down" not in (link.get("state") or {})
        out = {"admin-status": "up" if up else "down", "oper-status": "up" if up else "down",
               "mtu": link.get("mtu", 9216), "state": link.get("state") or {"up": {}}}
        if up and link.get("speed"):
            out["speed"] = link["speed"]            # a port that is down reports no speed
        return {"type": port.get("type", "swp"), "link": out}


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _send(self, status, body):
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _auth(self):
            head = self.headers.get("Authorization", "")
            if not head.startswith("Basic "):
                return 401
            try:
                user, password = (base64.b64decode(head[6:], validate=True).decode()
                                  .split(":", 1) + [""])[:2]
            except (ValueError, UnicodeDecodeError):
                return 401
            if (user, password) != (state.user, state.password):
                return 401
            return 403 if password == "cumulus" else None

        def _handle(self, method):
            fault = state.fault()
            if fault.get("down") or (fault.get("down_while_confirming") and state.confirming):
                self.close_connection = True
                return
            denied = self._auth()
            if denied:
                return self._send(denied, {"message": "Unauthorized" if denied == 401 else
                                           "Forbidden: change the default password"})
            url = urlsplit(self.path)
            if not url.path.startswith(BASE):
                return self._send(404, {"message": "not found"})
            path = [unquote(p) for p in url.path[len(BASE):].split("/") if p]
            query = dict((k, v[0]) for k, v in parse_qs(url.query).items())
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            state.log("requests.log", "%s %s" % (method, self.path))
            with state.lock:
                state.sync()
                status, answer = self._route(method, path, query, body)
            return self._send(status, answer)

        def _route(self, method, path, query, body):
            if path[:1] == ["revision"]:
                return self._revision(method, path[1:], body)
            rev = query.get("rev")
            if method == "GET":
                if rev is None or rev == "operational":
                    found = state.operational(path)
                    if found is None:
                        return 404, {"message": "no such resource"}
                    return 200, found
                tree = self._tree(rev)
                if tree is None:
                    return 404, {"message": "no revision %s" % rev}
                node = get(tree, path)
                if node is None:
                    return 404, {"message": "no such resource"}
                if not path:
                    node = dict(node, header={"model": "SN5600", "nvue-api-version": "nvue_v1",
                                              "rev-id": rev, "version": "Cumulus Linux 5.14.0"})
                return 200, node
            if method == "PATCH":
                target = state.revisions.get(rev or "")
                if target is None or target["state"] != "pending":
                    return 400, {"message": "rev %s is not a pending revision" % rev}
                if not isinstance(body, dict):
                    return 400, {"message": "the body must be an object"}
                node = target["config"]
                for key in path:
                    node = node.setdefault(key, {})
                merge(node, body)
                return 200, body
            return 405, {"message": "method not allowed"}

        def _tree(self, rev):
            if rev == "applied":
                return state.applied
            if rev == "startup":
                return state.startup
            found = state.revisions.get(rev)
            return found["config"] if found else None

        def _revision(self, method, path, body):
            if method == "POST" and not path:
                rid = state.create()
                return 201, {rid: {"state": "pending", "transition": {"issue": {},
                                                                      "progress": ""}}}
            if method == "GET" and len(path) == 1 and path[0] in state.revisions:
                rev = state.revisions[path[0]]
                return 200, {"state": rev["state"], "transition": rev["transition"]}
            if method == "PATCH" and len(path) == 1 and isinstance(body, dict):
                if path[0] == "applied" and body.get("state") == "save":
                    state.startup = copy.deepcopy(state.applied)
                    state.write()
                    return 200, {"state": "save", "transition": {"issue": {}, "progress": ""}}
                if path[0] not in state.revisions:
                    return 404, {"message": "no revision %s" % path[0]}
                if body.get("state") == "apply":
                    return state.apply(path[0], body)
                if body.get("state") == "confirm_yes":
                    return state.confirm(path[0])
                return 400, {"message": "state %r cannot be set" % body.get("state")}
            return 404, {"message": "no such revision resource"}

        def do_GET(self):
            self._handle("GET")

        def do_POST(self):
            self._handle("POST")

        def do_PATCH(self):
            self._handle("PATCH")

    return Handler


def serve(root, user, password):
    cert, key = os.path.join(root, "cert.pem"), os.path.join(root, "key.pem")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
    state = State(root, user, password)
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    serve(*sys.argv[1:4])
