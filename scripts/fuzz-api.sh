#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis (installed into .cache/venv by
# scripts/install.sh). Starts `framewright serve` on a free loopback port, on a fresh PostgreSQL
# database (TEST_DATABASE_URL; services.sh starts a server when it is unset) and a temporary
# DATA_DIR, creates a pro account with credits through the CLI, and runs every phase (examples,
# coverage, fuzzing, stateful) against GET /v1/openapi.json with the key. It fails on any 5xx
# (but createScript's documented 502, see scripts/fuzz-api.toml), any status, content type or
# body the document does not declare, or when the run outlasts FUZZ_TIME_LIMIT seconds.
#
#   scripts/fuzz-api.sh                       the run `make test` does (fixed seed: reproducible)
#   FUZZ_SEED=7 FUZZ_MAX_EXAMPLES=200 scripts/fuzz-api.sh    another seed, a longer run
#   scripts/fuzz-api.sh --report har --report-dir /tmp/fuzz       more schemathesis flags
#
# The server makes no request off this machine: no model is configured (POST /v1/scripts answers
# 502 LLM_FAILED at once); RENDER_CONCURRENCY=0 leaves the renders the fuzzer creates queued (a
# worker would fetch their asset URLs and deliver their webhooks); scripts/fuzz_hooks.py gives
# every generated webhook_url a loopback host (creation would resolve its name); and
# ALLOW_PRIVATE_URLS stays false.
set -uo pipefail
cd "$(dirname "$0")/.."
# The project's Node (.cache/node, from scripts/install.sh) first on PATH when it is there.
if [ -x .cache/node/bin/node ]; then export PATH="$PWD/.cache/node/bin:$PATH"; fi

SEED=${FUZZ_SEED:-20260101}
MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-100}
TIME_LIMIT=${FUZZ_TIME_LIMIT:-300}
ST=.cache/venv/bin/schemathesis
if [ ! -x "$ST" ]; then echo "fuzz: $ST is missing: run make install" >&2; exit 1; fi

if [ -z "${TEST_DATABASE_URL:-}" ]; then . scripts/services.sh; fi

FUZZ_DIR=$(mktemp -d /tmp/framewright-fuzz.XXXXXX)
FUZZ_DB="fw_fuzz_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
DB_URL="${TEST_DATABASE_URL%/*}/$FUZZ_DB"
SERVER_PID=""

admin_sql() {
  node -e 'const p=require("postgres");const s=p(process.argv[1],{max:1,onnotice:()=>{}});
    s.unsafe(process.argv[2]).then(()=>s.end(),(e)=>{console.error(e.message);return s.end().then(()=>process.exit(1))})' \
    "$TEST_DATABASE_URL" "$1"
}

fuzz_stop() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  admin_sql "DROP DATABASE IF EXISTS $FUZZ_DB WITH (FORCE)" >/dev/null 2>&1
  rm -rf "$FUZZ_DIR"
  if declare -F fw_services_stop >/dev/null; then fw_services_stop; fi
}
trap fuzz_stop EXIT

PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
BASE="http://127.0.0.1:$PORT"

# Only what the server needs: no model, object store, Redis or proxy settings of the caller's shell.
run_env=(env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u SCRIPT_MODEL -u REDIS_URL -u S3_BUCKET -u S3_ENDPOINT
  -u S3_ACCESS_KEY_ID -u S3_SECRET_ACCESS_KEY -u TRUSTED_URL_PREFIXES -u SIGNING_SECRET
  DATABASE_URL="$DB_URL" DATA_DIR="$FUZZ_DIR/data" HOST=127.0.0.1 PORT="$PORT" PUBLIC_BASE_URL="$BASE"
  LOG_LEVEL=warn RENDER_CONCURRENCY=0 ALLOW_PRIVATE_URLS=false
  PLAN_RATE_LIMITS=pro=999999 PLAN_CONCURRENCY=pro=99999 AUTH_FAILURES_PER_MINUTE=999999)

admin_sql "CREATE DATABASE $FUZZ_DB" || exit 1
account=$("${run_env[@]}" ./bin/framewright accounts create --plan pro --credits 100000 --json) || {
  echo "fuzz: could not create the account" >&2
  exit 1
}
KEY=$(node -e 'console.log(JSON.parse(process.argv[1]).key)' "$account")
# scripts/fuzz_hooks.py keeps the fuzzer from revoking or rolling this key.
export FUZZ_KEY_ID=$(node -e 'console.log(JSON.parse(process.argv[1]).keyId)' "$account")

"${run_env[@]}" ./bin/framewright serve >"$FUZZ_DIR/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 300); do
  curl -sf "$BASE/v1/openapi.json" -o /dev/null && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "fuzz: the server did not start:" >&2
    cat "$FUZZ_DIR/server.log" >&2
    exit 1
  fi
  sleep 0.2
done
if ! curl -sf "$BASE/v1/openapi.json" -o /dev/null; then echo "fuzz: the server did not answer in 60 s" >&2; exit 1; fi
echo "fuzz: server $BASE (pid $SERVER_PID, database $FUZZ_DB); seed $SEED, $MAX_EXAMPLES examples per operation, limit ${TIME_LIMIT}s" >&2

started=$(date +%s)
# Hypothesis keeps its caches in the run's temporary directory: nothing is left in the work tree
# and no earlier run's state steers this one. One worker: two share a Python process, and the
# generator's parsing then fails at random on CPython 3.11 ("AST constructor recursion depth
# mismatch"); with one, a seed also gives the same cases in the same order.
SCHEMATHESIS_HOOKS=scripts/fuzz_hooks.py HYPOTHESIS_STORAGE_DIRECTORY="$FUZZ_DIR/hypothesis" timeout --kill-after=10 "$TIME_LIMIT" "$ST" --config-file scripts/fuzz-api.toml --no-color run "$BASE/v1/openapi.json" \
  --url "$BASE" \
  -H "Authorization: Bearer $KEY" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing,stateful \
  --seed "$SEED" \
  --max-examples "$MAX_EXAMPLES" \
  --workers 1 \
  --generation-database none \
  --request-timeout 20 \
  --max-redirects 0 \
  --output-truncate false \
  "$@"
rc=$?
echo "fuzz: schemathesis exited $rc after $(($(date +%s) - started))s" >&2
# Every case after a revocation of the fuzzer's own key would have been a 401 that tests nothing.
if ! curl -sf "$BASE/v1/usage" -H "Authorization: Bearer $KEY" -o /dev/null; then
  echo "fuzz: the fuzzer's key no longer works at the end of the run" >&2
  rc=1
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then echo "fuzz: the run outlasted ${TIME_LIMIT}s" >&2; fi
# What the server logged as errors (but the expected LLM_FAILED), to go with the failures above.
errors=$(grep -E '"level":(50|60)' "$FUZZ_DIR/server.log" | grep -v '"code":"LLM_FAILED"' | cut -c1-1500 | tail -20)
if [ -n "$errors" ]; then printf 'fuzz: errors the server logged (last 20):\n%s\n' "$errors" >&2; fi
exit "$rc"
