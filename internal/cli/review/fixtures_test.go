package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

// A single-cluster repository with every kind of problem: API server rejections, a missing
// node class, competing pools, a pool without limits, limits that hold fewer than three of a
// pool's largest nodes (KRP119 on old, batch and arm), removed and deprecated versions, a
// typo in a kind, malformed YAML followed by a valid document, a Helm template, and files the
// review must pass over (other kinds, a hidden CI workflow with broken YAML).
func TestSingleClusterRepository(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/single")
	sameLines(t, out.brief(), []string{
		"testdata/single/chart/templates/pool.yaml:1 KRP006 ",
		"testdata/single/legacy.yaml:1:1 KRP002 NodePool/old apiVersion",
		"testdata/single/legacy.yaml:7:3 KRP119 NodePool/old spec.limits",
		"testdata/single/legacy.yaml:14:1 KRP003 AKSNodeClass/legacy apiVersion",
		"testdata/single/malformed.yaml:5 KRP005 ",
		"testdata/single/malformed.yaml:13:3 KRP001 AKSNodeClass/after-the-bad-one spec.osDiskSizeGB",
		"testdata/single/pools.yaml:30:3 KRP202 NodePool/batch spec.weight",
		"testdata/single/pools.yaml:41:3 KRP119 NodePool/batch spec.limits",
		"testdata/single/pools.yaml:64:3 KRP119 NodePool/arm spec.limits",
		"testdata/single/pools.yaml:77:9 KRP201 NodePool/broken spec.template.spec.nodeClassRef.name",
		"testdata/single/pools.yaml:79:11 KRP001 NodePool/broken spec.template.spec.requirements[0].key",
		"testdata/single/typo.yaml:2:1 KRP004 Nodepool/typo kind",
	})
	byCode := map[string]string{}
	for _, f := range out.Findings {
		byCode[f.Code] = f.Message
	}
	// The API server's own words, not a paraphrase.
	if m := byCode["KRP001"]; !strings.Contains(m, `label "karpenter.sh/nodepool" is restricted`) && !strings.Contains(m, "greater than or equal to 30") {
		t.Errorf("KRP001 message %q", m)
	}
	if m := byCode["KRP202"]; !strings.Contains(m, "general and batch both have weight 10") {
		t.Errorf("KRP202 message %q", m)
	}
	if m := byCode["KRP201"]; !strings.Contains(m, `"missing"`) || !strings.Contains(m, "default") {
		t.Errorf("KRP201 message %q", m)
	}
	// The competing pool is named as a related location.
	for _, f := range out.Findings {
		if f.Code == "KRP202" && (len(f.Related) != 1 || f.Related[0].Line != 6) {
			t.Errorf("KRP202 related = %+v, want pools.yaml:6 (general's weight)", f.Related)
		}
	}
	// The broken pool's missing limits are not reported: the API server rejects the pool, and
	// provisioning checks run only on objects it would accept.
	if out.Summary.Errors != 7 || out.Summary.Warnings != 5 || out.Summary.Notes != 0 {
		t.Errorf("summary %+v", out.Summary)
	}
	// 5 pools: old (karpenter.sh/v1beta1, checked as converted to v1), general, batch, arm
	// (requirements exclusive of both), broken; the pass-over files (other.yaml, the hidden
	// workflow) contribute nothing.
	var pools []string
	for _, p := range out.Pools {
		pools = append(pools, p.Name)
	}
	if strings.Join(pools, ",") != "old,general,batch,arm,broken" {
		t.Errorf("pools %v", pools)
	}
	if out.Files != 7 {
		t.Errorf("files = %d, want 7 (the hidden .github directory is skipped)", out.Files)
	}
}

