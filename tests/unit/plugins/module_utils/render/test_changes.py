"""The change plan: per device what changes and its disruption class, the devices outside a
limited run with the --limit that covers them, changes.md and the short table."""
import json

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes as classes
from ansible_collections.roce.fabric.plugins.module_utils.render import changes
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import changes as eos_changes
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    changes as sonic_changes)


def _db(**tables):
    return json.dumps(tables, indent=4, sort_keys=True)


@pytest.mark.parametrize("table,before,after,cls", [
    ("WRED_PROFILE", {"AZURE_LOSSLESS": {"green_min_threshold": "1"}},
     {"AZURE_LOSSLESS": {"green_min_threshold": "2"}}, classes.HITLESS),
    ("BUFFER_PROFILE", {"p": {"xoff": "1", "pool": "a"}}, {"p": {"xoff": "2", "pool": "a"}},
     classes.TRAFFIC),
    ("BUFFER_PROFILE", {"p": {"xoff": "1", "pool": "a"}}, {"p": {"xoff": "1", "pool": "b"}},
     classes.RELOAD),      # create-only: sonic-swss #1430
    ("PORT", {"Ethernet0": {"speed": "400000"}}, {"Ethernet0": {"speed": "200000"}},
     classes.FLAP),
    ("PORT", {"Ethernet0": {"description": "a"}}, {"Ethernet0": {"description": "b"}},
     classes.HITLESS),
    ("DEVICE_METADATA", {"localhost": {"buffer_model": "traditional"}},
     {"localhost": {"buffer_model": "dynamic"}}, classes.RELOAD),
    ("DEVICE_METADATA", {"localhost": {"docker_routing_config_mode": "split"}},
     {"localhost": {"docker_routing_config_mode": "unified"}}, classes.RELOAD),
    ("BGP_NEIGHBOR", {"a": {"asn": "1"}}, {}, classes.TRAFFIC),
    ("SOMETHING_NEW", {}, {"a": {"x": "1"}}, classes.TRAFFIC),
])
def test_config_db_tables_and_fields_have_their_class(table, before, after, cls):
    parts = sonic_changes.config_db_parts(_db(**{table: before}), _db(**{table: after}))
    assert [(p["part"], p["class"]) for p in parts] == [(table, cls)]


EOS_OLD = """hostname s
!
interface Ethernet1/1
   description a
   mtu 9216
   speed 400g-4
!
qos profile P
   tx-queue 3
      random-detect ecn minimum-threshold 1 bytes maximum-threshold 2 bytes max-mark-probability 20
!
platform trident mmu headroom-pool limit cells 100
!
router bgp 1
   neighbor 1.1.1.1 remote-as 2
"""


@pytest.mark.parametrize("old,new,kind,cls", [
    ("   description a", "   description b", "interface", classes.HITLESS),
    ("   speed 400g-4", "   speed 200g-2", "interface", classes.FLAP),
    ("minimum-threshold 1 bytes", "minimum-threshold 5 bytes", "qos profile", classes.HITLESS),
    ("limit cells 100", "limit cells 200", "platform trident mmu", classes.TRAFFIC),
    ("remote-as 2", "remote-as 3", "router bgp", classes.TRAFFIC),
])
def test_eos_sections_and_lines_have_their_class(old, new, kind, cls):
    parts = eos_changes.eos_parts(EOS_OLD, EOS_OLD.replace(old, new))
    assert [(p["part"], p["class"], p["changed"]) for p in parts] == [(kind, cls, 1)]


def test_bgpd_changes_affect_traffic_and_comments_do_not():
    assert sonic_changes.frr_parts("a\n", "a\n") == []
    assert sonic_changes.frr_parts("! x\na\n", "! y\na\n")[0]["class"] == classes.HITLESS
    assert sonic_changes.frr_parts("a\n b 1\n", "a\n b 2\n")[0]["class"] == classes.TRAFFIC


def test_a_device_takes_the_worst_class_of_its_parts():
    assert classes.worst([classes.HITLESS, classes.FLAP, classes.TRAFFIC]) == classes.FLAP
    assert classes.worst([]) == classes.HITLESS


def _configs(result, name):
    files = render.render_switch(result["devices"][name], ("configs",))
    return dict((p, files[p]) for p in changes.config_paths(result["devices"][name])
                if p in files)


def test_a_cable_change_on_leaf_pair_1_is_a_buffer_change_and_a_first_render_is_new(example):
    groups, hostvars = example
    before = plan.build_plan(groups, hostvars)
    for leaf in ("leaf1a", "leaf1b"):
        hostvars[leaf]["roce_uplink_overrides"] = {"cable_m": 100}
    after = plan.build_plan(groups, hostvars)
    old, new = _configs(before, "leaf1a"), _configs(after, "leaf1a")
    record = changes.device_change(after["devices"]["leaf1a"], old, new)
    assert record["class"] == classes.TRAFFIC and record["platform"] == "sonic"
    parts = dict((p["part"], p) for p in record["parts"])
    assert parts["BUFFER_PG"]["changed"] == 16 and parts["CABLE_LENGTH"]["changed"] == 1
    assert set(parts) <= {"BUFFER_PG", "BUFFER_PROFILE", "BUFFER_POOL", "CABLE_LENGTH"}
    assert changes.device_change(after["devices"]["leaf1a"], new, new) is None
    first = changes.device_change(after["devices"]["leaf1a"], dict.fromkeys(new), new)
    assert first["class"] == "no-baseline"         # not in the deployed-state record
    assert first["summary"] == "no deployed-state record: treated as changed"


