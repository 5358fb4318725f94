"""The input gate: a corpus of malformed, hostile and misspelled inventories (fixtures/
bad_inventories.yml), each refused before anything is planned with one line naming host, field,
value and what is allowed; hostile strings in every free-text field of the schema; the clean
inventories pass."""
import copy
import os
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render
from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.errors import RoceInputError
from ansible_collections.roce.fabric.plugins.module_utils.inputs import names, schema
from lab_ports import lab_port_map

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(HERE, "..", "..", "fixtures", "bad_inventories.yml")) as _handle:
    CORPUS = yaml.safe_load(_handle)
# One refusal line: who (a host, a group with its file, or nothing for fabric-wide names), then
# "<field> = <value> is not valid: <what is allowed>".
LINE = re.compile(r"^((host|group) \S.*?: )?\S.* = .+ is not valid: .+$", re.S)


def _apply(case, groups, hv):
    for item in case.get("set", []):
        parts = [p for p in item["path"].split(".") if p]
        hosts = [h for h in hv if "roce_fabric" in hv[h]] if item["host"] == "fabric" \
            else [item["host"]]
        if item["host"] == "fabric":
            if not parts:
                for host in hosts:
                    hv[host]["roce_fabric"] = item["value"]
                continue
            parts = ["roce_fabric"] + parts
            hosts = hosts[:1]          # one shared object (conftest)
        for host in hosts:
            node = hv[host]
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = copy.deepcopy(item["value"])
    for item in case.get("delete", []):
        del hv[item["host"]][item["path"]]
    if "rename" in case:
        old, new = case["rename"]["from"], case["rename"]["to"]
        new = new.ljust(case["rename"].get("pad_to", 0), "x")
        hv[new] = hv.pop(old)
        for name, members in groups.items():
            if name != "_children":
                groups[name] = [new if m == old else m for m in members]
    for name, members in case.get("groups", {}).items():
        groups[name] = list(members)


def test_corpus_is_large_and_named():
    assert len(CORPUS) >= 60
    assert len(set(c["name"] for c in CORPUS)) == len(CORPUS)


@pytest.mark.parametrize("case", CORPUS, ids=[c["name"] for c in CORPUS])
def test_bad_inventory_is_refused_with_one_clear_line(example, case):
    groups, hv = example
    _apply(case, groups, hv)
    with pytest.raises(RoceInputError) as err:        # never any other exception
        plan.build_plan(groups, hv)
    lines = getattr(err.value, "lines", [err.value])
    text = str(err.value)
    assert "Traceback" not in text and len(text.splitlines()) >= len(lines) >= 1
    for line in lines:
        assert LINE.match(str(line)), str(line)
    want = case["expect"]
    hits = [line for line in lines if line.field == want["field"]
            and str(line.host or "").startswith(want["host"])
            and want["allowed"] in str(line)]
    assert hits, "no line for %s on %s with %r in:\n%s" % (
        want["field"], want["host"], want["allowed"], text)


def test_the_corpus_never_reaches_the_planner(example, monkeypatch):
    """Refused at the gate or the fabric model, before any lossless number is computed."""
    from ansible_collections.roce.fabric.plugins.module_utils.lossless import switch as lossless

    def boom(*args, **kwargs):
        raise AssertionError("planned a switch of a refused inventory")
    monkeypatch.setattr(lossless, "switch_lossless", boom)
    for case in CORPUS:
        groups, hv = copy.deepcopy(example)
        _apply(case, groups, hv)
        with pytest.raises(RoceInputError):
            plan.build_plan(groups, hv)


# --- hostile strings in every free-text field ------------------------------------------------
HOSTILE = ["\n", "\r", ";", "|", "`", "$(", "../", "\0", " ", "'", '"', "\t", "é", "\u202e",
           "{{", "&&", ">"]
# What no accepted value may hold: line breaks, command and template syntax, quotes.
LINE_BREAKERS = ["\n", "\r", "\0", "\t", ";", "|", "`", "$", "'", '"', "{", "&", ">", "<", "\\"]


