package checks

import (
	"context"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// Where EC2NodeClasses are part of a cluster's objects, the check judges them and leaves
// other node classes alone.
func TestCheckEC2NodeClasses(t *testing.T) {
	spec := map[string]any{"subnetSelectorTerms": []any{map[string]any{"tags": map[string]any{}}}}
	c := &assemble.Cluster{NodeClasses: []*source.Object{
		{GVK: kinds.EC2NodeClass.GVK, Name: "a", Body: map[string]any{"metadata": map[string]any{"name": "a"}, "spec": spec}},
		{GVK: kinds.AKSNodeClass.GVK, Name: "b", Body: map[string]any{"metadata": map[string]any{"name": "b"}, "spec": spec}},
	}}
	got := CheckEC2NodeClasses(context.Background(), c)
	if len(got) != 1 || got[0].Code != "KRP121" || got[0].Object != "EC2NodeClass/a" || got[0].Field != "spec.subnetSelectorTerms[0].tags" {
		t.Errorf("findings = %+v, want KRP121 on EC2NodeClass/a only", got)
	}
}
