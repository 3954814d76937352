#!/usr/bin/env bash
# Cross-builds cantstop for arm64 (Raspberry Pi 4/5, Pi OS Bookworm 64-bit) on a
# Debian 12 amd64 machine. gocv needs cgo and arm64 OpenCV 4.6, which cannot be
# installed beside the amd64 one, so it builds against an arm64 sysroot made
# with debootstrap (about 1.2 GB, 240 MB of downloads, ~5 min the first time;
# later runs reuse it and take seconds). Idempotent. Run as root (or with sudo
# available) the first time.
#
#   scripts/cross-arm64.sh [OUTPUT]        default OUTPUT: bin/cantstop-arm64
#   scripts/cross-arm64.sh --sysroot-only  only make the sysroot
#   SYSROOT=/var/tmp/arm64-sysroot   where the sysroot lives
#   MIRROR=http://deb.debian.org/debian   default: the mirror of this machine's apt sources
#   VERSION, COMMIT                  stamped into the binary (default: git describe / rev-parse)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin/cantstop-arm64}
S=${SYSROOT:-/var/tmp/arm64-sysroot}
L=$S/usr/lib/aarch64-linux-gnu
cache=${SYSROOT_CACHE:-/var/tmp/arm64-sysroot-debs}
export PATH=$PATH:/usr/local/go/bin
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"

. scripts/mirror.sh

tools() {
  local need=()
  command -v debootstrap >/dev/null || need+=(debootstrap)
  command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
  command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
  command -v aarch64-linux-gnu-g++ >/dev/null || need+=(g++-aarch64-linux-gnu)
  command -v pkg-config >/dev/null || need+=(pkg-config)
  if [ ${#need[@]} -gt 0 ]; then
    echo "cross-arm64: installing ${need[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
  fi
}

# The marker names what the sysroot holds; an older sysroot of ours (without the
# protobuf and GStreamer headers the lean OpenCV needs) is made again.
marker=.cantstop-sysroot-2

sysroot() {
  [ -f "$S/$marker" ] && return 0
  local m=${MIRROR:-$(mirror)}
  echo "cross-arm64: making the arm64 sysroot in $S from $m (one time, ~5 min)" >&2
  if [ -n "$(ls -A "$S" 2>/dev/null)" ]; then
    # Only ever delete what an interrupted run of this script left.
    [ -d "$S/debootstrap" ] || [ -d "$S/var/cache/apt/archives" ] || [ -f "$S/.cantstop-sysroot" ] || {
      echo "cross-arm64: $S exists and is not a sysroot this script made: set SYSROOT to another folder" >&2; exit 1; }
    $sudo rm -rf "$S"
  fi
  $sudo mkdir -p "$S" "$cache"
  # --foreign only downloads and unpacks the base; OpenCV (and what the lean
  # OpenCV of scripts/opencv-lean.sh builds against) comes with --include.
  $sudo debootstrap --foreign --arch=arm64 --variant=minbase \
    --include=libopencv-dev,libprotobuf-dev,libgstreamer1.0-dev,libgstreamer-plugins-base1.0-dev,libjpeg-dev,libpng-dev,zlib1g-dev \
    --cache-dir="$cache" bookworm "$S" "$m" >&2
  # Unpack every downloaded package (plain dpkg -x would break the usr-merge links).
  local d
  for d in "$S"/var/cache/apt/archives/*.deb; do
    dpkg-deb --fsys-tarfile "$d" | $sudo tar -x --keep-directory-symlink -C "$S"
  done
  # update-alternatives never ran: without these two links the link step fails.
  $sudo ln -sfn blas/libblas.so.3 "$L/libblas.so.3"
  $sudo ln -sfn lapack/liblapack.so.3 "$L/liblapack.so.3"
  # Absolute symlinks would point into the host: make them relative.
  find "$S/usr/lib" -type l -lname '/*' | while read -r l; do
    $sudo ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$S$(readlink "$l")")" "$l"
  done
  [ -f "$L/pkgconfig/opencv4.pc" ] || { echo "cross-arm64: $L/pkgconfig/opencv4.pc missing: sysroot is incomplete, delete $S and retry" >&2; exit 1; }
  $sudo touch "$S/$marker"
}

tools
sysroot
[ "$out" = --sysroot-only ] && exit 0
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$(dirname "$out")"
CGO_ENABLED=1 GOOS=linux GOARCH=arm64 \
  CC="aarch64-linux-gnu-gcc --sysroot=$S" CXX="aarch64-linux-gnu-g++ --sysroot=$S" \
  PKG_CONFIG_SYSROOT_DIR=$S PKG_CONFIG_LIBDIR=$L/pkgconfig:$S/usr/share/pkgconfig \
  go build -trimpath -ldflags "-s -w -X main.version=$version -X main.commit=$commit" \
  -o "$out" ./cmd/cantstop
echo "cross-arm64: built $out" >&2
