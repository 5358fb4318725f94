"""Only RoCE rides the lossless class, read off the rendered files (not the plan): on every
switch the DSCP map is written for all 64 DSCPs and only the RoCE DSCP the hosts mark with
reaches a PFC-enabled priority; every NIC's DSCP table does the same. Every bundled inventory
(rendered here), every golden scenario (its committed files, written by site.yml) and generated
fabrics of every platform mix.

The RoCE DSCP is the one the hosts' rendered settings mark RoCE with (roce_tos >> 2, RFC 3168:
the two low bits are ECN); the lossless priorities are the ones the rendered config enables PFC
on (SONiC PORT_QOS_MAP pfc_enable, EOS `priority-flow-control priority N no-drop`, Cumulus the
switch priorities of the PFC profiles its ports use, read with PyYAML)."""
import glob
import json
import os
import re

import pytest
import yaml

from ansible_collections.roce.fabric.plugins.module_utils import pipeline
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))
EOS_MAP = re.compile(r"^qos map dscp (\d+) to traffic-class (\d+)$")
EOS_NO_DROP = re.compile(r"^\s+priority-flow-control priority (\d+) no-drop$")


def _sonic(text):
    db = json.loads(text)
    maps = db["DSCP_TO_TC_MAP"]
    assert len(maps) == 1
    table = dict((int(d), int(tc)) for d, tc in next(iter(maps.values())).items())
    pfc = set(int(p) for row in db["PORT_QOS_MAP"].values() if "pfc_enable" in row
              for p in row["pfc_enable"].split(","))
    return table, pfc


def _eos(text):
    table, pfc = {}, set()
    for line in text.splitlines():
        m = EOS_MAP.match(line)
        if m:
            assert int(m.group(1)) not in table, line       # one line per DSCP
            table[int(m.group(1))] = int(m.group(2))
        m = EOS_NO_DROP.match(line)
        if m:
            pfc.add(int(m.group(1)))
    return table, pfc


def _cumulus(text):
    """NVUE startup.yaml: trust l3 and the DSCP -> switch priority map; PFC on the switch
    priorities of every PFC profile a port uses (YAML read by PyYAML, not the collection's
    reader)."""
    (op,) = yaml.safe_load(text)
    tree = op["set"]
    mapping = tree["qos"]["mapping"]["default-global"]
    assert mapping["trust"] == "l3"
    table = dict((int(d), int(v["switch-priority"])) for d, v in mapping["dscp"].items())
    used = set(port["qos"]["pfc"]["profile"] for port in tree["interface"].values()
               if "qos" in port)
    pfc = set(int(sp) for name in used for sp in tree["qos"]["pfc"][name]["switch-priority"])
    return table, pfc


def _nics(text):
    """(name, complete table, PFC priorities, RoCE DSCP) of each NIC of a host file: the
    table the nic module writes - dscp_prio, every other DSCP on dscp_default_prio."""
    host = yaml.safe_load(text)
    for nic in host["nic_settings"]:
        table = dict((d, nic["dscp_default_prio"]) for d in range(64))
        table.update((int(d), p) for d, p in nic["dscp_prio"].items())
        yield nic["name"], table, set(nic["pfc_priorities"]), nic["roce_tos"] >> 2


def check_files(files):
    """Problems of one fabric's rendered files: {path: text}."""
    roce = set()
    problems = []
    for path, text in sorted(files.items()):
        if path.startswith("hosts/") and path.endswith(".yml"):
            for name, table, pfc, dscp in _nics(text):
                roce.add(dscp)
                stray = sorted(d for d, p in table.items() if p in pfc and d != dscp)
                if stray or table[dscp] not in pfc:
                    problems.append("%s %s: DSCPs %s on lossless %s" % (path, name, stray, pfc))
    assert len(roce) == 1, roce         # one RoCE DSCP across the fabric's hosts
    dscp = roce.pop()
    switches = 0
    for path, text in sorted(files.items()):
        if path.startswith("configs/") and path.endswith((".json", ".cfg", ".yaml")):
            switches += 1
            reader = {".json": _sonic, ".cfg": _eos, ".yaml": _cumulus}[os.path.splitext(path)[1]]
            table, pfc = reader(text)
            if sorted(table) != list(range(64)):
                problems.append("%s: map lists %d of 64 DSCPs" % (path, len(table)))
            lossless = sorted(d for d, tc in table.items() if tc in pfc)
            if lossless != [dscp]:
                problems.append("%s: DSCPs %s on PFC priorities %s" % (path, lossless, pfc))
    assert switches
    return problems


def _read(root):
    out = {}
    for path in glob.glob(os.path.join(root, "**", "*"), recursive=True):
        if os.path.isfile(path) and path.endswith((".json", ".cfg", ".yml", ".yaml")):
            with open(path) as handle:
                out[os.path.relpath(path, root)] = handle.read()
    return out


GOLDEN = sorted(p for p in glob.glob(os.path.join(ROOT, "tests", "golden", "*", "intended")))


@pytest.mark.parametrize("root", GOLDEN + [os.path.join(ROOT, "tests", "golden", "example")],
                         ids=lambda p: os.path.relpath(p, ROOT))
def test_golden_files_carry_only_roce_on_the_lossless_class(root):
    assert check_files(_read(root)) == []


@pytest.mark.parametrize("inventory", ["example", "cluster-1024", "multi-pod"])
def test_bundled_inventories_render_only_roce_on_the_lossless_class(inventory_data, inventory):
    plan = pipeline.build_plan(*inventory_data(os.path.join(ROOT, "inventories", inventory,
                                                            "hosts.yml")))
    assert check_files(outputs.render_all(plan)) == []


@pytest.mark.parametrize("mix", generate.PLATFORM_MIXES)
def test_generated_fabrics_render_only_roce_on_the_lossless_class(mix):
    groups, hostvars = generate.clos(512, 64, 1, platforms=mix)[:2]
    assert check_files(outputs.render_all(pipeline.build_plan(groups, hostvars))) == []


def test_a_stray_dscp_is_found():
    """The reader fails on what the old renders carried: EOS with two DSCPs mapped (the other 62
    left to EOS's map), a NIC table that leaves DSCP 24 on priority 3."""
    plan = pipeline.build_plan(*generate.clos(512, 64, 1, platforms="mixed")[:2])
    files = outputs.render_all(plan)
    eos = next(p for p in files if p.endswith(".cfg"))
    files[eos] = "\n".join(line for line in files[eos].splitlines()
                           if not EOS_MAP.match(line) or line.split()[3] in ("26", "48"))
    host = next(p for p in files if p.startswith("hosts/") and p.endswith(".yml"))
    head, settings = files[host].split("nic_settings:")
    files[host] = head + "nic_settings:" + settings.replace("dscp_default_prio: 0",
                                                            "dscp_default_prio: 3", 1)
    problems = check_files(files)
    assert any(eos in p and "2 of 64" in p for p in problems), problems
    assert any(host in p and "24" in p for p in problems), problems
