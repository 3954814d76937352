#!/usr/bin/env bash
# Builds a lean, static OpenCV 4.6.0 for the appliance binary.
#
# Debian's libopencv-dev links gocv against 264 shared libraries (Qt, GTK,
# GDAL, FFmpeg, VTK...), whose loading alone costs ~65 MB of RSS. This builds
# the same OpenCV release from Debian's own source tarball with only what gocv's
# main package links (core imgproc imgcodecs videoio highgui video objdetect
# calib3d features2d flann dnn photo) and only the I/O the companion uses:
# JPEG/PNG/PNM files, V4L2 and GStreamer. No GUI backend, no FFmpeg, no GDAL.
# The result is static libraries plus an opencv4.pc that scripts/build-lean.sh
# turns into cgo flags. ~10 min on 2 cores the first time; idempotent.
#
#   scripts/opencv-lean.sh [amd64|arm64]    default: this machine's architecture
#   LEAN_DIR=.cache/opencv-lean             where sources, builds and installs live
#   SYSROOT=/var/tmp/arm64-sysroot          arm64 only: see scripts/cross-arm64.sh
#   MIRROR=http://deb.debian.org/debian     default: the mirror of this machine's apt sources
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:-$(dpkg --print-architecture)}
top=${LEAN_DIR:-$PWD/.cache/opencv-lean}
prefix=$top/$arch
src=$top/opencv-4.6.0
tarball=opencv_4.6.0+dfsg.orig.tar.xz
sha256=40a59ba7e5c18a43652de0a08733c9843a39bba619b1f3e26a5fac4a6f041423
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
. scripts/mirror.sh

[ -f "$prefix/.done" ] && { echo "opencv-lean: $prefix is built" >&2; exit 0; }

# Build tools and the libraries OpenCV links (for arm64, those come from the sysroot).
need=()
for p in cmake ninja-build protobuf-compiler pkg-config g++ curl xz-utils; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ "$arch" = "$(dpkg --print-architecture)" ]; then
  for p in libprotobuf-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libjpeg-dev libpng-dev zlib1g-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "opencv-lean: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

# The source: the same release as Debian's libopencv-dev, from Debian's mirror.
mkdir -p "$top"
if [ ! -f "$src/CMakeLists.txt" ]; then
  mirror=${MIRROR:-$(mirror)}
  if [ ! -f "$top/$tarball" ]; then
    echo "opencv-lean: downloading $tarball (74 MB) from $mirror" >&2
    curl -fsSL --retry 3 -o "$top/$tarball.part" "$mirror/pool/main/o/opencv/$tarball"
    mv "$top/$tarball.part" "$top/$tarball"
  fi
  echo "$sha256  $top/$tarball" | sha256sum -c --quiet - || {
    echo "opencv-lean: $top/$tarball has the wrong checksum: delete it and retry" >&2; exit 1; }
  tar -xf "$top/$tarball" -C "$top"
fi

cross=()
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  [ "$arch" = arm64 ] || { echo "opencv-lean: can cross-build only for arm64, not $arch" >&2; exit 1; }
  S=${SYSROOT:-/var/tmp/arm64-sysroot}
  [ -f "$S/usr/include/google/protobuf/message.h" ] && [ -d "$S/usr/include/gstreamer-1.0" ] || {
    echo "opencv-lean: $S lacks the arm64 protobuf or GStreamer headers: run scripts/cross-arm64.sh --sysroot-only" >&2; exit 1; }
  cross=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64
    -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++
    -DCMAKE_SYSROOT="$S" -DCMAKE_FIND_ROOT_PATH="$S"
    -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY
    -DPROTOBUF_PROTOC_EXECUTABLE=/usr/bin/protoc)
  export PKG_CONFIG_SYSROOT_DIR=$S
  export PKG_CONFIG_LIBDIR=$S/usr/lib/aarch64-linux-gnu/pkgconfig:$S/usr/share/pkgconfig
fi

build=$top/build-$arch
rm -rf "$build" "$prefix"
mkdir -p "$build"
echo "opencv-lean: configuring for $arch in $build" >&2
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" "${cross[@]}" \
  -DBUILD_SHARED_LIBS=OFF -DOPENCV_GENERATE_PKGCONFIG=ON \
  -DBUILD_LIST=core,imgproc,imgcodecs,videoio,highgui,video,objdetect,calib3d,features2d,flann,dnn,photo \
  -DBUILD_TESTS=OFF -DBUILD_PERF_TESTS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_DOCS=OFF -DBUILD_opencv_apps=OFF \
  -DBUILD_JAVA=OFF -DBUILD_opencv_python2=OFF -DBUILD_opencv_python3=OFF \
  -DWITH_GTK=OFF -DWITH_QT=OFF -DWITH_OPENGL=OFF -DWITH_VTK=OFF \
  -DWITH_FFMPEG=OFF -DWITH_GSTREAMER=ON -DWITH_V4L=ON -DWITH_1394=OFF \
  -DWITH_TIFF=OFF -DWITH_WEBP=OFF -DWITH_OPENEXR=OFF -DWITH_JASPER=OFF -DWITH_OPENJPEG=OFF -DWITH_GDAL=OFF \
  -DWITH_GDCM=OFF -DWITH_IMGCODEC_HDR=OFF -DWITH_IMGCODEC_SUNRASTER=OFF -DWITH_IMGCODEC_PFM=OFF \
  -DBUILD_JPEG=OFF -DBUILD_PNG=OFF -DBUILD_ZLIB=OFF \
  -DWITH_PROTOBUF=ON -DBUILD_PROTOBUF=OFF -DPROTOBUF_UPDATE_FILES=ON \
  -DWITH_QUIRC=OFF -DWITH_ADE=OFF -DWITH_IPP=OFF -DWITH_ITT=OFF -DWITH_OPENCL=OFF -DWITH_VA=OFF \
  -DWITH_VA_INTEL=OFF -DWITH_LAPACK=OFF -DWITH_EIGEN=OFF -DWITH_TBB=OFF -DWITH_OPENMP=OFF -DWITH_CUDA=OFF \
  -DWITH_CAROTENE=OFF -DWITH_OPENVINO=OFF -DWITH_FLATBUFFERS=OFF >"$build/cmake.log" 2>&1 || {
  tail -30 "$build/cmake.log" >&2; echo "opencv-lean: cmake failed, see $build/cmake.log" >&2; exit 1; }
echo "opencv-lean: building (about 10 min on 2 cores)" >&2
ninja -C "$build" install >"$build/build.log" 2>&1 || {
  tail -30 "$build/build.log" >&2; echo "opencv-lean: build failed, see $build/build.log" >&2; exit 1; }
touch "$prefix/.done"
echo "opencv-lean: installed in $prefix" >&2
