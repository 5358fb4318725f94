"""Issue 29: the generator's tiers option, whole leaf pairs (refused with the nearest counts
that build), and the plan's refusals of a top-tier roce_uplink_overrides and of a too-small
address pool, with numbers. Every expected number is worked out by hand in the comments
(lossless-math.md §6: a leaf has k/2 ports down and k/2 up; a pod holds (k/2)^2 GPUs)."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.design import generate, inventory


def _refusal(**kwargs):
    with pytest.raises(errors.RoceInputError) as err:
        inventory.files(**kwargs)
    text = str(err.value)
    assert "\n" not in text
    return text


def test_tiers_3_builds_pods_where_two_tiers_would_do():
    # 32 GPUs at radix 8: k^2/2 = 32, so two tiers by default (8 leaves, 4 spines). Three:
    # pods of 4 x 4 = 16 GPUs -> 2 pods, 8 leaves, 8 spines, 2*4*4/8 = 4 super-spines.
    assert inventory.files(32, 8)[1]["tiers"] == 2
    _content, summary = inventory.files(32, 8, tiers=3)
    assert (summary["tiers"], summary["pods"], summary["leaves"], summary["spines"],
            summary["superspines"]) == (3, 2, 8, 8, 4)
    groups, hostvars = generate.clos(32, 8, tiers=3)[:2]
    plan = pipeline.build_plan(groups, hostvars)
    assert plan["summary"]["errors"] == 0
    assert (plan["summary"]["tiers"], plan["summary"]["superspines"]) == (3, 4)


def test_tiers_2_beyond_k2_over_2_is_refused_with_the_limit():
    # 64 GPUs at radix 8: two tiers reach 8*8/2 = 32; radix 10 reaches 50, radix 12 72.
    text = _refusal(gpus=64, radix=8, tiers=2)
    assert text.startswith("gpus = 64 is not valid: at most k^2/2 = 32 GPUs with two 1:1 "
                           "tiers at radix 8"), text
    assert "not 64" in text and "a radix of at least 12" in text, text
    # per plane: 128 GPUs over 2 planes is 64 a plane, the same limit
    refusal = _refusal(gpus=128, radix=8, planes=2, tiers=2)
    assert "32 GPUs per plane (128 GPUs over 2 planes)" in refusal
    assert _refusal(gpus=64, radix=8, tiers=4).startswith("tiers = 4 is not valid: 2 ")


@pytest.mark.parametrize("gpus, radix, words, near", [
    # 1056 / 32 ports down = 33 leaves. Below: 32 leaves (a multiple of the 8-leaf rail group)
    # hold 1024. Above: 34..39 leaves are no multiple of 8; 40 leaves take 1249..1280 GPUs,
    # the first multiple of 8 NICs per host is 1256.
    (1056, 64, "33 leaves per plane, an odd number, and leaves come in pairs",
     "below 1024, above 1256"),
    # 16 GPUs: one leaf; none below; 2 leaves take 33..64 GPUs: 40 the first multiple of 8.
    (16, 64, "1 leaf per plane, an odd number", "below none, above 40"),
    # 1088: 34 leaves, whole pairs but not whole rail groups of 8 leaves.
    (1088, 64, "34 leaves per plane: a host's 8 NICs per plane span a rail group of 8 leaves, "
     "so the leaves must be a multiple of 8", "below 1024, above 1256"),
    # 136 at radix 16: above k^2/2 = 128, pods of 64 GPUs -> 3 pods, 3*8*8/16 = 12 super-spines,
    # not a multiple of the 8 spines per pod. Below: two tiers, 16 leaves, 128. Above: 4 pods
    # take 193..256 GPUs, 200 the first multiple of 8.
    (136, 16, "3 pod(s) per plane: their 12 super-spines", "below 128, above 200"),
])
def test_counts_the_plan_refuses_name_the_nearest_that_build(gpus, radix, words, near):
    text = _refusal(gpus=gpus, radix=radix)
    assert text.startswith("gpus = %d is not valid: a count the fabric model builds" % gpus)
    assert words in text, text
    assert text.endswith("the nearest counts that build: %s" % near), text


@pytest.mark.parametrize("gpus, radix", [(1024, 64), (1256, 64), (40, 64), (128, 16),
                                         (200, 16)])
def test_the_named_counts_build(gpus, radix):
    summary = inventory.files(gpus, radix)[1]
    assert summary["leaves"] % 2 == 0 and summary["leaf_pairs"] * 2 == summary["leaves"]


def test_top_tier_uplink_overrides_are_refused_at_the_gate():
    # two tiers: the spines are the top tier
    groups, hostvars = generate.clos(32, 8)[:2]
    for spine in groups["spines"]:
        hostvars[spine]["roce_uplink_overrides"] = {"cable_m": 10}
    with pytest.raises(errors.RoceInputError) as err:
        pipeline.build_plan(groups, hostvars)
    assert str(err.value) == (
        "host spine00 and 3 more hosts: roce_uplink_overrides = {'cable_m': 10} is not valid: "
        "unset on a spine: the top tier of a 2-tier fabric has no uplinks (its links to the "
        "leaves: roce_downlink_overrides here, or roce_uplink_overrides on the leaves)")
    # three tiers: the super-spines are; a spine's uplinks (to the super-spines) stay valid
    groups, hostvars = generate.clos(16, 4, nics_per_host=2)[:2]
    hostvars[groups["spines"][0]]["roce_uplink_overrides"] = {"cable_m": 10}
    assert pipeline.build_plan(groups, hostvars)["summary"]["errors"] == 0
    hostvars["ss000"]["roce_uplink_overrides"] = {"cable_m": 10}
    with pytest.raises(errors.RoceInputError) as err:
        pipeline.build_plan(groups, hostvars)
    assert str(err.value).startswith(
        "host ss000: roce_uplink_overrides = {'cable_m': 10} is not valid: unset on a "
        "super-spine: the top tier of a 3-tier fabric has no uplinks"), str(err.value)


@pytest.mark.parametrize("pool, prefix, words", [
    # 32 GPUs at radix 8: 8 leaves x 4 uplinks = 32 switch links, 32 /31s = 64 addresses = /26;
    # a /29 holds 4 /31s.
    ("fabric_p2p", "10.64.0.0/29", "a prefix large enough, /26 or shorter: the 32 "
     "switch-to-switch links need 32 /31s and a /29 holds 4"),
    # 32 host links: a /27 holds 16 /31s, /26 holds 32.
    ("host_p2p", "10.128.0.0/27", "a prefix large enough, /26 or shorter: the 32 host links "
     "need 32 /31s and a /27 holds 16"),
    # 12 switches (8 leaves, 4 spines): a /29 holds 8 loopbacks, /28 16.
    ("loopbacks", "10.0.0.0/29", "a prefix large enough, /28 or shorter: the 12 switches' "
     "loopbacks need 12 addresses (/32) and a /29 holds 8"),
])
def test_a_small_pool_is_refused_with_the_numbers(pool, prefix, words):
    groups, hostvars = generate.clos(32, 8)[:2]
    hostvars["spine00"]["roce_fabric"]["addressing"][pool] = prefix
    with pytest.raises(errors.RoceInputError) as err:
        pipeline.build_plan(groups, hostvars)
    assert str(err.value) == "host spine00: roce_fabric.addressing.%s = %r is not valid: %s" % (
        pool, prefix, words)
