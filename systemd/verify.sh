#!/usr/bin/env bash
# Checks the systemd unit off-device: systemd-analyze verify (unknown keys,
# bad values, a missing ExecStart binary) and the hardening score of
# systemd-analyze security --offline, which must be 3.0 or lower.
#   systemd/verify.sh [BINARY]     default BINARY: bin/cantstop
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/cantstop}
max=${MAX_EXPOSURE:-3.0}
[ -x "$bin" ] || { echo "verify-unit: $bin missing: run make build first" >&2; exit 1; }
if ! command -v systemd-analyze >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq systemd >/dev/null
fi
root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
# A root holding the binary, the unit, its sysusers file and systemd's own
# units (sysinit.target & co., which the unit's default dependencies need).
mkdir -p "$root/usr/bin" "$root/usr/lib/systemd/system" "$root/usr/lib/sysusers.d" "$root/etc/cantstop"
cp -a /usr/lib/systemd/system/. "$root/usr/lib/systemd/system/"
install -m 0755 "$bin" "$root/usr/bin/cantstop"
install -m 0644 systemd/cantstop.service "$root/usr/lib/systemd/system/cantstop.service"
install -m 0644 systemd/cantstop.sysusers.conf "$root/usr/lib/sysusers.d/cantstop.conf"
install -m 0644 systemd/cantstop.conf "$root/etc/cantstop/cantstop.conf"

out=$(systemd-analyze verify --root="$root" cantstop.service 2>&1) || { echo "$out" >&2; echo "verify-unit: systemd-analyze verify failed" >&2; exit 1; }
if [ -n "$out" ]; then echo "$out" >&2; echo "verify-unit: systemd-analyze verify printed warnings" >&2; exit 1; fi
echo "verify-unit: systemd-analyze verify: OK"

sec=$(systemd-analyze security --offline=true --root="$root" cantstop.service 2>&1 || true)
line=$(grep -o 'Overall exposure level for cantstop.service: [0-9.]*' <<<"$sec" || true)
score=${line##* }
[ -n "$score" ] || { echo "$sec" >&2; echo "verify-unit: no exposure score" >&2; exit 1; }
echo "verify-unit: systemd-analyze security --offline: exposure $score (must be <= $max)"
if awk -v s="$score" -v m="$max" 'BEGIN{exit !(s > m)}'; then
  grep '✗' <<<"$sec" >&2 || true
  echo "verify-unit: exposure $score is above $max" >&2; exit 1
fi
