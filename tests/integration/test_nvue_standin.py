"""The NVUE stand-in (nvue_api.py) answers as its module docstring says Cumulus Linux 5.14's NVUE
REST API does, over HTTPS on 127.0.0.1 with its self-signed certificate: basic authentication
(401 without or with wrong credentials, 403 on the factory password); revisions branched from the
applied config with increasing integer ids; PATCH merging below a path, null unsetting, only into
a pending revision; apply validating the revision as a whole (nvue_schema.py's keys and ranges and
the documented rules across keys, each refusal an issue "Config invalid at <location>: <reason>"
and the applied config left as it was) and refusing without the "are you sure" answer; a confirm
timeout that rolls an unconfirmed revision back by itself, and confirm_yes within it; save;
operational state (links, BGP neighbours, idle while a revision waits under the fault, RIB and
next hops from the test's files); the fault that drops every request. Then the renderer judged by
it: the example fabric's leaf1a on Cumulus and a leaf and a spine of a generated all-Cumulus
fabric apply on a fresh stand-in, the cages' breakouts first, as the deploy does. Wrongly typed
values end the revision invalid (the rules across keys read only what the schema took), an
empty object in a PATCH changes nothing, a malformed Basic header is a 401."""
import base64
import json
import os
import shutil
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.client import HTTPException

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(ROOT, "tests", "unit", "fixtures", "cumulus", "applied-base.json")
PASSWORD = "lab-secret"
AYS = {"ays": "ays_yes"}
QUIET = {"issue": {}, "progress": ""}           # the transition of an apply's answer

with open(BASE) as _handle:
    BASE_TREE = json.load(_handle)

_TLS = ssl.create_default_context()
_TLS.check_hostname = False
_TLS.verify_mode = ssl.CERT_NONE


class Api:
    """One stand-in process: call(method, path[, body]) -> (HTTP status, decoded JSON)."""

    def __init__(self, state, port):
        self.state, self.port = state, port

    def call(self, method, path, body=None, user="cumulus", password=PASSWORD, auth=True):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request("https://127.0.0.1:%d/nvue_v1%s" % (self.port, path),
                                         data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if auth:
            token = base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
            request.add_header("Authorization", "Basic " + token)
        try:
            with urllib.request.urlopen(request, context=_TLS, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def ok(self, method, path, body=None, status=200):
        got, answer = self.call(method, path, body)
        assert got == status, (method, path, got, answer)
        return answer

    # -- revisions ----------------------------------------------------------------------------
    def create(self):
        answer = self.ok("POST", "/revision", status=201)
        assert len(answer) == 1
        return next(iter(answer))

    def config(self, rev="applied"):
        return self.ok("GET", "/?rev=%s&filled=false" % rev)

    def plain(self, rev="applied"):
        """The config without the header GET / adds."""
        return dict((k, v) for k, v in self.config(rev).items() if k != "header")

    def patch(self, rev, body, path="/"):
        return self.ok("PATCH", "%s?rev=%s" % (path, rev), body)

    def apply(self, rev, **extra):
        body = dict({"state": "apply", "auto-prompt": AYS}, **extra)
        return self.ok("PATCH", "/revision/%s" % rev, body)

    def revision(self, rev):
        return self.ok("GET", "/revision/%s" % rev)

    def file(self, name):
        return json.loads((self.state / name).read_text())

    def log(self):
        path = self.state / "revisions.log"
        return path.read_text().splitlines() if path.exists() else []


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """One self-signed certificate for every stand-in of the module (it makes one where its
    state directory has none: the key takes up to a second)."""
    where = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(where / "key.pem"), "-out",
                    str(where / "cert.pem")], check=True, capture_output=True)
    return where


@pytest.fixture
def standin(tmp_path, certificate):
    """Factory: standin(seed=None, password=PASSWORD) -> Api of a fresh stand-in; ``seed`` is
    the applied config it starts with (a dict), none: empty."""
    servers = []

    def start(seed=None, password=PASSWORD):
        state = tmp_path / ("switch%d" % len(servers))
        state.mkdir()
        for name in ("cert.pem", "key.pem"):
            shutil.copy(certificate / name, state / name)
        if seed is not None:
            (state / "applied.json").write_text(json.dumps(seed))
        server = subprocess.Popen([sys.executable, os.path.join(HERE, "nvue_api.py"), str(state),
                                   "cumulus", password], stdout=subprocess.PIPE, text=True)
        servers.append(server)
        return Api(state, int(server.stdout.readline()))

    yield start
    for server in servers:
        server.kill()
        server.wait()
        server.stdout.close()


