package aks

import (
	"fmt"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// NodeClassHash is what the Azure provider's AKSNodeClass hash controller writes
// (pkg/controllers/nodeclass/hash): the spec's hash under AKSNodeClassHashVersion.
func (c *Cloud) NodeClassHash(obj map[string]any) (cloud.NodeClassHash, error) {
	nc := &azv1beta1.AKSNodeClass{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, nc); err != nil {
		return cloud.NodeClassHash{}, fmt.Errorf("reading AKSNodeClass: %w", err)
	}
	return cloud.NodeClassHash{
		Key: azv1beta1.AnnotationAKSNodeClassHash, VersionKey: azv1beta1.AnnotationAKSNodeClassHashVersion,
		Hash: nc.Hash(), Version: azv1beta1.AKSNodeClassHashVersion, Complete: true,
	}, nil
}

var _ cloud.Drifter = (*Cloud)(nil)
