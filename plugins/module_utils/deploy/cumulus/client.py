# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The NVUE REST API as the Cumulus deploy uses it (Cumulus Linux 5.14 NVUE-API.md unless said):

- ``GET /nvue_v1/?rev=applied&filled=false``: the applied config; ``?rev=<id>``: a revision's;
  no ``rev``: operational state (``/interface``, ``/vrf/default/router/bgp/neighbor``, ...);
- ``POST /nvue_v1/revision``: a new pending revision, answered ``{"<id>": {"state":
  "pending", ...}}`` (the id URL-encoded in paths: "replace / with %2F", 5.2's example);
- ``PATCH /nvue_v1/?rev=<id>``: the body merged into the revision, ``null`` unsets;
- ``PATCH /nvue_v1/revision/<id>`` ``{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}``
  applies it; ``state-controls.confirm`` (seconds, OpenAPI 5.2) makes NVUE roll it back unless
  confirmed in time; the deploy then polls ``GET /nvue_v1/revision/<id>`` (the documented
  loop polls every second) until the state settles;
- ``PATCH /nvue_v1/revision/applied`` ``{"state": "save", ...}``: saved to startup.yaml.

Confirming over REST is not documented by NVIDIA (hardware/cumulus.py UNVERIFIED): the deploy
sends ``{"state": "confirm_yes"}``, as third-party NVUE clients do. The transport is injected
(the module gives Ansible's open_url), so this file imports nothing but the standard library.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time
from typing import Any, Callable, Dict, Optional, Tuple
from urllib.parse import quote, urlencode

# (method, path and query below /nvue_v1, JSON body or None) -> (HTTP status, decoded JSON)
Transport = Callable[[str, str, Optional[Any]], Tuple[int, Any]]

AYS = {"ays": "ays_yes"}
APPLIED = frozenset(("applied", "applied_and_saved", "saved"))
CONFIRM = "confirm"                       # applied, waiting to be confirmed
# a revision NVUE would not apply, or that it rolled back
FAILED = frozenset(("invalid", "apply_fail", "apply_error", "ays_fail", "ays_no",
                    "ignore_fail", "confirm_fail", "confirm_no", "ready_error",
                    "verify_error", "inactive", "detached"))


class NvueError(Exception):
    """The switch refused a request or a revision; the message says what NVUE answered."""


def _issues(body: Any) -> str:
    issues = ((body or {}).get("transition") or {}).get("issue") or {}
    return "; ".join(str(i.get("message", i)) for i in issues.values()) if isinstance(
        issues, dict) else str(issues)


class Client:
    def __init__(self, transport: Transport, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.transport, self.sleep, self.clock = transport, sleep, clock

    def call(self, method: str, path: str, body: Optional[Any] = None, **query: Any) -> Any:
        path = path + ("?" + urlencode(sorted(query.items())) if query else "")
        status, data = self.transport(method, path, body)
        if status >= 400:
            message = data.get("message") if isinstance(data, dict) else data
            raise NvueError("%s %s: HTTP %d %s" % (method, path, status, message or ""))
        return data

    def config(self, rev: str = "applied") -> Dict[str, Any]:
        """A revision's config tree (``applied``, ``startup`` or an id), without its header."""
        data = self.call("GET", "/", rev=rev, filled="false") or {}
        return dict((k, v) for k, v in data.items() if k != "header")

    def create(self) -> str:
        data = self.call("POST", "/revision")
        if not isinstance(data, dict) or len(data) != 1:
            raise NvueError("POST /revision: expected one new revision, got %r" % (data,))
        return str(next(iter(data)))

    def patch(self, rev: str, body: Dict[str, Any]) -> Any:
        return self.call("PATCH", "/", body, rev=rev)

    def state(self, rev: str) -> Dict[str, Any]:
        """The revision's record ({state, transition}); the documents show it bare and wrapped
        in its id: both are read."""
        data = self.call("GET", "/revision/" + quote(rev, safe="")) or {}
        if "state" not in data and len(data) == 1:
            data = next(iter(data.values())) or {}
        return data

    def apply(self, rev: str, confirm_s: int = 0) -> None:
        body: Dict[str, Any] = {"state": "apply", "auto-prompt": dict(AYS)}
        if confirm_s:
            body["state-controls"] = {"confirm": int(confirm_s)}
        self.call("PATCH", "/revision/" + quote(rev, safe=""), body)

    def confirm(self, rev: str) -> None:
        self.call("PATCH", "/revision/" + quote(rev, safe=""),
                  {"state": "confirm_yes", "auto-prompt": dict(AYS)})

    def save(self) -> None:
        self.call("PATCH", "/revision/applied", {"state": "save", "auto-prompt": dict(AYS)})

    def wait(self, rev: str, until: frozenset, timeout_s: float, poll_s: float = 1.0) -> str:
        """Poll the revision until its state is one of ``until`` (returned); a failed state or
        the timeout raises, naming the state and NVUE's issues."""
        deadline = self.clock() + timeout_s
        while True:
            record = self.state(rev)
            state = str(record.get("state", ""))
            if state in until:
                return state
            if state in FAILED:
                issues = _issues(record)
                raise NvueError("revision %s: %s%s" % (rev, state,
                                                       ": " + issues if issues else ""))
            if self.clock() >= deadline:
                raise NvueError("revision %s: still %s after %g s"
                                % (rev, state or "unknown", timeout_s))
            self.sleep(poll_s)

    def wait_settled(self, rev: str, timeout_s: float, poll_s: float = 1.0) -> str:
        """Poll until the revision no longer waits for its confirmation: NVUE rolled it back
        (or it was confirmed elsewhere); returns the state it settled in."""
        deadline = self.clock() + timeout_s
        while True:
            state = str(self.state(rev).get("state", ""))
            if state != CONFIRM:
                return state
            if self.clock() >= deadline:
                raise NvueError("revision %s: still waiting for its confirmation after %g s"
                                % (rev, timeout_s))
            self.sleep(poll_s)
