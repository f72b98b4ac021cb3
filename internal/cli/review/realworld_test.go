package review

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// Cases found by reviewing real-world Azure Karpenter manifests and comparing every verdict
// with a kube-apiserver carrying the same CRDs.

// briefOf is brief() restricted to some codes.
func briefOf(out jsonOut, codes ...string) []string {
	var keep []string
	for _, l := range out.brief() {
		for _, c := range codes {
			if strings.Contains(l, " "+c+" ") {
				keep = append(keep, l)
			}
		}
	}
	return keep
}

func messageOf(t *testing.T, out jsonOut, code string) (string, string) {
	t.Helper()
	for _, f := range out.Findings {
		if f.Code == code {
			return f.Message, f.Fix
		}
	}
	t.Fatalf("no %s among %v", code, out.brief())
	return "", ""
}

// AKS Node Auto Provisioning creates the `default` AKSNodeClass (NAP's own system-surge pool
// uses it): a pool referencing it is not an error unless the cluster runs self-hosted
// Karpenter. (The export's 100 vCPU hold one of its largest D sizes, 96 vCPU: KRP119.)
func TestNAPDefaultNodeClass(t *testing.T) {
	out := runJSON(t, "", ExitClean, "testdata/realworld/nap")
	sameLines(t, out.brief(), []string{"testdata/realworld/nap/system-surge.yaml:12:3 KRP119 NodePool/system-surge spec.limits"})
	if len(out.Pools) != 1 || !hasFact(out.Pools[0].Facts, "node class settings", "defaults assumed (the default class AKS Node Auto Provisioning creates)") {
		t.Errorf("pools %+v", out.Pools)
	}

	out = runJSON(t, "", ExitFindings, "testdata/realworld/selfhosted")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/selfhosted/system-surge.yaml:12:3 KRP119 NodePool/system-surge spec.limits",
		"testdata/realworld/selfhosted/system-surge.yaml:19:9 KRP201 NodePool/system-surge spec.template.spec.nodeClassRef.name",
	})
	if m, _ := messageOf(t, out, "KRP201"); !strings.Contains(m, "self-hosted") || !strings.Contains(m, "not part of the reviewed input") {
		t.Errorf("KRP201 message %q", m)
	}
}

// A namespace on a cluster-scoped NodePool is ignored by the API server; the pool is checked
// as any other, and a note says so.
func TestNamespacedNodePoolIsChecked(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/realworld/namespace.yaml")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/namespace.yaml:6:3 KRP009 NodePool/batch metadata.namespace",
		"testdata/realworld/namespace.yaml:7:1 KRP104 NodePool/batch spec.limits",
		"testdata/realworld/namespace.yaml:14:7 KRP101 NodePool/batch spec.template.spec.requirements",
		"testdata/realworld/namespace.yaml:17:9 KRP107 NodePool/batch spec.template.spec.requirements[0].values",
	})
}

// Fields the CRD does not define are pruned by the API server with only a warning: the review
// reports each, found by the API server's own pruning, and says where a v1beta1 field went.
func TestUnknownFields(t *testing.T) {
	out := runJSON(t, "", ExitClean, "testdata/realworld/unknown-fields.yaml")
	sameLines(t, briefOf(out, "KRP001", "KRP010"), []string{
		"testdata/realworld/unknown-fields.yaml:10:5 KRP010 NodePool/general spec.disruption.expireAfter",
		"testdata/realworld/unknown-fields.yaml:30:3 KRP010 AKSNodeClass/pinned spec.imageVersion",
		"testdata/realworld/unknown-fields.yaml:31:3 KRP010 AKSNodeClass/pinned spec.osDiskDiskEncryptionSetID",
	})
	for _, f := range out.Findings {
		if f.Code == "KRP010" && f.Field == "spec.disruption.expireAfter" && !strings.Contains(f.Fix, "spec.template.spec.expireAfter") {
			t.Errorf("the v1beta1 leftover should say where it moved: %q", f.Fix)
		}
		if f.Code == "KRP010" && f.Field == "spec.osDiskDiskEncryptionSetID" && !strings.Contains(f.Fix, "--node-osdisk-diskencryptionset-id") {
			t.Errorf("the disk encryption set is an operator setting: %q", f.Fix)
		}
	}
}

// An EKS repository: the NodePool targets Karpenter on AWS and is reviewed against the EC2
// catalog with the EC2NodeClass CRD's own validation (this EC2NodeClass lacks the subnet and
// security-group selector terms the CRD requires); no Azure fact or word.
func TestOtherCloud(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/realworld/eks")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/eks/ec2nodeclass.yaml:5:1 KRP001 EC2NodeClass/default spec.securityGroupSelectorTerms",
		"testdata/realworld/eks/ec2nodeclass.yaml:5:1 KRP001 EC2NodeClass/default spec.subnetSelectorTerms",
		"testdata/realworld/eks/nodepool.yaml:2:1 KRP125 NodePool/gpu",
		"testdata/realworld/eks/nodepool.yaml:6:1 KRP104 NodePool/gpu spec.limits",
		"testdata/realworld/eks/nodepool.yaml:8:5 KRP109 NodePool/gpu spec.template.spec.taints",
	})
	for _, p := range out.Pools {
		if slices.ContainsFunc(p.Facts, func(f checks.Fact) bool { return f.Name == "admissible SKUs" || strings.Contains(f.Value, "Standard_") }) {
			t.Errorf("an AWS pool gets no Azure facts: %+v", p.Facts)
		}
	}
	if m, fix := messageOf(t, out, "KRP109"); !strings.Contains(m, "GPU instance type(s)") || !strings.Contains(fix, "karpenter.k8s.aws/instance-gpu-count") {
		t.Errorf("KRP109 on the EKS pool: %q / %q", m, fix)
	}
}

