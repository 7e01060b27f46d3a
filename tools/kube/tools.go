//go:build tools

// Package tools pins the commands scripts/control-plane.sh builds, so that go.sum covers them: the
// control plane (kube-apiserver, kube-controller-manager, kube-scheduler) and the node (kubelet, kube-proxy)
// and kubectl.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-proxy"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "k8s.io/kubernetes/cmd/kubelet"
)
