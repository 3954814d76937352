#!/usr/bin/env bash
# Checks the .deb packages in dist/ before they are published: each holds the
# binary for its architecture, the unit, the sysusers file and the default
# config; the one for this machine's architecture installs with apt (which
# resolves its Depends), its binary runs (`cantstop version`, `config check`)
# and its unit passes systemd-analyze verify. Writes dist/SHA256SUMS.
#   packaging/check-debs.sh         (after make deb; as root, on a machine or container it may
#                                    change: the native package stays installed)
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
debs=(dist/cantstop_*.deb)
[ ${#debs[@]} -gt 0 ] || { echo "check-debs: no dist/cantstop_*.deb: run make deb first" >&2; exit 1; }
native=$(dpkg --print-architecture)
for deb in "${debs[@]}"; do
  arch=$(dpkg-deb -f "$deb" Architecture)
  echo "check-debs: $deb ($arch)"
  list=$(dpkg-deb -c "$deb")
  for f in ./usr/bin/cantstop ./usr/lib/systemd/system/cantstop.service ./usr/lib/sysusers.d/cantstop.conf ./etc/cantstop/cantstop.conf; do
    grep -q " $f\$" <<<"$list" || { echo "check-debs: $deb lacks $f" >&2; exit 1; }
  done
  tmp=$(mktemp -d)
  dpkg-deb -x "$deb" "$tmp"
  want=$([ "$arch" = arm64 ] && echo AArch64 || echo X86-64)
  readelf -h "$tmp/usr/bin/cantstop" | grep -q "Machine:.*$want" || { echo "check-debs: $deb's binary is not $want" >&2; exit 1; }
  rm -rf "$tmp"
  if [ "$arch" = "$native" ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "./$deb"
    /usr/bin/cantstop version
    /usr/bin/cantstop config check /etc/cantstop/cantstop.conf
    if command -v systemd-analyze >/dev/null; then
      systemd-analyze verify /usr/lib/systemd/system/cantstop.service
    fi
  fi
done
(cd dist && sha256sum cantstop_*.deb > SHA256SUMS && cat SHA256SUMS)
