#!/usr/bin/env bash
# `make build`: the runtime sources compiled to plain JavaScript in dist/ (tsconfig.build.json),
# mirroring the source tree, plus the files modules read beside themselves (the SQL migrations).
# `node dist/bin/cli.js` then runs on bare Node with production dependencies only. The build is
# written beside dist/ and swapped in whole, so a failed build never leaves a half-written dist/.
# --if-stale: only when bin/framewright would not take dist/ as current (sources changed since).
set -euo pipefail
cd "$(dirname "$0")/.."
# The project's Node (.cache/node, from scripts/install.sh) first on PATH when it is there.
if [ -x .cache/node/bin/node ]; then export PATH="$PWD/.cache/node/bin:$PATH"; fi
if [ "${1:-}" = --if-stale ] && [ "$(FRAMEWRIGHT_SHOW_FROM=1 bin/framewright)" = dist ]; then
  exit 0
fi
out=dist.build.$$
trap 'rm -rf "$out"' EXIT
rm -rf "$out"
# The stamp carries the time the build started: a source saved during the build is newer, so
# bin/framewright does not take the build for current.
mkdir -p "$out" && touch "$out/.built"
node_modules/.bin/tsc -p tsconfig.build.json --outDir "$out"
# The web dashboard (dashboard/): type-checked for the browser, then bundled by esbuild into
# dist/dashboard/, which the built server reads (api/dashboard/files.ts) with no bundler at run time.
node_modules/.bin/tsc --noEmit -p dashboard
node --import tsx dashboard/build.ts "$out/dashboard"
# The browser player (player/): the same, into dist/player/ (api/player/routes.ts serves it).
node_modules/.bin/tsc --noEmit -p player
node --import tsx player/build.ts "$out/player"
mkdir -p "$out/store/migrations"
cp store/migrations/*.sql "$out/store/migrations/"
# package.json beside dist/ is the one the image copies; dist/ needs no copy of its own.
test -f "$out/bin/cli.js" || { echo "build: $out/bin/cli.js missing" >&2; exit 1; }
rm -rf dist
mv "$out" dist
echo "build: dist/ ($(find dist -name '*.js' | wc -l) modules)"
