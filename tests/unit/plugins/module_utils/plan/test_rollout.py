"""Issue 29, item 4: the rollout waves (plan/rollout.py) and their checker, and the two report
files. Every expected wave and number below is worked out by hand from the rules (plan/rollout.py
docstring), not read from the code:

- the bundled example: 2 spines, leaf pairs leaf1a/leaf1b and leaf2a/leaf2b, one plane. Each
  leaf has u = 2 spines, so max(1, floor(2/4)) = 1 spine per wave (and 1 of the plane's 2);
  spines roll before leaves; one leaf of each pair per wave.
- 8,192 GPUs, four planes, radix 64 (lossless-math.md §6: a leaf has 32 ports down, 32 up):
  2,048 GPUs per plane -> 64 leaves (32 pairs) and 32 spines per plane, every leaf wired to all
  32 spines: floor(32/4) = 8 spines per wave -> 4 spine waves, 2 leaf waves of 32 leaves: 6
  waves per plane, 24 in all, the largest 32 switches. With three tiers: 2 pods of 32 leaves
  and 32 spines per plane, 32 super-spines (one per spine group, so u = 1 for a spine):
  floor(32/4) = 8 super-spines per wave (tier share) -> 4 waves; 8 spines of each pod per wave
  (a leaf's 32) but at most floor(64/4) = 16 of the plane's -> 4 waves of 16; 2 leaf waves:
  10 per plane, 40 in all.
"""
import json
import time

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.plan import rollout
from ansible_collections.roce.fabric.plugins.module_utils.render import report

_PLANS = {}


def _generated(tiers):
    if tiers not in _PLANS:
        groups, hostvars = generate.clos(8192, 64, planes=4, tiers=tiers)[:2]
        _PLANS[tiers] = pipeline.build_plan(groups, hostvars)
    return _PLANS[tiers]


def _names(computed):
    return [names for _plane, _tier, names in computed]


def _rules(found):
    return sorted((f["rule"], f["device"]) for f in found)


def test_example_waves_by_hand(example):
    plan = pipeline.build_plan(*example)
    computed = rollout.waves(plan)
    assert _names(computed) == [["spine1"], ["spine2"], ["leaf1a", "leaf2a"],
                                ["leaf1b", "leaf2b"]]
    assert [(plane, tier) for plane, tier, _n in computed] == [
        (0, "spine"), (0, "spine"), (0, "leaf"), (0, "leaf")]
    assert rollout.check(plan, _names(computed)) == []


def test_example_report_files(example):
    plan = pipeline.build_plan(*example)
    files = report.render_report(plan)
    doc = json.loads(files["fabric/rollout.json"])
    assert doc["waves"] == [["spine1"], ["spine2"], ["leaf1a", "leaf2a"], ["leaf1b", "leaf2b"]]
    assert [(w["wave"], w["tier"], w["switches"]) for w in doc["wave_info"]] == [
        (1, "spine", 1), (2, "spine", 1), (3, "leaf", 2), (4, "leaf", 2)]
    # each leaf keeps 1 of its 2 spines while a spine wave is out
    assert "keeps at least 1 of its 2" in doc["wave_info"][0]["stays_up"]
    md = files["fabric/rollout.md"]
    assert "6 switches in 4 waves (largest: 2 switches)" in md
    assert "| 3 | 0 | leaf | leaf1a, leaf2a |" in md


def test_example_bad_waves_caught_with_numbers(example):
    plan = pipeline.build_plan(*example)
    # both spines at once; both leaves of each pair at once
    found = rollout.check(plan, [["spine1", "spine2"], ["leaf1a", "leaf1b"],
                                 ["leaf2a", "leaf2b"]])
    assert _rules(found) == [
        ("rollout-pair", "leaf1a"), ("rollout-pair", "leaf2a"),
        ("rollout-tier-share", "spine1"),
        ("rollout-uplinks", "leaf1a"), ("rollout-uplinks", "leaf1b"),
        ("rollout-uplinks", "leaf2a"), ("rollout-uplinks", "leaf2b")]
    up = next(f for f in found if f["rule"] == "rollout-uplinks")
    assert (up["numbers"]["uplinks"], up["numbers"]["in_wave"], up["numbers"]["allowed"],
            up["numbers"]["wave"]) == (2, 2, 1, 1)
    assert "2 of its 2 uplink switches in one wave (spine1, spine2): at most 1" in up["message"]
    share = next(f for f in found if f["rule"] == "rollout-tier-share")
    assert (share["numbers"]["in_wave"], share["numbers"]["tier_size"],
            share["numbers"]["allowed"]) == (2, 2, 1)
    pair = next(f for f in found if f["rule"] == "rollout-pair" and f["device"] == "leaf2a")
    assert pair["location"] == "wave 3" and pair["numbers"]["pair"] == ["leaf2a", "leaf2b"]
    assert all("\n" not in f["message"] for f in found)


def test_example_coverage_and_order(example):
    plan = pipeline.build_plan(*example)
    # leaves before spines, a spine twice, gpu1 (a host), a name not in the plan, leaf2b missing,
    # a spine and a leaf in one wave
    found = rollout.check(plan, [["leaf1a", "leaf2a"], ["spine1", "leaf1b"], ["spine2"],
                                 ["spine1", "gpu1", "nosuch"]])
    rules = _rules(found)
    assert ("rollout-tier", "spine1") in rules               # wave 2: spine and leaf
    order = [f for f in found if f["rule"] == "rollout-tier" and "after" in f["message"]]
    assert [f["location"] for f in order] == ["wave 2", "wave 3"]
    cover = dict((f["device"], f) for f in found if f["rule"] == "rollout-coverage")
    assert sorted(cover) == ["gpu1", "leaf2b", "nosuch", "spine1"]
    assert cover["spine1"]["numbers"] == {"wave": 4, "first_wave": 2}
    assert cover["leaf2b"]["numbers"] == {"missing": 1}


