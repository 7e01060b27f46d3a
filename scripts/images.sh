#!/usr/bin/env bash
# `make images`: builds the images ./Dockerfile defines (framewright, framewright-worker) into this
# machine's local image storage (buildah's, /var/lib/containers/storage), with no Docker engine and
# no registry, then saves each as an image archive in .cache/images/ that a node's containerd loads
# (test/services/real-node.ts does; `ctr -n k8s.io images import` by hand).
#
# The Dockerfile is the one a platform team builds with docker or buildx against the public Node
# bases. Those bases cannot be pulled here, so they are made from Debian's packages (mmdebstrap,
# bookworm minbase) plus the same Node that scripts/install.sh fetched and verified (.cache/node),
# and given the names the Dockerfile's ARGs take:
#   framewright-base/node:24-bookworm-slim   minbase + Node 24 in /usr/local: the runtime base.
#   framewright-base/node:24-bookworm        the same, plus this machine's package settings (its CA
#                                            bundle, npm's registry): the build stage's base, which
#                                            never ships. A build here reaches what the machine does.
# Builds are incremental: the bases are remade only when Node, their recipe, the Debian sources or
# the machine's package settings change (a stamp), a target is built only when its build context,
# bases or build arguments changed (a stamp), buildah then reuses every layer whose inputs are
# unchanged (--layers), and an archive is saved again only when its image changed. A second run
# with nothing changed takes seconds.
#
# Root is required (buildah and mmdebstrap; a rootless setup needs subuid ranges). runc, not crun:
# crun fails on a cgroup v1 hybrid layout. --ulimit: root without CAP_SYS_RESOURCE cannot raise the
# limits a container runtime asks for by default. Both are this machine's needs, not a node's.
set -euo pipefail
cd "$(dirname "$0")/.."
# The project's Node (.cache/node, from scripts/install.sh) first on PATH, as every script has it.
if [ -x .cache/node/bin/node ]; then export PATH="$PWD/.cache/node/bin:$PATH"; fi

TAG=$(node -p 'require("./package.json").version')
OUT=.cache/images
BASES=framewright-base/node
mkdir -p "$OUT"
# One run at a time (a test may start one while another runs): they share the stamps and archives.
exec 9>"$OUT/.lock"
flock 9
export BUILDAH_ISOLATION=${BUILDAH_ISOLATION:-oci}
BUILDAH_RUN=(--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=32768:32768)

if [ "$(id -u)" -ne 0 ]; then
  echo "images: run as root (buildah and mmdebstrap build root filesystems)" >&2
  exit 1
fi
for tool in buildah mmdebstrap runc; do
  command -v "$tool" >/dev/null || { echo "images: $tool missing (make install installs it)" >&2; exit 1; }
done
NODE_HOME=$(readlink -f .cache/node)
[ -x "$NODE_HOME/bin/node" ] || { echo "images: .cache/node missing (make install fetches it)" >&2; exit 1; }
NODE_MAJOR=$("$NODE_HOME/bin/node" -p 'process.versions.node.split(".")[0]')

# The apt sources the bases are made from: this machine's Debian sources (deb822), so the images
# are made from the same mirror and snapshot as the machine.
SOURCES=/etc/apt/sources.list.d/debian.sources
[ -f "$SOURCES" ] || SOURCES=/etc/apt/sources.list

# The ID of a local image, or nothing (not an error) when there is none.
image_id() { { buildah images --noheading --format '{{.ID}}' "$1" 2>/dev/null || true; } | head -1; }

