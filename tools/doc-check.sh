#!/usr/bin/env bash
# Every plugin and role must render with ansible-doc (a missing or broken doc fails here).
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
check() {
  if ansible-doc "$@" >/dev/null 2>/tmp/roce-doc.err && ! grep -q "WARNING" /tmp/roce-doc.err; then
    echo "ok   ansible-doc $*"
  else
    echo "FAIL ansible-doc $*"; cat /tmp/roce-doc.err; fail=1
  fi
}
for doc in plugins/filter/*.yml; do check -t filter "roce.fabric.$(basename "$doc" .yml)"; done
for mod in plugins/modules/*.py; do [ -e "$mod" ] && check -t module "roce.fabric.$(basename "$mod" .py)"; done
for role in roles/*/; do check -t role "roce.fabric.$(basename "$role")"; done
exit $fail