@pytest.mark.parametrize("tiers, total, per_plane", [
    (None, 24, [("spine", 8)] * 4 + [("leaf", 32)] * 2),
    (3, 40, [("superspine", 8)] * 4 + [("spine", 16)] * 4 + [("leaf", 32)] * 2),
])
def test_generated_8192_gpu_four_planes(tiers, total, per_plane):
    plan = _generated(tiers)
    computed = rollout.waves(plan)
    assert len(computed) == total
    for plane in range(4):
        assert [(tier, len(names)) for p, tier, names in computed if p == plane] == per_plane
    # planes one after the other
    assert [p for p, _t, _n in computed] == sorted(p for p, _t, _n in computed)
    flat = [name for names in _names(computed) for name in names]
    switches = [n for n, d in plan["devices"].items() if d["kind"] == "switch"]
    assert sorted(flat) == sorted(switches)            # every switch exactly once
    assert len(flat) == {None: 384, 3: 640}[tiers]      # 4 x (64 + 32) and 4 x (64 + 64 + 32)
    assert rollout.check(plan, _names(computed)) == []


def test_generated_bad_waves_caught():
    plan = _generated(None)
    computed = _names(rollout.waves(plan))
    # 9 spines of plane 0 in one wave: each of its 64 leaves loses 9 of its 32 (at most 8)
    spines = [n for n in sorted(plan["devices"]) if n.startswith("p0-spine")]
    assert len(spines) == 32
    bad = [spines[:9]] + [w for w in computed if not set(w) & set(spines[:9])]
    found = rollout.check(plan, bad)
    uplinks = [f for f in found if f["rule"] == "rollout-uplinks"]
    assert len(uplinks) == 64
    assert set((f["numbers"]["uplinks"], f["numbers"]["in_wave"], f["numbers"]["allowed"])
               for f in uplinks) == {(32, 9, 8)}
    assert [(f["numbers"]["in_wave"], f["numbers"]["tier_size"], f["numbers"]["allowed"])
            for f in found if f["rule"] == "rollout-tier-share"] == [(9, 32, 8)]
    # plane 1's first leaf wave merged into plane 0's: two planes in one wave
    leaf0 = next(w for w in computed if w[0].startswith("p0-leaf"))
    leaf1 = next(w for w in computed if w[0].startswith("p1-leaf"))
    merged = [leaf0 + leaf1 if w is leaf0 else w for w in computed if w is not leaf1]
    planes = [f for f in rollout.check(plan, merged) if f["rule"] == "rollout-plane"]
    assert planes and planes[0]["numbers"]["planes"] == [0, 1]


def test_timings_reported_not_asserted(capsys):
    """Linear in switches and links: the times at two sizes are printed (pytest -s), not
    asserted (a timed bound would be flaky on a shared machine)."""
    for gpus in (2048, 8192):
        groups, hostvars = generate.clos(gpus, 64, planes=4)[:2]
        plan = pipeline.build_plan(groups, hostvars)
        start = time.perf_counter()
        computed = rollout.waves(plan)
        rollout.check(plan, _names(computed))
        with capsys.disabled():
            print("\nrollout %d GPUs, %d switches, %d links: waves + check %.3f s"
                  % (gpus, plan["summary"]["spines"] + plan["summary"]["leaves"],
                     plan["summary"]["links"], time.perf_counter() - start))


def test_the_failure_budget_is_what_a_wave_takes_out():
    # Issue 30: with roce_fabric.failure_budget.spines 2 (proved at 1.1:1: two of a leaf's 32
    # spines down leave 32/30 = 1.067:1), a wave takes at most 2 of a leaf's 32 spines instead
    # of a quarter (8): 32 / 2 = 16 spine waves per plane (the tier share, 8, does not bind),
    # then the 2 leaf waves - 18 per plane, 72 in all.
    groups, hostvars = generate.clos(8192, 64, planes=4)[:2]
    first = next(h for h, v in hostvars.items() if "roce_fabric" in v)
    hostvars[first]["roce_fabric"]["failure_budget"] = {"spines": 2, "oversubscription": 1.1}
    plan = pipeline.build_plan(groups, hostvars)
    assert not [v for v in plan["violations"] if v["rule"] == "failure-budget"]
    computed = rollout.waves(plan)
    assert len(computed) == 72
    assert [(tier, len(names)) for p, tier, names in computed if p == 0] == \
        [("spine", 2)] * 16 + [("leaf", 32)] * 2
    assert rollout.check(plan, _names(computed)) == []
    # the quarter the unbudgeted roll would take is refused, naming the budget
    waves = _names(computed)           # plane 0's first two spine waves as one
    found = rollout.check(plan, [waves[0] + waves[1]] + waves[2:])
    assert found and all(f["rule"] == "rollout-uplinks" for f in found)
    assert "4 of its 32 uplink switches" in found[0]["message"]
    assert "at most 2, max(1, floor(32/4)) within the failure budget" in found[0]["message"]
