"""What the SONiC deploy tests share: the two CONFIG_DBs they patch between - the plan's (leaf1a
of the golden example) and a real running one from ../shared/running-configs (never copied
here) - and the deploy contract's end state."""
import copy
import json
import os

import pytest

from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic as deploy_sonic

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "running-configs", "sonic",
                      "leaf1a-sn5600-running.json")


def intended():
    with open(os.path.join(ROOT, "tests", "golden", "example", "configs", "leaf1a.json")) as f:
        return json.load(f)


def realistic(what):
    """The real running CONFIG_DB; absent, the test skips saying ``what`` is skipped (fails
    where CI requires ../shared: ROCE_REQUIRE_SONIC_YANG=1)."""
    if not os.path.exists(SHARED):
        if os.environ.get("ROCE_REQUIRE_SONIC_YANG") == "1":
            raise AssertionError("%s missing: required here (ROCE_REQUIRE_SONIC_YANG=1)" % SHARED)
        pytest.skip("%s not found: %s skipped" % (SHARED, what))
    with open(SHARED) as handle:
        return json.load(handle)


def expected(running, want):
    """What the deploy contract says the switch ends with: in owned tables the plan's keys
    exactly as planned and every key the plan does not own as it runs; shared tables = running
    with the plan's keys and fields written over it."""
    out = copy.deepcopy(running)
    names = deploy_sonic.plan_names(want)
    for table, keys in want.items():
        if table in deploy_sonic.OWNED_TABLES and table in out:
            out[table] = dict((k, v) for k, v in out[table].items() if not
                              deploy_sonic.owned_key(table, k, want, names, running))
            out[table].update(copy.deepcopy(keys))
            continue
        if table not in out:
            out[table] = copy.deepcopy(keys)
            continue
        for key, fields in keys.items():
            out[table].setdefault(key, {}).update(fields)
    return out
