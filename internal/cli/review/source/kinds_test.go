package source

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// The kinds the review judges, and the fix for a kind no CRD defines, come from
// internal/kinds: the NodePool, the node classes of the served clouds (AKSNodeClass,
// EC2NodeClass) and the NodeOverlay, and the fix names each with its apiVersion.
func TestReviewedKindsComeFromTheKindsPackage(t *testing.T) {
	want := map[schema.GroupKind]bool{
		{Group: "karpenter.sh", Kind: "NodePool"}:            true,
		{Group: "karpenter.azure.com", Kind: "AKSNodeClass"}: true,
		{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass"}:   true,
		{Group: "karpenter.sh", Kind: "NodeOverlay"}:         true,
	}
	if len(reviewedKinds) != len(want) {
		t.Errorf("reviewed kinds %v, want %v", reviewedKinds, want)
	}
	for gk := range want {
		if !reviewedKinds[gk] {
			t.Errorf("%s is not reviewed", gk)
		}
	}
	v := Classify("karpenter.sh/v1", "NodeClas")
	if v.Problem != findings.UnknownKind {
		t.Fatalf("verdict %+v, want %s", v, findings.UnknownKind)
	}
	if got, want := v.fix, "Use kind NodePool with apiVersion karpenter.sh/v1, or AKSNodeClass with apiVersion karpenter.azure.com/v1beta1, or EC2NodeClass with apiVersion karpenter.k8s.aws/v1."; got != want {
		t.Errorf("fix %q, want %q", got, want)
	}
	if got := v1beta1NodePool; got != (schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1beta1", Kind: "NodePool"}) {
		t.Errorf("v1beta1NodePool %v", got)
	}
}
