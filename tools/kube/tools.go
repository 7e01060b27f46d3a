//go:build tools

// Package tools pins the commands scripts/control-plane.sh builds, so that go.sum covers them.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
