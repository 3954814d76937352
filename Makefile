# cantstop — build, test and package the Can't Stop table companion.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
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

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/

clean:
	rm -rf bin dist
