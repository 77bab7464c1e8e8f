#!/usr/bin/env bash
# make bench: the whole binary's lint throughput against tree-sitter's
# parse alone on a large-file and a many-small-packages corpus (MB/s,
# ratio, one-core speed-up, allocations per byte, peak RSS), process start
# against an empty cgo binary (internal/benchcorpus/cmd/lintbench), then
# the Go micro-benchmarks of the hot paths and the memory bounds.
set -euo pipefail
mb=${1:-12}
runs=${BENCH_RUNS:-21}
cd "$(dirname "$0")/.."
mkdir -p .bench
go build -o .bench/nullius ./cmd/nullius
go build -o .bench/parseonly ./internal/benchcorpus/cmd/parseonly
go build -o .bench/emptycgo ./internal/benchcorpus/cmd/emptycgo

echo "== nullius lint against tree-sitter's parse alone, both corpora; process start (issue 15)"
go run ./internal/benchcorpus/cmd/lintbench -bin .bench -mb "$mb" -runs "$runs"

echo
echo "== Go benchmarks (parse + model, rules)"
go test -run '^$' -bench . -benchmem -benchtime 3x ./pyscan/ ./analyzers/ 2>/dev/null | grep -E '^(Benchmark|ok|PASS)' || true

echo
scripts/bench-memory.sh
