#!/usr/bin/env bash
# Builds the ingress controller the real-node tests send API clients through: Traefik, from its Go
# module, into .cache/traefik/bin, when missing or another version (test/services/ingress.ts runs it).
# Traefik because it is one Go binary that reads Ingress objects itself (ingress-nginx needs nginx
# with OpenResty's Lua modules); no image can be pulled here, and none is needed to build this.
#
# `go install traefik@version` refuses a module whose go.mod has replace directives (Traefik's forks
# of two packages), so the module's source is fetched from the Go module proxy, copied where it can be
# written, and built there with its own go.mod and go.sum. v3.6.12, not v3.7: 3.7's go.mod replaces a
# package by a directory that is not in the published module and names a fork version the proxy
# refuses. First build: about 4 minutes on 2 cores; with Go's caches warm, about 20 seconds.
# Run by `make install`; idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

TRAEFIK_VERSION=v3.6.12
OUT=.cache/traefik/bin
if [ -x "$OUT/traefik" ] && [ "$(cat "$OUT/.version" 2>/dev/null)" = "$TRAEFIK_VERSION" ]; then
  exit 0
fi

GO=$(command -v go || true)
[ -z "$GO" ] && [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go
if [ -z "$GO" ]; then
  echo "ingress-controller: no Go toolchain (go 1.25 or newer) on PATH or in /usr/local/go" >&2
  exit 1
fi

echo "ingress-controller: building traefik $TRAEFIK_VERSION (first time ~4 minutes)"
# Outside any module (a directory of its own), so that no go.mod around it has a say.
empty=$(mktemp -d)
module=$(cd "$empty" && "$GO" mod download -json "github.com/traefik/traefik/v3@$TRAEFIK_VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
rmdir "$empty"
[ -d "$module" ] || { echo "ingress-controller: go mod download gave no source directory" >&2; exit 1; }
src=.cache/traefik/src
rm -rf "$src"
mkdir -p "$src" "$OUT"
cp -r "$module/." "$src"
chmod -R u+w "$src"
(
  cd "$src"
  "$GO" build -p 2 -trimpath \
    -ldflags "-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=$TRAEFIK_VERSION" \
    -o "../bin/traefik" ./cmd/traefik
)
rm -rf "$src"
echo "$TRAEFIK_VERSION" > "$OUT/.version"
