package crdvalidate

import (
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
)

// eksPools is the validator of the NodePool CRD the AWS provider ships, built on first use.
var eksPools = &validatorSet{crds: func() []*apiextensionsv1.CustomResourceDefinition {
	return []*apiextensionsv1.CustomResourceDefinition{crds.EKSNodePool()}
}}

// NodePoolFor returns the NodePool validator of the cluster a NodePool runs in, chosen by its
// nodeClassRef.group. An EKS pool (karpenter.k8s.aws) is validated by the AWS provider's
// NodePool CRD, whose CEL rules guard karpenter.k8s.aws labels. Any other is validated by
// AKS's (For), whose rules guard karpenter.azure.com and kubernetes.azure.com.
func NodePoolFor(gvk schema.GroupVersionKind, nodeClassGroup string) (*Validator, error) {
	if !strings.EqualFold(nodeClassGroup, "karpenter.k8s.aws") {
		return For(gvk)
	}
	validators, err := eksPools.get()
	if err != nil {
		return nil, err
	}
	if v, ok := validators[gvk]; ok {
		return v, nil
	}
	return nil, fmt.Errorf("the AWS provider's NodePool CRD does not serve %s", gvk)
}

// NodePoolGroup is the nodeClassRef.group of a NodePool object ("" when it has none).
func NodePoolGroup(obj map[string]any) string {
	spec, _ := obj["spec"].(map[string]any)
	tmpl, _ := spec["template"].(map[string]any)
	tspec, _ := tmpl["spec"].(map[string]any)
	ref, _ := tspec["nodeClassRef"].(map[string]any)
	g, _ := ref["group"].(string)
	return g
}
