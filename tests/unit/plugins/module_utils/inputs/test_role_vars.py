"""The gate for the roles' own variables (inputs/role_vars.py): the issue's examples refused with
what is valid, misspellings with a did-you-mean, and the accept/refuse verdict equal to
Ansible's own argument spec validation (ArgumentSpecValidator, the independent reference) for
every option of every role over a corpus of values."""
import glob
import os

import pytest
import yaml
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.roce.fabric.plugins.module_utils.inputs import role_vars, validate

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *[".."] * 5))
SPECS, RUNTIME = role_vars.load()
BOOL_TEXT = "true or false (also yes/no, on/off, y/n, t/f, 1/0) (got a string)"


def _one(variables, host="leaf2a"):
    found = role_vars.check_vars(host, variables)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("name,value,allowed", [
    ("switch_deploy_allow_partial", "sometimes", BOOL_TEXT),
    ("switch_deploy_sonic_allow_buffer_recreate", "yes please", BOOL_TEXT),
    ("switch_deploy_eos_remove", {"banner motd": None}, "a list of strings (got a mapping)"),
    ("plan_return_plan", "sometimes",
     "one of auto, true, false, yes, no, on, off, True, False, 1, 0"),
    ("switch_outputs", ["configs", "config_db"],
     "a list of any of configs, structured, docs, anta"),
    ("nic_network_manager", "netplan", "one of auto, networkd, networkmanager, ifupdown, none"),
    ("verify_retries", "ten", "a whole number (got a string)"),
])
def test_issue_examples_are_refused_naming_what_is_valid(name, value, allowed):
    field, got, text, host = _one({name: value})
    assert (field, got, host) == (name, value, "leaf2a")
    role = SPECS[name][0]
    assert text == "%s; roce.fabric.%s declares it in roles/%s/meta/argument_specs.yml" % (
        allowed, role, role)


def test_misspelled_names_get_the_closest_known_variable():
    for typo, meant in (("switch_deploy_allow_parital", "switch_deploy_allow_partial"),
                        ("nic_irqbalance_bann", "nic_irqbalance_ban"),
                        ("report_output", "report_outputs"),
                        ("verify_delay", "verify_delay_s")):
        assert _one({typo: True})[2] == ("unknown variable: no roce.fabric role reads it; did "
                                         "you mean %s?" % meant)


def test_an_unknown_name_without_a_close_one_lists_its_roles_variables():
    text = _one({"plan_zzz_qqq": 1})[2]
    assert text == ("unknown variable: no roce.fabric role reads it (roce.fabric.plan reads "
                    "plan_return_plan, plan_show_report)")


def test_what_the_roles_set_and_other_prefixes_pass():
    # plan_result, switch_render: registered by the roles; ansible_*, other collections' names
    assert {"plan_result", "switch_render", "report_render", "verify_result"} <= RUNTIME
    assert role_vars.check_vars("h", {"plan_result": {}, "switch_render": 1, "roce_x": 1,
                                      "ansible_host": 5, "hostname": 1, "nics": 1}) == []


def test_good_values_pass_as_ansible_converts_them():
    good = {"switch_deploy_allow_partial": "yes", "switch_deploy_force": 0,
            "switch_deploy_eos_remove": "banner motd", "switch_deploy_port_retries": "30",
            "plan_return_plan": True, "plan_show_report": "False", "switch_outputs": ["configs"],
            "report_output_dir": "/tmp/x", "switch_deploy_backend": "eos"}
    assert role_vars.check_vars("h", good) == []


def test_hosts_of_one_group_are_one_line_with_a_count():
    bad = {"switch_deploy_allow_partial": "sometimes"}
    found = role_vars.check_hosts({"leaf2a": dict(bad), "leaf2b": dict(bad), "spine1": {}})
    assert [f[3] for f in found] == ["leaf2a", "leaf2b"]
    text = str(validate.RoceInputErrors(found))
    assert text.startswith("host leaf2a and 1 more host: switch_deploy_allow_partial = "
                           "'sometimes' is not valid: true or false")


def test_every_role_default_is_a_declared_variable_the_gate_accepts():
    """The one source of truth holds: a variable a role defaults is in its argument spec (the
    gate would refuse a user setting it otherwise), and each literal default passes."""
    for path in glob.glob(os.path.join(ROOT, "roles", "*", "defaults", "main.yml")):
        role = path.split(os.sep)[-3]
        with open(path) as handle:
            defaults = yaml.safe_load(handle) or {}
        for name, value in defaults.items():
            assert SPECS.get(name, (None,))[0] == role, (path, name)
            if not (isinstance(value, str) and "{{" in value):
                assert role_vars.accepts(SPECS[name][1], value), (name, value)


CORPUS = [True, False, None, "", "yes", "no", "t", "Y", " off ", "True", "False", "on", "sometimes", "yes please",
          "1", "0", "2", 0, 1, 2, 1.0, 1.5, "30", "3.0", "3.5", "auto", "eos", "dummy",
          "configs", "a,b", "configs,docs", "/tmp/x", "{\"a\": 1}", "a=1", "{broken",
          [], ["configs"], ["configs", "bogus"], ["a", 1], [True], [["x"]], {}, {"a": 1}]


def _ansible_accepts(name, spec, value):
    spec = dict((k, v) for k, v in spec.items() if k != "description")
    result = ArgumentSpecValidator({name: spec}).validate({name: value})
    return not result.error_messages


@pytest.mark.parametrize("name", sorted(SPECS))
def test_verdicts_equal_ansibles_argument_spec_validation(name):
    spec = SPECS[name][1]
    for value in CORPUS:
        assert role_vars.accepts(spec, value) == _ansible_accepts(name, spec, value), \
            (name, spec.get("type"), value)
