#!/usr/bin/env bash
# Starts throw-away PostgreSQL and Redis servers on free loopback ports for tests and benchmarks,
# exports TEST_DATABASE_URL and TEST_REDIS_URL, and stops them (and deletes their data) on exit.
# Also an S3-compatible server (moto) exporting TEST_S3_ENDPOINT. Source it: `. scripts/services.sh`.

fw_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

FW_SVC_DIR=$(mktemp -d /tmp/framewright-svc.XXXXXX)
chmod 755 "$FW_SVC_DIR"
fw_services_stop() {
  [ -n "${FW_REDIS_PID:-}" ] && kill "$FW_REDIS_PID" 2>/dev/null
  [ -n "${FW_S3_PID:-}" ] && kill "$FW_S3_PID" 2>/dev/null
  if [ -n "${FW_PG_DATA:-}" ] && [ -f "$FW_PG_DATA/postmaster.pid" ]; then
    $FW_PG_AS "$FW_PG_BIN/pg_ctl" -D "$FW_PG_DATA" -m immediate stop >/dev/null 2>&1
  fi
  rm -rf "$FW_SVC_DIR"
}
trap fw_services_stop EXIT

# PostgreSQL refuses to run as root: run it as the `postgres` user the Debian package creates.
FW_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
FW_PG_AS=""
if [ "$(id -u)" -eq 0 ]; then FW_PG_AS="runuser -u postgres --"; fi
FW_PG_DATA="$FW_SVC_DIR/pg"
mkdir -p "$FW_PG_DATA"
[ -n "$FW_PG_AS" ] && chown postgres "$FW_PG_DATA"
FW_PG_PORT=$(fw_free_port)
$FW_PG_AS "$FW_PG_BIN/initdb" -D "$FW_PG_DATA" -U postgres -A trust --no-sync >/dev/null
$FW_PG_AS "$FW_PG_BIN/pg_ctl" -D "$FW_PG_DATA" -l "$FW_PG_DATA/log" -w \
  -o "-p $FW_PG_PORT -k $FW_PG_DATA -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$FW_PG_PORT/postgres"

FW_REDIS_PORT=$(fw_free_port)
redis-server --port "$FW_REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --dir "$FW_SVC_DIR" >"$FW_SVC_DIR/redis.log" 2>&1 &
FW_REDIS_PID=$!
for _ in $(seq 50); do redis-cli -p "$FW_REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
export TEST_REDIS_URL="redis://127.0.0.1:$FW_REDIS_PORT"

FW_S3_PORT=$(fw_free_port)
.cache/venv/bin/moto_server -H 127.0.0.1 -p "$FW_S3_PORT" >"$FW_SVC_DIR/moto.log" 2>&1 &
FW_S3_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$FW_S3_PORT/moto-api/" >/dev/null 2>&1 && break; sleep 0.1; done
export TEST_S3_ENDPOINT="http://127.0.0.1:$FW_S3_PORT"
echo "services: postgres $TEST_DATABASE_URL, redis $TEST_REDIS_URL, s3 $TEST_S3_ENDPOINT" >&2
