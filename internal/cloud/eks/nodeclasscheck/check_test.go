package nodeclasscheck

import (
	"context"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// nodeClass is a valid EC2NodeClass (the getting-started one) with spec fields replaced.
func nodeClass(t *testing.T, name string, spec string) map[string]any {
	t.Helper()
	base := `
role: KarpenterNodeRole-demo
amiSelectorTerms: [{alias: al2023@v20240625}]
subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
`
	var s, over map[string]any
	if err := yaml.Unmarshal([]byte(base), &s); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(spec), &over); err != nil {
		t.Fatal(err)
	}
	for k, v := range over {
		s[k] = v
	}
	return map[string]any{"apiVersion": "karpenter.k8s.aws/v1", "kind": "EC2NodeClass", "metadata": map[string]any{"name": name}, "spec": s}
}

// apiServerErrors are the API server's own rejections of obj (its validators, offline).
func apiServerErrors(t *testing.T, obj map[string]any) []string {
	t.Helper()
	return crdvalidate.Messages(crdvalidate.MustFor(kinds.EC2NodeClass.GVK).Validate(context.Background(), obj))
}

func brief(fs []findings.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Code)+" "+f.Severity().String()+" "+f.Path)
	}
	return out
}

// Each case is an object the API server accepts (checked with its own validators), so every
// finding is about something the validation lets through; the cases the CRD's CEL rejects get
// no finding from this package (the validation reports them).
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, objName, spec string
		rejected            bool // the API server rejects it: no finding here
		want                []string
	}{
		{name: "getting started", objName: "default", want: nil},
		{name: "latest outside production", objName: "dev", spec: `amiSelectorTerms: [{alias: al2023@latest}]`},
		{name: "latest in a production name", objName: "prod-general", spec: `amiSelectorTerms: [{alias: al2023@latest}]`,
			want: []string{"KRP120 warning spec.amiSelectorTerms[0].alias"}},
		{name: "latest with a production tag", objName: "general", spec: `{amiSelectorTerms: [{alias: bottlerocket@latest}], tags: {Environment: Production}}`,
			want: []string{"KRP120 warning spec.amiSelectorTerms[0].alias"}},
		{name: "product is not prod", objName: "product-api", spec: `amiSelectorTerms: [{alias: al2023@latest}]`},
		{name: "windows admits only latest", objName: "prod-win", spec: `amiSelectorTerms: [{alias: windows2022@latest}]`},
		{name: "empty subnet tags", objName: "a", spec: `subnetSelectorTerms: [{tags: {}}]`,
			want: []string{"KRP121 error spec.subnetSelectorTerms[0].tags"}},
		{name: "empty security group tags", objName: "a", spec: `securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}, {tags: {}}]`,
			want: []string{"KRP121 error spec.securityGroupSelectorTerms[1].tags"}},
		{name: "empty AMI tags with an owner", objName: "a", spec: `{amiFamily: AL2023, amiSelectorTerms: [{tags: {}, owner: amazon}]}`,
			want: []string{"KRP121 error spec.amiSelectorTerms[0].tags"}},
		{name: "AMI name with empty tags selects by name", objName: "a", spec: `{amiFamily: AL2023, amiSelectorTerms: [{name: my-ami-*, tags: {}}]}`},
		{name: "empty term is CEL's", objName: "a", spec: `subnetSelectorTerms: [{}]`, rejected: true},
		{name: "malformed subnet id, another term selects", objName: "a",
			spec: `subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}, {id: subnet-12345}]`,
			want: []string{"KRP122 warning spec.subnetSelectorTerms[1].id"}},
		{name: "malformed ids only", objName: "a", spec: `securityGroupSelectorTerms: [{id: sg-0123456789abcdefz}, {id: my-sg-0123abcd}]`,
			want: []string{"KRP122 error spec.securityGroupSelectorTerms[0].id", "KRP122 error spec.securityGroupSelectorTerms[1].id"}},
		{name: "well-formed ids", objName: "a", spec: `{subnetSelectorTerms: [{id: subnet-0123abcd}, {id: subnet-0123456789abcdef0}], amiFamily: AL2023, amiSelectorTerms: [{id: ami-0123456789abcdef0}]}`},
		{name: "subnet id with tags in one term of two", objName: "a",
			spec: `subnetSelectorTerms: [{id: subnet-0123abcd, tags: {tier: private}}, {tags: {karpenter.sh/discovery: demo}}]`,
			want: []string{"KRP123 warning spec.subnetSelectorTerms[0].tags"}},
		{name: "subnet id with tags in every term is CEL's", objName: "a",
			spec: `subnetSelectorTerms: [{id: subnet-0123abcd, tags: {tier: private}}]`, rejected: true},
		{name: "security group name with tags in one term of two", objName: "a",
			spec: `securityGroupSelectorTerms: [{name: nodes, tags: {tier: private}}, {id: sg-0123abcd}]`,
			want: []string{"KRP123 warning spec.securityGroupSelectorTerms[0].tags"}},
		{name: "AMI ssmParameter with tags", objName: "a",
			spec: `{amiFamily: AL2023, amiSelectorTerms: [{ssmParameter: /my/ami, tags: {team: a}}]}`,
			want: []string{"KRP123 warning spec.amiSelectorTerms[0].tags"}},
		{name: "AMI id with tags is CEL's", objName: "a",
			spec: `{amiFamily: AL2023, amiSelectorTerms: [{id: ami-0123abcd, tags: {team: a}}, {name: x}]}`, rejected: true},
		{name: "role and instanceProfile is CEL's", objName: "a", spec: `instanceProfile: KarpenterNodeInstanceProfile`, rejected: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := nodeClass(t, tc.objName, tc.spec)
			errs := apiServerErrors(t, obj)
			if tc.rejected != (len(errs) > 0) {
				t.Fatalf("API server rejects: %v, want rejected=%v", errs, tc.rejected)
			}
			got := brief(Check(obj))
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings = %q, want %q", got, tc.want)
			}
		})
	}
}

// The messages say what Karpenter would select, and the fix is concrete.
func TestMessages(t *testing.T) {
	fs := Check(nodeClass(t, "a", `{amiFamily: AL2023, amiSelectorTerms: [{tags: {}}]}`))
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "public AMIs of any owner") || !strings.Contains(fs[0].Fix, "karpenter.sh/discovery") {
		t.Errorf("KRP121 on AMIs: %+v", fs)
	}
	fs = Check(nodeClass(t, "prod", `amiSelectorTerms: [{alias: bottlerocket@latest}]`))
	if len(fs) != 1 || !strings.Contains(fs[0].Message, `its name "prod"`) || !strings.Contains(fs[0].Fix, "bottlerocket@v1.10.0") {
		t.Errorf("KRP120: %+v", fs)
	}
}
