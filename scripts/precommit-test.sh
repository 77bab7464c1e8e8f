#!/usr/bin/env bash
# End-to-end test of .pre-commit-hooks.yaml: pre-commit (Debian's package)
# runs the `nullius-lint` system hook on a sample research repository; the
# hook passes a clean package and blocks a commit that adds an off-grade
# infer. Exit status 0 only if both happen. It takes the route the README
# shows: `repo:` a checkout of nullius, `rev:` a commit SHA of it (no release
# is tagged), nullius built from the checkout and on PATH.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
export CGO_ENABLED=1

if ! command -v pre-commit >/dev/null 2>&1; then
  echo "== installing pre-commit (apt)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit >/dev/null
  fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
(cd "$repo" && go build -o "$work/bin/nullius" ./cmd/nullius)
export PATH="$work/bin:$PATH"
export PRE_COMMIT_HOME="$work/pre-commit-home"
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.invalid GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.invalid

# The hook definitions must come from a commit: use the checkout's HEAD when
# .pre-commit-hooks.yaml is committed, else a throwaway copy.
hooks="$repo"
if ! git -C "$repo" diff --quiet HEAD -- .pre-commit-hooks.yaml 2>/dev/null; then
  hooks="$work/hooks-repo"
  mkdir -p "$hooks" && cp "$repo/.pre-commit-hooks.yaml" "$hooks/"
  git -C "$hooks" init -q && git -C "$hooks" add . && git -C "$hooks" commit -qm hooks
fi
rev="$(git -C "$hooks" rev-parse HEAD)"

sample="$work/research"
mkdir -p "$sample/.nullius" "$sample/ideas"
cp -r "$repo/fixtures/demo/ideas/sterile-neutrino-gaia" "$sample/ideas/"
cd "$sample"
git init -q
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: nullius-lint
YAML
git add -A && git commit -qm "clean package"

echo "== pre-commit try-repo on a clean package (must pass)"
pre-commit try-repo "$hooks" nullius-lint --ref "$rev" --all-files

echo "== a commit adding an off-grade infer (must be blocked)"
pre-commit install >/dev/null
mod=ideas/sterile-neutrino-gaia/src/sterile_neutrino/__init__.py
cat >> "$mod" <<'PY'

infer(
    dwarf_limits,
    hypothesis=testability_timing,
    p_e_given_h=0.85,
    p_e_given_not_h=0.10,
    rationale="reader_reasoning: the bound leaves a window for the next observing cycle. anchor: arXiv:1512.07217",
)
PY
git add "$mod"
if git commit -qm "off-grade infer" > "$work/commit.log" 2>&1; then
  cat "$work/commit.log"
  echo "FAIL: the commit with an off-grade infer was not blocked" >&2
  exit 1
fi
cat "$work/commit.log"
grep -q "GAIA011" "$work/commit.log" || { echo "FAIL: the hook output does not name GAIA011" >&2; exit 1; }
[ "$(git rev-list --count HEAD)" = 1 ] || { echo "FAIL: a commit was created" >&2; exit 1; }
echo "pre-commit: clean package passed, off-grade commit blocked: ok"