# --- the bases ----------------------------------------------------------------------------------
commit_base() { # NAME TAR [EXTRA-SETUP-FUNCTION]
  local ctr
  ctr=$(buildah from scratch)
  buildah add --quiet "$ctr" "$2" / >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_VERSION="$("$NODE_HOME/bin/node" -p process.versions.node)" --cmd node \
    --label org.opencontainers.image.description="Debian bookworm minbase + Node $NODE_MAJOR, made by scripts/images.sh" \
    --label "$BASE_LABEL=$want_base" "$ctr"
  [ -n "${3:-}" ] && "$3" "$ctr"
  buildah commit --quiet --rm "$ctr" "$1" >/dev/null
}
# The build base: the machine's CA bundle (an egress proxy's CA, where there is one) for npm and
# apt over HTTPS, and npm's registry setting, in npm's global config. Never in a shipped image.
machine_settings() {
  local ctr=$1 mnt
  mnt=$(buildah mount "$ctr")
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$mnt/etc/ssl/certs/ca-certificates.crt"
  mkdir -p "$mnt/usr/local/etc"
  printf 'registry=%s\n' "$(npm config get registry)" >"$mnt/usr/local/etc/npmrc"
  buildah umount "$ctr" >/dev/null
  buildah config --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt "$ctr"
}
make_bases() { # WORKDIR
  # Node's release layout in /usr/local, as the official images have it: bin/node, bin/npm and
  # bin/npx (links into lib/node_modules/npm), include/node, share/.
  mmdebstrap --quiet --variant=minbase \
    --customize-hook="cp -a '$NODE_HOME'/. \"\$1\"/usr/local/" \
    --customize-hook='rm -rf "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/var/cache/apt/*.bin' \
    bookworm "$1/slim.tar" "$SOURCES"
  commit_base "$BASES:$NODE_MAJOR-bookworm-slim" "$1/slim.tar"
  commit_base "$BASES:$NODE_MAJOR-bookworm" "$1/slim.tar" machine_settings
}
# Remade when what goes into them changes: Node, the recipe above (not the rest of this script: a
# new base invalidates every cached layer, headless-gl's compilation included), the Debian sources,
# the machine's CA bundle and npm registry. The stamp is a label of each base, in the machine's
# image storage: another checkout on this machine (a CI's fresh clone) finds the bases made, and
# with them every cached layer.
BASE_LABEL=dev.framewright.base-inputs
want_base="node $("$NODE_HOME/bin/node" --version) $( (declare -f commit_base machine_settings make_bases;
  cat "$SOURCES" /etc/ssl/certs/ca-certificates.crt; npm config get registry 2>/dev/null) | sha256sum | cut -c1-16)"
