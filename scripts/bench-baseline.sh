#!/usr/bin/env bash
# Usage: scripts/bench-baseline.sh REV
#
# A checkout of commit REV that `framewright bench render --against` renders with, beside this one,
# alternately: .cache/bench-baseline/<commit>, a detached git worktree with its own node_modules
# (its package-lock.json's packages and its patches, its native packages compiled for .cache/node),
# and the Debian packages its scripts/install.sh lists. Prints the directory. Made once per commit;
# a second run only checks. Nothing else of REV's install (services, clients, the control plane)
# is needed to render.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: scripts/bench-baseline.sh REV}
commit=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "bench-baseline: no commit $rev" >&2; exit 1; }
dir=.cache/bench-baseline/$commit
if [ -f "$dir/.framewright-baseline-ready" ]; then
  echo "$PWD/$dir"
  exit 0
fi
echo "bench-baseline: preparing $rev ($commit) in $dir" >&2
export PATH="$PWD/.cache/node/bin:$PATH"
if [ ! -d "$dir" ]; then
  git worktree prune
  git worktree add --detach "$dir" "$commit" >&2
fi
mkdir -p "$dir/.cache"
ln -sfn "$PWD/.cache/node" "$dir/.cache/node"
# The Debian packages the baseline draws and encodes with (its own list, e.g. Xvfb before EGL).
apt=$(bash -c "$(sed -n '/^APT_PACKAGES=(/,/)/p' "$dir/scripts/install.sh"); printf '%s\n' \"\${APT_PACKAGES[@]}\"")
missing=()
for p in $apt; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench-baseline: apt-get install ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
(
  cd "$dir"
  export npm_config_nodedir="$PWD/.cache/node" npm_config_build_from_source=gl
  npm install --no-audit --no-fund >&2
  rebuild=
  for p in patches/*.patch; do
    [ -e "$p" ] || continue
    if ! patch -p1 -R --dry-run -s -f <"$p" >/dev/null 2>&1; then
      patch -p1 -N -s -f <"$p" >&2
      case "$(basename "$p")" in gl+*) rebuild=1 ;; esac
    fi
  done
  if [ -n "$rebuild" ]; then npm rebuild gl >&2; fi
  node -e 'require("gl")'
)
touch "$dir/.framewright-baseline-ready"
echo "$PWD/$dir"
