"""Deploying the plan's buffers over a switch that runs the vendor's buffer template.

The switch: the realistic SN5600 CONFIG_DB of ../shared/running-configs/sonic (128 ports, the
plan wires 32) turned into the shape SONiC's Mellanox buffer templates give it
(buffers_defaults_objects.j2: ingress_lossless_pool and ingress_lossy_pool of equal size,
ingress_lossy_profile on ingress_lossy_pool, the pool sizes of the SN5600 T1 template); the
plan: the bundled example's leaf1a (tests/golden/example/configs/leaf1a.json), which has one
ingress pool and its ingress_lossy_profile on it.

Every patch run is applied with the independent RFC 6902 library (jsonpatch), one operation at a
time, against a model of orchagent's bufferorch written here from sonic-swss @e6b0c5b (not from
the deploy code): a pool or profile still referenced is not removed (L560-563, L837-840); a SET
on an existing object does not change a pool's type/mode or a profile's pool/threshold mode
(L433-441, L466-471, L654-661, L692-715); and, as ``config apply-patch`` sorts each run on the
diff between its start and end (sonic-utilities generic_config_updater/patch_sorter.py), orchagent
sees per run only creates, SETs and deletes of what differs across that run.
"""
import copy

import jsonpatch
import pytest
import sonic_running_configs
from sonic_running_configs import expected, intended

from ansible_collections.roce.fabric.plugins.module_utils.deploy import buffers
from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic as deploy_sonic

RELOAD = ["docker_routing_config_mode"]          # separated -> split; not what is tested here
# The switch's pg_lossless_400000_5m_profile runs with other numbers and the 96 ports outside
# the plan use it (buffermgrd's standard name, which the plan takes too): refused unless handed
# over (test_sonic_shared.py); so does the vendor template's ingress_lossy_profile (on another
# pool) under every port's PG 0. Both handed over here, where the buffer carve's order is
# tested.
HAND_OVER = ["BUFFER_PROFILE|pg_lossless_400000_5m_profile", "BUFFER_PROFILE|ingress_lossy_profile"]
USER_TABLES = ("BUFFER_PG", "BUFFER_QUEUE", "BUFFER_PORT_INGRESS_PROFILE_LIST",
               "BUFFER_PORT_EGRESS_PROFILE_LIST")


def realistic():
    return sonic_running_configs.realistic("vendor-template deploy tests on it")


def vendor(running):
    """The Mellanox template's buffer objects (SN5600 T1 sizes, docs: shared reference
    sonic.md 1.2) on a running CONFIG_DB: a separate ingress_lossy_pool the lossy PGs use."""
    running = copy.deepcopy(running)
    running["BUFFER_POOL"] = {
        "ingress_lossless_pool": {"mode": "dynamic", "size": "52161690", "type": "ingress"},
        "ingress_lossy_pool": {"mode": "dynamic", "size": "52161690", "type": "ingress"},
        "egress_lossless_pool": {"mode": "dynamic", "size": "158229504", "type": "egress"},
        "egress_lossy_pool": {"mode": "dynamic", "size": "52161690", "type": "egress"}}
    running["BUFFER_PROFILE"]["ingress_lossy_profile"] = {
        "dynamic_th": "3", "pool": "ingress_lossy_pool", "size": "0"}
    return running


# ----------------------------------------------------------------- orchagent, written here

def refs(db):
    """Every (user table, key, referenced table, name) of a CONFIG_DB's buffer objects."""
    out = []
    for table in USER_TABLES:
        for key, row in db.get(table, {}).items():
            names = [row["profile"]] if "profile" in row else []
            names += [n for n in str(row.get("profile_list", "")).split(",") if n]
            out += [(table, key, "BUFFER_PROFILE", n) for n in names]
    for key, row in db.get("BUFFER_PROFILE", {}).items():
        out.append(("BUFFER_PROFILE", key, "BUFFER_POOL", row["pool"]))
    return out


def created_with(table, row):
    """What bufferorch fixes when it creates the object."""
    if table == "BUFFER_POOL":
        return (row.get("type"), row.get("mode"))
    return (row.get("pool"), "dynamic_th" in row, "static_th" in row)


