#!/usr/bin/env bash
# Runs every test file (or the ones given) with node's test runner, TypeScript through tsx, against
# real PostgreSQL and Redis started for this run; without arguments, then the API fuzzer too.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/services.sh

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(find lib movie api worker store test -name '*.test.ts' -not -path '*/node_modules/*' 2>/dev/null | sort)
fi
if [ ${#files[@]} -eq 0 ]; then echo "no test files found" >&2; exit 1; fi

node --import tsx --test --test-reporter=spec --test-concurrency=2 "${files[@]}"
rc=$?

# The whole suite (no files named) also fuzzes the API from its OpenAPI document against a real
# server (scripts/fuzz-api.sh, a few minutes at most); either failing fails the run.
if [ $# -eq 0 ]; then
  scripts/fuzz-api.sh || rc=1
fi
exit "$rc"
