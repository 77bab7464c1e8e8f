#!/usr/bin/env bash
# make bench, memory part (issue 13): peak RSS of the nullius binary on
# generated inputs (internal/benchinput; never checked in), against the
# bound "10 x the input + a constant", the constant being the same
# command's peak RSS on an empty input:
#   - realistic artifacts of 1, 10 and 50 MB for `validate match`,
#     `validate survey` and `match pairs --nodes`, and of 50 MB for
#     `validate matrix` and `validate ledger`, each also without whitespace
#     (the densest form a real artifact takes);
#   - crafted documents of 50 MB (benchinput.Crafted) made of the tiniest
#     values (arrays of zeros and of short strings, tiny and empty objects,
#     nesting up to the limit, millions of members, repeated keys) or of
#     elements that each make findings (broken panel seats, broken matrix
#     entries) through `validate match`, `validate survey`, `validate
#     matrix` and `match pairs --nodes`, which accept or refuse them.
# Then the Go benchmarks of the parser and validators with -benchmem.
# Exits 1 when a run is over the bound or a realistic artifact is refused
# as too dense.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .bench/inputs
go build -o .bench/nullius ./cmd/nullius
go build -o .bench/geninput ./internal/benchinput/cmd/geninput

# peak_kb CMD...: the peak RSS in KB of one run (its exit status ignored:
# validators exit 1 on findings); its output is left in .bench/out.
peak_kb() {
  /usr/bin/time -f '%M' -o .bench/rss "$@" >.bench/out 2>&1 || true
  tail -n 1 .bench/rss
}

printf '{}\n' > .bench/inputs/empty.json
declare -A base
status=0

# measure CMD KIND MB [-minify]: one run, printed as a row of the table.
measure() {
  local cmd=$1 kind=$2 mb=$3 minify=${4:-}
  local f=.bench/inputs/$kind${minify:+-min}-${mb}mb.json
  # shellcheck disable=SC2086
  [ -f "$f" ] || .bench/geninput -kind "$kind" $minify -mb "$mb" -out "$f"
  if [ -z "${base[$cmd]:-}" ]; then
    # shellcheck disable=SC2086
    base[$cmd]=$(peak_kb .bench/nullius $cmd .bench/inputs/empty.json)
  fi
  local size peak ratio verdict=ok
  size=$(stat -c %s "$f")
  # shellcheck disable=SC2086
  peak=$(peak_kb .bench/nullius $cmd "$f")
  ratio=$(awk "BEGIN { printf \"%.1f\", ($peak - ${base[$cmd]}) * 1024 / $size }")
  if awk "BEGIN { exit !(($peak - ${base[$cmd]}) * 1024 > 10 * $size) }"; then verdict=OVER; status=1; fi
  if grep -q 'document too dense' .bench/out; then
    verdict="$verdict, refused"
    if [ -n "${realistic:-}" ]; then verdict="REFUSED (realistic)"; status=1; fi
  fi
  printf '%-16s %-22s %6.1fM %8.1f MB %6.1f MB %6sx  %s\n' "${cmd%% --*}" "$kind${minify:+ (minified)}" \
    "$(awk "BEGIN { print $size / 1048576 }")" "$(awk "BEGIN { print $peak / 1024 }")" \
    "$(awk "BEGIN { print ${base[$cmd]} / 1024 }")" "$ratio" "$verdict"
}

echo "== peak RSS, bound: 10 x input + the command's RSS on an empty input (the constant)"
printf '%-16s %-22s %7s %11s %9s %7s\n' command input size "peak RSS" constant "x input"
realistic=1
for spec in "validate match:match" "validate survey:survey" "match pairs --nodes:nodes"; do
  for mb in 1 10 50; do measure "${spec%%:*}" "${spec##*:}" $mb; done
  measure "${spec%%:*}" "${spec##*:}" 50 -minify
done
for kind in matrix ledger; do
  measure "validate $kind" $kind 50
  measure "validate $kind" $kind 50 -minify
done
realistic=
for kind in $(.bench/geninput -list-crafted); do
  for cmd in "validate match" "validate survey" "validate matrix" "match pairs --nodes"; do measure "$cmd" "$kind" 50; done
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
