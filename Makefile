# nullius build, test and quality targets. cgo is required (tree-sitter):
# a C compiler (gcc or clang) must be on PATH.
export CGO_ENABLED := 1
GO        ?= go
STATICCHECK_VERSION := v0.8.2
GOBIN_DIR := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN_DIR)/staticcheck
FUZZTIME  ?= 10s
FUZZTIME_LONG ?= 3m
BENCH_MB  ?= 12

.PHONY: all build test check fmt vet staticcheck bench fuzz fuzz-long rules-doc corpus clean

all: check test

## build: the nullius binary in ./bin
build:
	$(GO) build -o bin/nullius ./cmd/nullius

## test: every unit, conformance, fuzz-seed and testscript test
test:
	$(GO) test -count=1 ./...

## check: gofmt, go vet and staticcheck must all be clean
check: fmt vet staticcheck

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./...

## bench: throughput (MB/s single- and all-core), per-package latency, memory
bench:
	@scripts/bench.sh $(BENCH_MB)

## fuzz: every fuzz target for FUZZTIME each (short; CI-friendly)
fuzz:
	@scripts/fuzz.sh $(FUZZTIME)

## fuzz-long: every fuzz target for minutes
fuzz-long:
	@scripts/fuzz.sh $(FUZZTIME_LONG)

## rules-doc: regenerate docs/rules.md from the rule registry
rules-doc:
	$(GO) run ./cmd/nullius rules --format markdown > docs/rules.md.tmp && mv docs/rules.md.tmp docs/rules.md

clean:
	rm -rf bin .bench
