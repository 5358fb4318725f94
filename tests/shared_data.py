"""The data beside the checkout (../shared: sku_data, sonic-yang, running-configs): optional on
a fresh machine, where a test that reads it skips with one line, and required in CI
(.ci/run sets ROCE_REQUIRE_SONIC_YANG=1), where its absence fails the test."""
import os

import pytest


def need(path, what):
    """``path`` when it exists; else skip (fail where CI requires ../shared) naming ``what``."""
    if not os.path.exists(path):
        if os.environ.get("ROCE_REQUIRE_SONIC_YANG") == "1":
            pytest.fail("%s missing: required here (ROCE_REQUIRE_SONIC_YANG=1)" % path)
        pytest.skip("%s not found: %s" % (path, what))
    return path
