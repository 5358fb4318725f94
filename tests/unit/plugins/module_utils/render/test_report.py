"""The fabric report: every cable once, the IP/ASN plan, every rule's verdict, and pictures that
are well-formed SVG showing what the plan says; GPU host intent rendered offline."""
import csv
import io
import re
import xml.etree.ElementTree as ET

from ansible_collections.roce.fabric.plugins.module_utils.checks import run as checks
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.render import host, report

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg_text):
    root = ET.fromstring(svg_text)
    return [(float(t.get("x")), t.text) for t in root.iter(SVG + "text")]


def test_every_cable_is_in_the_cabling_plan_once(example):
    result = plan.build_plan(*example)
    files = report.render_report(result)
    rows = list(csv.DictReader(io.StringIO(files["fabric/cabling.csv"])))
    assert len(rows) == result["summary"]["links"] == 128
    ends = set((r["device"], r["port"]) for r in rows) | set((r["peer"], r["peer_port"])
                                                             for r in rows)
    assert len(ends) == 2 * len(rows)                   # no cable twice, from either end
    for name, dev in result["devices"].items():         # every NIC cabled where the host says
        if dev["kind"] == "host":
            for nic in dev["nics"]:
                row = [r for r in rows if (r["peer"], r["peer_port"]) == (name, nic["name"])]
                assert [(r["device"], r["port"], r["peer_address"]) for r in row] == \
                    [(nic["leaf"], nic["leaf_port"], nic["address"])]
    assert "| leaf1a | Ethernet64 | spine1 | Ethernet1/1 | 400 | 30 |" in \
        files["fabric/cabling.md"]


def test_the_ip_and_asn_plan_lists_every_switch_and_nic(example):
    result = plan.build_plan(*example)
    text = report.render_report(result)["fabric/addressing.md"]
    for name, dev in result["devices"].items():
        if dev["kind"] == "switch":
            assert "| %s | %s |" % (name, dev["role"]) in text
            assert "| %d | %s |" % (dev["bgp"]["asn"], dev["loopback"]) in text
        else:
            for nic in dev["nics"]:
                assert "| %s | %s |" % (nic["address"], nic["gateway"]) in text


def test_verdicts_name_every_rule_and_each_finding(example):
    groups, hostvars = example
    hostvars["leaf1a"]["roce_pfc_watchdog"] = {"poll_ms": 500}
    result = plan.build_plan(groups, hostvars)
    text = report.render_report(result)["fabric/verdicts.md"]
    for rule in checks.RULE_IDS:
        assert "| %s | " % rule in text
    assert "| pfc-watchdog | 1 ERROR |" in text and "| mtu-chain | pass |" in text
    assert "| ERROR | pfc-watchdog | leaf1a |" in text


def test_the_topology_shows_every_switch_and_its_link_counts(example):
    result = plan.build_plan(*example)
    labels = [t for _x, t in _texts(report.render_report(result)["fabric/topology.svg"])]
    for name, dev in result["devices"].items():
        if dev["kind"] == "switch":
            assert name in labels
    # each leaf has 8 links to each spine (16 uplinks over 2 spines)
    assert labels.count("x8") == 8


def test_the_topology_draws_each_host_once_with_the_rails_of_each_leaf(example):
    """Rail-optimized, one rail group of 4 leaves: the 8 hosts are one box (not one per leaf
    pair), with a line to each leaf carrying its two rails."""
    result = plan.build_plan(*example)
    labels = [t for _x, t in _texts(report.render_report(result)["fabric/topology.svg"])]
    assert labels.count("8 GPU hosts") == 1 and labels.count("64 NICs") == 1
    assert not [t for t in labels if t and t.endswith("GPU hosts") and t != "8 GPU hosts"]
    for rails in ("rails 0-1 x16", "rails 2-3 x16", "rails 4-5 x16", "rails 6-7 x16"):
        assert rails in labels


def test_two_rail_groups_are_two_host_boxes_each_on_its_own_leaves(example):
    groups, hv = example
    hv["spine1"]["roce_fabric"]["rail_group_leaves"] = 2      # gpu1-4 on pair 1, gpu5-8 on 2
    labels = [t for _x, t in _texts(report.render_report(plan.build_plan(groups, hv))[
        "fabric/topology.svg"])]
    assert labels.count("4 GPU hosts") == 2 and labels.count("rails 0-3 x16") == 2
    hosts = sum(int(t.split()[0]) for t in labels if t and t.endswith("GPU hosts"))
    assert hosts == 8


def test_a_large_fabric_is_drawn_by_pod():
    groups, hostvars = generate.clos(16384, 64, 1, platforms="mixed")[:2]
    result = plan.build_plan(groups, hostvars)
    labels = [t for _x, t in _texts(report.render_report(result)["fabric/topology.svg"])]
    assert any(label and label.endswith(" leaves") for label in labels)
    assert any(label and label.endswith(" super-spines") for label in labels)
    assert len(labels) < 200


