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
    # each leaf has 8 links to each spine (16 uplinks over 2 spines), 32 NICs per leaf pair
    assert labels.count("x8") == 8 and labels.count("32 NICs") == 2


def test_a_large_fabric_is_drawn_by_pod():
    groups, hostvars = generate.clos(16384, 64, 1, platforms="mixed")[:2]
    result = plan.build_plan(groups, hostvars)
    labels = [t for _x, t in _texts(report.render_report(result)["fabric/topology.svg"])]
    assert any(label and label.endswith(" leaves") for label in labels)
    assert any(label and label.endswith(" super-spines") for label in labels)
    assert len(labels) < 200


def test_the_buffer_picture_puts_ecn_before_every_pause_point(example):
    result = plan.build_plan(*example)
    files = report.render_report(result)
    pictures = [k for k in files if k.startswith("fabric/buffer-")]
    assert sorted(pictures) == ["fabric/buffer-7060x6-64pe-eos-leaf.svg",
                                "fabric/buffer-7060x6-64pe-eos-spine.svg",
                                "fabric/buffer-sn5600-sonic-leaf.svg"]
    for key in pictures:
        x = dict((re.sub(r" [0-9.]+ [KM]iB$", "", t), xv) for xv, t in _texts(files[key])
                 if t and t[-3:] in ("KiB", "MiB"))
        assert x["ECN Kmin"] < x["pause, incast"] < x["pause, one PG"] < x["shared pool"]
        assert x["xon"] < x["headroom (xoff)"]


def test_host_intent_is_rendered_offline(example):
    result = plan.build_plan(*example)
    files = host.render_host(result["devices"]["gpu1"])
    conf = files["hosts/gpu1/nccl.conf"].splitlines()
    # host-nic.md: RoCE DSCP 26 -> ToS 106 (DSCP << 2 | ECT(0)) through NCCL_IB_TC
    assert "NCCL_IB_TC=106" in conf
    assert not [line for line in conf if line.startswith("NCCL_IB_HCA=")]   # needs the host
    assert "net.ipv4.conf.all.rp_filter = 2" in files["hosts/gpu1/sysctl.conf"]
    assert "leaf_port: Ethernet0" in files["hosts/gpu1.yml"]
