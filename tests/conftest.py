"""Make ``ansible_collections.roce.fabric`` importable when pytest runs from a plain checkout.

ansible-test puts the collection on sys.path itself; a checkout gets a symlink farm in
.collections/ (git-ignored), the same one ansible.cfg points Ansible at.
"""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.basename(os.path.dirname(os.path.dirname(ROOT))) != "ansible_collections":
    farm = os.path.join(ROOT, ".collections")
    link = os.path.join(farm, "ansible_collections", "roce", "fabric")
    if not os.path.lexists(link):
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.join("..", "..", ".."), link)
    sys.path.insert(0, farm)


# SONiC YANG models: the image's own (ROCE_SONIC_YANG_DIR), else ../shared/sonic-yang beside the
# checkout. CI requires them (ROCE_REQUIRE_SONIC_YANG=1, .ci/run); elsewhere their tests skip.
YANG_DIR = os.environ.get("ROCE_SONIC_YANG_DIR",
                          os.path.join(os.path.dirname(ROOT), "shared", "sonic-yang"))
YANG_REQUIRED = os.environ.get("ROCE_REQUIRE_SONIC_YANG") == "1"
YANG_MISSING = ("SONiC YANG models not found at %s: YANG tests skipped (point "
                "ROCE_SONIC_YANG_DIR at a SONiC image's yang-models to run them)" % YANG_DIR)


# Other data beside the checkout (../shared) that tests read when it is there and CI requires.
SHARED_DATA = {
    "running-configs": "the deploy tests on real EOS and SONiC running configs",
    "sku_data": "the vendors' port maps and pg_profile_lookup.ini tables",
}


def pytest_terminal_summary(terminalreporter):
    if not os.path.isdir(YANG_DIR):
        terminalreporter.write_line(YANG_MISSING)
    shared = os.path.join(os.path.dirname(ROOT), "shared")
    for name, what in SHARED_DATA.items():
        if not os.path.isdir(os.path.join(shared, name)):
            terminalreporter.write_line("%s not found: %s skipped (required in CI)"
                                        % (os.path.join(shared, name), what))


# The modules that build network-namespace labs (molecule/fabric/lab.py, ip netns): one lab at a
# time per checkout (ROCE_LAB_ID names, bridges and the 198.19.<id> management subnet). They carry
# the mark netns_lab: make unit runs every other test on every CPU (pytest-xdist, -m "not
# netns_lab"), then these one after another. (xdist's loadgroup cannot keep them in one worker
# under pytest 9: it renames item._nodeid, which pytest 9 no longer reads.)
NETNS_LABS = ("test_aggregate_frr", "test_bfd_frr", "test_failures_frr", "test_nic_netns",
              "test_rolls_by_class", "test_three_tier_frr")


def pytest_configure(config):
    config.addinivalue_line("markers", "netns_lab: builds a network-namespace lab (one at a time)")


def pytest_itemcollected(item):
    module = getattr(item, "module", None)
    name = module.__name__.rsplit(".", 1)[-1] if module else ""
    if name in NETNS_LABS or (module is not None and hasattr(module, "frr_lab")):
        item.add_marker(pytest.mark.netns_lab)


_VALIDATOR = []


@pytest.fixture
def validator():
    """SONiC YANG validator over YANG_DIR; skipped where there are no models, unless
    ROCE_REQUIRE_SONIC_YANG=1 (CI), where their absence fails."""
    if not os.path.isdir(YANG_DIR):
        if YANG_REQUIRED:
            pytest.fail(YANG_MISSING.replace("YANG tests skipped", "required here"))
        pytest.skip(YANG_MISSING)
    if not _VALIDATOR:
        from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
            yang as sonic_yang)
        _VALIDATOR.append(sonic_yang.Validator(YANG_DIR))
    return _VALIDATOR[0]


def load_inventory(path):
    """(groups, hostvars) of an inventory as plain data, through ``ansible-inventory --list``:
    groups flattened over their children, ``_children`` the group tree, only roce_* variables."""
    import json
    import subprocess

    out = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-inventory"),
                          "--list", "-i", path], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    inv = json.loads(out)

    def members(group):
        node = inv.get(group, {})
        found = list(node.get("hosts", []))
        for child in node.get("children", []):
            found += members(child)
        return found
    groups = dict((g, members(g)) for g in inv if g != "_meta")
    groups["_children"] = dict((g, inv[g].get("children", [])) for g in inv if g != "_meta")
    hostvars = dict((h, dict((k, v) for k, v in hv.items() if k.startswith("roce_")))
                    for h, hv in inv["_meta"]["hostvars"].items())
    # group_vars/all gives every host the same roce_fabric: one object here, so a test that
    # changes it on one host changes it everywhere, as editing group_vars/all would.
    shared = next((hv["roce_fabric"] for hv in hostvars.values() if "roce_fabric" in hv), None)
    for hv in hostvars.values():
        if hv.get("roce_fabric") == shared:
            hv["roce_fabric"] = shared
    return groups, hostvars


@pytest.fixture(name="inventory_data")
def inventory_data_fixture():
    """Factory: inventory_data(path) -> (groups, hostvars)."""
    return load_inventory


# Property tests explore new examples on developer machines; in CI (CI=true) they replay a fixed
# sequence so a landing never depends on the luck of the draw.
try:
    from hypothesis import settings as _hypothesis_settings

    _hypothesis_settings.register_profile("ci", derandomize=True, deadline=None)
    if os.environ.get("CI"):
        _hypothesis_settings.load_profile("ci")
except ImportError:   # ansible-test units venvs may lack hypothesis
    pass


def unproven_defaults(violations):
    """The findings every fabric with EOS switches carries: EOS renders no `ip load-sharing`
    line (no primary source for it, hardware/capabilities.py), so hash-entropy and
    hash-polarization cannot credit its default hash fields and seed (WARN)."""
    return [v for v in violations if v["severity"] == "WARN" and (
        (v["rule"], v["location"]) in (("hash-entropy", "ecmp hash"),
                                       ("hash-polarization", "ecmp seed default")))]


def _proven(violations):
    unproven = unproven_defaults(violations)
    return [v for v in violations if v not in unproven]


@pytest.fixture(name="proven")
def proven_fixture():
    """proven(violations): the findings but those of unproven_defaults()."""
    return _proven
