"""The deploy backend registry (deploy/backends.py) against roles/switch_deploy: every backend
has its entry file and, on the shared split-mode FRR flow, its own file of every step that differs;
argument_specs offers exactly the registry's names; no task file compares a backend or platform
name to a string (adding a backend is one registry entry, and these tests name what it lacks)."""
import os
import re

import jinja2
import pytest
import yaml
from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.filter import deploy_backend as backend_filter
from ansible_collections.roce.fabric.plugins.filter import switch as switch_filters
from ansible_collections.roce.fabric.plugins.module_utils.deploy import backends, roll

from ansible_collections.roce.fabric.plugins.module_utils.hardware.platforms import (
    NAMES as PLATFORMS)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
ROLE = os.path.join(ROOT, "roles", "switch_deploy")
TASKS = os.path.join(ROLE, "tasks")
FLOW = "frr_flow.yml"
# An include of a backend's own step: file: "{{ switch_deploy_backend }}/<step>.yml".
STEP = re.compile(r"^\{\{\s*switch_deploy_backend\s*\}\}/(\w+)\.yml$")
# Keys whose value Ansible evaluates as a bare Jinja expression.
BARE = ("when", "that", "until", "changed_when", "failed_when")
NAMES = set(backends.NAMES) | set(PLATFORMS) | set(backends.DEFAULTS)


def load(path):
    with open(path) as handle:
        return yaml.safe_load(handle)


def task_files():
    """Every task file of the role, relative to tasks/."""
    out = []
    for top, _dirs, files in os.walk(TASKS):
        out += [os.path.relpath(os.path.join(top, f), TASKS) for f in files if f.endswith(".yml")]
    return sorted(out)


def tasks_of(value):
    """Every task dict of a task list, blocks opened."""
    for task in value or []:
        yield task
        for part in ("block", "rescue", "always"):
            yield from tasks_of(task.get(part))


def include_file(task):
    for key in ("ansible.builtin.include_tasks", "ansible.builtin.import_tasks"):
        if key in task:
            return task[key]["file"] if isinstance(task[key], dict) else task[key]
    return None


def flow_steps():
    """{step: [shared file that includes it]} over the role's shared (non-backend) files."""
    out = {}
    for rel in task_files():
        if os.sep in rel:
            continue
        for task in tasks_of(load(os.path.join(TASKS, rel))):
            match = STEP.match(str(include_file(task) or ""))
            if match:
                out.setdefault(match.group(1), []).append(rel)
    return out


def flow_backends():
    return [b for b in backends.BACKENDS.values() if b.frr_flow]


def test_every_backend_has_its_entry_file():
    wrong = ["%s: tasks = %s, main.yml includes %s.yml" % (b.name, b.tasks, b.name)
             for b in backends.BACKENDS.values() if b.tasks != b.name + ".yml"]
    missing = ["roles/switch_deploy/tasks/%s (backend %s)" % (b.tasks, b.name)
               for b in backends.BACKENDS.values() if not os.path.isfile(os.path.join(TASKS, b.tasks))]
    assert not wrong and not missing, wrong + missing
    main = [include_file(t) for t in tasks_of(load(os.path.join(TASKS, "main.yml")))]
    assert "{{ switch_deploy_backend }}.yml" in main, main


def test_a_backend_runs_the_frr_flow_exactly_when_the_registry_says_so():
    wrong = []
    for b in backends.BACKENDS.values():
        if not os.path.isfile(os.path.join(TASKS, b.tasks)):
            continue                    # test_every_backend_has_its_entry_file names it
        imports = [include_file(t) for t in tasks_of(load(os.path.join(TASKS, b.tasks)))]
        if (FLOW in imports) != b.frr_flow:
            wrong.append("%s (frr_flow %s) %s %s" % (
                b.tasks, b.frr_flow, "imports" if FLOW in imports else "does not import", FLOW))
    assert not wrong, wrong


