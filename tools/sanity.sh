#!/usr/bin/env bash
# Run ansible-test sanity on a copy of this checkout laid out as ansible_collections/roce/fabric
# (ansible-test insists on that path). Tracked and untracked-but-not-ignored files are copied, so
# uncommitted work is tested too. Usage: tools/sanity.sh [ansible-test sanity args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
# ansible-test keeps its pip bootstrap and per-test venvs below ~/.ansible/test: a home of its
# own inside the checkout keeps ~/.ansible untouched.
export HOME="$root/.ansible/test-home"
cache="$HOME/.ansible/test/cache"
dest="$root/.build/sanity/ansible_collections/roce/fabric"

# Offline pip bootstrap for ansible-test's own venvs (ansible-core 2.19 pins pip 24.2).
mkdir -p "$cache"
if ! ls "$cache"/pip-24.2-*.whl >/dev/null 2>&1; then
  "$venv/bin/pip" download -q --no-deps pip==24.2 -d "$cache"
fi
cp "$root/tools/get_pip_24_2.py" "$cache/get_pip_24_2.py"

rm -rf "$dest"
mkdir -p "$dest"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$dest")
cd "$dest"
git init -q && git add -A && git -c user.email=ci@invalid -c user.name=ci commit -qm snapshot
PATH="$venv/bin:$PATH" "$venv/bin/ansible-test" sanity --python 3.11 --color no "$@"
