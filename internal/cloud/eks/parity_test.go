package eks

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// printed renders an instance type as upstream's docs generator
// (hack/docs/instancetypes_gen) prints it: the labels whose requirement has
// exactly one value, less region, zone, zone ID and capacity type; the
// resources of capacity minus total overhead that are not zero, with
// ephemeral-storage as a binary integer.
func printed(it *cloudprovider.InstanceType) (labels, res map[string]string) {
	labels = map[string]string{}
	for key, req := range it.Requirements {
		switch key {
		case corev1.LabelTopologyRegion, corev1.LabelTopologyZone, LabelTopologyZoneID, karpv1.CapacityTypeLabelKey:
			continue
		}
		if vals := req.Values(); len(vals) == 1 {
			labels[key] = vals[0]
		}
	}
	res = map[string]string{}
	for name, q := range resources.Subtract(it.Capacity, it.Overhead.Total()) {
		if q.IsZero() {
			continue
		}
		if name == corev1.ResourceEphemeralStorage {
			i64, _ := q.AsInt64()
			q = *resource.NewQuantity(i64, resource.BinarySI)
		}
		res[string(name)] = q.String()
	}
	return labels, res
}

func diff(kind string, want, got map[string]string) []string {
	var out []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("%s %s: want %q, missing", kind, k, w))
		} else if g != w {
			out = append(out, fmt.Sprintf("%s %s: want %q, got %q", kind, k, w, g))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s %s: not printed upstream, got %q", kind, k, g))
		}
	}
	sort.Strings(out)
	return out
}

// TestParityWithUpstreamDocs: for the default AL2023 node class, the labels
// and resources of every instance type upstream's docs list, reproduced
// exactly, except the pod-ENI counts explained in podENIVintage.
func TestParityWithUpstreamDocs(t *testing.T) {
	docs, err := catalog.ReadDocs(reftest.Dir(t, "aws", catalog.DocsFile))
	if err != nil {
		t.Fatal(err)
	}
	its, err := InstanceTypes("us-east-1", NodeClass{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*cloudprovider.InstanceType{}
	for _, it := range its {
		byName[it.Name] = it
	}
	matched, explained := 0, 0
	var failures []string
	for _, d := range docs {
		it, ok := byName[d.Name]
		if !ok {
			failures = append(failures, d.Name+": not derived")
			continue
		}
		labels, res := printed(it)
		diffs := append(diff("label", d.Labels, labels), diff("resource", d.Resources, res)...)
		if want, ok := podENIVintage[d.Name]; ok {
			exp := fmt.Sprintf("resource vpc.amazonaws.com/pod-eni: not printed upstream, got %q", want)
			if len(diffs) == 1 && diffs[0] == exp {
				explained++
				continue
			}
			failures = append(failures, fmt.Sprintf("%s: expected only the pod-ENI vintage difference (%s), got %v", d.Name, exp, diffs))
			continue
		}
		if len(diffs) > 0 {
			failures = append(failures, d.Name+": "+strings.Join(diffs, "; "))
			continue
		}
		matched++
	}
	t.Logf("%d of %d instance types identical to upstream's docs; %d differ only in vpc.amazonaws.com/pod-eni (VPC limits vintage)", matched, len(docs), explained)
	if len(byName) != len(docs) {
		t.Errorf("derived %d instance types, the docs list %d", len(byName), len(docs))
	}
	for _, f := range failures {
		t.Error(f)
	}
}
