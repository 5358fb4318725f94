"""Validate rendered switch configs: every SONiC config_db.json against SONiC's YANG models
(libyang), every EOS config parsed into its block hierarchy. Exit 1 on the first bad file.

usage: validate_rendered.py <rendered root> [--yang <models dir>]
(default models dir: $ROCE_SONIC_YANG_DIR, else ../shared/sonic-yang beside the checkout).
Without models the YANG check is skipped with one line, unless ROCE_REQUIRE_SONIC_YANG=1 (CI).
"""
import argparse
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, ".collections"))

from ansible_collections.roce.fabric.plugins.module_utils.inputs import eos_base  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (  # noqa: E402
    yang as sonic_yang)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--yang", default=os.environ.get(
        "ROCE_SONIC_YANG_DIR", os.path.join(os.path.dirname(ROOT), "shared", "sonic-yang")))
    args = parser.parse_args()
    sonic = sorted(glob.glob(os.path.join(args.root, "configs", "*.json")))
    eos = sorted(glob.glob(os.path.join(args.root, "configs", "*.cfg")))
    if not sonic and not eos:
        print("no rendered configs under %s" % args.root)
        return 1
    if sonic and not os.path.isdir(args.yang):
        if os.environ.get("ROCE_REQUIRE_SONIC_YANG") == "1":
            print("YANG  FAIL models not found at %s (required here)" % args.yang)
            return 1
        print("YANG  skip %d config_db.json: models not found at %s (set ROCE_SONIC_YANG_DIR "
              "to a SONiC image's yang-models)" % (len(sonic), args.yang))
        sonic = []
    validator = sonic_yang.Validator(args.yang) if sonic else None
    for path in sonic:
        with open(path) as handle:
            try:
                validator.validate(json.load(handle))
            except sonic_yang.YangError as exc:
                print("YANG  FAIL %s: %s" % (path, exc))
                return 1
        print("YANG  ok   %s" % os.path.basename(path))
    for path in eos:
        with open(path) as handle:
            try:
                blocks = eos_base.parse_blocks(handle.read())
            except ValueError as exc:
                print("EOS   FAIL %s: %s" % (path, exc))
                return 1
        print("EOS   ok   %s (%d top-level blocks)" % (os.path.basename(path), len(blocks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
