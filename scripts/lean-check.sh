#!/usr/bin/env bash
# Checks that the lean build (scripts/build-lean.sh) reads dice exactly as the
# build against Debian's OpenCV does, and prints the memory of each running the
# simulated table.
#   scripts/lean-check.sh SYSTEM_BINARY LEAN_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
sys=${1:?usage: scripts/lean-check.sh SYSTEM_BINARY LEAN_BINARY}
lean=${2:?usage: scripts/lean-check.sh SYSTEM_BINARY LEAN_BINARY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sets=(dice/testdata/photos/nell-byler dice/testdata/photos/matteop65 dice/testdata/photos/tai-studio)
for b in "$sys" "$lean"; do
  # Timings differ run to run: drop every *_ms field before comparing.
  "$b" dice bench "${sets[@]}" --json | sed -E 's/"[a-z0-9_]*_ms": *[0-9.e+-]+,?//g' >"$tmp/$(basename "$b").json"
done
if ! cmp -s "$tmp/$(basename "$sys").json" "$tmp/$(basename "$lean").json"; then
  echo "lean-check: $lean reads the testdata photos differently from $sys:" >&2
  diff <(tr ',' '\n' <"$tmp/$(basename "$sys").json") <(tr ',' '\n' <"$tmp/$(basename "$lean").json") | head -20 >&2
  exit 1
fi
echo "lean-check: $lean reads the ${#sets[@]} testdata sets exactly as $sys"
for b in "$sys" "$lean"; do
  printf '%s: ' "$b"
  "$b" play --sim --auto --seed 4 --games 1 --stats 2>/dev/null | grep '^memory:'
done
# The service's own environment, read from its unit, learning the dice as it plays:
# the budget is 60 MB peak.
read -r -a unit_env < <(sed -n 's/^Environment=//p' systemd/cantstop.service)
printf '%s as the service runs it (%s): ' "$lean" "${unit_env[*]}"
env "${unit_env[@]}" "$lean" play --sim --auto --seed 4 --games 1 --stats --learn 2>/dev/null | grep '^memory:'
