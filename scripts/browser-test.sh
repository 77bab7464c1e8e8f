#!/usr/bin/env bash
# Browser test of `nullius render`: renders fixtures/render/{normal,hostile}
# with the built binary and drives the pages in headless Chromium (Debian's
# chromium package, through playwright-core from browsertest/package-lock.json).
# Installs chromium (apt) and the npm dependencies when they are missing.
# Writes browsertest/out/argument-graph.png for people to look at.
# Exit status: 0 all checks passed, non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    echo "browser-test: need root to run: $*" >&2; return 1; fi
}

chromium_bin="${CHROMIUM:-$(command -v chromium || true)}"
if [ -z "$chromium_bin" ]; then
  echo "== installing chromium (apt)"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  chromium_bin="$(command -v chromium)"
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "== installing node and npm (apt)"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -f browsertest/node_modules/playwright-core/package.json ]; then
  echo "== npm ci (browsertest)"
  (cd browsertest && npm ci --no-audit --no-fund --loglevel=error)
fi

out=browsertest/out
rm -rf "$out"
mkdir -p "$out"
echo "== go build"
go build -o "$out/nullius" ./cmd/nullius
echo "== nullius render"
# Copies inside the repository (the same project root): render takes the
# package's lock, whose file must not land in the repository's fixtures.
mkdir -p "$out/pkgs"
cp -r fixtures/render/normal fixtures/render/hostile fixtures/render/larger "$out/pkgs/"
"$out/nullius" render --package "$out/pkgs/normal" --output "$out/normal.html"
"$out/nullius" render --package "$out/pkgs/hostile" --output "$out/hostile.html"
"$out/nullius" render --package "$out/pkgs/larger" --output "$out/larger.html"
echo "== browser checks ($("$chromium_bin" --version 2>/dev/null || echo chromium))"
CHROMIUM="$chromium_bin" node browsertest/render.test.mjs --normal "$out/normal.html" --hostile "$out/hostile.html" --larger "$out/larger.html" --out "$out"
