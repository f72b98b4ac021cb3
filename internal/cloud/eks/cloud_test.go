package eks

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// An EC2NodeClass object decodes to comparable settings (they key the solver's cache) that
// survive the JSON the provider keeps in private state; the default is the zero Class.
func TestClassDecodesAndRoundTrips(t *testing.T) {
	c := NewCloud(nil)
	nc, err := c.DecodeNodeClass(map[string]any{"apiVersion": "karpenter.k8s.aws/v1", "kind": "EC2NodeClass",
		"spec": map[string]any{"amiSelectorTerms": []any{map[string]any{"alias": "bottlerocket@latest"}}, "kubelet": map[string]any{"maxPods": int64(110)}}})
	if err != nil {
		t.Fatal(err)
	}
	got := nc.(Class).NodeClass()
	if got.AMIFamily != AMIFamilyBottlerocket || got.Kubelet.MaxPods == nil || *got.Kubelet.MaxPods != 110 {
		t.Errorf("decoded %+v", got)
	}
	b, err := json.Marshal(nc)
	if err != nil {
		t.Fatal(err)
	}
	var back Class
	if err := json.Unmarshal(b, &back); err != nil || back != nc {
		t.Errorf("round trip %v (%v), want %v", back, err, nc)
	}
	def, _ := c.DecodeNodeClass(map[string]any{"spec": map[string]any{"amiSelectorTerms": []any{map[string]any{"alias": "al2023@latest"}}}})
	if def != c.DefaultNodeClass() || def != cloud.NodeClass(Class{}) {
		t.Errorf("the AL2023 class %v is not the default %v", def, c.DefaultNodeClass())
	}
	if _, err := c.DecodeNodeClass(map[string]any{"spec": map[string]any{"amiSelectorTerms": []any{map[string]any{"alias": "ubuntu@latest"}}}}); err == nil || !strings.Contains(err.Error(), "not an alias family") {
		t.Errorf("bad alias: %v", err)
	}
}

// Regions are those with a price table; zones are never known; the caveats say what is missing.
func TestRegionsAndCaveats(t *testing.T) {
	c := NewCloud(nil)
	for _, r := range []string{"us-east-1", "us-gov-west-1", "cn-north-1", "eu-west-1"} {
		if !c.HasRegion(r) {
			t.Errorf("%s unknown", r)
		}
	}
	if c.HasRegion("westeurope") || !slices.IsSorted(c.Regions()) {
		t.Errorf("regions %v", c.Regions())
	}
	if _, known := c.Zones("us-east-1"); known {
		t.Error("zones are not in the public data")
	}
	if cv := strings.Join(c.RegionCaveats("cn-north-1"), "; "); !strings.Contains(cv, "CNY") || !strings.Contains(cv, "no spot prices for cn-north-1") {
		t.Errorf("cn-north-1 caveats: %s", cv)
	}
	if cv := strings.Join(c.RegionCaveats("us-east-1"), "; "); strings.Contains(cv, "on-demand price table") {
		t.Errorf("us-east-1 has its own table: %s", cv)
	}
}
