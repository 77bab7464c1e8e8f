#!/usr/bin/env bash
# make bench: throughput of the whole binary over a generated corpus
# (single-core and all-core MB/s), per-package latency with process start,
# peak memory, then the Go micro-benchmarks of the hot paths.
set -euo pipefail
mb=${1:-12}
cd "$(dirname "$0")/.."
mkdir -p .bench
go build -o .bench/nullius ./cmd/nullius
corpus=.bench/corpus-${mb}mb
if [ ! -d "$corpus" ]; then
  go run ./internal/benchcorpus/cmd/gencorpus -out "$corpus" -mb "$mb"
fi
bytes=$(find "$corpus" -name '*.py' -printf '%s\n' | awk '{s+=$1} END {print s}')
files=$(find "$corpus" -name '*.py' | wc -l)
echo "corpus: $files files, $bytes bytes ($corpus)"

calc() { awk "BEGIN { print $* }"; }

# run_timed LABEL CMD...: best wall time of 3 runs, and peak RSS of the last.
run_timed() {
  local label=$1; shift
  local best=""
  for _ in 1 2 3; do
    local t0 t1 dt
    t0=$(date +%s.%N)
    /usr/bin/time -f '%M' -o .bench/rss "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    dt=$(calc "$t1 - $t0")
    if [ -z "$best" ] || [ "$(calc "$dt < $best")" = 1 ]; then best=$dt; fi
  done
  local rss_kb; rss_kb=$(tail -n 1 .bench/rss)
  printf '%-28s %7.3f s  %7.2f MB/s  peak RSS %6.1f MB\n' "$label" "$best" \
    "$(calc "$bytes / $best / 1000000")" "$(calc "$rss_kb / 1024")"
}

echo
echo "== whole binary: nullius lint over the corpus (IR checks off: the corpus has no .gaia)"
run_timed "single core (GOMAXPROCS=1)" env GOMAXPROCS=1 .bench/nullius lint --workers 1 --format json "$corpus"
run_timed "all cores ($(nproc))"        .bench/nullius lint --format json "$corpus"

echo
echo "== per-package latency, process start included (mean of 50 runs)"
pkg=fixtures/lint/good
t0=$(date +%s.%N)
for _ in $(seq 50); do .bench/nullius lint "$pkg" >/dev/null 2>&1 || true; done
t1=$(date +%s.%N)
printf '%-28s %7.2f ms\n' "nullius lint $pkg" "$(calc "($t1 - $t0) * 1000 / 50")"

echo
echo "== Go benchmarks (parse + model, rules)"
go test -run '^$' -bench . -benchmem -benchtime 3x ./pyscan/ ./analyzers/ 2>/dev/null | grep -E '^(Benchmark|ok|PASS)' || true

echo
scripts/bench-memory.sh