@pytest.fixture
def api(standin):
    """A stand-in running the base config of tests/unit/fixtures/cumulus."""
    return standin(BASE_TREE)


def wait_until(predicate, seconds=5.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


# -- 1. authentication --------------------------------------------------------------------------

def test_no_credentials_get_401(api):
    assert api.call("GET", "/?rev=applied", auth=False) == (401, {"message": "Unauthorized"})


def test_a_wrong_password_gets_401(api):
    assert api.call("GET", "/?rev=applied", password="wrong") == (401, {"message": "Unauthorized"})
    assert api.call("GET", "/?rev=applied", user="admin") == (401, {"message": "Unauthorized"})


def test_the_factory_password_gets_403_on_a_correct_login(standin):
    factory = standin(BASE_TREE, password="cumulus")
    assert factory.call("GET", "/?rev=applied", password="cumulus") == (
        403, {"message": "Forbidden: change the default password"})
    assert factory.call("POST", "/revision", password="cumulus")[0] == 403
    assert factory.call("GET", "/?rev=applied", password="other")[0] == 401


def test_a_malformed_basic_header_gets_401(api):
    request = urllib.request.Request("https://127.0.0.1:%d/nvue_v1/?rev=applied" % api.port,
                                     headers={"Authorization": "Basic a"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(request, context=_TLS, timeout=10)
    assert err.value.code == 401


# -- 2. revisions ---------------------------------------------------------------------------------

def test_post_revision_creates_pending_revisions_with_increasing_ids(api):
    status, first = api.call("POST", "/revision")
    assert status == 201
    assert first == {"1": {"state": "pending", "transition": QUIET}}
    second = api.ok("POST", "/revision", status=201)
    assert list(second) == ["2"] and second["2"]["state"] == "pending"
    assert api.revision("2") == {"state": "pending", "transition": QUIET}


def test_a_new_revision_branches_from_the_applied_config(api):
    rev = api.create()
    tree = api.config(rev)
    assert tree.pop("header") == {"model": "SN5600", "nvue-api-version": "nvue_v1", "rev-id": rev,
                                  "version": "Cumulus Linux 5.14.0"}
    assert tree == BASE_TREE == api.plain("applied")
    # a path below the root: that part only, no header
    assert api.ok("GET", "/interface/swp1?rev=%s&filled=false" % rev) == BASE_TREE["interface"][
        "swp1"]
    assert api.call("GET", "/?rev=42&filled=false") == (404, {"message": "no revision 42"})


def test_a_revision_branches_from_what_is_applied_when_it_is_created(api):
    rev = api.create()
    api.patch(rev, {"system": {"hostname": "leaf9"}})
    api.apply(rev)
    assert api.plain(api.create())["system"] == {"hostname": "leaf9"}


# -- 3. PATCH -------------------------------------------------------------------------------------

def test_patch_merges_into_the_revision(api):
    rev = api.create()
    body = {"interface": {"swp1": {"link": {"mtu": 9216}}}, "system": {"hostname": "leaf1x"}}
    assert api.call("PATCH", "/?rev=%s" % rev, body) == (200, body)
    swp1 = api.plain(rev)["interface"]["swp1"]
    assert swp1 == {"type": "swp", "link": {"fec": "rs", "mtu": 9216}}       # fec kept
    assert api.plain(rev)["interface"]["eth0"] == BASE_TREE["interface"]["eth0"]
    assert api.plain("applied") == BASE_TREE                                  # not applied


def test_patch_null_unsets(api):
    rev = api.create()
    api.patch(rev, {"interface": {"swp1": {"link": {"fec": None}}, "bond1": None},
                    "service": {"snmp-server": None}})
    tree = api.plain(rev)
    assert tree["interface"]["swp1"] == {"type": "swp", "link": {}}
    assert "bond1" not in tree["interface"]
    assert tree["service"] == {"ntp": BASE_TREE["service"]["ntp"]}


def test_patch_below_a_path_merges_there(api):
    rev = api.create()
    api.patch(rev, {"link": {"mtu": 9000}, "description": "to spine1"}, path="/interface/swp1")
    assert api.plain(rev)["interface"]["swp1"] == {
        "type": "swp", "description": "to spine1", "link": {"fec": "rs", "mtu": 9000}}
    # a path that does not exist yet is made
    api.patch(rev, {"type": "swp"}, path="/interface/swp2")
    assert api.plain(rev)["interface"]["swp2"] == {"type": "swp"}


def test_patch_with_an_empty_object_keeps_what_is_there(api):
    rev = api.create()
    api.patch(rev, {"interface": {"swp1": {}}})
    assert api.plain(rev)["interface"]["swp1"] == BASE_TREE["interface"]["swp1"]


def test_patch_to_an_applied_revision_is_refused(api):
    rev = api.create()
    api.apply(rev)
    assert api.call("PATCH", "/?rev=%s" % rev, {"system": {"hostname": "x"}}) == (
        400, {"message": "rev %s is not a pending revision" % rev})


def test_patch_to_an_unknown_revision_is_refused(api):
    assert api.call("PATCH", "/?rev=7", {"system": {"hostname": "x"}}) == (
        400, {"message": "rev 7 is not a pending revision"})
    assert api.call("PATCH", "/?rev=applied", {"system": {"hostname": "x"}})[0] == 400
    assert api.plain("applied") == BASE_TREE


# -- 4. apply -------------------------------------------------------------------------------------

def test_a_valid_revision_applies_and_is_saved(api):
    rev = api.create()
    api.patch(rev, {"interface": {"swp1": {"link": {"mtu": 9216}}}})
    assert api.call("PATCH", "/revision/%s" % rev, {"state": "apply", "auto-prompt": AYS}) == (
        200, {"state": "apply", "transition": QUIET})
    assert api.revision(rev)["state"] == "applied"
    expected = json.loads(json.dumps(BASE_TREE))
    expected["interface"]["swp1"]["link"]["mtu"] = 9216
    assert api.plain("applied") == expected == api.plain("startup")
    assert api.file("applied.json") == expected == api.file("startup.json")
    assert api.log() == ["%s applied" % rev]


def test_apply_without_the_ays_answer_fails(api):
    rev = api.create()
    api.patch(rev, {"interface": {"swp1": {"link": {"mtu": 9216}}}})
    assert api.call("PATCH", "/revision/%s" % rev, {"state": "apply"}) == (
        200, {"state": "apply", "transition": QUIET})
    assert api.revision(rev) == {"state": "ays_fail", "transition": {
        "progress": "Aborted apply after warnings",
        "issue": {"0": {"code": "client_timeout", "severity": "error",
                        "message": "Timeout while waiting for client response"}}}}
    assert api.plain("applied") == BASE_TREE
    assert not (api.state / "startup.json").exists() and api.log() == []


def test_a_revision_applies_once(api):
    rev = api.create()
    api.apply(rev)
    assert api.call("PATCH", "/revision/%s" % rev, {"state": "apply", "auto-prompt": AYS}) == (
        400, {"message": "revision %s is applied, not pending" % rev})
    assert api.call("PATCH", "/revision/9", {"state": "apply", "auto-prompt": AYS}) == (
        404, {"message": "no revision 9"})


# -- 5. invalid revisions ---------------------------------------------------------------------------

INVALID = [
    ("unknown key", {"interface": {"swp1": {"link": {"colour": "blue"}}}},
     "interface.swp1.link.colour", "Additional properties are not allowed ('colour' was unexpected)"),
    ("mtu out of range", {"interface": {"swp1": {"link": {"mtu": 9300}}}},
     "interface.swp1.link.mtu", "9300 is not between 552 and 9216"),
    ("breakout not a mode", {"interface": {"swp1": {"link": {"breakout": {"2x400G": {}}}}}},
     "interface.swp1.link.breakout.2x400G", "'2x400G' is not a valid id"),
    ("breakout as a string (KB NVUE-Breakout-Fails.md)",
     {"interface": {"swp1": {"link": {"breakout": "4x10G"}}}},
     "interface.swp1.link.breakout", "'4x10G' is not of type 'object'"),
    ("string for an integer", {"interface": {"swp1": {"link": {"mtu": "9000"}}}},
     "interface.swp1.link.mtu", "'9000' is not of type 'integer'"),
    ("pools over 100%", {"qos": {"traffic-pool": {"default-lossless": {"memory-percent": 60}}}},
     "qos.traffic-pool", "The total memory allocation across pools must not exceed 100% (160%)"),
    ("dwrr shares over 100% with NVUE's defaults",
     {"qos": {"egress-scheduler": {"default-global": {"traffic-class": {
         "0": {"mode": "dwrr", "bw-percent": 50}, "3": {"mode": "dwrr", "bw-percent": 50}}}}}},
     "qos.egress-scheduler.default-global",
     "The combined total of bw-percent values must be <= 100 (175)"),
    ("dwrr class without bw-percent",
     {"qos": {"egress-scheduler": {"RF-SCHED": {"traffic-class": {"0": {"mode": "dwrr"}}}}}},
     "qos.egress-scheduler.RF-SCHED.traffic-class.0",
     "dwrr mode needs a bw-percent between 1 and 100"),
    ("pfc watchdog without pfc", {"interface": {"swp1": {"qos": {"pfc-watchdog": {
        "state": "enable"}}}}},
     "interface.swp1.qos.pfc-watchdog",
     "You can only configure PFC watchdog on a port with PFC (or link pause) configuration"),
    ("pfc and link pause on one port",
     {"qos": {"pfc": {"RF-PFC-3M": {"tx": "enable", "rx": "enable"}},
              "link-pause": {"PAUSE": {"tx": "enable", "rx": "enable"}}},
      "interface": {"swp1": {"qos": {"pfc": {"profile": "RF-PFC-3M"},
                                     "link-pause": {"profile": "PAUSE"}}}}},
     "interface.swp1.qos", "You can not configure link pause and PFC on the same port"),
    ("adaptive routing on 800G",
     {"interface": {"swp1": {"link": {"speed": "800G"},
                             "router": {"adaptive-routing": {"enable": "on"}}}}},
     "interface.swp1.router.adaptive-routing",
     "The Spectrum-4 switch does not support adaptive routing on 800G links"),
    ("breakout port of a cage not broken out", {"interface": {"swp1s1": {"type": "swp"}}},
     "interface.swp1s1", "swp1 is not broken out into 2 ports"),
    ("pfc profile that does not exist",
     {"interface": {"swp1": {"qos": {"pfc": {"profile": "RF-PFC-9M"}}}}},
     "interface.swp1.qos.pfc.profile", "'RF-PFC-9M' is not a configured pfc profile"),
    ("bgp without router-id", {"router": {"bgp": {"router-id": None}}},
     "router.bgp.enable", "BGP requires router-id to be set globally or in the VRF.\n"),
]


def _refused(api, body, location, reason):
    rev = api.create()
    api.patch(rev, body)
    assert api.apply(rev) == {"state": "apply", "transition": QUIET}
    assert api.revision(rev) == {"state": "invalid", "transition": {
        "progress": "Invalid config", "issue": {"0": {
            "code": "config_invalid", "severity": "error",
            "message": "Config invalid at %s: %s" % (location, reason),
            "data": {"location": location, "reason": reason}}}}}
    assert api.plain("applied") == BASE_TREE == api.file("applied.json")
    assert api.log() == []
    # an invalid revision is over: it takes no patch and no second apply
    assert api.call("PATCH", "/?rev=%s" % rev, {"system": {"hostname": "x"}})[0] == 400
    assert api.call("PATCH", "/revision/%s" % rev, {"state": "apply", "auto-prompt": AYS}) == (
        400, {"message": "revision %s is invalid, not pending" % rev})


@pytest.mark.parametrize("body,location,reason", [case[1:] for case in INVALID],
                         ids=[case[0] for case in INVALID])
def test_an_invalid_revision_is_refused_with_its_issue(api, body, location, reason):
    _refused(api, body, location, reason)


def test_the_base_config_and_the_valid_forms_of_each_rule_apply(api):
    """The other side of each rule above: what it allows applies."""
    rev = api.create()
    api.patch(rev, {
        "interface": {"swp1": {"link": {"mtu": 552, "breakout": {"2x": {}}, "speed": "400G"},
                               "router": {"adaptive-routing": {"enable": "on"}},
                               "qos": {"pfc": {"profile": "RF-PFC-3M"},
                                       "pfc-watchdog": {"state": "enable"}}},
                      "swp1s1": {"type": "swp", "link": {"mtu": 9216},
                                 "qos": {"link-pause": {"profile": "PAUSE"},
                                         "pfc-watchdog": {"state": "enable"}}}},
        "qos": {"pfc": {"RF-PFC-3M": {"tx": "enable", "rx": "enable"}},
                "link-pause": {"PAUSE": {"tx": "enable", "rx": "enable"}},
                "traffic-pool": {"default-lossless": {"memory-percent": 60},
                                 "default-lossy": {"memory-percent": 40}},
                "egress-scheduler": {"default-global": {"traffic-class": dict(
                    (str(tc), {"mode": "dwrr", "bw-percent": 50} if tc in (0, 3)
                     else {"mode": "strict"}) for tc in range(8))}}}})
    api.apply(rev)
    assert api.revision(rev) == {"state": "applied", "transition": QUIET}


def test_every_problem_of_a_revision_is_an_issue(api):
    """Every key and range the schema refuses is an issue of its own; the rules across keys are
    judged once the schema takes the tree (they read its values as valid)."""
    rev = api.create()
    api.patch(rev, {"interface": {"swp1": {"link": {"mtu": 9300, "colour": "blue"}}},
                    "router": {"bgp": {"router-id": None, "autonomous-system": None}}})
    api.apply(rev)
    issues = api.revision(rev)["transition"]["issue"]
    assert sorted(i["message"] for i in issues.values()) == [
        "Config invalid at interface.swp1.link.colour: Additional properties are not allowed "
        "('colour' was unexpected)",
        "Config invalid at interface.swp1.link.mtu: 9300 is not between 552 and 9216"]
    assert sorted(issues) == ["0", "1"]
    fixed = api.create()
    api.patch(fixed, {"router": {"bgp": {"router-id": None, "autonomous-system": None}}})
    api.apply(fixed)
    assert sorted(i["message"] for i in api.revision(fixed)["transition"]["issue"].values()) == [
        "Config invalid at router.bgp.enable: BGP requires autonomous-system to be set globally "
        "or in the VRF.\n",
        "Config invalid at router.bgp.enable: BGP requires router-id to be set globally or in "
        "the VRF.\n"]


# Edges of its validation: wrongly typed values, a port the cage's breakout does not make, the
# default pool kept beside a configured one, every kind of port profile, BGP's ids in the VRF.

@pytest.mark.parametrize("body,location,reason", [
    ({"qos": {"traffic-pool": {"default-lossless": {"memory-percent": "60"}}}},
     "qos.traffic-pool.default-lossless.memory-percent", "'60' is not of type 'integer'"),
    ({"qos": {"egress-scheduler": {"default-global": {"traffic-class": {"0": {
        "bw-percent": "50"}}}}}},
     "qos.egress-scheduler.default-global.traffic-class.0.bw-percent",
     "'50' is not of type 'integer'"),
    ({"interface": {"swp1": {"link": {"breakout": {"2x400G": {}}}}, "swp1s1": {"type": "swp"}}},
     "interface.swp1.link.breakout.2x400G", "'2x400G' is not a valid id"),
    ({"interface": {"swp1": {"link": {"breakout": "4x10G"}}, "swp1s0": {"type": "swp"}}},
     "interface.swp1.link.breakout", "'4x10G' is not of type 'object'"),
], ids=["memory-percent string", "bw-percent string", "breakout not a mode, with its port",
        "breakout string, with its port"])
def test_a_mistyped_value_the_cross_checks_read_is_refused_as_invalid(
        api, body, location, reason):
    _refused(api, body, location, reason)


def test_port_0_of_a_cage_not_broken_out_is_refused(api):
    rev = api.create()
    api.patch(rev, {"interface": {"swp1s0": {"type": "swp"}}})
    api.apply(rev)
    assert api.revision(rev)["state"] == "invalid"


def test_pools_count_the_default_lossy_percent_when_only_its_priorities_are_set(api):
    _refused(api, {"qos": {"traffic-pool": {
        "default-lossless": {"memory-percent": 60},
        "default-lossy": {"switch-priority": {"0": {}}}}}},
        "qos.traffic-pool", "The total memory allocation across pools must not exceed 100% (160%)")


def test_a_port_mapping_profile_that_does_not_exist_is_refused(api):
    rev = api.create()
    api.patch(rev, {"interface": {"swp1": {"qos": {"mapping": {"profile": "NO-SUCH-MAP"}}}}})
    api.apply(rev)
    assert api.revision(rev)["state"] == "invalid"


def test_bgp_with_its_router_id_in_the_vrf_applies(api):
    rev = api.create()
    api.patch(rev, {"router": {"bgp": {"router-id": None, "autonomous-system": None}},
                    "vrf": {"default": {"router": {"bgp": {"router-id": "192.0.2.200",
                                                           "autonomous-system": 65299}}}}})
    api.apply(rev)
    assert api.revision(rev) == {"state": "applied", "transition": QUIET}


# -- 6. confirm ------------------------------------------------------------------------------------

def test_an_unconfirmed_revision_rolls_back_by_itself(api):
    rev = api.create()
    api.patch(rev, {"system": {"hostname": "leaf1x"}})
    assert api.apply(rev, **{"state-controls": {"confirm": 1}}) == {
        "state": "apply", "transition": QUIET}
    assert api.revision(rev)["state"] == "confirm"
    assert api.plain("applied")["system"] == {"hostname": "leaf1x"}
    assert api.file("applied.json")["system"] == {"hostname": "leaf1x"}
    assert api.plain("startup") == BASE_TREE                           # not saved
    time.sleep(1.5)
    assert api.revision(rev)["state"] == "confirm_fail"
    assert api.plain("applied") == BASE_TREE == api.file("applied.json")
    assert api.log() == ["%s confirm" % rev, "%s rolled back (not confirmed)" % rev]


def test_a_revision_confirmed_in_time_stays_and_is_saved(api):
    rev = api.create()
    api.patch(rev, {"system": {"hostname": "leaf1x"}})
    api.apply(rev, **{"state-controls": {"confirm": 1}})
    assert api.call("PATCH", "/revision/%s" % rev, {"state": "confirm_yes"}) == (
        200, {"state": "confirm_yes", "transition": QUIET})
    assert api.revision(rev)["state"] == "applied"
    assert api.plain("startup")["system"] == {"hostname": "leaf1x"}
    assert api.file("startup.json")["system"] == {"hostname": "leaf1x"}
    time.sleep(1.5)                                           # the window has passed
    assert api.revision(rev)["state"] == "applied"
    assert api.plain("applied")["system"] == {"hostname": "leaf1x"}
    assert api.log() == ["%s confirm" % rev, "%s confirmed" % rev]


def test_confirm_yes_on_a_revision_not_waiting_is_refused(api):
    rev = api.create()
    assert api.call("PATCH", "/revision/%s" % rev, {"state": "confirm_yes"}) == (
        400, {"message": "revision %s does not wait for a confirmation" % rev})
    api.apply(rev)
    assert api.call("PATCH", "/revision/%s" % rev, {"state": "confirm_yes"})[0] == 400
    assert api.revision(rev)["state"] == "applied"


def test_a_second_apply_while_one_waits_for_confirmation_is_refused(api):
    first = api.create()
    api.patch(first, {"system": {"hostname": "leaf1x"}})
    api.apply(first, **{"state-controls": {"confirm": 1}})
    second = api.create()
    api.patch(second, {"interface": {"swp1": {"link": {"mtu": 9216}}}})
    assert api.call("PATCH", "/revision/%s" % second, {"state": "apply", "auto-prompt": AYS}) == (
        400, {"message": "revision %s waits for its confirmation" % first})
    assert api.revision(second)["state"] == "pending"
    assert api.ok("PATCH", "/revision/%s" % first, {"state": "confirm_yes"})["state"] == (
        "confirm_yes")
    api.apply(second)                              # once confirmed, the next one applies
    assert api.revision(second)["state"] == "applied"


# -- 7. save ----------------------------------------------------------------------------------------

def test_save_copies_applied_to_startup(api):
    rev = api.create()
    api.patch(rev, {"system": {"hostname": "leaf1x"}})
    api.apply(rev, **{"state-controls": {"confirm": 60}})   # applied, not saved
    assert api.plain("startup") == BASE_TREE
    assert api.call("PATCH", "/revision/applied", {"state": "save"}) == (
        200, {"state": "save", "transition": QUIET})
    assert api.plain("startup") == api.plain("applied") == api.file("startup.json")
    assert api.plain("startup")["system"] == {"hostname": "leaf1x"}
    api.ok("PATCH", "/revision/%s" % rev, {"state": "confirm_yes"})


# -- 8. operational state ------------------------------------------------------------------------

def test_operational_interfaces(standin):
    api = standin({"interface": {
        "swp1": {"type": "swp", "link": {"mtu": 9216, "speed": "400G", "state": {"up": {}}}},
        "swp2": {"type": "swp", "link": {"mtu": 9000, "speed": "400G", "state": {"down": {}}}},
        "swp3": {"type": "swp"},
        "lo": {"type": "loopback"}}})
    assert api.ok("GET", "/interface") == {
        "swp1": {"type": "swp", "link": {"admin-status": "up", "oper-status": "up", "mtu": 9216,
                                         "state": {"up": {}}, "speed": "400G"}},
        "swp2": {"type": "swp", "link": {"admin-status": "down", "oper-status": "down",
                                         "mtu": 9000, "state": {"down": {}}}},
        "swp3": {"type": "swp", "link": {"admin-status": "up", "oper-status": "up", "mtu": 9216,
                                         "state": {"up": {}}}},
        "lo": {"type": "loopback", "link": {"admin-status": "up", "oper-status": "up",
                                            "mtu": 9216, "state": {"up": {}}}}}
    assert api.ok("GET", "/interface?rev=operational") == api.ok("GET", "/interface")
    assert api.call("GET", "/system") == (404, {"message": "no such resource"})


def test_operational_bgp_neighbours_idle_while_a_revision_waits_under_the_fault(api):
    path = "/vrf/default/router/bgp/neighbor"
    established = {"192.0.2.67": {"remote-as": 65500, "state": "established"}}
    assert api.ok("GET", path) == established
    (api.state / "fault.json").write_text(json.dumps({"bgp_idle_while_confirming": True}))
    assert api.ok("GET", path) == established                   # nothing waits
    rev = api.create()
    api.patch(rev, {"vrf": {"default": {"router": {"bgp": {"neighbor": {
        "192.0.2.69": {"remote-as": 65501, "type": "numbered"}}}}}}})
    api.apply(rev, **{"state-controls": {"confirm": 60}})
    assert api.ok("GET", path) == {"192.0.2.67": {"remote-as": 65500, "state": "idle"},
                                   "192.0.2.69": {"remote-as": 65501, "state": "idle"}}
    api.ok("PATCH", "/revision/%s" % rev, {"state": "confirm_yes"})
    assert api.ok("GET", path) == {"192.0.2.67": {"remote-as": 65500, "state": "established"},
                                   "192.0.2.69": {"remote-as": 65501, "state": "established"}}


def test_operational_bgp_neighbours_stay_established_while_waiting_without_the_fault(api):
    rev = api.create()
    api.apply(rev, **{"state-controls": {"confirm": 60}})
    assert api.ok("GET", "/vrf/default/router/bgp/neighbor") == {
        "192.0.2.67": {"remote-as": 65500, "state": "established"}}
    api.ok("PATCH", "/revision/%s" % rev, {"state": "confirm_yes"})


def test_operational_rib_and_nexthops_come_from_the_state_files(api):
    assert api.ok("GET", "/vrf/default/router/rib/ipv4/route") == {}
    assert api.ok("GET", "/router/nexthop") == {}
    rib = {"10.0.0.0/24": {"route-entry": {"0": {"nexthop-group-id": 7, "protocol": "bgp"}}}}
    nexthop = {"7": {"nexthop": {"1": {"ip": "198.18.64.1", "interface": "swp1s0"},
                                 "2": {"ip": "198.18.64.3", "interface": "swp1s1"}}}}
    (api.state / "rib.json").write_text(json.dumps(rib))
    (api.state / "nexthop.json").write_text(json.dumps(nexthop))
    assert api.ok("GET", "/vrf/default/router/rib/ipv4/route") == rib
    assert api.ok("GET", "/router/nexthop") == nexthop


def test_a_hand_edit_of_applied_json_is_what_the_switch_runs(api):
    tree = api.file("applied.json")
    tree["system"]["hostname"] = "edited"
    time.sleep(0.01)
    (api.state / "applied.json").write_text(json.dumps(tree))
    assert wait_until(lambda: api.plain("applied")["system"] == {"hostname": "edited"})
    assert api.plain(api.create())["system"] == {"hostname": "edited"}


# -- 9. faults ------------------------------------------------------------------------------------

def test_down_drops_every_request_unanswered(api):
    (api.state / "fault.json").write_text(json.dumps({"down": True}))
    for method, path, body in (("GET", "/?rev=applied", None), ("POST", "/revision", None),
                               ("GET", "/interface", None),
                               ("PATCH", "/revision/applied", {"state": "save"})):
        with pytest.raises((urllib.error.URLError, HTTPException, ConnectionError)):
            api.call(method, path, body)
    (api.state / "fault.json").write_text("{}")
    assert api.plain("applied") == BASE_TREE                    # back once the fault is gone


# -- 10. the renderer judged by the stand-in --------------------------------------------------

def _cages(tree):
    """The breakout revision: interface.<swpN>.link.breakout of every port that has one."""
    return {"interface": dict(
        (name, {"link": {"breakout": entry["link"]["breakout"]}})
        for name, entry in tree["interface"].items() if "breakout" in entry.get("link", {}))}


def _applies_in_two_revisions(api, tree):
    breakouts = _cages(tree)
    for body in (breakouts, tree):
        rev = api.create()
        api.patch(rev, body)
        api.apply(rev)
        record = api.revision(rev)
        assert record == {"state": "applied", "transition": QUIET}, record
    assert api.plain("applied") == tree == api.file("startup.json")
    return breakouts


def test_the_example_fabrics_cumulus_leaf_applies(standin, tmp_path, inventory_data):
    from ansible_collections.roce.fabric.plugins.module_utils import pipeline
    from ansible_collections.roce.fabric.plugins.module_utils.render.cumulus import nvue
    shutil.copytree(os.path.join(ROOT, "inventories", "example"), tmp_path / "inv")
    pair = tmp_path / "inv" / "group_vars" / "leaf_pair1.yml"
    assert "roce_platform: sonic" in pair.read_text()
    pair.write_text(pair.read_text().replace("roce_platform: sonic", "roce_platform: cumulus"))
    plan = pipeline.build_plan(*inventory_data(str(tmp_path / "inv" / "hosts.yml")))
    doc = nvue.nvue_document(plan["devices"]["leaf1a"])
    assert len(doc) == 1 and list(doc[0]) == ["set"]
    breakouts = _applies_in_two_revisions(standin(), doc[0]["set"])
    # the SN5600's 64 cages, each split in two (128 x 400G): breakouts are part of the test
    assert breakouts["interface"] and all(
        body == {"link": {"breakout": {"2x": {}}}} for body in breakouts["interface"].values())


def test_a_generated_all_cumulus_fabric_renders_and_its_leaf_and_spine_apply(standin):
    from ansible_collections.roce.fabric.plugins.module_utils import pipeline
    from ansible_collections.roce.fabric.plugins.module_utils.design import generate
    from ansible_collections.roce.fabric.plugins.module_utils.render.cumulus import nvue
    groups, hostvars = generate.clos(512, 64, 1, platforms="cumulus")[:2]
    plan = pipeline.build_plan(groups, hostvars)
    switches = dict((name, dev) for name, dev in plan["devices"].items()
                    if dev["kind"] == "switch")
    docs = dict((name, nvue.nvue_document(dev)) for name, dev in switches.items())
    assert all(len(doc) == 1 and doc[0]["set"]["interface"] for doc in docs.values())
    roles = dict((role, sorted(n for n, d in switches.items() if d["role"] == role))
                 for role in ("leaf", "spine"))
    assert roles["leaf"] and roles["spine"]
    for role in ("leaf", "spine"):
        _applies_in_two_revisions(standin(), docs[roles[role][0]][0]["set"])
