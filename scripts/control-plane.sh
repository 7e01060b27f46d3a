#!/usr/bin/env bash
# Builds the Kubernetes the cluster tests run against, v1.33.13, from the Go module proxy into
# .cache/kube/bin, when missing: the control plane (kube-apiserver, kube-controller-manager,
# kube-scheduler), the node (kubelet, kube-proxy: test/services/real-node.ts runs them with
# Debian's containerd and runc) and kubectl, of the same release (the tests and the chart's NOTES run
# it; a kubectl more than one minor from the apiserver is unsupported).
# 1.33 because kubelets from 1.35 refuse cgroup v1 by default, which some nodes (and this machine)
# still have. First build: about 10 minutes on 2 cores (peak ~2 GB); with Go's caches warm, under a minute.
# etcd is Debian's etcd-server (scripts/install.sh). Run by `make install`; idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

KUBE_VERSION=v1.33.13
OUT=.cache/kube/bin
stamp="$OUT/.version"
want="$KUBE_VERSION $(sha256sum tools/kube/go.mod tools/kube/go.sum | sha256sum | cut -c1-16)"
CMDS=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
have=1
for cmd in "${CMDS[@]}"; do [ -x "$OUT/$cmd" ] || have=; done
if [ -n "$have" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi

GO=$(command -v go || true)
[ -z "$GO" ] && [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go
if [ -z "$GO" ]; then
  echo "control-plane: no Go toolchain (go 1.24 or newer) on PATH or in /usr/local/go" >&2
  exit 1
fi

echo "control-plane: building ${CMDS[*]} $KUBE_VERSION (first time ~10 minutes)"
# kubectl refuses a server whose version it cannot parse: stamp the release into component-base.
minor=${KUBE_VERSION#v1.}
minor=${minor%%.*}
pkg=k8s.io/component-base/version
ldflags="-s -w -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
mkdir -p "$OUT"
(
  cd tools/kube
  for cmd in "${CMDS[@]}"; do
    GOFLAGS=-mod=mod "$GO" build -p 2 -trimpath -ldflags "$ldflags" -o "../../$OUT/$cmd" "k8s.io/kubernetes/cmd/$cmd"
  done
)
echo "$want" > "$stamp"
