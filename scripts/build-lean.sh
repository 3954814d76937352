#!/usr/bin/env bash
# Builds cantstop against the lean static OpenCV of scripts/opencv-lean.sh (made
# on first use), for the appliance: ~15 shared libraries instead of 264, and
# ~65 MB less memory. Same OpenCV release and the same reader as `make build`.
#
#   scripts/build-lean.sh OUTPUT [amd64|arm64]   default: this machine's architecture
#   scripts/build-lean.sh --test                 instead: the OpenCV packages' tests, linked lean
#   VERSION, COMMIT   stamped into the binary (default: git describe / rev-parse)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/build-lean.sh OUTPUT|--test [amd64|arm64]}
arch=${2:-$(dpkg --print-architecture)}
export PATH=$PATH:/usr/local/go/bin
top=${LEAN_DIR:-$PWD/.cache/opencv-lean}
prefix=$top/$arch

env=(CGO_ENABLED=1 GOOS=linux GOARCH="$arch")
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  S=${SYSROOT:-/var/tmp/arm64-sysroot}
  scripts/cross-arm64.sh --sysroot-only
  env+=(CC="aarch64-linux-gnu-gcc --sysroot=$S" CXX="aarch64-linux-gnu-g++ --sysroot=$S")
  export PKG_CONFIG_SYSROOT_DIR=$S
  export PKG_CONFIG_LIBDIR=$S/usr/lib/aarch64-linux-gnu/pkgconfig:$S/usr/share/pkgconfig
fi
LEAN_DIR=$top scripts/opencv-lean.sh "$arch"

# OpenCV's own .pc gives its modules, protobuf, libjpeg, libpng and zlib (the
# install prefix is ours, so the sysroot must not be prepended to it), but not
# GStreamer, which videoio links too.
pc=$prefix/lib/pkgconfig/opencv4.pc
cflags=$(PKG_CONFIG_SYSROOT_DIR= PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig pkg-config --cflags opencv4)
ldflags=$(PKG_CONFIG_SYSROOT_DIR= PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig pkg-config --static --libs-only-L --libs-only-l opencv4)
[ -n "$ldflags" ] || { echo "build-lean: $pc gave no link flags: delete $prefix and retry" >&2; exit 1; }
ldflags="$ldflags $(pkg-config --libs gstreamer-base-1.0 gstreamer-app-1.0 gstreamer-riff-1.0 gstreamer-pbutils-1.0 gstreamer-video-1.0 gstreamer-audio-1.0)"

# customenv: gocv takes its flags from CGO_CPPFLAGS/CGO_LDFLAGS instead of pkg-config.
# opencvlean: package camera refuses the formats the lean OpenCV does not decode (WebP, TIFF).
tags="customenv opencvlean"
if [ "$out" = --test ]; then
  env "${env[@]}" CGO_CPPFLAGS="$cflags" CGO_CXXFLAGS="--std=c++11" CGO_LDFLAGS="$ldflags" \
    go test -count=1 -tags "$tags" ./camera/... ./dice/... ./dicebench/... ./calibration/... ./companion/...
  exit
fi

version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$(dirname "$out")"
env "${env[@]}" CGO_CPPFLAGS="$cflags" CGO_CXXFLAGS="--std=c++11" CGO_LDFLAGS="$ldflags" \
  go build -tags "$tags" -trimpath -ldflags "-s -w -X main.version=$version -X main.commit=$commit" \
  -o "$out" ./cmd/cantstop
echo "build-lean: built $out ($arch, $(readelf -d "$out" | grep -c NEEDED) shared libraries linked directly)" >&2
