"""The two CONFIG_DBs the SONiC deploy tests patch between: the plan's (leaf1a of the golden
example) and a real running one from ../shared/running-configs (never copied here)."""
import json
import os

import pytest

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