def test_the_plan_names_devices_outside_the_run_and_the_limit_that_covers_them(example):
    groups, hostvars = example
    result = plan.build_plan(groups, hostvars)
    rec = {"device": "leaf2a", "platform": "eos", "role": "leaf", "class": classes.TRAFFIC,
           "parts": [], "summary": "x"}
    spine = dict(rec, device="spine1", role="spine")
    spine2 = dict(spine, device="spine2")
    out = changes.change_plan([rec], [spine, spine2], result, "leaf_pair2",
                              {"spines": ["spine1", "spine2"], "all": ["x"],
                               "leaves": ["leaf1a", "leaf1b", "leaf2a", "leaf2b"]},
                              ["leaf"])
    outside = out["outside_limit"]
    assert outside["devices"] == ["spine1", "spine2"]
    assert outside["limit"] == "leaf_pair2,spines" and outside["tags"] == ["leaf", "spine"]
    assert outside["why"]["spine1"] == "the other end of links to leaf2a"
    text = "\n".join(changes.table(out))
    assert "--limit 'leaf_pair2,spines' --tags leaf,spine" in text
    md = changes.markdown(out, "example")
    for name in ("leaf2a", "spine1", "spine2"):
        assert "| %s" % name in md
    assert "traffic-affecting | drain first" in md and md.startswith("# Change plan: example")
    # the verdict's first words: PENDING with the count and the limit that covers them
    assert changes.pending(out) == (
        "PENDING - 2 switch(es) outside this run change too (spine1, spine2): cover them with "
        "--limit 'leaf_pair2,spines' --tags leaf,spine")
    inside = changes.change_plan([rec, spine, spine2], [], result, None, {}, [])
    assert changes.pending(inside) == "" and changes.pending(None) == ""


def test_switches_without_a_record_count_as_changed_and_are_pending_outside_the_run(example):
    groups, hostvars = example
    result = plan.build_plan(groups, hostvars)
    rec = {"device": "leaf2a", "platform": "eos", "role": "leaf", "class": classes.TRAFFIC,
           "parts": [], "summary": "x"}
    unrecorded = [dict(rec, device=n, role=r, **{"class": "no-baseline"})
                  for n, r in (("spine1", "spine"), ("leaf1a", "leaf"))]
    base = {"source": "/srv/fabric/deployed", "recorded": 4, "switches": 6}
    out = changes.change_plan([rec], unrecorded, result, "leaf_pair2",
                              {"spines": ["spine1", "spine2"]}, [], base)
    outside = out["outside_limit"]
    assert outside["devices"] == ["leaf1a", "spine1"]
    assert outside["why"] == {"leaf1a": "no deployed-state record",
                              "spine1": "no deployed-state record; the other end of links to "
                                        "leaf2a"}
    assert changes.pending(out) == (
        "PENDING - 2 switch(es) outside this run change too or have no baseline (leaf1a, "
        "spine1): cover them with --limit 'leaf_pair2,leaf1a,spine1'")
    lines = changes.table(out, "x/changes.md")
    assert lines[0] == ("change plan (x/changes.md): 1 switch(es) change; 2 of 6 switch(es) "
                        "have no deployed-state record in /srv/fabric/deployed (treated as "
                        "changed)")
    assert "no baseline, treated as changed: leaf1a, spine1" in lines
    none = changes.change_plan([], unrecorded, result, None, {}, [],
                               dict(base, recorded=0))
    assert changes.table(none)[0] == (
        "change plan (intended/fabric/changes.md): no baseline - no deployed-state record in "
        "/srv/fabric/deployed: every switch is treated as changed")
    md = changes.markdown(none)
    assert "**Baseline**: no baseline - no deployed-state record" in md
    assert "| spine1 (outside this run) | eos | spine | no-baseline | no deployed-state " in md


def test_pending_names_four_switches_and_counts_the_rest():
    outside = {"devices": ["s%d" % n for n in range(1, 7)], "limit": "all", "tags": []}
    assert changes.pending({"outside_limit": outside}) == (
        "PENDING - 6 switch(es) outside this run change too (s1, s2, s3, s4 and 2 more): cover "
        "them with --limit 'all'")


def test_covering_limit_uses_whole_groups_then_hosts():
    groups = {"spines": ["s1", "s2"], "pod1": ["s1"], "all": ["s1", "s2", "s3"]}
    assert changes.covering_limit(None, ["s1", "s2", "s3"], groups) == "spines,s3"
    assert changes.covering_limit("leaf_pair1", ["s1"], groups) == "leaf_pair1,pod1"


def test_every_class_cites_a_source():
    for cls in classes.CLASSES:
        assert classes.SOURCES[cls], cls
    assert changes.table({"devices": []}) == []
