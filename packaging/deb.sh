#!/usr/bin/env bash
# Builds the .deb packages with nfpm v2.45.2 (later versions do not install
# from the module proxy): dist/cantstop_VERSION_amd64.deb and _arm64.deb, each
# with a binary linked against the lean static OpenCV (scripts/build-lean.sh;
# arm64 is cross-built unless this is an arm64 machine). Checks that Depends
# names the package of every shared library the binary links.
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

# checkdeps fails when the binary links a shared library whose package is not
# in nfpm.yaml's depends (readelf works for any architecture; Debian names the
# packages alike on amd64 and arm64, so this machine's dpkg can tell).
checkdeps() {
  local bin=$1 so pkg missing=0 ma
  ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
  for so in $(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
    case $so in ld-linux-*) continue ;; esac # the loader, part of libc6
    pkg=$({ dpkg -S "/usr/lib/$ma/$so" "/lib/$ma/$so" 2>/dev/null || true; } | head -1 | cut -d: -f1)
    if [ -z "$pkg" ]; then
      echo "deb: no installed package has $so, which $bin links: install it, then run again" >&2
      missing=1
    elif ! grep -qFx "  - $pkg" packaging/nfpm.yaml && ! grep -qF "  - $pkg (" packaging/nfpm.yaml; then
      echo "deb: $bin links $so but packaging/nfpm.yaml does not depend on $pkg" >&2
      missing=1
    fi
  done
  return $missing
}

mkdir -p dist/stage
for arch in ${ARCHS:-amd64 arm64}; do
  case $arch in
  amd64) machine="X86-64" ;;
  arm64) machine="AArch64" ;;
  *) echo "deb: unknown arch $arch" >&2; exit 1 ;;
  esac
  # The lean static OpenCV (scripts/opencv-lean.sh): made once per architecture,
  # ~10 min natively, cross-built for arm64 against the sysroot of
  # scripts/cross-arm64.sh; seconds afterwards.
  bin=bin/cantstop-$arch
  VERSION=$VERSION COMMIT=$commit scripts/build-lean.sh "$bin" "$arch"
  readelf -h "$bin" | grep -q "Machine:.*$machine" || { echo "deb: $bin is not an $arch binary" >&2; exit 1; }
  checkdeps "$bin"
  install -m 0755 "$bin" dist/stage/cantstop
  GOARCH=$arch nfpm package --config packaging/nfpm.yaml --packager deb --target dist/
done
rm -rf dist/stage
ls -l dist/*.deb
