"""Issue 29, item 4: the waves one deploying run rolls (plan/rollout_run.py, the
roce.fabric.rollout_batches filter behind site.yml's serial batches), on the generated
8,192-GPU four-plane fabric of test_rollout.py (6 waves per plane, worked out by hand there:
4 spine waves of 8, 2 leaf waves of 32 - 24 in all). Expected numbers below follow from those
counts, not from the code."""
import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.filter import rollout as rollout_filter
from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.plan import rollout, rollout_run


@pytest.fixture(scope="module")
def plan():
    groups, hostvars = generate.clos(8192, 64, planes=4)[:2]
    return pipeline.build_plan(groups, hostvars)


def _switches(plan):
    return sorted(n for n, d in plan["devices"].items() if d["kind"] == "switch")


def test_every_switch_deploying_rolls_the_plans_waves_as_they_are(plan):
    out = rollout_run.batches(plan, _switches(plan), ["all"])
    assert out["waves"] == 24 and out["done"] == []
    assert [b["wave"] for b in out["batches"]] == list(range(1, 25))
    assert [b["switches"] for b in out["batches"]] == [n for _p, _t, n in rollout.waves(plan)]
    assert [len(b["switches"]) for b in out["batches"][:6]] == [8, 8, 8, 8, 32, 32]


def test_a_limit_keeps_the_wave_numbers_and_every_rule(plan):
    # plane 2 only, and of it every third switch: what an inventory pattern might leave
    names = [n for n in _switches(plan) if n.startswith("p2-")][::3]
    out = rollout_run.batches(plan, names, ["deploy"])
    assert [b["wave"] for b in out["batches"]] == list(range(13, 19))    # plane 2's: 13..18
    assert {b["plane"] for b in out["batches"]} == {2}
    assert sorted(n for b in out["batches"] for n in b["switches"]) == sorted(names)
    found = rollout.check(plan, [b["switches"] for b in out["batches"]])
    # only coverage: a limited run rolls part of the fabric by design; no wave breaks a rule
    assert {f["rule"] for f in found} == {"rollout-coverage"}
    assert all(b["of"] == 24 for b in out["batches"])


def test_tags_select_the_tiers(plan):
    everything = _switches(plan)
    leaves = rollout_run.batches(plan, everything, ["leaf"])["batches"]
    assert {b["tier"] for b in leaves} == {"leaf"} and len(leaves) == 8     # 2 per plane
    spines = rollout_run.batches(plan, everything, ["spine", "render"])["batches"]
    assert {b["tier"] for b in spines} == {"spine"} and len(spines) == 16
    assert rollout_run.batches(plan, everything, ["host"])["batches"] == []
    assert rollout_run.tiers_of(None) == ["superspine", "spine", "leaf"]


def test_a_rerun_resumes_after_the_waves_a_stopped_rollout_verified(plan):
    computed = [n for _p, _t, n in rollout.waves(plan)]
    everything = _switches(plan)
    # the stopped rollout verified waves 1-9 and all of wave 10 but its last switch
    verified = [n for wave in computed[:9] for n in wave] + computed[9][:-1]
    changed = [computed[9][-1]] + [n for wave in computed[10:] for n in wave]
    out = rollout_run.batches(plan, everything, ["all"], changed, verified)
    assert out["done"] == list(range(1, 10))
    assert out["batches"][0]["wave"] == 10 and len(out["batches"][0]["switches"]) == 8
    assert len(out["batches"]) == 15                 # 10..24: every later wave rolled whole
    # a verified wave with a switch changed since (the fix of the failure touched it) is rolled
    again = rollout_run.batches(plan, everything, ["all"], changed + [computed[4][0]], verified)
    assert again["done"] == [1, 2, 3, 4] and again["batches"][0]["wave"] == 5
    # no stopped rollout (None): every wave rolled, each switch compares with its device
    assert rollout_run.batches(plan, everything, ["all"], changed, None)["done"] == []
    assert rollout_run.batches(plan, everything, ["all"], [], None)["batches"][0]["wave"] == 1
    # no change plan (None): nothing is resumed past
    assert rollout_run.batches(plan, everything, ["all"], None, verified)["done"] == []
    finished = rollout_run.batches(plan, everything, ["all"], [], everything)
    assert finished["batches"] == [] and finished["done"] == list(range(1, 25))


def test_the_filter_refuses_what_it_cannot_use(plan):
    with pytest.raises(AnsibleFilterError, match="expects the plan"):
        rollout_filter.rollout_batches({"x": 1}, [])
    with pytest.raises(AnsibleFilterError, match="hosts must be a list of names"):
        rollout_filter.rollout_batches(plan, "leaf1a")
    with pytest.raises(AnsibleFilterError, match="verified must be a list of names"):
        rollout_filter.rollout_batches(plan, [], verified="leaf1a")
    assert rollout_filter.FilterModule().filters() == {
        "rollout_batches": rollout_filter.rollout_batches}
