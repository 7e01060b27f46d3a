#!/usr/bin/env bash
# Runs every test file (or the ones given) with node's test runner, TypeScript through tsx, against
# real PostgreSQL and Redis started for this run; without arguments, then the API fuzzer too.
set -uo pipefail
cd "$(dirname "$0")/.."
# The project's Node (.cache/node, from scripts/install.sh) first on PATH when it is there.
if [ -x .cache/node/bin/node ]; then export PATH="$PWD/.cache/node/bin:$PATH"; fi
# The build (dist/) when a source is newer: the CLI the tests spawn (bin/framewright) runs the
# build, as an image does, and one test runs it on bare Node with development packages refused.
# A build that fails (a type error: `make test` reports it from tsc too) leaves the old one, the
# spawned CLI then runs the sources, and the built-CLI test fails, saying so.
scripts/build.sh --if-stale || echo "test: the build failed; the tests run the sources" >&2
. scripts/services.sh

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(find lib movie api worker store operator test -name '*.test.ts' -not -path '*/node_modules/*' 2>/dev/null | sort)
  # The files on the real node (test/chart/real-node.test.ts, test/cluster/operator.test.ts) take
  # the machine's one node in turn: the longer one first of all, so that the other's turn comes
  # long after, instead of one of the two test slots waiting for the node.
  mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -F test/chart/real-node.test.ts
    printf '%s\n' "${files[@]}" | grep -vF test/chart/real-node.test.ts)
fi
if [ ${#files[@]} -eq 0 ]; then echo "no test files found" >&2; exit 1; fi

# The images (`make images`) before the files that run them (test/images/built-images.test.ts, the
# real node of test/chart/real-node.test.ts and test/cluster/operator.test.ts), so that none spends
# its time limit building them:
# seconds when they are current, about 6 minutes from nothing. Where they cannot be built here (not
# root, no buildah), those files skip and say why; a build that fails is theirs to report.
if printf '%s\n' "${files[@]}" | grep -qE 'test/images/built-images|test/chart/real-node|test/cluster/operator' &&
  [ "$(id -u)" -eq 0 ] && command -v buildah >/dev/null; then
  scripts/images.sh || echo "test: make images failed; the tests of the images say why" >&2
fi

# The spec report is also kept, so that its failure summary can be printed again at the very end
# (after the fuzzer's output): a CI log that shows only its tail still says what failed and why.
report=$(mktemp /tmp/framewright-test-report.XXXXXX)
trap 'rm -f "$report"; fw_services_stop' EXIT
# test/support/linger-guard.ts ends a file's process that stays alive a minute after its tests ended
# (saying what it still had open), so that a leaked handle cannot hold the run for ever.
node --import tsx --import ./test/support/linger-guard.ts --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=spec --test-reporter-destination="$report" --test-concurrency=2 "${files[@]}"
rc=$?

# The whole suite (no files named) also fuzzes the API from its OpenAPI document against a real
# server (scripts/fuzz-api.sh, a few minutes at most); either failing fails the run.
if [ $# -eq 0 ]; then
  scripts/fuzz-api.sh || rc=1
fi
if grep -q '^✖ failing tests:' "$report"; then
  echo
  echo "The tests' failures again (the full report is above):"
  sed -n '/^✖ failing tests:/,$p' "$report" | head -c 20000
fi
exit "$rc"
