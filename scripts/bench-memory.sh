#!/usr/bin/env bash
# make bench, memory part (issue 13): peak RSS of the nullius binary on
# generated inputs of 1, 10 and 50 MB (internal/benchinput; never checked
# in) for `validate match`, `validate survey` and `match pairs`, against
# the bound "10 x the input + a constant", the constant being the same
# command's peak RSS on an empty input; then the Go benchmarks of the
# parser and validators with -benchmem. Exits 1 when a run is over the
# bound.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .bench/inputs
go build -o .bench/nullius ./cmd/nullius
go build -o .bench/geninput ./internal/benchinput/cmd/geninput

# peak_kb CMD...: the peak RSS in KB of one run (its exit status ignored:
# validators exit 1 on findings).
peak_kb() {
  /usr/bin/time -f '%M' -o .bench/rss "$@" >/dev/null 2>&1 || true
  tail -n 1 .bench/rss
}

printf '{}\n' > .bench/inputs/empty.json
status=0
echo "== peak RSS, bound: 10 x input + the command's RSS on an empty input"
printf '%-16s %6s %10s %10s %8s\n' command input "peak RSS" constant "x input"
for spec in "validate match:match" "validate survey:survey" "match pairs --nodes:nodes"; do
  cmd=${spec%%:*}
  kind=${spec##*:}
  # shellcheck disable=SC2086
  base=$(peak_kb .bench/nullius $cmd .bench/inputs/empty.json)
  for mb in 1 10 50; do
    f=.bench/inputs/$kind-${mb}mb.json
    [ -f "$f" ] || .bench/geninput -kind "$kind" -mb "$mb" -out "$f"
    size=$(stat -c %s "$f")
    # shellcheck disable=SC2086
    peak=$(peak_kb .bench/nullius $cmd "$f")
    ratio=$(awk "BEGIN { printf \"%.1f\", ($peak - $base) * 1024 / $size }")
    verdict=ok
    if awk "BEGIN { exit !(($peak - $base) * 1024 > 10 * $size) }"; then verdict=OVER; status=1; fi
    printf '%-16s %5.1fM %8.1f MB %8.1f MB %7sx %s\n' "${cmd%% --*}" "$(awk "BEGIN { print $size / 1048576 }")" \
      "$(awk "BEGIN { print $peak / 1024 }")" "$(awk "BEGIN { print $base / 1024 }")" "$ratio" "$verdict"
  done
done

echo
echo "== Go benchmarks, -benchmem (B/op over the input size: the allocation ratio)"
go test -run '^$' -bench . -benchmem -benchtime 1x ./internal/jsonloc/ ./validators/match/ ./validators/prior/ ./pipeline/pairs/ 2>/dev/null |
  awk '/^Benchmark/ {
         mb = $1; sub(/.*\//, "", mb); sub(/MB.*/, "", mb)
         for (i = 1; i <= NF; i++) if ($(i+1) == "B/op") bop = $i
         printf "%-44s %s  (%.1f x input)\n", $0, "", bop / (mb * 1048576)
         next }
       /^(ok|FAIL)/ { print }'
exit $status
