#!/usr/bin/env bash
# Installs what a fresh Debian 12 / Raspberry Pi OS Bookworm machine lacks to
# build and test cantstop: a C toolchain, pkg-config, the OpenCV 4.6 modules gocv
# uses (their -dev packages only, no recommends: scripts/pkgconfig/opencv4.pc
# names them, instead of libopencv-dev's contrib, VTK and Java) and, when no
# Go 1.23+ is found, the official Go release. Idempotent.
set -euo pipefail
GO_RELEASE=${GO_RELEASE:-go1.24.6}
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"

need=()
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v g++ >/dev/null || need+=(gcc g++)
# ml and stitching for their headers only: opencv2/opencv.hpp includes every module Debian built.
for m in core imgproc imgcodecs videoio highgui video objdetect calib3d features2d dnn flann photo ml stitching; do
  dpkg-query -W -f='${Status}' "libopencv-$m-dev" 2>/dev/null | grep -q 'ok installed' || need+=("libopencv-$m-dev")
done
# videotestsrc/videoconvert/appsink for GStreamer sources (and their tests).
dpkg-query -W -f='${Status}' gstreamer1.0-plugins-base 2>/dev/null | grep -q 'ok installed' || need+=(gstreamer1.0-plugins-base)
command -v curl >/dev/null || need+=(curl ca-certificates)
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

export PATH=$PATH:/usr/local/go/bin
go_ok() { command -v go >/dev/null && go version | awk '{split(substr($3,3),v,"."); exit !(v[1]>1 || v[2]>=23)}'; }
if ! go_ok; then
  # Debian's own Go is 1.19, too old for this module: use the official release.
  case "$(uname -m)" in x86_64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;; armv7l|armv6l) arch=armv6l ;; *)
    echo "deps: no Go 1.23+ and no release for $(uname -m): install Go by hand" >&2; exit 1 ;; esac
  echo "deps: installing $GO_RELEASE for linux-$arch into /usr/local/go"
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  curl -fsSL "https://go.dev/dl/$GO_RELEASE.linux-$arch.tar.gz" -o "$tmp/go.tgz" ||
    { echo "deps: download of $GO_RELEASE failed: check the network, or install Go 1.23+ by hand into /usr/local/go" >&2; exit 1; }
  $sudo rm -rf /usr/local/go && $sudo tar -C /usr/local -xzf "$tmp/go.tgz"
  echo "deps: add /usr/local/go/bin to your PATH (the Makefile already does)"
fi
go version
