"""The EOS eAPI stand-in (eos_eapi.py) answers as EOS does where a deploy could otherwise pass
against it and fail on a switch: a mistyped command stops the request with eAPI error 1002,
abbreviations and case are stored in EOS's canonical spelling, exec commands in a session run
as exec (never as config lines), one outbound route-map per neighbour, only the model's ports
exist, pending sessions are limited, and an ACL's lines apply when its mode is left.

Fast: the stand-in's HTTP handler runs in this process on 127.0.0.1, port 0. Each test names
the EOS behaviour it models; the sources are cited in eos_eapi.py and eos_grammar_standin.py."""
import json
import os
import sys
import threading
import urllib.request
from http.server import ThreadingHTTPServer

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eos_eapi  # noqa: E402

RUNNING = """! device: leaf2a (DCS-7060X6-64PE, EOS-4.32.2F)
!
hostname leaf2a
!
interface Ethernet1/1
   mtu 9214
!
interface Ethernet3
   description a vEOS-style port the running config prints
!
router bgp 65000
   neighbor 10.0.0.1 remote-as 65001
   neighbor 10.0.0.1 route-map OWN-IN in
   neighbor 10.0.0.1 route-map OWN-OUT out
!
end
"""


@pytest.fixture
def eapi(tmp_path):
    (tmp_path / "running-config").write_text(RUNNING)
    eos_eapi.SESSIONS.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), eos_eapi.make_handler(str(tmp_path),
                                                                         "leaf2a"))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = "http://127.0.0.1:%d/command-api" % server.server_address[1]

    def run(*cmds):
        body = json.dumps({"jsonrpc": "2.0", "method": "runCmds", "id": 1,
                           "params": {"version": 1, "cmds": list(cmds), "format": "json"}})
        request = urllib.request.Request(url, body.encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    run.state = tmp_path
    yield run
    server.shutdown()
    server.server_close()
    eos_eapi.SESSIONS.clear()


def session_config(run, name="s1"):
    return run("configure session %s" % name, "show session-config", "end")["result"][1]["output"]


def diffs(run, *cmds):
    return run("configure session s1", *cmds, "show session-config diffs",
               "end")["result"][-2]["output"].splitlines()


def test_a_mistyped_command_answers_1002_and_stops_there(eapi):
    """EOS: '% Invalid input (at token N: 'word')'; eAPI answers JSON-RPC error 1002 naming the
    command ('CLI command 3 of 4 ... failed: invalid command'), data holding the results so far
    and the failing command's error, and runs no later command."""
    answer = eapi("configure session s1", "interface Ethernet1/1", "interfce Ethernet1/1",
                  "description after the error")
    error = answer["error"]
    assert error["code"] == 1002 and "result" not in answer
    assert error["message"] == "CLI command 3 of 4 'interfce Ethernet1/1' failed: invalid command"
    assert len(error["data"]) == 3
    assert error["data"][2]["errors"] == ["Invalid input (at token 0: 'interfce')"]
    assert "description after the error" not in session_config(eapi)
    error = eapi("configure session s1", "router bgpp 65000")["error"]
    assert error["data"][1]["errors"] == ["Invalid input (at token 1: 'bgpp')"]
    # an unambiguous prefix is no mistake: EOS takes 'interfac' for 'interface'
    assert "result" in eapi("configure session s1", "interfac Ethernet1/1", "end")


def test_exec_commands_in_a_session_run_as_exec_and_are_no_config_lines(eapi):
    """EOS runs privileged-exec commands (bash, delete, clear, copy) and show commands typed in
    a configuration mode as exec: they act at once (logged here) and never become config."""
    answer = eapi("configure session s1", "bash timeout 5 ls", "delete flash:old.cfg",
                  "clear counters", "show version", "end")
    assert answer["result"][4]["modelName"] == "DCS-7060X6-64PE"
    log = (eapi.state / "exec.log").read_text().splitlines()
    assert log == ["session s1: bash timeout 5 ls", "session s1: delete flash:old.cfg",
                   "session s1: clear counters"]
    text = session_config(eapi)
    for word in ("bash", "delete", "clear", "show"):
        assert not [line for line in text.splitlines() if line.strip().startswith(word)]


def test_abbreviations_and_case_are_stored_as_eos_spells_them(eapi):
    """EOS stores and shows the canonical form: 'int lo77' is 'interface Loopback77' in the
    session diff (ngworx.ag 'Arista EOS Config Sessions'); 'interface loopback77' is the same
    block; 'interface ethernet1/1' is the existing Ethernet1/1."""
    lines = diffs(eapi, "int lo77", "ip address 198.18.0.77/32", "interface loopback77",
                  "description lo", "interface ethernet1/1", "description et")
    assert "+interface Loopback77" in lines
    assert [line for line in lines if "Loopback77" in line or "lo77" in line.lower()] == [
        "+interface Loopback77"]
    assert "+   description lo" in lines and "+   ip address 198.18.0.77/32" in lines
    assert "+   description et" in lines and not [x for x in lines if "ethernet1/1" in x]


def test_a_second_outbound_route_map_replaces_the_first(eapi):
    """EOS keeps one route-map per neighbour and direction: 'neighbor X route-map M out'
    replaces X's outbound map; the inbound one stays."""
    text = eapi("configure session s1", "router bgp 65000",
                "neighbor 10.0.0.1 route-map RF-DRAIN-OUT out", "show session-config",
                "end")["result"][3]["output"]
    assert "   neighbor 10.0.0.1 route-map RF-DRAIN-OUT out" in text
    assert "OWN-OUT" not in text and "   neighbor 10.0.0.1 route-map OWN-IN in" in text


def test_only_the_models_ports_and_creatable_interfaces_exist(eapi):
    """A DCS-7060X6-64PE has Ethernet1/1-64/8 (8-lane OSFP cages); Loopback, Vlan and
    Port-Channel are created; Ethernet99/1 does not exist; a port the running config prints
    exists."""
    error = eapi("configure session s1", "interface Ethernet99/1")["error"]
    assert error["code"] == 1002 and "Invalid input (at token 1" in error["data"][1]["errors"][0]
    assert "error" in eapi("configure session s1", "interface Ethernet1/9")
    answer = eapi("configure session s1", "interface Ethernet64/8", "interface Loopback9",
                  "interface Vlan4094", "interface Port-Channel10", "interface Ethernet3",
                  "interface Management1", "end")
    assert "result" in answer, answer


def test_pending_sessions_are_limited(eapi):
    """EOS keeps at most 5 pending configuration sessions (limit unconfirmed, see
    eos_eapi.MAX_PENDING): a sixth 'configure session' fails; an existing one reopens; after
    an abort a new one opens."""
    for n in range(5):
        assert "result" in eapi("configure session p%d" % n, "end")
    error = eapi("configure session p5")["error"]
    assert error["code"] == 1002
    assert "pending sessions" in error["data"][0]["errors"][0]
    assert "result" in eapi("configure session p0", "end")
    assert "result" in eapi("configure session p0", "abort")
    assert "result" in eapi("configure session p5", "end")


def test_an_acl_applies_when_its_mode_is_left(eapi):
    """EOS applies an ACL's changes when the ACL mode is exited: a session diff typed inside
    the ACL's mode does not show its lines yet (arista.eos issue #476)."""
    lines = diffs(eapi, "ip access-list MGMT-IN", "10 permit ip any any")
    assert "+ip access-list MGMT-IN" in lines and "+   10 permit ip any any" not in lines
    lines = diffs(eapi, "ip access-list MGMT-IN", "20 deny ip any any", "exit")
    assert "+   10 permit ip any any" in lines and "+   20 deny ip any any" in lines
