#!/usr/bin/env bash
# Runs a command with throw-away PostgreSQL and Redis (see services.sh) and stops them afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/services.sh
"$@"