// A typo in a key of Karpenter's own domains gets the API server's "restricted" error and the
// key the author probably meant.
func TestRestrictedKeyTypoSuggestion(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/realworld/typos.yaml")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/typos.yaml:16:9 KRP001 NodePool/typos spec.template.spec.requirements[0].key",
		"testdata/realworld/typos.yaml:19:9 KRP001 NodePool/typos spec.template.spec.requirements[1].key",
	})
	want := map[string]string{
		"spec.template.spec.requirements[0].key": `"karpenter.azure.com/sku-family"`,
		"spec.template.spec.requirements[1].key": `"karpenter.sh/capacity-type"`,
	}
	for _, f := range out.Findings {
		if !strings.Contains(f.Fix, "Did you mean "+want[f.Field]) || !strings.Contains(f.Message, "restricted") {
			t.Errorf("%s: message %q fix %q", f.Field, f.Message, f.Fix)
		}
	}
}

// values: [N] is the boolean false for kubectl; the rejection says to quote it.
func TestYAML11BooleanHint(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/realworld/yaml11-bool.yaml")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/yaml11-bool.yaml:18:18 KRP001 NodePool/bool spec.template.spec.requirements[0].values[0]",
	})
	if m, fix := messageOf(t, out, "KRP001"); !strings.Contains(m, "unquoted N is read as a boolean") || fix != `Quote the value: "N".` {
		t.Errorf("message %q fix %q", m, fix)
	}
}

// "Required value" alone names neither the field nor the rule.
func TestRequiredValueNamesField(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/realworld/required.yaml")
	m, fix := messageOf(t, out, "KRP001")
	if !strings.HasPrefix(m, "spec.template.spec.nodeClassRef is required: the CRD lists it as required in spec.template.spec") || fix != "Set spec.template.spec.nodeClassRef." {
		t.Errorf("message %q fix %q", m, fix)
	}
}

// A rejection caused by what an overlay's patch merged into a map of the base (a label in a
// restricted domain, replicas next to limits) points at the patch, not at the base's line.
func TestOverlayPatchLocation(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/realworld/overlay/prod")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/overlay/prod/pool-patch.yaml:7:1 KRP001 NodePool/general spec",
		"testdata/realworld/overlay/prod/pool-patch.yaml:11:7 KRP001 NodePool/general spec.template.metadata.labels",
	})
}

// A karpenter.sh/v1beta1 NodePool is checked as Karpenter's v1 migration converts it: the
// mistakes behind KRP002 (a zone "1", a size name as a family) are reported at the lines the
// author wrote, and KRP002 says what the migration moves.
func TestV1beta1NodePoolIsConverted(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "--region", "westeurope", "testdata/realworld/v1beta1.yaml")
	sameLines(t, out.brief(), []string{
		"testdata/realworld/v1beta1.yaml:3:1 KRP002 NodePool/gpu apiVersion",
		"testdata/realworld/v1beta1.yaml:23:7 KRP101 NodePool/gpu spec.template.spec.requirements",
		"testdata/realworld/v1beta1.yaml:26:9 KRP107 NodePool/gpu spec.template.spec.requirements[0].values",
		"testdata/realworld/v1beta1.yaml:29:9 KRP107 NodePool/gpu spec.template.spec.requirements[1].values",
	})
	m, _ := messageOf(t, out, "KRP002")
	for _, want := range []string{"spec.disruption.expireAfter → spec.template.spec.expireAfter", "WhenEmptyOrUnderutilized",
		"nodeClassRef.apiVersion → nodeClassRef.group", "spec.template.spec.kubelet → the AKSNodeClass's spec.kubelet"} {
		if !strings.Contains(m, want) {
			t.Errorf("KRP002 lacks %q: %s", want, m)
		}
	}
	for _, f := range out.Findings {
		if f.Code == "KRP107" && f.Field == "spec.template.spec.requirements[0].values" && !strings.Contains(f.Message, `did you mean "westeurope-1"`) {
			t.Errorf("zone 1 should suggest westeurope-1: %s", f.Message)
		}
	}
}

