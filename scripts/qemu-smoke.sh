#!/usr/bin/env bash
# Smoke-tests the arm64 binary under qemu-aarch64-static with the sysroot's
# libraries (binfmt is not needed: qemu is called directly): version, dice
# read on a photo from dice/testdata/photos, moves on a position. With a native
# binary (NATIVE=bin/cantstop-amd64, or bin/cantstop when present) the
# outputs of dice read and moves must be identical to the native ones.
#   scripts/qemu-smoke.sh [BINARY]      default: bin/cantstop-arm64
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/cantstop-arm64}
S=${SYSROOT:-/var/tmp/arm64-sysroot}
[ -x "$bin" ] || { echo "smoke: $bin missing: run make cross-arm64" >&2; exit 1; }
[ -d "$S/usr/lib/aarch64-linux-gnu" ] || { echo "smoke: no arm64 sysroot at $S: run make cross-arm64" >&2; exit 1; }
command -v qemu-aarch64-static >/dev/null || {
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq qemu-user-static
}
native=${NATIVE:-}
[ -z "$native" ] && [ -x bin/cantstop ] && native=bin/cantstop
arm() { qemu-aarch64-static -L "$S" "$bin" "$@"; }
fail() { echo "smoke: FAIL: $*" >&2; exit 1; }

# A labelled photo of four dice (the companion's case) if there is one, else any photo.
photo="" label=""
for l in $(find dice/testdata/photos -name labels.csv | sort); do
  row=$(awk -F, 'NR > 1 && split($2, v, " ") == 4 {print; exit}' "$l")
  if [ -n "$row" ]; then photo="$(dirname "$l")/${row%%,*}" label=${row#*,}; break; fi
done
[ -n "$photo" ] || photo=$(find dice/testdata/photos -type f \( -iname '*.jpg' -o -iname '*.png' \) | sort | head -n 1)
[ -n "$photo" ] || fail "no photo under dice/testdata/photos"
position="2:0::6@1,10@1"
dice="2 4 3 5"

echo "== cantstop version (arm64 under qemu)"
out=$(arm version) || fail "version exited $?"
echo "$out"
grep -q 'arm64' <<<"$out" || fail "version does not say arm64"
grep -q 'opencv *4\.6' <<<"$out" || fail "version does not report OpenCV 4.6"

echo "== cantstop dice read $photo${label:+ (labelled: $label)}"
dread=$(arm dice read "$photo") || fail "dice read exited $?"
echo "$dread"

echo "== cantstop moves $position $dice"
moves=$(arm moves "$position" $dice) || fail "moves exited $?"
echo "$moves"
[ -n "$moves" ] || fail "moves printed nothing"

if [ -n "$native" ]; then
  [ "$("$native" dice read "$photo")" = "$dread" ] || fail "dice read differs from native $native"
  [ "$("$native" moves "$position" $dice)" = "$moves" ] || fail "moves differs from native $native"
  echo "== same output as native $native"
fi
echo "smoke: PASS"
