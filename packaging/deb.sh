#!/usr/bin/env bash
# Builds the .deb packages with nfpm v2.45.2 (later versions do not install
# from the module proxy): dist/cantstop_VERSION_amd64.deb from a native build
# and dist/cantstop_VERSION_arm64.deb from a cross build (scripts/cross-arm64.sh).
# Checks that Depends names every OpenCV library the binary
# links.
#   packaging/deb.sh                 both architectures
#   ARCHS=amd64 packaging/deb.sh     one
#   VERSION=1.2.0 packaging/deb.sh   package version (default: from git describe)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin
export PATH=$PATH:$(go env GOPATH)/bin
nfpm_version=v2.45.2
# nfpm --version says "dev" for a go install: ask the binary's module info.
if ! { command -v nfpm >/dev/null && go version -m "$(command -v nfpm)" | grep -Eq "mod[[:space:]]+github.com/goreleaser/nfpm/v2[[:space:]]+$nfpm_version"; }; then
  echo "deb: installing nfpm $nfpm_version" >&2
  go install "github.com/goreleaser/nfpm/v2/cmd/nfpm@$nfpm_version"
fi

desc=$(git describe --tags --always --dirty 2>/dev/null || true)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
# Debian versions start with a digit: v1.2.0 -> 1.2.0; no tag -> 0.1.0~gitSHA.
if [ -z "${VERSION:-}" ]; then
  if [[ $desc =~ ^v?[0-9]+\.[0-9]+ ]]; then
    VERSION=${desc#v}
    VERSION=${VERSION//-/.}   # v1.2.0-3-gabc1234 -> 1.2.0.3.gabc1234
  else
    VERSION=0.1.0~git${commit}
  fi
fi
export VERSION

# checkdeps fails when the binary links an OpenCV library whose package is
# not in nfpm.yaml's depends (readelf works for any architecture).
checkdeps() {
  local bin=$1 lib pkg missing=0
  for lib in $(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(libopencv_[a-z0-9]*\)\.so\.406\].*/\1/p'); do
    pkg="libopencv-${lib#libopencv_}406"
    if ! grep -q "^  - $pkg " packaging/nfpm.yaml; then
      echo "deb: $bin links $lib.so.406 but packaging/nfpm.yaml does not depend on $pkg" >&2
      missing=1
    fi
  done
  return $missing
}

mkdir -p dist/stage
for arch in ${ARCHS:-amd64 arm64}; do
  case $arch in
  amd64)
    bin=bin/cantstop-amd64
    go build -trimpath -ldflags "-s -w -X main.version=$VERSION -X main.commit=$commit" -o "$bin" ./cmd/cantstop
    machine="X86-64" ;;
  arm64)
    bin=bin/cantstop-arm64
    if [ "$(uname -m)" = aarch64 ]; then # on the Pi itself: a native build
      go build -trimpath -ldflags "-s -w -X main.version=$VERSION -X main.commit=$commit" -o "$bin" ./cmd/cantstop
    else # cross-built against the arm64 sysroot (made once, ~5 min; seconds after)
      VERSION=$VERSION COMMIT=$commit scripts/cross-arm64.sh "$bin"
    fi
    machine="AArch64" ;;
  *) echo "deb: unknown arch $arch" >&2; exit 1 ;;
  esac
  readelf -h "$bin" | grep -q "Machine:.*$machine" || { echo "deb: $bin is not an $arch binary" >&2; exit 1; }
  checkdeps "$bin"
  install -m 0755 "$bin" dist/stage/cantstop
  GOARCH=$arch nfpm package --config packaging/nfpm.yaml --packager deb --target dist/
done
rm -rf dist/stage
ls -l dist/*.deb