// The conversion itself, field by field, on a v1beta1 object that relies on its defaults.
func TestConvertV1beta1NodePool(t *testing.T) {
	in := map[string]any{"apiVersion": "karpenter.sh/v1beta1", "kind": "NodePool", "metadata": map[string]any{"name": "p"},
		"spec": map[string]any{
			"disruption": map[string]any{"expireAfter": "Never"},
			"template": map[string]any{"spec": map[string]any{
				"nodeClassRef": map[string]any{"name": "default"},
				"kubelet":      map[string]any{"maxPods": int64(110)},
				"resources":    map[string]any{"requests": map[string]any{"cpu": "1"}},
				"requirements": []any{},
			}}}}
	fields := source.Positions{source.PosKey([]string{"spec", "disruption", "expireAfter"}): source.Pos{Line: 7}}
	got, pos, moved, _ := source.ConvertV1beta1NodePool(in, fields)
	want := map[string]any{"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": map[string]any{"name": "p"},
		"spec": map[string]any{
			"disruption": map[string]any{"consolidationPolicy": "WhenEmptyOrUnderutilized", "consolidateAfter": "0s"},
			"template": map[string]any{"spec": map[string]any{
				"expireAfter":  "Never",
				"nodeClassRef": map[string]any{"name": "default", "group": "karpenter.azure.com", "kind": "AKSNodeClass"},
				"requirements": []any{},
			}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("converted\n%#v\nwant\n%#v", got, want)
	}
	if p := pos[source.PosKey([]string{"spec", "template", "spec", "expireAfter"})]; p.Line != 7 {
		t.Errorf("expireAfter keeps the line it was written at: %+v", pos)
	}
	if len(moved) != 5 {
		t.Errorf("moved %v", moved)
	}
	if _, ok := in["spec"].(map[string]any)["disruption"].(map[string]any)["expireAfter"]; !ok {
		t.Error("the input was modified")
	}
}

// A v1beta1 NodePool of the wrong shape is converted as far as it goes; the schema check
// reports the rest, and nothing panics.
func TestV1beta1MalformedShapes(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\nspec: nope\n",
		"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: b}\nspec: {disruption: [1], template: {spec: {nodeClassRef: x, kubelet: 3}}}\n",
		"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: c}\n",
	} {
		out := runJSON(t, doc, ExitFindings, "-")
		if len(briefOf(out, "KRP001")) == 0 || len(briefOf(out, "KRP002")) != 1 {
			t.Errorf("%q: %v", doc, out.brief())
		}
	}
}

// A repository that keeps a v1beta1 copy of a pool next to its v1 version: the cluster can
// only hold the v1 one, so the copy gets KRP002 and no duplicate finding, and the v1 pool is
// the one checked.
func TestV1beta1CopyOfV1Pool(t *testing.T) {
	stream := `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {name: default}
      requirements: [{key: karpenter.azure.com/sku-family, operator: In, values: [D]}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  limits: {cpu: "10"}
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements: [{key: karpenter.azure.com/sku-family, operator: In, values: [E]}, {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["3"]}]
`
	out := runJSON(t, stream, ExitFindings, "-")
	sameLines(t, out.brief(), []string{"stdin:1:1 KRP002 NodePool/general apiVersion"})
	if len(out.Pools) != 1 || out.Pools[0].Location.Line != 10 {
		t.Errorf("pools %+v", out.Pools)
	}
}

// An EC2NodeClass's own findings (KRP120–KRP123) are raised by the review at the field's
// line, through the function the karpenter_ec2nodeclass plan uses, once each.
func TestEC2NodeClassFindings(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/realworld/eks-findings")
	var own []string // KRP12x: the class's own findings, whatever else the review says of it
	for _, l := range out.brief() {
		if strings.Contains(l, " KRP12") {
			own = append(own, l)
		}
	}
	sameLines(t, own, []string{
		"testdata/realworld/eks-findings/ec2nodeclass.yaml:11:5 KRP120 EC2NodeClass/general spec.amiSelectorTerms[0].alias",
		"testdata/realworld/eks-findings/ec2nodeclass.yaml:13:5 KRP121 EC2NodeClass/general spec.subnetSelectorTerms[0].tags",
		"testdata/realworld/eks-findings/ec2nodeclass.yaml:17:5 KRP122 EC2NodeClass/general spec.securityGroupSelectorTerms[1].id",
	})
	if m, _ := messageOf(t, out, "KRP120"); !strings.Contains(m, "label env=prod") {
		t.Errorf("KRP120 does not say why the class looks like production: %q", m)
	}
}

// A NodePool for EKS is judged by the NodePool CRD an EKS cluster serves, as in the plan: a
// typo in the karpenter.k8s.aws domain is rejected (KRP001), the label agentpool, which only
// AKS's CRD restricts, is not.
func TestEKSPoolsJudgedByEKSNodePoolCRD(t *testing.T) {
	r := run(t, "", "--format", "json", "testdata/realworld/eks-pool-labels")
	var out jsonOut
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, r.stdout)
	}
	var rejected []string
	for _, l := range out.brief() {
		if strings.Contains(l, " KRP001 ") {
			rejected = append(rejected, l)
		}
	}
	sameLines(t, rejected, []string{
		"testdata/realworld/eks-pool-labels/nodepool.yaml:11:9 KRP001 NodePool/typo spec.template.spec.requirements[0].key",
	})
}
