#!/usr/bin/env bash
# Runs every Go fuzz target in the module for the given time each.
set -euo pipefail
fuzztime=${1:-10s}
cd "$(dirname "$0")/.."
status=0
while IFS= read -r file; do
  pkg="./$(dirname "$file")"
  for target in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)' "$file" | awk '{print $2}'); do
    echo "== $pkg $target ($fuzztime)"
    if ! go test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s; then
      status=1
    fi
  done
done < <(grep -rlE '^func Fuzz' --include='*_test.go' . | sort)
exit $status
