"""--check --diff text of rendered files: every change shown, long diffs summarised per table or
section with counts, nothing dropped."""
import copy
import json

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.render import diff
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import cli as eos
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import config_db as sonic
from ansible_collections.roce.fabric.plugins.module_utils.render.structured import (
    config_db_json)


def _db_text(groups, hostvars, name="leaf1a"):
    return config_db_json(sonic.config_db(plan.build_plan(groups, hostvars)["devices"][name]))


def test_a_change_past_line_1000_is_in_the_diff(example):
    text = _db_text(*example)
    lines = text.splitlines(True)
    assert len(lines) > 2000
    index = next(i for i in range(1000, len(lines)) if '"port": "' in lines[i])
    seeded = lines[index].replace('"port": "', '"port": "x')
    old = "".join(lines[:index] + [seeded] + lines[index + 1:])
    out = diff.file_diff("configs/leaf1a.json", old, text)
    assert "+" + lines[index] in out and "-" + seeded in out
    assert out.count("\n@@") + out.startswith("@@") <= 1 and lines[index - 1] in out  # context


def test_a_cable_change_moves_the_profile_on_every_affected_port(example):
    groups, hostvars = example
    before = _db_text(groups, hostvars)
    changed = copy.deepcopy(hostvars)
    changed["leaf1a"]["roce_fabric"] = dict(changed["leaf1a"]["roce_fabric"])
    for host in changed:
        changed[host]["roce_fabric"] = dict(changed[host]["roce_fabric"],
                                            fabric_link={"cable_m": 150})
    after = _db_text(groups, changed)
    out = diff.file_diff("configs/leaf1a.json", before, after)
    uplinks = [p for p in json.loads(after)["DEVICE_NEIGHBOR"]
               if json.loads(after)["DEVICE_NEIGHBOR"][p]["name"].startswith("spine")]
    assert len(uplinks) == 16
    for port in uplinks:        # every uplink's PG moves from the 40 m to the 300 m row
        assert '"%s|3"' % port in out or "BUFFER_PG: 0 added, 0 removed, 16 changed" in out
    assert "pg_lossless_400000_300m_profile" in out


def test_a_new_big_file_is_summarised_per_table_with_counts(example):
    text = _db_text(*example)
    out = diff.file_diff("configs/leaf1a.json", None, text)
    assert out.startswith("configs/leaf1a.json: new file, +%d -0 lines"
                          % len(text.splitlines()))
    tables = json.loads(text)
    for table, rows in tables.items():
        assert "  %s: %d added, 0 removed, 0 changed\n" % (table, len(rows)) in out
    assert len(out.splitlines()) < diff.MAX_DIFF_LINES


def test_an_eos_config_summary_names_its_sections(example):
    result = plan.build_plan(*example)
    text = eos.eos_config(result["devices"]["spine1"])
    out = diff.file_diff("configs/spine1.cfg", None, text)
    assert "hostname spine1" in out
    ports = len(result["devices"]["spine1"]["ports"])
    assert "  interface: %d added\n" % (ports + 1) in out       # Loopback0 and the ports
    assert "router bgp" in out


def test_a_short_diff_is_a_plain_unified_diff():
    out = diff.file_diff("docs/x.md", "a\nb\nc\n", "a\nB\nc\n", full=True)
    assert out.splitlines() == ["--- docs/x.md (current)", "+++ docs/x.md (rendered)",
                                "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"]


def test_a_derived_file_is_one_line_with_its_sections_and_rows():
    old = "# Doc\n\n## Ports\n\n| a | 1 |\n| b | 2 |\n\n## Buffer\n\nx 1\n"
    new = "# Doc\n\n## Ports\n\n| a | 5 |\n| b | 6 |\n\n## Buffer\n\nx 2\n"
    assert diff.file_diff("docs/leaf1a.md", old, new) == \
        "docs/leaf1a.md: 3 rows changed (+3 -3) in Ports (2), Buffer (1)\n"
    assert diff.file_diff("structured/s.yml", "a: 1\nb:\n  c: 1\n", "a: 1\nb:\n  c: 2\n") \
        == "structured/s.yml: 1 lines changed (+1 -1) in b (1)\n"
    assert diff.file_diff("fabric/x.csv", None, "h\n1\n") == "fabric/x.csv: new file, 2 lines\n"


def test_a_long_config_diff_is_shown_in_full_under_its_summary(example, monkeypatch):
    """Every changed config line shows, however long the diff: a summary heads it, never
    replaces it."""
    groups, hostvars = example
    before = _db_text(groups, hostvars)
    for host in hostvars:
        hostvars[host]["roce_fabric"] = dict(hostvars[host]["roce_fabric"],
                                             host_link={"cable_m": 100})
    after = _db_text(groups, hostvars)
    plain = "".join(diff.difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                              "configs/leaf1a.json (current)",
                                              "configs/leaf1a.json (rendered)", n=3))
    assert diff.file_diff("configs/leaf1a.json", before, after) == plain
    monkeypatch.setattr(diff, "MAX_DIFF_LINES", 20)
    out = diff.file_diff("configs/leaf1a.json", before, after)
    assert out.endswith(plain) and "  BUFFER_PG: 0 added, 0 removed, " in out
    assert "the whole diff follows" in out


def test_secrets_in_a_config_diff_are_redacted():
    old = "hostname leaf1\n!\nusername admin privilege 15 secret sha512 $6$abc$def\n"
    new = old.replace("$6$abc$def", "$6$xyz$uvw") + "snmp-server community s3cret ro\n"
    text = diff.file_diff("configs/leaf1.cfg", old, new)
    assert "$6$" not in text and "s3cret" not in text
    assert "+username admin privilege 15 secret sha512 <redacted>" in text
    assert "+snmp-server community <redacted> ro" in text