def test_every_frr_flow_backend_has_every_step_file():
    steps = flow_steps()
    # the steps that differ between the FRR-flow backends (docs/deploy.md "Deploy backends")
    assert sorted(steps) == ["apply_db", "check_ports", "forget_checkpoint", "pending_db",
                             "rollback_db"], steps
    missing = ["roles/switch_deploy/tasks/%s/%s.yml (backend %s, included by %s)"
               % (b.name, step, b.name, ", ".join(steps[step]))
               for b in flow_backends() for step in sorted(steps)
               if not os.path.isfile(os.path.join(TASKS, b.name, step + ".yml"))]
    assert not missing, missing


def test_no_step_file_belongs_to_no_backend_or_no_step():
    steps, flow = flow_steps(), set(b.name for b in flow_backends())
    stray = [rel for rel in task_files() if os.sep in rel and (
        rel.split(os.sep)[0] not in flow or len(rel.split(os.sep)) != 2 or
        os.path.splitext(rel.split(os.sep)[1])[0] not in steps)]
    assert not stray, "task files of no FRR-flow backend or no step: %s" % stray


def test_a_step_registers_the_same_names_on_every_backend():
    # the shared flow reads one registered name per step, whatever the backend
    wrong = []
    for step in sorted(flow_steps()):
        files = [(b.name, os.path.join(TASKS, b.name, step + ".yml")) for b in flow_backends()]
        registers = dict((name, sorted(set(t["register"] for t in tasks_of(load(path))
                                           if "register" in t)))
                         for name, path in files if os.path.isfile(path))   # else missing
        if len(set(map(tuple, registers.values()))) > 1:
            wrong.append("%s: %s" % (step, registers))
    assert not wrong, wrong


def test_argument_specs_offer_the_registry_backends():
    spec = load(os.path.join(ROLE, "meta", "argument_specs.yml"))
    choices = spec["argument_specs"]["main"]["options"]["switch_deploy_backend"]["choices"]
    assert choices == list(backends.NAMES), (
        "argument_specs switch_deploy_backend choices %s, deploy/backends.py %s"
        % (choices, list(backends.NAMES)))


def test_every_platform_has_a_default_backend_that_deploys_it():
    assert sorted(backends.DEFAULTS) == sorted(PLATFORMS), (
        "platforms without a default deploy backend: %s; defaults of no platform: %s" % (
            sorted(set(PLATFORMS) - set(backends.DEFAULTS)),
            sorted(set(backends.DEFAULTS) - set(PLATFORMS))))
    for platform, name in backends.DEFAULTS.items():
        assert backends.backend(name).platform == platform, (platform, name)
    unknown = [(b.name, b.platform) for b in backends.BACKENDS.values()
               if b.platform not in PLATFORMS]
    assert not unknown, "backends of no platform: %s" % unknown