class Orchagent(object):
    """The SAI objects bufferorch holds, fed by apply-patch runs."""

    def __init__(self, db):
        self.db = copy.deepcopy(db)
        self.sai = dict(((t, k), created_with(t, r)) for t in ("BUFFER_POOL", "BUFFER_PROFILE")
                        for k, r in db.get(t, {}).items())
        self.ignored = []

    def run(self, patch):
        """One ``config apply-patch``: each operation in order, every step checked."""
        start = copy.deepcopy(self.db)
        for op in patch:
            jsonpatch.apply_patch(self.db, [op], in_place=True)   # independent RFC 6902
            parts = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
            if op["op"] == "remove" and parts[0] in ("BUFFER_POOL", "BUFFER_PROFILE") and \
                    len(parts) <= 2:
                gone = [parts[1]] if len(parts) == 2 else list(start.get(parts[0], {}))
                users = [(t, k) for t, k, rt, n in refs(self.db) if rt == parts[0] and n in gone]
                assert not users, "%s removed while %s still use it" % (op["path"], users)
            if not parts[0].startswith("BUFFER_"):
                continue
            dangling = [(t, k, n) for t, k, rt, n in refs(self.db)
                        if n not in self.db.get(rt, {})]
            assert not dangling, "after %s: references to missing objects %s" % (
                op["path"], dangling[:3])
        for table in ("BUFFER_POOL", "BUFFER_PROFILE"):      # what orchagent sees of the run
            before, after = start.get(table, {}), self.db.get(table, {})
            for key in set(before) - set(after):
                del self.sai[(table, key)]
            for key in set(after) - set(before):
                self.sai[(table, key)] = created_with(table, after[key])
            for key in set(before) & set(after):
                if created_with(table, after[key]) != self.sai[(table, key)]:
                    self.ignored.append((table, key))    # a SET: create-only fields skipped

    def runs_what_config_db_says(self):
        return all(self.sai[(t, k)] == created_with(t, r)
                   for t in ("BUFFER_POOL", "BUFFER_PROFILE")
                   for k, r in self.db.get(t, {}).items())


# ------------------------------------------------------------------------ the contract

def end_state(running, want):
    """Owned tables: the plan's keys as planned, other keys as they run; shared tables: the
    plan's keys and fields written; the pools the plan's carve lacks and the profiles on them
    gone."""
    out = expected(running, want)
    for pool in set(running.get("BUFFER_POOL", {})) - set(want["BUFFER_POOL"]):
        del out["BUFFER_POOL"][pool]
        for name, row in list(out["BUFFER_PROFILE"].items()):
            if row["pool"] == pool and name not in want["BUFFER_PROFILE"]:
                del out["BUFFER_PROFILE"][name]
    return out


def deploy(running, want, **kw):
    phases = deploy_sonic.config_phases(running, want, allow_reload=RELOAD, hand_over=HAND_OVER,
                                        **kw)
    orch = Orchagent(running)
    for phase in phases:
        orch.run(phase)
    return phases, orch


# --------------------------------------------------------------------------- the tests

def test_a_create_only_change_is_refused_naming_object_field_and_values():
    running, want = vendor(realistic()), intended()
    with pytest.raises(ValueError) as exc:
        deploy_sonic.config_phases(running, want, allow_reload=RELOAD)
    lines = str(exc.value).splitlines()
    assert lines == [
        "BUFFER_PROFILE|ingress_lossy_profile pool: running ingress_lossy_pool, planned "
        "ingress_lossless_pool - orchagent applies this only on create: `config reload` with "
        "the rendered config_db.json, or delete and recreate in a maintenance window (or allow "
        "it: switch_deploy_sonic_allow_buffer_recreate / sonic_config allow_buffer_recreate)"]


def test_every_create_only_field_is_named():
    running, want = vendor(realistic()), intended()
    running["BUFFER_POOL"]["egress_lossy_pool"]["mode"] = "static"
    running["BUFFER_PROFILE"]["q_lossy_profile"] = {"pool": "egress_lossy_pool",
                                                    "static_th": "1000", "size": "0"}
    with pytest.raises(ValueError) as exc:
        deploy_sonic.config_phases(running, want, allow_reload=RELOAD)
    heads = [line.split(" - ")[0] for line in str(exc.value).splitlines()]
    assert heads == [
        "BUFFER_POOL|egress_lossy_pool mode: running static, planned dynamic",
        "BUFFER_PROFILE|ingress_lossy_profile pool: running ingress_lossy_pool, planned "
        "ingress_lossless_pool",
        "BUFFER_PROFILE|q_lossy_profile threshold_mode: running static_th, planned dynamic_th"]