def test_the_buffer_picture_states_the_rules_that_order_ecn_and_pause(example):
    result = plan.build_plan(*example)
    files = report.render_report(result)
    pictures = [k for k in files if k.startswith("fabric/buffer-")]
    assert sorted(pictures) == ["fabric/buffer-7060x6-64pe-eos-leaf.svg",
                                "fabric/buffer-7060x6-64pe-eos-spine.svg",
                                "fabric/buffer-sn5600-sonic-leaf.svg"]
    for key in pictures:
        texts = [t for _x, t in _texts(files[key])]
        x = dict((re.sub(r" [0-9.]+ [KM]iB$", "", t), xv) for xv, t in _texts(files[key])
                 if t and t[-3:] in ("KiB", "MiB"))
        # the rules the checks hold: Kmin below the incast pause point, Kmax below one PG's
        assert x["ECN Kmin"] < x["pause, incast"] and x["ECN Kmax"] < x["pause, one PG"]
        assert x["pause, incast"] < x["pause, all PGs"] < x["pause, one PG"] < x["shared pool"]
        assert x["xon"] < x["headroom (xoff)"]
        rules = [t for t in texts if t.startswith("ECN K") and " below the " in t]
        assert len(rules) == 2 and all(t.endswith(": holds") for t in rules), rules
        assert "below the incast pause point" in rules[0] and "ecn-before-pfc-incast" in rules[0]
        assert "below the one-PG pause point" in rules[1] and "(rule ecn-before-pfc)" in rules[1]
        assert not [t for t in texts if "before any pause point" in t]


def test_a_buffer_picture_names_the_switches_it_covers(example):
    files = report.render_report(plan.build_plan(*example))
    title = [t for _x, t in _texts(files["fabric/buffer-sn5600-sonic-leaf.svg"])][0]
    assert title.startswith("Buffer of sn5600-sonic-leaf: leaf1a, leaf1b (spectrum4, sonic")
    assert "the buffer of spine1, spine2 (2 switches)" in files["fabric/README.md"]


def test_a_leaf_with_another_carve_gets_its_own_buffer_picture(example):
    """A pinned headroom on one SN5600 leaf changes its carve: it is drawn on its own, named,
    and its pair partner keeps a picture of its own too; nothing claims both."""
    groups, hv = example
    hv["leaf1a"]["roce_link_overrides"] = {"Ethernet0": {"headroom_bytes": 400000}}
    files = report.render_report(plan.build_plan(groups, hv))
    pictures = sorted(k for k in files if k.startswith("fabric/buffer-sn5600"))
    assert pictures == ["fabric/buffer-sn5600-sonic-leaf-leaf1a.svg",
                        "fabric/buffer-sn5600-sonic-leaf-leaf1b.svg"]
    for key, name in zip(pictures, ("leaf1a", "leaf1b")):
        title = [t for _x, t in _texts(files[key])][0]
        assert title.startswith("Buffer of sn5600-sonic-leaf-%s: %s (" % (name, name))


def test_broadcom_pg_minimums_are_not_called_headroom(example):
    files = report.render_report(plan.build_plan(*example))
    spine = [t for _x, t in _texts(files["fabric/buffer-7060x6-64pe-eos-spine.svg"])]
    assert [t for t in spine if t.startswith("lossless PG minimums (not headroom) ")]
    assert [t for t in spine if t.startswith("shared headroom pool ")]
    # no carve segment called headroom: the minimums are not, the xoff is in the pool
    assert not [t for t in spine if re.match(r"lossless (PG )?headroom [0-9.]+ [KM]iB$", t)]
    leaf = [t for _x, t in _texts(files["fabric/buffer-sn5600-sonic-leaf.svg"])]
    assert [t for t in leaf if t.startswith("lossless PG headroom ")]


def _colours(svg_text):
    """{meaning: colours} of a picture: its legend swatches (class legend-<meaning>) and every
    element drawn in that meaning's colour."""
    root = ET.fromstring(svg_text)
    out = {}
    for el in root.iter():
        cls = el.get("class") or ""
        if cls.startswith("legend-"):
            out.setdefault(cls[len("legend-"):], set()).add(el.get("fill") or el.get("stroke"))
    return out


def test_one_colour_means_one_thing_in_every_picture(example):
    """Every legend swatch of every picture: a meaning has one colour, a colour one meaning
    (the Broadcom spine's shared headroom pool and the SONiC leaf's management pool were the
    same pink, by position in the carve)."""
    files = report.render_report(plan.build_plan(*example))
    colour_of, meaning_of = {}, {}
    for name, text in sorted(files.items()):
        if name.endswith(".svg"):
            for meaning, fills in _colours(text).items():
                colour_of.setdefault(meaning, set()).update(fills)
    for meaning, fills in colour_of.items():
        assert len(fills) == 1, (meaning, fills)
        meaning_of.setdefault(fills.pop(), []).append(meaning)
    assert all(len(m) == 1 for m in meaning_of.values()), meaning_of
    assert {"sonic", "eos", "ecn", "pause", "lossless_headroom", "pg_minimum",
            "shared_headroom_pool", "management_pool", "shared_pool"} <= set(colour_of)


def test_host_intent_is_rendered_offline(example):
    result = plan.build_plan(*example)
    files = host.render_host(result["devices"]["gpu1"])
    conf = files["hosts/gpu1/nccl.conf"].splitlines()
    # host-nic.md: RoCE DSCP 26 -> ToS 106 (DSCP << 2 | ECT(0)) through NCCL_IB_TC
    assert "NCCL_IB_TC=106" in conf
    assert not [line for line in conf if line.startswith("NCCL_IB_HCA=")]   # needs the host
    assert "net.ipv4.conf.all.rp_filter = 2" in files["hosts/gpu1/sysctl.conf"]
    assert "leaf_port: Ethernet0" in files["hosts/gpu1.yml"]
