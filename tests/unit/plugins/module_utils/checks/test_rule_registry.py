"""The rule registry: one function per documented rule id, and the docs' rule table is the
registry's (tools/schema-doc.py writes it)."""
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.checks import registry, run
from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema_doc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))


def test_one_function_per_rule_id():
    assert sorted(registry.RULES) == sorted(run.RULE_IDS)
    checks = [r.check for r in registry.RULES.values()]
    assert len(set(checks)) == len(checks), "one function per rule id"
    for r in registry.RULES.values():
        assert r.severity in ("ERROR", "WARN", "ERROR / WARN"), r
        assert r.proves and "\n" not in r.proves, r


def test_a_rule_id_registers_once():
    with pytest.raises(ValueError):
        registry.rule("pfc-match", "ERROR", "again")(lambda fab, devices: [])


def test_the_docs_rule_table_is_the_registry():
    with open(os.path.join(ROOT, "docs", "fabric-and-checks.md")) as handle:
        text = handle.read()
    assert schema_doc.update(text, run.DOC_SECTIONS) == text, "run make schema-doc"
    for rule_id in run.RULE_IDS:
        assert "| `%s` |" % rule_id in text