def test_a_single_run_would_leave_orchagent_on_the_vendor_pool():
    """Why the re-create needs its own run: inside one apply-patch run the updater diffs the
    ends, so orchagent gets a SET of the profile's pool and skips it."""
    running, want = vendor(realistic()), intended()
    patch = deploy_sonic.config_patch(running, want, allow_reload=RELOAD,
                                      allow_buffer_recreate=True, hand_over=HAND_OVER)
    orch = Orchagent(running)
    orch.run(patch)
    assert orch.ignored == [("BUFFER_PROFILE", "ingress_lossy_profile")]
    assert not orch.runs_what_config_db_says()


def test_allowed_recreate_deletes_users_profile_pool_then_builds_the_plan():
    running, want = vendor(realistic()), intended()
    phases, orch = deploy(running, want, allow_buffer_recreate=True)
    release, rebuild, growth = phases
    # run 1: every row using the lossy profile (all 128 ports: the 96 the plan does not wire
    # too), then the profile; the pool is not re-created, only retired, so it goes in run 2
    assert [op["op"] for op in release] == ["remove"] * 129
    assert release[-1]["path"] == "/BUFFER_PROFILE/ingress_lossy_profile"
    assert all(op["path"].startswith("/BUFFER_PG/") and op["path"].endswith("|0")
               for op in release[:-1])
    # run 2: profile created on the plan's pool before its rows come back; the vendor pool
    # removed once nothing uses it; run 3: the pools that take the freed buffer grow
    paths = [op["path"] for op in rebuild]
    assert paths.index("/BUFFER_PROFILE/ingress_lossy_profile") < paths.index(
        "/BUFFER_PG/Ethernet0|0") < paths.index("/BUFFER_POOL/ingress_lossy_pool")
    assert rebuild[paths.index("/BUFFER_POOL/ingress_lossy_pool")]["op"] == "remove"
    assert sorted(op["path"] for op in growth) == ["/BUFFER_POOL/egress_lossy_pool/size",
                                                   "/BUFFER_POOL/ingress_lossless_pool/size"]
    # orchagent ends on the plan's objects, nothing skipped
    assert orch.ignored == [] and orch.runs_what_config_db_says()
    assert orch.db["BUFFER_PROFILE"]["ingress_lossy_profile"] == want["BUFFER_PROFILE"][
        "ingress_lossy_profile"]
    # the end state is the contract: owned keys as planned, the rest as it ran
    assert orch.db == end_state(running, want)
    for table, keys in want.items():
        for key, fields in keys.items():
            if table in deploy_sonic.OWNED_TABLES:
                assert orch.db[table][key] == fields, (table, key)
            else:
                assert dict(orch.db[table][key], **fields) == orch.db[table][key], (table, key)
    assert orch.db["BUFFER_PG"]["Ethernet256|0"] == running["BUFFER_PG"]["Ethernet256|0"]
    assert "ingress_lossy_pool" not in orch.db["BUFFER_POOL"]
    # the concatenated patch is the plain patch's end state too; a second run is empty
    flat = [op for phase in phases for op in phase]
    assert jsonpatch.apply_patch(running, flat) == orch.db
    assert deploy_sonic.config_phases(orch.db, want, allow_reload=RELOAD,
                                      allow_buffer_recreate=True, hand_over=HAND_OVER) == []


def zero_profile(running, users):
    """The template's zero profile for inactive ports, on the vendor's lossy pool."""
    running = copy.deepcopy(running)
    running["BUFFER_POOL"]["ingress_lossy_pool"] = {"mode": "dynamic", "size": "52161690",
                                                    "type": "ingress"}
    running["BUFFER_PROFILE"]["ingress_lossy_pg_zero_profile"] = {
        "pool": "ingress_lossy_pool", "size": "0", "static_th": "0"}
    for port in users:
        running["BUFFER_PG"]["%s|0" % port] = {"profile": "ingress_lossy_pg_zero_profile"}
    return running


