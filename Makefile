# cantstop — build, test and package the Can't Stop table companion.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
# gocv finds OpenCV through scripts/pkgconfig/opencv4.pc: only the modules it uses.
export PKG_CONFIG_PATH := $(CURDIR)/scripts/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
GO ?= go
BIN := bin/cantstop

.PHONY: setup deps build test bench vet clean

setup: deps build

deps:
	./scripts/deps.sh

build:
	$(GO) build -o $(BIN) ./cmd/cantstop

vet:
	$(GO) vet ./...

test: vet
	$(GO) test -count=1 ./...
	# Reading every photo (and every source, and a calibration) leaves no OpenCV Mat alive.
	$(GO) test -count=1 -tags matprofile -run 'LeaveNoMat|LeavesNoMat' ./camera/ ./dice/ ./dicebench/ ./calibration/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/

clean:
	rm -rf bin dist

# --- The appliance build: OpenCV linked statically with only what it uses.
.PHONY: lean lean-check

# bin/cantstop-lean: against the lean static OpenCV of scripts/opencv-lean.sh
# (built once into .cache/opencv-lean: ~10 min on 2 cores, 74 MB download).
# 29 shared libraries instead of 264, and about half the memory.
lean:
	./scripts/build-lean.sh bin/cantstop-lean

# The OpenCV packages' tests pass linked lean, and the lean build reads the
# testdata photos exactly as the default build does; prints the memory of both
# on the simulated table.
lean-check: lean build
	./scripts/build-lean.sh --test
	./scripts/lean-check.sh $(BIN) bin/cantstop-lean

# --- Raspberry Pi: arm64 cross build, qemu smoke test, .deb packages, unit check.
.PHONY: cross-arm64 smoke-arm64 deb verify-unit

# bin/cantstop-arm64, built against an arm64 sysroot in /var/tmp/arm64-sysroot
# (made on first use: ~5 min, 240 MB of downloads; seconds afterwards).
cross-arm64:
	./scripts/cross-arm64.sh bin/cantstop-arm64

# Runs the arm64 binary under qemu-aarch64-static; compares with the native build.
smoke-arm64: cross-arm64 build
	./scripts/qemu-smoke.sh bin/cantstop-arm64

# dist/cantstop_VERSION_amd64.deb and _arm64.deb (nfpm v2.45.2), both lean builds.
deb:
	./packaging/deb.sh

# systemd-analyze verify and security --offline (exposure <= 3.0) of the unit.
verify-unit: build
	./systemd/verify.sh $(BIN)

# --- Fuzzing: each decoder of outside bytes for FUZZTIME (default 10s) each.
.PHONY: fuzz

fuzz:
	./scripts/fuzz.sh

# --- The dice networks (dice/model): about six hours on 2 cores. Needs Debian's python3-torch,
# python3-opencv, python3-onnx and blender, and the shared photo sets beside this clone.
.PHONY: train
train:
	$(GO) run ./scripts/simframes -n 800 .cache/simframes
	test -s .cache/scenes-1/boxes.csv -a -s .cache/scenes-2/boxes.csv || $(MAKE) scenes
	test -s .cache/close-1/boxes.csv -a -s .cache/close-2/boxes.csv || $(MAKE) close-scenes
	/usr/bin/python3 scripts/dicenet/train.py --shared ../shared/dice-photos --extra .cache/simframes \
		--extra-det .cache/scenes-1 --extra-det .cache/scenes-2 --extra-face .cache/close-1 \
		--extra-face .cache/close-2 --out dice/model --work .cache/dicenet
	/usr/bin/python3 scripts/dicenet/parity.py

# The detector alone, trained again beside the shipped face network (read back from face.onnx by
# scripts/dicenet/unexport.py): about 16 minutes. The shipped detector was trained so.
.PHONY: train-detector
train-detector:
	$(GO) run ./scripts/simframes -n 800 .cache/simframes
	test -s .cache/scenes-1/boxes.csv -a -s .cache/scenes-2/boxes.csv || $(MAKE) scenes
	/usr/bin/python3 scripts/dicenet/unexport.py dice/model .cache/faces
	/usr/bin/python3 scripts/dicenet/train.py --shared ../shared/dice-photos --extra .cache/simframes \
		--extra-det .cache/scenes-1 --extra-det .cache/scenes-2 --faces .cache/faces --folds none \
		--out .cache/detector --work .cache/detector
	/usr/bin/python3 scripts/dicenet/export.py .cache/detector/final.pt dice/model --det-only
	/usr/bin/python3 scripts/dicenet/parity.py --weights .cache/detector/final.pt

# Rendered scenes both networks train on (scripts/dicenet/scenes.py, Debian's blender), one seed per core:
# about 21 minutes.
.PHONY: scenes
scenes:
	blender -b -P scripts/dicenet/scenes.py -- .cache/scenes-1 600 1 >.cache/scenes-1.log 2>&1 & \
	blender -b -P scripts/dicenet/scenes.py -- .cache/scenes-2 600 2 >.cache/scenes-2.log 2>&1; wait

# Close scenes for the face network alone (scenes.py close: near, glossy, translucent and marbled
# dice; train.py --extra-face), about 23 minutes.
.PHONY: close-scenes
close-scenes:
	blender -b -P scripts/dicenet/scenes.py -- .cache/close-1 550 3 close >.cache/close-1.log 2>&1 & \
	blender -b -P scripts/dicenet/scenes.py -- .cache/close-2 550 4 close >.cache/close-2.log 2>&1; wait