// A multi-cluster GitOps repository: a shared Kustomize base pulled in by two overlays, a
// strategic-merge patch in one, and a config file with a region (written as people write it),
// suppressions and externally created node classes per cluster.
func TestMultiClusterRepository(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "testdata/multi")
	sameLines(t, out.brief(), []string{
		// The patch's invalid value is reported in the patch, at its line.
		"testdata/multi/clusters/prod-weu/general-limits.yaml:10:5 KRP001 NodePool/general spec.disruption.consolidateAfter [prod-weu]",
		// Only dev has a node class named gpu: prod's pool cannot use it.
		"testdata/multi/clusters/prod-weu/gpu.yaml:11:9 KRP201 NodePool/gpu spec.template.spec.nodeClassRef.name [prod-weu]",
		// Its 8 GPUs hold one of its largest sizes (8 GPUs): one NodeClaim of any size per round.
		"testdata/multi/clusters/prod-weu/gpu.yaml:19:3 KRP119 NodePool/gpu spec.limits [prod-weu]",
		// In dev, the base's general pool competes with dev's spot pool (weight 0 both).
		"testdata/multi/base/general.yaml:4:3 KRP202 NodePool/general metadata.name [dev-eus]",
		// dev's general and spot pools admit GPU sizes without a taint (the solver's KRP109).
		"testdata/multi/base/general.yaml:7:5 KRP109 NodePool/general spec.template.spec.taints [dev-eus]",
		"testdata/multi/clusters/dev-eus/spot.yaml:7:5 KRP109 NodePool/spot spec.template.spec.taints [dev-eus]",
	})
	if out.Config != "testdata/multi/.karpenter-review.yaml" {
		t.Errorf("config = %q", out.Config)
	}
	// dev suppresses KRP104 (general and spot have no limits); prod's general got limits
	// from its patch, so prod has no KRP104 at all.
	if out.Suppressed != 2 {
		t.Errorf("suppressed = %d, want 2", out.Suppressed)
	}
	// The JSON report lists what was suppressed, not only how much.
	var suppressed []string
	for _, f := range out.SuppressedFindings {
		suppressed = append(suppressed, fmt.Sprintf("%s %s %s [%s]", report.PlaceOf(f.Location), f.Code, f.Object, f.Cluster))
	}
	sameLines(t, suppressed, []string{
		"testdata/multi/base/general.yaml:5:1 KRP104 NodePool/general [dev-eus]",
		"testdata/multi/clusters/dev-eus/spot.yaml:5:1 KRP104 NodePool/spot [dev-eus]",
	})
	got := map[string]string{}
	for _, c := range out.Clusters {
		got[c.Name] = c.Region
	}
	if len(got) != 2 || got["prod-weu"] != "westeurope" || got["dev-eus"] != "eastus" {
		t.Errorf("clusters %+v", out.Clusters)
	}
	if out.Clusters[0].Name != "prod-weu" {
		t.Errorf("clusters are listed in config order: %+v", out.Clusters)
	}
	for _, p := range out.Pools {
		if p.Cluster == "prod-weu" && p.Name == "general" {
			if !hasFact(p.Facts, "limits", "cpu=400") {
				t.Errorf("prod's general pool should carry the patched limits: %+v", p.Facts)
			}
		}
		if p.Cluster == "dev-eus" && p.Name == "general" && hasFact(p.Facts, "limits", "cpu=400") {
			t.Errorf("dev's general pool must not see prod's patch: %+v", p.Facts)
		}
	}
}

func hasFact(facts []checks.Fact, name, value string) bool {
	for _, f := range facts {
		if f.Name == name && f.Value == value {
			return true
		}
	}
	return false
}

// Rendered output on standard input (kustomize build, helm template): a kind: List, a
// namespace added by Kustomize (harmless on cluster-scoped kinds), lines counted in the
// stream, and --region for the default cluster.
func TestStdin(t *testing.T) {
	stream := `apiVersion: v1
kind: List
items:
  - apiVersion: karpenter.azure.com/v1beta1
    kind: AKSNodeClass
    metadata:
      name: default
      namespace: karpenter
    spec:
      imageFamily: AzureLinux
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
  namespace: karpenter
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: Sometimes, values: [spot]}
  limits: {cpu: "10"}
`
	out := runJSON(t, stream, ExitFindings, "--region", "West Europe", "-")
	sameLines(t, out.brief(), []string{
		"stdin:22:45 KRP001 NodePool/general spec.template.spec.requirements[0].operator",
		// The namespace Kustomize added is ignored by the API server: a note each.
		"stdin:8:7 KRP009 AKSNodeClass/default metadata.namespace",
		"stdin:16:3 KRP009 NodePool/general metadata.namespace",
	})
	if out.Clusters[0].Region != "westeurope" || out.Pools[0].Region != "westeurope" {
		t.Errorf("region: %+v", out.Clusters)
	}
}
