package review

import (
	"slices"
	"strings"
	"testing"
)

// A karpenter.sh/v1beta1 EKS NodePool whose nodeClassRef names only the EC2NodeClass is an EKS
// pool: its karpenter.k8s.aws requirements say so, and without them the region does. It is
// checked against the EC2 catalog (no KRP114), and KRP002 does not speak of AKS.
func TestV1beta1EKSPoolIsEKS(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "--region", "us-east-1", "testdata/realworld/eks-v1beta1")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/eks-v1beta1/nodepool.yaml:3:1 KRP002 NodePool/default apiVersion",
		"testdata/realworld/eks-v1beta1/nodepool.yaml:3:1 KRP125 NodePool/default",
		"testdata/realworld/eks-v1beta1/nodepool.yaml:19:11 KRP110 NodePool/default spec.template.spec.requirements[2].values",
		"testdata/realworld/eks-v1beta1/nodepool.yaml:27:9 KRP201 NodePool/default spec.template.spec.nodeClassRef.name",
		"testdata/realworld/eks-v1beta1/nodepool.yaml:28:3 KRP119 NodePool/default spec.limits",
	})
	for _, f := range out.Findings {
		if f.Code == "KRP002" && strings.Contains(f.Message, "AKS installs") {
			t.Errorf("KRP002 speaks of AKS: %s", f.Message)
		}
		if f.Code == "KRP201" && !strings.Contains(f.Message, `EC2NodeClass "default"`) {
			t.Errorf("KRP201 does not look for the EC2NodeClass: %s", f.Message)
		}
	}
	// Without a provider label the region decides; an Azure region keeps the AKS reading.
	bare := "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\nspec:\n  template:\n    spec:\n      nodeClassRef: {name: default}\n      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]\n  limits: {cpu: 100}\n"
	for region, want := range map[string]string{"us-east-1": `EC2NodeClass "default"`, "westeurope": ""} {
		out := runJSON(t, bare, ExitFindings, "--region", region, "-")
		var codes []string
		for _, f := range out.Findings {
			codes = append(codes, f.Code)
			if f.Code == "KRP201" && !strings.Contains(f.Message, want) {
				t.Errorf("%s: KRP201 %s, want %s", region, f.Message, want)
			}
		}
		if slices.Contains(codes, "KRP114") || (want != "") != slices.Contains(codes, "KRP201") {
			t.Errorf("%s: findings %v", region, codes)
		}
	}
}

// An EKS Auto Mode NodePool (Auto Mode's NodeClass, eks.amazonaws.com labels) gets one note,
// KRP011, and no error: not KRP201's "only provides AKSNodeClass", not KRP114.
func TestEKSAutoModePoolIsANote(t *testing.T) {
	for _, region := range []string{"us-west-2", "westeurope"} {
		out := runJSON(t, "", ExitClean, "--region", region, "--strict", "testdata/realworld/eks-automode")
		sameLines(t, out.brief(), []string{"testdata/realworld/eks-automode/nodepool.yaml:14:7 KRP011 NodePool/my-node-pool spec.template.spec.nodeClassRef"})
		if !strings.Contains(out.Findings[0].Message, "EKS Auto Mode") {
			t.Errorf("%s: %s", region, out.Findings[0].Message)
		}
	}
}
