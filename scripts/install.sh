#!/usr/bin/env bash
# Idempotent installer: Debian packages and npm packages, each only when missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."

# ffmpeg: encoder (libx264, h264_nvenc). postgresql + redis-server: real services for the tests.
# xvfb + xauth: the X display headless-gl needs. libxi-dev libglu1-mesa-dev libglew-dev pkg-config:
# to build `gl` from source. espeak-ng: offline speech. fonts-*: text rendering. python3-venv: moto (S3).
# etcd-server: the control plane's store for the cluster tests (scripts/control-plane.sh).
# chromium: the browser the dashboard's tests drive (test/dashboard, through playwright-core).
# tesseract-ocr + tesseract-ocr-*: OCR that reads rendered text back from decoded frames (test/text),
# with the language packs of the scripts those tests render (Latin, Cyrillic, Greek, CJK, Arabic, Devanagari).
APT_PACKAGES=(ffmpeg postgresql redis-server xvfb xauth libxi-dev libglu1-mesa-dev libglew-dev pkg-config
  build-essential patch curl python3 python3-venv espeak-ng fonts-dejavu-core etcd-server chromium
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-jpn tesseract-ocr-chi-sim tesseract-ocr-kor tesseract-ocr-ara
  tesseract-ocr-hin tesseract-ocr-rus tesseract-ocr-ell tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-vie)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install: apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages only when package-lock.json changed since the last successful install.
stamp=node_modules/.framewright-lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install: npm install (builds headless-gl from source on first install, ~3 minutes)"
  # node-gyp cannot download Node's headers here; use the ones Node ships (/usr/include/node).
  # `npm install`, not `npm ci`: the package mirror here lacks some of Biome's optional platform
  # packages (android, musl, windows), which `npm ci` reports as a lock mismatch; `npm install`
  # skips absent optional packages and installs exactly the locked versions of everything else.
  # package.json's allowScripts approves the two install scripts we need (gl builds from source,
  # esbuild checks its binary) by name: pinned entries are matched against download addresses,
  # which our lock file leaves out. npm 12 will skip install scripts that are not approved.
  npm_config_nodedir=/usr npm install --no-audit --no-fund
  sha256sum package-lock.json | cut -d' ' -f1 > "$stamp"
fi

# Fixes to dependencies we wait on upstream for, as patches of the installed files (patches/*.patch,
# named after the package and version they fit). Applied when not yet applied, so after every npm
# install; a patch that no longer fits (the package was upgraded) stops the install, saying so.
for p in patches/*.patch; do
  [ -e "$p" ] || continue
  if ! patch -p1 -R --dry-run -s -f <"$p" >/dev/null 2>&1; then
    echo "install: applying $p"
    patch -p1 -N -s -f <"$p" || { echo "install: $p does not apply: update or drop it" >&2; exit 1; }
  fi
done

# moto's server mode: a real S3-compatible HTTP server for the object-storage tests, and
# schemathesis, the API fuzzer of scripts/fuzz-api.sh (both from PyPI).
if [ ! -x .cache/venv/bin/moto_server ] || [ ! -x .cache/venv/bin/schemathesis ]; then
  echo "install: moto[server] and schemathesis into .cache/venv"
  python3 -m venv .cache/venv
  .cache/venv/bin/pip install -q --disable-pip-version-check 'moto[server]==5.*' 'schemathesis==4.*'
fi

# kube-apiserver and kube-controller-manager for the cluster tests, built from Go modules when missing.
scripts/control-plane.sh

# helm v3.16.4 for the chart tests (test/chart), built from its Go module into .cache/helm/bin when
# missing or another version: about 1.5 minutes cold on 2 cores, a few seconds with Go's caches warm.
# `go install` leaves Helm's version and its default Kubernetes version (v1.20, which the chart's
# kubeVersion >=1.28 refuses in `helm template`/`helm lint`) unset; the release Makefile stamps them
# with -ldflags, and so do we: v3.16.4 is built against client-go v0.31, so Kubernetes 1.31.
HELM_VERSION=v3.16.4
if [ "$(.cache/helm/bin/helm version --template '{{.Version}}' 2>/dev/null)" != "$HELM_VERSION" ]; then
  GO=$(command -v go || true)
  [ -z "$GO" ] && [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go
  if [ -z "$GO" ]; then
    echo "install: no Go toolchain on PATH or in /usr/local/go to build helm" >&2
    exit 1
  fi
  echo "install: helm $HELM_VERSION into .cache/helm/bin (first time ~1.5 minutes)"
  helm_ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
  for pkg in helm.sh/helm/v3/pkg/chartutil helm.sh/helm/v3/pkg/lint/rules; do
    helm_ldflags="$helm_ldflags -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=31"
  done
  GOBIN="$PWD/.cache/helm/bin" GOFLAGS=-mod=mod "$GO" install -p 2 -trimpath -ldflags "$helm_ldflags" \
    "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
fi