def _expressions(value, key=None):
    """Every Jinja source of a YAML value: bare expressions under BARE keys, templates else."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _expressions(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _expressions(v, key)
    elif isinstance(value, str):
        yield ("{{ %s }}" % value) if key in BARE else value


def _name_comparisons(source):
    """The backend/platform names a Jinja source holds as strings, and its comparisons of
    switch_deploy_backend or a .platform with anything."""
    tokens = list(jinja2.Environment().lexer.tokenize(source))
    out = []
    for i, tok in enumerate(tokens):
        if tok.type == "string" and tok.value in NAMES:
            out.append("the string %r" % tok.value)
        subject = tok.type == "name" and (tok.value == "switch_deploy_backend" or (
            tok.value == "platform" and i and tokens[i - 1].type == "dot"))
        near = tokens[max(i - 1, 0):i] + tokens[i + 1:i + 2]
        if subject and any(t.type in ("eq", "ne") or (t.type == "name" and t.value in (
                "in", "is")) for t in near):
            out.append("a comparison of %s" % tok.value)
    return out


def test_no_task_file_compares_a_backend_or_platform_name():
    found, files = [], task_files()
    assert "main.yml" in files and len(files) > len(backends.NAMES), files
    for rel in files:
        for source in _expressions(load(os.path.join(TASKS, rel))):
            if source.strip() in NAMES:
                found.append("%s: the value %r" % (rel, source.strip()))
            found += ["%s: %s in %s" % (rel, what, " ".join(source.split()))
                      for what in _name_comparisons(source)]
    assert not found, "name comparisons belong in deploy/backends.py: %s" % found


@pytest.mark.parametrize("source", [
    "when: switch_deploy_backend == 'sonic'",
    "x: \"{{ 'eos.yml' if switch_deploy_backend == 'eos' else 'sonic.yml' }}\"",
    "when: [\"'eos' in switch_deploy_backend\"]",
    "until: x | roce.fabric.port_problems(y, source='linux')",
    "when: switch_deploy_device.platform != other",
    "source: eos"])
def test_the_name_check_sees_a_comparison(source):
    data = yaml.safe_load(source)
    hits = [s for s in _expressions(data) if s.strip() in NAMES or _name_comparisons(s)]
    assert hits, source


def test_an_unknown_name_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError) as err:
        backends.backend("no-such-os")
    assert all(name in str(err.value) for name in backends.NAMES), err.value
    with pytest.raises(ValueError) as err:
        backends.backend(["sonic"])
    with pytest.raises(ValueError) as err:
        backends.default_for("no-such-os")
    assert all(name in str(err.value) for name in backends.DEFAULTS), err.value
    assert "switch_deploy_backend" in str(err.value)


def test_the_deploy_backend_filter_is_the_registry_default():
    assert backend_filter.FilterModule().filters() == {
        "deploy_backend": backend_filter.deploy_backend,
        "config_files": backend_filter.config_files}
    for platform, name in backends.DEFAULTS.items():
        assert backend_filter.deploy_backend(platform) == name
    with pytest.raises(AnsibleFilterError) as err:
        backend_filter.deploy_backend("no-such-os")
    assert str(err.value).startswith("roce.fabric.deploy_backend: no default deploy backend")
    defaults = load(os.path.join(ROLE, "defaults", "main.yml"))
    assert "roce.fabric.deploy_backend" in defaults["switch_deploy_backend"]


def test_config_files_are_the_renderers_and_refuse_what_is_not_a_switch():
    # the files the deployed-state record keeps are those the change plan reads back
    assert backend_filter.config_files({"name": "leaf1a", "platform": "sonic"}) == [
        "configs/leaf1a.json", "configs/leaf1a.bgpd.conf"]
    assert backend_filter.config_files({"name": "leaf2a", "platform": "eos"}) == [
        "configs/leaf2a.cfg"]
    assert backend_filter.config_files({"name": "leaf1a", "platform": "cumulus"}) == [
        "configs/leaf1a.yaml"]
    for bad in (None, {"name": "x", "platform": "junos"}):
        with pytest.raises(AnsibleFilterError) as err:
            backend_filter.config_files(bad)
        assert "a switch of the plan (switch_deploy_device) with a platform of cumulus, eos, " \
            "sonic" in str(err.value)


DEVICE = {"ports": [{"name": "Ethernet0", "up": True, "peer": "spine1", "mtu_bytes": 9216,
                     "speed_gbps": 400}]}


# What each parser reads when the switch reports no port at all.
NO_PORTS = {roll.ports_linux: "[]", roll.ports_sonic: "", roll.ports_eos: "{}",
            roll.ports_nvue: "{}"}


def test_port_problems_reads_each_backend_with_its_parser():
    assert [backends.BACKENDS[n].ports for n in ("linux", "sonic", "eos", "cumulus")] == [
        roll.ports_linux, roll.ports_sonic, roll.ports_eos, roll.ports_nvue]
    for b in backends.BACKENDS.values():
        assert switch_filters.port_problems(DEVICE, NO_PORTS[b.ports], source=b.name) == [
            "Ethernet0: not found"], b.name
    assert switch_filters.port_problems(DEVICE, "[]") == ["Ethernet0: not found"]   # linux


def test_port_problems_refuses_an_unknown_source_naming_every_backend():
    with pytest.raises(AnsibleFilterError) as err:
        switch_filters.port_problems(DEVICE, "", source="no-such-os")
    text = str(err.value)
    assert text.startswith("roce.fabric.port_problems: expected the switch's plan intent and "
                           "source " + backends.PORT_SOURCE + ", "), text
    missing = [name for name in backends.NAMES if name not in text]
    assert not missing, "port_problems' message lacks %s: %s" % (missing, text)
    with pytest.raises(AnsibleFilterError):
        switch_filters.port_problems([], "", source="linux")
