package review

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

const gettingStartedEKS = "../../../examples/eks/getting-started"

// Issue 15's done-when: the getting-started NodePool of Karpenter on EKS, with its AL2023
// EC2NodeClass, passes review --region us-east-1 (no error; notes: the EC2 catalog has no
// zones, KRP125; the on-demand pool would save with spot, KRP117) and admits hundreds of EC2
// instance types, judged against the EC2 catalog with EKS words. Its one warning is KRP119: its
// 1000 vCPU hold two of its largest types (384 vCPU), so a provisioning round opens only two
// NodeClaims of any type; the fix caps instance-cpu, the EC2 label.
func TestEKSGettingStartedReview(t *testing.T) {
	t.Chdir(gettingStartedEKS)
	out := runJSON(t, "", ExitClean, "--region", "us-east-1", ".")
	sameLines(t, out.brief(), []string{
		"nodepool.yaml:4:1 KRP125 NodePool/default",
		"nodepool.yaml:20:11 KRP117 NodePool/default spec.template.spec.requirements[2].values",
		"nodepool.yaml:32:3 KRP119 NodePool/default spec.limits",
	})
	if out.Summary.Errors != 0 || out.Summary.Warnings != 1 {
		t.Errorf("summary %+v", out.Summary)
	}
	for _, f := range out.Findings {
		if f.Code == "KRP119" && (!strings.Contains(f.Message, "with 384 vCPU, against cpu=1000") || !strings.Contains(f.Message, "only 2 new NodeClaims") ||
			!strings.Contains(f.Fix, "require karpenter.k8s.aws/instance-cpu Lt ")) {
			t.Errorf("KRP119: %s / %s", f.Message, f.Fix)
		}
	}
	if len(out.Pools) != 1 {
		t.Fatalf("pools %+v", out.Pools)
	}
	facts := map[string]string{}
	for _, f := range out.Pools[0].Facts {
		facts[f.Name] = f.Value
	}
	n, err := strconv.Atoi(facts["admissible instance types"])
	t.Logf("getting-started pool: %s admissible instance types in us-east-1, cheapest %s", facts["admissible instance types"], facts["cheapest"])
	if err != nil || n < 200 {
		t.Errorf("admissible instance types %q, want hundreds (facts %v)", facts["admissible instance types"], facts)
	}
	// README, the EKS guide and the EKS notes quote the count: it must be this one.
	for file, re := range map[string]*regexp.Regexp{
		"../../../README.md":                    regexp.MustCompile(`getting-started` + "`" + ` \((\d+) admissible types`),
		"../../../templates/guides/eks.md.tmpl": regexp.MustCompile(`getting-started pool above admits (\d+)\s+instance types`),
		"../../../docs-notes/eks.md":            regexp.MustCompile(`admits (\d+) us-east-1 types`),
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := re.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s does not quote the getting-started pool's admissible types (%s)", file, re)
		} else if string(m[1]) != strconv.Itoa(n) {
			t.Errorf("%s says the getting-started pool admits %s types; review counts %d", file, m[1], n)
		}
	}
	if !strings.HasPrefix(facts["cheapest"], "c") || !strings.Contains(facts["cheapest"], ".") || facts["instance categories"] != "c, m, r" {
		t.Errorf("facts %v", facts)
	}
	for _, f := range out.Findings {
		if strings.Contains(f.Message, "30 seconds") || strings.Contains(f.Message, "Azure") || strings.Contains(f.Message, "AKS") {
			t.Errorf("%s speaks of Azure on an EKS pool: %s", f.Code, f.Message)
		}
	}
}

// instance-cpu Gt 4096 on the getting-started pool fits no EC2 instance type: KRP101 naming
// the requirement.
func TestEKSNoInstanceType(t *testing.T) {
	dir := t.TempDir()
	copyExample(t, dir, `        - key: karpenter.k8s.aws/instance-cpu
          operator: Gt
          values: ["4096"]
`)
	out := runJSON(t, "", ExitFindings, "--region", "us-east-1", dir)
	i := slices.IndexFunc(out.Findings, func(f struct {
		Code, Severity, Message, Fix, Object, Cluster string
		source.Location
		Related []source.Location
	}) bool {
		return f.Code == "KRP101"
	})
	if i < 0 || !strings.Contains(out.Findings[i].Message, "karpenter.k8s.aws/instance-cpu Gt [4096]") {
		t.Errorf("no KRP101 for instance-cpu Gt 4096: %v", out.brief())
	}
}