def test_a_retired_pool_goes_after_its_profile_after_its_users_moved():
    """No create-only change: one ordered run re-points the plan's PGs, removes the zero
    profile, then the vendor pool; the growth of the plan's pool is a run of its own."""
    running, want = zero_profile(realistic(), ["Ethernet0", "Ethernet4"]), intended()
    phases, orch = deploy(running, want)
    assert len(phases) == 2
    paths = [op["path"] for op in phases[0]]
    assert max(paths.index("/BUFFER_PG/Ethernet0|0/profile"),
               paths.index("/BUFFER_PG/Ethernet4|0/profile")) < paths.index(
        "/BUFFER_PROFILE/ingress_lossy_pg_zero_profile") < paths.index(
        "/BUFFER_POOL/ingress_lossy_pool")
    grown = dict((op["path"].split("/")[2], int(op["value"])) for op in phases[1])
    assert all(op["path"].endswith("/size") for op in phases[1]) and "ingress_lossless_pool" in grown
    assert all(size > int(running["BUFFER_POOL"][pool]["size"]) for pool, size in grown.items())
    assert orch.ignored == [] and orch.runs_what_config_db_says()
    assert orch.db == end_state(running, want)


def test_a_retired_pool_a_kept_port_still_uses_is_refused_naming_both():
    running, want = zero_profile(realistic(), ["Ethernet256"]), intended()
    with pytest.raises(ValueError) as exc:
        deploy_sonic.config_phases(running, want, allow_reload=RELOAD)
    msg = str(exc.value)
    assert msg.startswith("removing BUFFER_PROFILE|ingress_lossy_pg_zero_profile is refused: "
                          "BUFFER_PG|Ethernet256|0 still references it")
    assert "`config reload` with the rendered config_db.json" in msg and "\n" not in msg


def test_vendor_template_on_the_plan_only_switch_without_the_shared_config():
    """The same deploy on the rendered leaf itself (runs without ../shared): every port is the
    plan's."""
    running, want = vendor(intended()), intended()
    with pytest.raises(ValueError):
        deploy_sonic.config_phases(running, want)
    phases, orch = deploy(running, want, allow_buffer_recreate=True)
    assert len(phases) == 3 and orch.ignored == [] and orch.runs_what_config_db_says()
    assert orch.db == want
    assert deploy_sonic.config_phases(orch.db, want) == []


def test_pools_that_only_shrink_or_grow_stay_in_one_run():
    want = intended()
    running = copy.deepcopy(want)
    running["BUFFER_POOL"]["ingress_lossless_pool"]["size"] = "1000"
    assert len(deploy_sonic.config_phases(running, want)) == 1
    running["BUFFER_POOL"]["egress_lossy_pool"]["size"] = "999999999"     # one shrinks
    phases = deploy_sonic.config_phases(running, want)
    assert [[op["path"] for op in phase] for phase in phases] == [
        ["/BUFFER_POOL/egress_lossy_pool/size"], ["/BUFFER_POOL/ingress_lossless_pool/size"]]


def test_order_puts_users_before_profiles_before_pools():
    running = {"BUFFER_POOL": {"p": {"size": "10"}}}
    ops = [{"op": "remove", "path": "/BUFFER_POOL/old"},
           {"op": "add", "path": "/BUFFER_PG/E0|0", "value": {"profile": "x"}},
           {"op": "remove", "path": "/BUFFER_PROFILE/old_profile"},
           {"op": "replace", "path": "/BUFFER_POOL/p/size", "value": "20"},
           {"op": "add", "path": "/BUFFER_PROFILE/x", "value": {"pool": "p"}},
           {"op": "remove", "path": "/BUFFER_QUEUE/E0|3"},
           {"op": "add", "path": "/BUFFER_POOL/q", "value": {"size": "1"}}]
    assert [op["path"] for op in buffers.order(ops, running)] == [
        "/BUFFER_QUEUE/E0|3", "/BUFFER_POOL/q", "/BUFFER_PROFILE/x", "/BUFFER_PG/E0|0",
        "/BUFFER_PROFILE/old_profile", "/BUFFER_POOL/old", "/BUFFER_POOL/p/size"]
    assert buffers.users({"BUFFER_PORT_EGRESS_PROFILE_LIST": {"E0": {
        "profile_list": "[BUFFER_PROFILE|a],b"}}}, "BUFFER_PROFILE", "a") == [
        ("BUFFER_PORT_EGRESS_PROFILE_LIST", "E0")]
