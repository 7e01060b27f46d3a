#!/usr/bin/env bash
# Runs a command with throw-away PostgreSQL and Redis (see services.sh) and stops them afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."
# The project's Node (.cache/node, from scripts/install.sh) first on PATH when it is there.
if [ -x .cache/node/bin/node ]; then export PATH="$PWD/.cache/node/bin:$PATH"; fi
. scripts/services.sh
"$@"
