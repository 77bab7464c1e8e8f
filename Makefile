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

.PHONY: all build release test check fmt vet staticcheck bench fuzz fuzz-long rules-doc corpus clean

all: check test

## build: the nullius binary in ./bin
build:
	$(GO) build -o bin/nullius ./cmd/nullius

## release: a versioned binary for this machine's platform in ./dist, with
## its sha256: VERSION from the v* tag on HEAD (or VERSION=x.y.z), the commit
## stamped with -ldflags ('nullius version' prints both). cgo (tree-sitter)
## needs a C compiler for the target, so build on each platform you ship.
RELEASE_VERSION = $(or $(VERSION),$(patsubst v%,%,$(shell git describe --tags --exact-match --match 'v*' 2>/dev/null)))
RELEASE_COMMIT  = $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo +dirty)
RELEASE_NAME    = nullius-$(RELEASE_VERSION)-$(shell $(GO) env GOOS)-$(shell $(GO) env GOARCH)
release:
	@test -n "$(RELEASE_VERSION)" || { echo "make release: HEAD carries no v* tag; pass VERSION=x.y.z" >&2; exit 2; }
	@test -n "$(RELEASE_COMMIT)" || { echo "make release: not a git checkout: the commit cannot be stamped" >&2; exit 2; }
	@mkdir -p dist
	$(GO) build -trimpath -buildvcs=false -ldflags "-s -w -X main.buildVersion=$(RELEASE_VERSION) -X main.buildCommit=$(RELEASE_COMMIT)" -o dist/$(RELEASE_NAME) ./cmd/nullius
	cd dist && sha256sum $(RELEASE_NAME) > $(RELEASE_NAME).sha256
	dist/$(RELEASE_NAME) version

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
	rm -rf bin dist .bench
