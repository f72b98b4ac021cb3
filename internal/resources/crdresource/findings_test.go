package crdresource_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/aksnodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/nodepool"
)

func pool(requirements []any, extra map[string]any) map[string]any {
	spec := map[string]any{
		"template": map[string]any{"spec": map[string]any{
			"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
			"requirements": requirements,
		}},
	}
	for k, v := range extra {
		spec[k] = v
	}
	return map[string]any{"metadata": map[string]any{"name": "p"}, "spec": spec}
}

func req(key, op string, values ...any) map[string]any {
	return map[string]any{"key": key, "operator": op, "values": values}
}

// An unsupported enum value keeps the API server from checking CEL rules; the rejections those
// rules make elsewhere are found as well, marked deferred, and none about the stand-in value.
func TestFindingsReportWhatBlockedRulesWouldReject(t *testing.T) {
	r := crdresource.New(nodepool.Kind)().(*crdresource.Resource)
	obj := pool([]any{req("karpenter.sh/nodepool", "In", "x"), req("kubernetes.io/arch", "Sometimes", "amd64")},
		map[string]any{"disruption": map[string]any{"consolidateAfter": "1m", "budgets": []any{map[string]any{"nodes": "1", "schedule": "@daily"}}}})
	var got []string
	for _, f := range r.Rejections(context.Background(), obj) {
		got = append(got, f.Path.String()+" deferred="+map[bool]string{true: "yes", false: "no"}[f.Deferred]+" "+f.Error.ErrorBody())
	}
	want := []string{
		`template.requirements[1].operator deferred=no Unsupported value: "Sometimes"`,
		`template.requirements[0].key deferred=yes Invalid value: "karpenter.sh/nodepool"`,
		`disruption.budgets deferred=yes Invalid value: 'schedule' must be set with 'duration'`,
	}
	if len(got) != len(want) {
		t.Fatalf("findings:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("no finding starts with %s:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// Without a blocking error nothing is deferred, and one rule's finding is reported once.
func TestFindingsWithoutBlockingErrorsAreNotDeferred(t *testing.T) {
	r := crdresource.New(nodepool.Kind)().(*crdresource.Resource)
	fs := r.Rejections(context.Background(), pool([]any{req("karpenter.sh/nodepool", "In", "x")}, nil))
	if len(fs) != 1 || fs[0].Deferred || fs[0].Path.String() != "template.requirements[0].key" {
		t.Fatalf("findings: %+v", fs)
	}
}

// The int32 range check names its field in the message only; it stays next to a blocking error.
func TestFindingsKeepNamedPathNextToBlockingError(t *testing.T) {
	r := crdresource.New(aksnodeclass.Kind)().(*crdresource.Resource)
	obj := map[string]any{"metadata": map[string]any{"name": "c"}, "spec": map[string]any{
		"imageFamily": "Windows",
		"kubelet":     map[string]any{"containerLogMaxFiles": int64(3000000000)},
	}}
	var paths []string
	for _, f := range r.Rejections(context.Background(), obj) {
		paths = append(paths, f.Path.String())
	}
	for _, w := range []string{"image_family", "kubelet.container_log_max_files"} {
		if !slices.Contains(paths, w) {
			t.Errorf("no finding on %s: %v", w, paths)
		}
	}
}
