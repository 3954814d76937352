#!/usr/bin/env bash
# Installs what a fresh Debian 12 / Raspberry Pi OS Bookworm machine lacks to
# build and test cantstop: OpenCV 4.6 (for gocv) and pkg-config. Idempotent.
set -euo pipefail
need=()
pkg-config --exists opencv4 2>/dev/null || need+=(libopencv-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v gcc >/dev/null || need+=(gcc g++)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then export PATH=$PATH:/usr/local/go/bin; fi
command -v go >/dev/null || { echo "deps: Go 1.23 or newer is needed: see README 'Installing Go'" >&2; exit 1; }
