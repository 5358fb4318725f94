#!/usr/bin/env bash
# CHANGELOG.rst with the next release's section generated from changelogs/fragments, without
# consuming them: antsibull-changelog releases a scratch copy of galaxy.yml and changelogs/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$root/galaxy.yml" "$root/changelogs" "$scratch/"
version=$(sed -n 's/^version: *//p' "$root/galaxy.yml")
(cd "$scratch" && PATH="$root/.venv/bin:$PATH" "$root/.venv/bin/antsibull-changelog" release --version "$version" \
  --date "$(date +%Y-%m-%d)")
cp "$scratch/CHANGELOG.rst" "$root/CHANGELOG.rst"
echo "CHANGELOG.rst: release $version from $(find "$root/changelogs/fragments" -name '*.yml' | wc -l) fragments"