def _free_text_fields():
    """(variable, path) of every string field with a name grammar or pattern in the schema,
    map keys included ('*' stands for a key, '#' for a list index)."""
    out = []

    def walk(var, path, sub):
        if not isinstance(sub, dict):
            return
        types = sub.get("type") if isinstance(sub.get("type"), list) else [sub.get("type")]
        if "string" in types and "pattern" in sub:
            out.append((var, tuple(path)))
        for key, child in (sub.get("properties") or {}).items():
            walk(var, path + [key], child)
        if isinstance(sub.get("additionalProperties"), dict):
            if "pattern" in sub.get("propertyNames", {}):
                out.append((var, tuple(path + ["<key>"])))
            walk(var, path + ["*"], sub["additionalProperties"])
        if isinstance(sub.get("items"), dict):
            walk(var, path + ["#"], sub["items"])
    for var, sub, _applies in schema.variables():
        walk(var, [], sub)
    return out


FIELDS = _free_text_fields()
SAMPLE = {"roce_link_overrides": "Ethernet8", "roce_nic_overrides": "0",
          "sysctls": "net.ipv4.conf.all.rp_filter", "dscp_to_tc": "26"}


def _place(hv, var, path, text):
    """Put ``text`` at ``path`` of variable ``var`` on a host that reads it."""
    host = {"roce_fabric": "spine1", "roce_nic_names": "gpu2",
            "roce_nic_overrides": "gpu2"}.get(var, "leaf1a" if var in schema.SWITCH_VARS
                                              else "gpu2")
    root = hv[host]
    if var == "roce_fabric":
        fabric = copy.deepcopy(root["roce_fabric"])
        for other in hv.values():
            if "roce_fabric" in other:
                other["roce_fabric"] = fabric
        root = fabric
    elif var == "roce_nic_names":
        root[var] = ["rdma%d" % i for i in range(8)]
        root[var][3] = text
        return host
    elif var == "roce_port_map":      # leaf1a becomes a switch of no model, with a given map
        root.pop("roce_model")
        root.update(roce_asic="spectrum4", roce_port_map=lab_port_map("sonic", 128))
        root[var][3][path[-1]] = text
        return host
    else:
        root = root.setdefault(var, {})
    for i, part in enumerate(path):
        last = i == len(path) - 1
        if part == "<key>":
            root[text] = {} if not path[:i] or path[i - 1] != "sysctls" else 1
            return host
        key = SAMPLE.get(path[i - 1] if i else var, "x") if part == "*" else part
        if part == "#":
            root.setdefault(path[i - 1], [])
        if last:
            root[key] = text
        else:
            root = root.setdefault(key, {})
    return host


