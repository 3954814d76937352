#!/usr/bin/env bash
# Runs each fuzz target for a short time (default 10s; FUZZTIME=1m for longer),
# one target per go test invocation as go requires. Seed corpora come from the
# packages' testdata (f.Add in each target); a failing input is written to
# PKG/testdata/fuzz/FuzzX/ and replayed by the normal go test run from then on.
#   scripts/fuzz.sh [FuzzX ...]     default: all targets below
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin
# gocv finds OpenCV through the modules make setup installs (as the Makefile says).
export PKG_CONFIG_PATH=$PWD/scripts/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
fuzztime=${FUZZTIME:-10s}
# target package: the decoders that take bytes from outside the program.
targets=(
  "FuzzRead ./camera/imghdr/"      # image headers (every image read)
  "FuzzSplitter ./camera/mjpeg/"   # rpicam-vid's MJPEG stream
  "FuzzDecodeImage ./camera/"      # decoding (dir:, file:, dice read)
  "FuzzJournal ./companion/"       # the saved game
  "FuzzParse ./config/"            # cantstop.conf
  "FuzzParseProfile ./calibration/" # calibration.json
  "FuzzParseLearnt ./calibration/" # rig-examples.json, the dice learnt in play
  "FuzzLastDense ./dice/"          # face.onnx of a --model folder
  "FuzzParsePosition ./engine/"    # position notation
)
want=("$@")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  read -r name pkg <<<"$t"
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " =~ " $name " ]]; then continue; fi
  echo "fuzz: $name in $pkg for $fuzztime"
  # -parallel 2: the machine has 2 cores. -fuzzminimizetime: go minimises each new interesting input
  # for up to 60 s by default, counting no execs meanwhile and overrunning -fuzztime ("context deadline
  # exceeded"); a failing input is still minimised, for at most this long.
  for try in 1 2; do
    if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "${FUZZMINIMIZE:-2s}" \
      -parallel "${FUZZPARALLEL:-2}" "$pkg" 2>&1 | tee "$log"; then
      break
    fi
    # Go 1.26's fuzz coordinator can end a clean run with a bare "context deadline exceeded" when the
    # -fuzztime deadline races a busy worker (golang/go#75804, fixed in Go 1.27). A real finding always
    # writes "Failing input written to"; only the bare race is run once more, and only once.
    if [ "$try" = 2 ] || grep -q 'Failing input written\|panic:' "$log" || ! grep -q 'context deadline exceeded' "$log"; then
      exit 1
    fi
    echo "fuzz: $name ended on the -fuzztime race (golang/go#75804) with no failing input; running it again"
  done
done