// An EKS pool whose EC2NodeClass is not in the input gets KRP201 (EKS creates no default node
// class); an AKS pool in the same input still needs an AKSNodeClass, not the EC2NodeClass.
func TestEKSNodeClassRef(t *testing.T) {
	dir := t.TempDir()
	copyExample(t, dir, "")
	writeFile(t, dir+"/ec2nodeclass.yaml", "# no node class\n")
	out := runJSON(t, "", ExitFindings, "--region", "us-east-1", dir)
	if m, _ := messageOf(t, out, "KRP201"); !strings.Contains(m, `EC2NodeClass "default" is not part of the reviewed input`) {
		t.Errorf("KRP201: %q (%v)", m, out.brief())
	}
}

// copyExample writes the getting-started example into dir, with extra requirements appended.
func copyExample(t *testing.T, dir, extra string) {
	t.Helper()
	pool := readFile(t, gettingStartedEKS+"/nodepool.yaml")
	if extra != "" {
		pool = strings.Replace(pool, "      nodeClassRef:\n", extra+"      nodeClassRef:\n", 1)
	}
	writeFile(t, dir+"/nodepool.yaml", pool)
	writeFile(t, dir+"/ec2nodeclass.yaml", readFile(t, gettingStartedEKS+"/ec2nodeclass.yaml"))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An EKS pool is validated by the NodePool CRD the AWS provider ships: a typo under
// karpenter.k8s.aws is rejected there ("label domain ... is restricted", as kubectl apply on an
// EKS cluster says) with the key meant, while kubernetes.azure.com/* keys, restricted on AKS,
// are custom labels on EKS (KRP106 names the EKS key of the same role instead).
func TestEKSPoolValidatedByAWSNodePoolCRD(t *testing.T) {
	dir := t.TempDir()
	copyExample(t, dir, `        - key: karpenter.k8s.aws/instance-famly
          operator: In
          values: ["m5"]
        - key: kubernetes.azure.com/sku-cpu
          operator: Lt
          values: ["9"]
`)
	out := runJSON(t, "", ExitFindings, "--region", "us-east-1", dir)
	var rejected []string
	for _, f := range out.Findings {
		if f.Code == "KRP001" {
			rejected = append(rejected, f.Field+": "+f.Message+" / "+f.Fix)
		}
	}
	if len(rejected) != 1 || !strings.Contains(rejected[0], `spec.template.spec.requirements[5].key`) ||
		!strings.Contains(rejected[0], `label domain "karpenter.k8s.aws" is restricted`) || !strings.Contains(rejected[0], `"karpenter.k8s.aws/instance-family"`) {
		t.Errorf("KRP001 %q, want only the karpenter.k8s.aws typo rejected", rejected)
	}
}

// A review config's cluster can be an EKS cluster: its region is an AWS region of the EC2
// catalog, and the cluster's pools are judged there.
func TestEKSClusterInConfig(t *testing.T) {
	dir := t.TempDir()
	copyExample(t, dir, "")
	writeFile(t, dir+"/.karpenter-review.yaml", "clusters:\n  - {name: eks-prod, paths: [\"*.yaml\"], region: us-gov-west-1}\n")
	t.Chdir(dir)
	out := runJSON(t, "", ExitClean, ".")
	if len(out.Clusters) != 1 || out.Clusters[0].Name != "eks-prod" || out.Clusters[0].Region != "us-gov-west-1" {
		t.Fatalf("clusters %+v", out.Clusters)
	}
	if len(out.Pools) != 1 || !slices.Contains(out.Pools[0].Facts, checks.Fact{Name: "checked against", Value: "us-gov-west-1"}) {
		t.Errorf("pools %+v", out.Pools)
	}
	for _, r := range []string{"us-east-1", "us-gov-east-1", "cn-north-1", "westeurope"} {
		if got, err := config.NormalizeRegion(r); err != nil || got != r {
			t.Errorf("NormalizeRegion(%q) = %q, %v", r, got, err)
		}
	}
	if _, err := config.NormalizeRegion("us-east-9"); err == nil || !strings.Contains(err.Error(), "did you mean") {
		t.Errorf("us-east-9: %v", err)
	}
}
