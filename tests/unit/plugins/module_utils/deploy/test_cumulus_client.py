"""The NVUE REST client (deploy/cumulus/client.py) against a scripted transport: every request
is checked against the exchange the script expects next, and answered as the script says."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import client as nvue

AYS = {"ays": "ays_yes"}
REV = "changeset/cumulus/2026-01-05_10.15.02_AB12"     # NVUE's ids carry "/"
REV_URL = "/revision/changeset%2Fcumulus%2F2026-01-05_10.15.02_AB12"


class Script:
    """A transport: ``exchanges`` is [((method, path, body), (status, json)), ...] in order."""

    def __init__(self, exchanges):
        self.exchanges = list(exchanges)
        self.seen = []

    def __call__(self, method, path, body):
        assert self.exchanges, "unexpected request %s %s %r" % (method, path, body)
        (want, answer) = self.exchanges.pop(0)
        self.seen.append((method, path, body))
        assert (method, path, body) == want
        return answer

    def done(self):
        assert self.exchanges == [], "requests not made: %r" % (self.exchanges,)


class Clock:
    """A fake monotonic clock the fake sleep advances."""

    def __init__(self):
        self.now = 100.0
        self.slept = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def make(exchanges):
    script, clock = Script(exchanges), Clock()
    return nvue.Client(script, sleep=clock.sleep, clock=clock), script, clock


def record(state, rev=None, issues=None):
    body = {"state": state, "transition": {"issue": issues or {}, "progress": ""}}
    return {rev: body} if rev else body


# -- requests ---------------------------------------------------------------------------------

def test_create_returns_the_id_of_the_new_revision():
    api, script, _clock = make([(("POST", "/revision", None),
                                 (200, {"7": {"state": "pending", "transition": {}}}))])
    assert api.create() == "7"
    script.done()


@pytest.mark.parametrize("answer", [{}, {"7": {}, "8": {}}, ["7"], None])
def test_create_refuses_anything_but_one_new_revision(answer):
    api, _script, _clock = make([(("POST", "/revision", None), (200, answer))])
    with pytest.raises(nvue.NvueError, match="POST /revision: expected one new revision"):
        api.create()


def test_config_reads_a_revision_without_its_header():
    api, script, _clock = make([
        (("GET", "/?filled=false&rev=applied", None),
         (200, {"header": {"model": "SN5600"}, "interface": {"swp1": {"type": "swp"}}})),
        (("GET", "/?filled=false&rev=changeset%2Fcumulus%2F2026-01-05_10.15.02_AB12", None),
         (200, {"system": {"hostname": "leaf1a"}})),
        (("GET", "/?filled=false&rev=startup", None), (200, None)),
    ])
    assert api.config() == {"interface": {"swp1": {"type": "swp"}}}
    assert api.config(REV) == {"system": {"hostname": "leaf1a"}}
    assert api.config("startup") == {}
    script.done()


def test_patch_sends_the_body_to_the_revision():
    body = {"router": {"bgp": {"graceful-shutdown": "on"}}, "qos": {"roce": None}}
    api, script, _clock = make([
        (("PATCH", "/?rev=changeset%2Fcumulus%2F2026-01-05_10.15.02_AB12", body), (200, body))])
    assert api.patch(REV, body) == body
    script.done()


def test_revision_paths_url_encode_the_id():
    api, script, _clock = make([
        (("GET", REV_URL, None), (200, record("pending"))),
        (("PATCH", REV_URL, {"state": "apply", "auto-prompt": AYS}), (200, {})),
        (("PATCH", REV_URL, {"state": "confirm_yes", "auto-prompt": AYS}), (200, {})),
    ])
    assert api.state(REV)["state"] == "pending"
    api.apply(REV)
    api.confirm(REV)
    script.done()


def test_apply_sends_the_confirm_timeout_only_when_there_is_one():
    api, script, _clock = make([
        (("PATCH", "/revision/7", {"state": "apply", "auto-prompt": AYS}), (200, {})),
        (("PATCH", "/revision/7", {"state": "apply", "auto-prompt": AYS,
                                   "state-controls": {"confirm": 300}}), (200, {})),
        (("PATCH", "/revision/7", {"state": "apply", "auto-prompt": AYS,
                                   "state-controls": {"confirm": 1}}), (200, {})),
    ])
    api.apply("7", 0)
    api.apply("7", 300)
    api.apply("7", 1)
    script.done()


def test_save_saves_the_applied_revision():
    api, script, _clock = make([
        (("PATCH", "/revision/applied", {"state": "save", "auto-prompt": AYS}), (200, {}))])
    api.save()
    script.done()


@pytest.mark.parametrize("answer", [record("applied"), record("applied", rev="7")])
def test_state_reads_the_bare_and_the_id_wrapped_record(answer):
    api, _script, _clock = make([(("GET", "/revision/7", None), (200, answer))])
    assert api.state("7") == {"state": "applied", "transition": {"issue": {}, "progress": ""}}


@pytest.mark.parametrize("status, answer, message", [
    (400, {"message": "Invalid config: swp99 does not exist"},
     "PATCH /?rev=7: HTTP 400 Invalid config: swp99 does not exist"),
    (404, {"title": "Not Found"}, "PATCH /?rev=7: HTTP 404 "),
    (500, "internal error", "PATCH /?rev=7: HTTP 500 internal error"),
    (503, None, "PATCH /?rev=7: HTTP 503 "),
])
def test_an_http_error_raises_with_nvues_message(status, answer, message):
    api, _script, _clock = make([(("PATCH", "/?rev=7", {"a": 1}), (status, answer))])
    with pytest.raises(nvue.NvueError) as err:
        api.patch("7", {"a": 1})
    assert str(err.value) == message


def test_a_status_below_400_is_an_answer():
    api, _script, _clock = make([(("GET", "/interface", None), (399, {"x": 1}))])
    assert api.call("GET", "/interface") == {"x": 1}


# -- waiting ----------------------------------------------------------------------------------

UNTIL = frozenset(("applied", "applied_and_saved", "saved", "confirm"))


@pytest.mark.parametrize("final", ["applied", "confirm"])
def test_wait_polls_until_applied_or_waiting_for_the_confirmation(final):
    api, script, clock = make([
        (("GET", "/revision/7", None), (200, record("apply"))),
        (("GET", "/revision/7", None), (200, record("ready", rev="7"))),
        (("GET", "/revision/7", None), (200, record(final, rev="7"))),
    ])
    assert api.wait("7", UNTIL, timeout_s=60) == final
    assert clock.slept == [1.0, 1.0]
    script.done()


def test_wait_raises_on_an_invalid_revision_naming_the_state_and_the_issues():
    issues = {"1": {"message": "swp99 does not exist", "severity": "error"},
              "2": {"message": "RF-PFC-3M: cable-length out of range", "severity": "error"}}
    api, _script, _clock = make([
        (("GET", "/revision/7", None), (200, record("apply"))),
        (("GET", "/revision/7", None), (200, record("invalid", rev="7", issues=issues))),
    ])
    with pytest.raises(nvue.NvueError) as err:
        api.wait("7", UNTIL, timeout_s=60)
    assert str(err.value) == ("revision 7: invalid: swp99 does not exist; RF-PFC-3M: "
                              "cable-length out of range")


@pytest.mark.parametrize("state", ["apply_fail", "confirm_no", "ays_fail"])
def test_wait_raises_on_a_failed_state_without_issues(state):
    api, _script, _clock = make([(("GET", "/revision/7", None), (200, record(state)))])
    with pytest.raises(nvue.NvueError) as err:
        api.wait("7", UNTIL, timeout_s=60)
    assert str(err.value) == "revision 7: %s" % state


def test_wait_times_out_on_the_clock():
    api, _script, clock = make([(("GET", "/revision/7", None), (200, record("apply")))] * 4)
    with pytest.raises(nvue.NvueError) as err:
        api.wait("7", UNTIL, timeout_s=3, poll_s=1.0)
    assert str(err.value) == "revision 7: still apply after 3 s"
    assert clock.slept == [1.0, 1.0, 1.0]
    assert clock.now == 103.0


def test_wait_settled_returns_when_the_revision_no_longer_waits_for_its_confirmation():
    api, script, clock = make([
        (("GET", "/revision/7", None), (200, record("confirm"))),
        (("GET", "/revision/7", None), (200, record("confirm"))),
        (("GET", "/revision/7", None), (200, record("confirm_fail"))),
    ])
    assert api.wait_settled("7", timeout_s=30, poll_s=5) == "confirm_fail"
    assert clock.slept == [5, 5]
    script.done()


def test_wait_settled_times_out():
    api, _script, _clock = make([(("GET", "/revision/7", None), (200, record("confirm")))] * 3)
    with pytest.raises(nvue.NvueError, match="revision 7: still waiting for its confirmation "
                                             "after 2 s"):
        api.wait_settled("7", timeout_s=2, poll_s=1)