base_inputs() { buildah inspect --type image --format "{{index .OCIv1.Config.Labels \"$BASE_LABEL\"}}" "$1" 2>/dev/null || true; }
if [ "$(base_inputs "$BASES:$NODE_MAJOR-bookworm-slim")" != "$want_base" ] ||
  [ "$(base_inputs "$BASES:$NODE_MAJOR-bookworm")" != "$want_base" ]; then
  started=$(date +%s)
  echo "images: making the base images from Debian bookworm and Node $("$NODE_HOME/bin/node" --version)"
  work=$(mktemp -d /tmp/framewright-images.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  make_bases "$work"
  rm -rf "$work"
  trap - EXIT
  echo "images: bases made in $(($(date +%s) - started)) s"
fi

# --- the images ---------------------------------------------------------------------------------
# The build context's digest: every path, mode, link target and file content under the repository
# that .dockerignore lets through, or a few more. Its patterns of a plain name (`.git`, `*.log`:
# the top level) or `**/name` (any depth) are left out of the walk; any other kind of pattern is
# not, and a `!` exception turns the pruning off: an extra file can only cost a needless rebuild.
# The Dockerfile and .dockerignore are added: they shape the build though the context omits them.
context_digest() {
  local prune=() line pat
  if ! grep -q '^[[:space:]]*!' .dockerignore 2>/dev/null; then
    while IFS= read -r line || [ -n "$line" ]; do
      pat=$(printf '%s' "${line%%#*}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; s#^/##; s#/$##')
      [ -n "$pat" ] || continue
      if [[ $pat == '**/'* && ${pat#'**/'} != */* && ${pat#'**/'} != *'**'* ]]; then
        prune+=(-o -name "${pat#'**/'}")
      elif [[ $pat != */* ]]; then
        prune+=(-o \( -path "./$pat" ! -path './*/*' \))
      fi
    done <.dockerignore
  fi
  {
    find . \( -false "${prune[@]}" \) -prune -o ! -path . -printf '%y %m %p %l\n' | LC_ALL=C sort
    find . \( -false "${prune[@]}" \) -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
    sha256sum Dockerfile .dockerignore
  } | sha256sum | cut -d' ' -f1
}

# Each target of the Dockerfile: buildah builds it with layers cached, tags it as the chart names it
# (repository:appVersion), and saves an archive when the image changed. A target whose inputs (the
# context, the bases, the build arguments) are those its image was built from is not built again:
# buildah would reuse every layer, but only after hashing the ~500 MB it copies from the build
# stage (~15 s a target).
REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
context=$(context_digest)
# The layers each build used or made ("--> Using cache ID", "--> ID" in buildah's output), so that
# once both targets are built, the untagged images no build of now needs (earlier builds' layers,
# earlier images) are removed: the storage holds one generation of cache, not one per change.
used=$(mktemp)
built=0
for pair in api:framewright worker:framewright-worker; do
  target=${pair%%:*}
  name=${pair#*:}
  started=$(date +%s)
  inputs=$(printf '%s\n' "$target" "$TAG" "$REVISION" "$context" "$(image_id "$BASES:$NODE_MAJOR-bookworm")" \
    "$(image_id "$BASES:$NODE_MAJOR-bookworm-slim")" "$(declare -f context_digest)" | sha256sum | cut -c1-16)
  stamp="$OUT/$name.inputs"
  id=$(image_id "localhost/$name:$TAG")
  if [ -z "$id" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$inputs $id" ]; then
    # --network host: RUN steps reach the package registries as the machine does (a build network
    # of its own would need CNI configuration for buildah). REVISION changes the labels only.
    # --force-rm: a failed step leaves no working container behind.
    log=$(mktemp)
    buildah bud --layers --force-rm "${BUILDAH_RUN[@]}" --network host \
      --build-arg NODE_BUILD_IMAGE="$BASES:$NODE_MAJOR-bookworm" \
      --build-arg NODE_RUNTIME_IMAGE="$BASES:$NODE_MAJOR-bookworm-slim" \
      --build-arg VERSION="$TAG" --build-arg REVISION="$REVISION" \
      --target "$target" -t "localhost/$name:$TAG" . >"$log" 2>&1 || { tail -n 40 "$log" >&2; rm -f "$log" "$used"; exit 1; }
    sed -n 's/^--> \(Using cache \)\{0,1\}\([0-9a-f]\{11,64\}\)$/\2/p' "$log" >>"$used"
    rm -f "$log"
    built=$((built + 1))
    id=$(image_id "localhost/$name:$TAG")
    echo "$inputs $id" >"$stamp"
  fi
  archive="$OUT/$name.tar"
  if [ "$(cat "$archive.id" 2>/dev/null)" != "$id" ] || [ ! -f "$archive" ] || [ ! -f "$archive.ref" ]; then
    rm -f "$archive" "$archive.id" "$archive.ref"
    # docker-archive: what `ctr images import` and `docker load` both read; named as a node
    # resolves the chart's image (framewright:0.1.0 is docker.io/library/framewright:0.1.0).
    # Written beside and renamed: a reader never sees half an archive. The .ref file names what it holds.
    buildah push --quiet "localhost/$name:$TAG" "docker-archive:$archive.part:docker.io/library/$name:$TAG" >/dev/null
    mv "$archive.part" "$archive"
    echo "docker.io/library/$name:$TAG" >"$archive.ref"
    echo "$id" >"$archive.id"
  fi
  size=$(buildah images --noheading --format '{{.Size}}' "localhost/$name:$TAG" | head -1)
  echo "images: $name:$TAG ($target) ${id:0:12} $size in $(($(date +%s) - started)) s"
done
if [ "$built" -eq 2 ]; then
  removed=0
  for dangling in $(buildah images --noheading --no-trunc --filter dangling=true --format '{{.ID}}'); do
    dangling=${dangling#sha256:}
    grep -q "^${dangling:0:11}" "$used" && continue
    buildah rmi "$dangling" >/dev/null 2>&1 && removed=$((removed + 1))
  done
  [ "$removed" -gt 0 ] && echo "images: removed $removed image(s) no build needs any more"
fi
rm -f "$used"