@pytest.mark.parametrize("var,path", FIELDS, ids=[".".join((v,) + p) for v, p in FIELDS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_text_in_every_free_text_field_is_refused(example, var, path, data):
    groups, hv = copy.deepcopy(example)
    prefix = data.draw(st.text(alphabet="abcxyz019", max_size=8))
    evil = data.draw(st.sampled_from(HOSTILE))
    suffix = data.draw(st.text(max_size=12))
    text = prefix + evil + suffix
    if var == "roce_fabric" and path[0] == "ecmp":
        return                                   # hash fields are an enum (no free text)
    host = _place(hv, var, path, text)
    try:
        result = plan.build_plan(groups, hv)
    except RoceInputError as err:
        message = str(err)
        assert "Traceback" not in message and host in message
        return
    # Accepted: the field's grammar allows these characters (an alias may hold '/' and '.', a
    # sysctl value inner spaces). It must then be harmless on a config line, and no path.
    assert not [c for c in LINE_BREAKERS if c in text], text
    assert text.isascii()
    for dev in result["devices"].values():
        if dev["kind"] == "switch":
            for rel in render.render_switch(dev):
                assert text not in rel


@pytest.mark.parametrize("column", [0, 1, 2])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_text_in_a_port_config_ini_is_refused(example, column, data):
    """roce_port_map as port_config.ini text: whatever a name, lanes or alias column holds is
    refused naming the host, or read as SONiC reads the file (whitespace separates fields and
    lines), so that every port the plan takes is of the columns' grammars."""
    groups, hv = copy.deepcopy(example)
    text = data.draw(st.text(alphabet="abcxyz019", max_size=4)) + data.draw(
        st.sampled_from(HOSTILE)) + data.draw(st.text(max_size=12))
    rows = [["Ethernet%d" % (i * 8), "%d,%d" % (i * 8, i * 8 + 1), "etp%d" % (i + 1)]
            for i in range(128)]
    rows[5][column] = text
    hv["leaf1a"].pop("roce_model")
    hv["leaf1a"].update(roce_asic="spectrum4", roce_port_map="# name lanes alias\n" + "\n".join(
        " ".join(row) for row in rows))
    try:
        result = plan.build_plan(groups, hv)
    except RoceInputError as err:
        assert "Traceback" not in str(err) and "leaf1a" in str(err)
        return
    for port in result["devices"]["leaf1a"]["ports"]:
        for grammar, key in (("sonic_port", "name"), ("lanes", "lanes"), ("alias", "alias")):
            assert names.matches(grammar, port[key]), (port[key], text)


def test_every_free_text_field_is_covered():
    names = set(".".join((v,) + p) for v, p in FIELDS)
    for expected in ("roce_fabric.name", "roce_fabric.host.socket_ifname",
                     "roce_fabric.host.sysctls.<key>", "roce_fabric.host.sysctls.*",
                     "roce_nic_names.#", "roce_nic_overrides.*.name",
                     "roce_nic_overrides.*.leaf", "roce_nic_overrides.*.port",
                     "roce_link_overrides.<key>", "roce_port_map.#.name",
                     "roce_port_map.#.lanes", "roce_port_map.#.alias",
                     "roce_link_overrides.*.address",
                     "roce_asic_overrides.caveat", "roce_loopback"):
        assert expected in names, sorted(names)


@given(name=st.text(min_size=1, max_size=70))
@settings(max_examples=200, deadline=None)
def test_any_host_name_is_refused_or_a_safe_file_name(name):
    """Whatever an inventory host is called, it is refused or it is a plain file name."""
    from ansible_collections.roce.fabric.plugins.module_utils.inputs import names
    if names.matches("device", name):
        assert "/" not in name and not name.startswith(".") and name.isascii()
        assert not any(c in name for c in "\n\r\t ;|`$'\"\\\0")


def test_output_paths_stay_in_the_output_directory(tmp_path):
    from ansible_collections.roce.fabric.plugins.module_utils.inputs import names
    root = str(tmp_path)
    assert names.confined_path(root, "configs/leaf1a.json").startswith(root + os.sep)
    for rel in ("../x", "configs/../../x", "/etc/passwd"):
        with pytest.raises(RoceInputError):
            names.confined_path(root, rel)


def test_the_documented_schema_is_the_schema():
    """docs/fabric-and-checks.md carries the tables tools/schema-doc.py makes from the schema."""
    from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema_doc
    doc = os.path.join(HERE, "..", "..", "..", "..", "docs", "fabric-and-checks.md")
    with open(doc) as handle:
        text = handle.read()
    assert schema_doc.update(text) == text, "run make schema-doc"


def test_fabric_defaults_come_from_the_schema():
    from ansible_collections.roce.fabric.plugins.module_utils.model import fabric
    assert fabric.FABRIC_DEFAULTS == schema.fabric_defaults()
    assert fabric.FABRIC_DEFAULTS["qos"]["roce_dscp"] == 26           # host-nic.md §1.1
    assert fabric.FABRIC_DEFAULTS["pfc_watchdog"]["detection_ms"] == 200   # SONiC pfcwd


@pytest.mark.parametrize("key", ["Ethernet8\n", "Ethernet8 x", "Ethernet\t8", "../Ethernet8"])
def test_a_hostile_map_key_is_named_in_one_line(example, key):
    groups, hv = copy.deepcopy(example)
    hv["leaf1a"]["roce_link_overrides"] = {key: {"cable_m": 3}}
    with pytest.raises(RoceInputError) as err:
        plan.build_plan(groups, hv)
    message = str(err.value)
    assert "\n" not in message and "\t" not in message, message
    assert "leaf1a" in message and "roce_link_overrides." in message
