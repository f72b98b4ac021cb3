package review

import (
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/fleet"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

const twoClusters = `clusters:
  - {name: a, region: westeurope, paths: [a]}
  - {name: b, region: %s, paths: [b]}
groups:
  - name: g
    clusters: [a, b]
`

func poolYAML(spec string) string {
	return "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: p\nspec:\n" + spec
}

const basePool = `  weight: 10
  disruption:
    consolidateAfter: 5m
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      expireAfter: 720h
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D, E]}
        - {key: topology.kubernetes.io/zone, operator: In, values: [westeurope-1]}
  limits: {cpu: "100"}
`

func messagesOf(o jsonOut, code string) []string {
	var out []string
	for _, f := range o.Findings {
		if f.Code == code {
			out = append(out, f.Cluster+": "+f.Message)
		}
	}
	return out
}

func region(r string) string { return strings.Replace(twoClusters, "%s", r, 1) }

// Requirements are compared per key, and the note names the keys that differ with both values;
// the order of requirements and values does not matter.
func TestFleetRequirementsDiffer(t *testing.T) {
	other := strings.NewReplacer("values: [D, E]", "values: [E, D, F]", "values: [on-demand]", "values: [spot]").Replace(basePool)
	// Move the zone requirement first: not a difference.
	dir := writeFleetTree(t, region("westeurope"), map[string]string{"a/p.yaml": poolYAML(basePool), "b/p.yaml": poolYAML(other)})
	out, _ := fleetReport(t, dir)
	got := messagesOf(out, "KRP322")
	want := "b: requirements of NodePool/p differ from cluster a in group g: karpenter.azure.com/sku-family is In [D, E, F] in b, In [D, E] in a; " +
		"karpenter.sh/capacity-type is In [spot] in b, In [on-demand] in a"
	if len(got) != 1 || got[0] != want {
		t.Errorf("KRP322 %q\nwant %q", got, want)
	}
	if n := len(fleetFindings(out)); n != 1 {
		t.Errorf("fleet findings %v", fleetFindings(out))
	}
}

// Zone requirements differ between clusters in different regions without being drift; the
// same difference within one region, or with compareRegional, is reported.
func TestFleetRegionalKeys(t *testing.T) {
	other := strings.Replace(basePool, "westeurope-1", "northeurope-1", 1)
	files := map[string]string{"a/p.yaml": poolYAML(basePool), "b/p.yaml": poolYAML(other)}
	out, fl := fleetReport(t, writeFleetTree(t, region("northeurope"), files))
	if got := fleetFindings(out); len(got) != 0 || !fl.Fleet.Groups[0].Regional {
		t.Errorf("regions differ: %v, groups %+v", got, fl.Fleet.Groups)
	}
	out, _ = fleetReport(t, writeFleetTree(t, region("westeurope"), files))
	if got := messagesOf(out, "KRP322"); len(got) != 1 || !strings.Contains(got[0], "topology.kubernetes.io/zone is In [northeurope-1] in b, In [westeurope-1] in a") {
		t.Errorf("same region: %q", got)
	}
	out, fl = fleetReport(t, writeFleetTree(t, region("northeurope")+"    compareRegional: true\n", files))
	if got := messagesOf(out, "KRP322"); len(got) != 1 || fl.Fleet.Groups[0].Regional {
		t.Errorf("compareRegional: %q", got)
	}
}

// Weight, disruption and expiry differences are KRP323 naming each field; a field the API
// server defaults is the same whether written or not; limits are compared by value.
func TestFleetSettingsDiffer(t *testing.T) {
	other := strings.NewReplacer("weight: 10", "weight: 20", "consolidateAfter: 5m", "consolidateAfter: 10m",
		"      expireAfter: 720h\n", "", `cpu: "100"`, "cpu: 100000m").Replace(basePool)
	dir := writeFleetTree(t, region("westeurope"), map[string]string{"a/p.yaml": poolYAML(basePool), "b/p.yaml": poolYAML(other)})
	out, _ := fleetReport(t, dir)
	got := messagesOf(out, "KRP323")
	want := "b: settings of NodePool/p differ from cluster a in group g: spec.disruption.consolidateAfter is 10m in b, 5m in a; spec.weight is 20 in b, 10 in a"
	if len(got) != 1 || got[0] != want {
		t.Errorf("KRP323 %q\nwant %q", got, want)
	}
	for _, f := range out.Findings {
		if f.Code == "KRP323" && (f.Field != "spec.disruption.consolidateAfter" || !strings.HasSuffix(f.File, "b/p.yaml") || f.Line != 8) {
			t.Errorf("KRP323 at %s field %s", report.PlaceOf(f.Location), f.Field)
		}
	}
	if len(fleetFindings(out)) != 1 {
		t.Errorf("fleet findings %v (expireAfter 720h is the default; 100000m is 100)", fleetFindings(out))
	}
}

// Three clusters: the value two share is the reference, and only the third is noted; a node
// class that differs is KRP324, its subnet (the cluster's own) and its metadata are not compared.
func TestFleetNodeClassAndMajority(t *testing.T) {
	cfg := `clusters:
  - {name: a, region: westeurope, paths: [a]}
  - {name: b, region: westeurope, paths: [b]}
  - {name: c, region: westeurope, paths: [c]}
groups:
  - {name: g, clusters: [a, b, c]}
`
	class := func(subnet, disk, label string) string {
		return "apiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata:\n  name: std\n  labels: {team: " + label + "}\nspec:\n" +
			"  vnetSubnetID: /subscriptions/0/resourceGroups/" + subnet + "/providers/Microsoft.Network/virtualNetworks/v/subnets/s\n" +
			"  osDiskSizeGB: " + disk + "\n"
	}
	dir := writeFleetTree(t, cfg, map[string]string{
		"a/c.yaml": class("ra", "128", "x"), "b/c.yaml": class("rb", "64", "y"), "c/c.yaml": class("rc", "128", "z"),
	})
	out, _ := fleetReport(t, dir)
	got := messagesOf(out, "KRP324")
	want := "b: settings of AKSNodeClass/std differ from clusters a, c in group g: spec.osDiskSizeGB is 64 in b, 128 in a, c"
	if len(got) != 1 || got[0] != want {
		t.Errorf("KRP324 %q\nwant %q", got, want)
	}
}

// A member the reviewed paths hold nothing for is not compared (reviewing one cluster's
// directory does not report the others' pools as missing); a node class a cluster lists as
// external, or NAP's default, counts as present.
func TestFleetPresence(t *testing.T) {
	cfg := `clusters:
  - {name: a, region: westeurope, paths: [a]}
  - {name: b, region: westeurope, paths: [b], externalNodeClasses: [std]}
  - {name: c, region: westeurope, paths: [c]}
  - {name: d, region: westeurope, paths: [d]}
groups:
  - {name: g, clusters: [a, b, c, d]}
`
	class := "apiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata:\n  name: std\nspec: {}\n"
	dir := writeFleetTree(t, cfg, map[string]string{
		"a/p.yaml": poolYAML(basePool) + "---\n" + class, "b/p.yaml": poolYAML(basePool), "c/p.yaml": class,
	})
	out, fl := fleetReport(t, dir)
	got := messagesOf(out, "KRP320")
	want := "c: NodePool/p is in clusters a, b of group g but not in c"
	if len(got) != 1 || got[0] != want {
		t.Errorf("KRP320 %q\nwant %q", got, want)
	}
	if g := fl.Fleet.Groups[0]; strings.Join(g.Compared, ",") != "a,b,c" {
		t.Errorf("compared %v", g.Compared)
	}
	out, fl = fleetReport(t, "--config", dir+"/.karpenter-review.yaml", dir+"/a")
	if fl.Fleet != nil || len(fleetFindings(out)) != 0 {
		t.Errorf("one cluster reviewed: fleet %+v, findings %v", fl.Fleet, fleetFindings(out))
	}
}

// Suppressing a KRP32x code for a cluster in the config drops its note, as for any code.
func TestFleetSuppressPerCluster(t *testing.T) {
	cfg := strings.Replace(region("westeurope"), "paths: [b]}", "paths: [b], suppress: [KRP321]}", 1)
	other := strings.Replace(basePool, `cpu: "100"`, `cpu: "50"`, 1)
	out, _ := fleetReport(t, writeFleetTree(t, cfg, map[string]string{"a/p.yaml": poolYAML(basePool), "b/p.yaml": poolYAML(other)}))
	if len(fleetFindings(out)) != 0 || out.Suppressed != 1 {
		t.Errorf("findings %v, suppressed %d", fleetFindings(out), out.Suppressed)
	}
}

// A value known only after apply (a plan's) is not compared: the member may well end up equal.
// Without that, an unknown limit read as "no limits" and an unknown expireAfter as its default.
func TestFleetUnknownValuesNotCompared(t *testing.T) {
	pool := func(cpu, expire any) *source.Object {
		return &source.Object{GVK: kinds.NodePool.GVK, Name: "p", Source: source.Source{File: "main.tf"}, Body: map[string]any{
			"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": map[string]any{"name": "p"},
			"spec": map[string]any{
				"limits": map[string]any{"cpu": cpu},
				"template": map[string]any{"spec": map[string]any{
					"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
					"expireAfter":  expire,
					"requirements": []any{},
				}},
			},
		}}
	}
	cfg := &config.Config{Groups: []config.GroupConfig{{Name: "g", Clusters: []string{"a", "b"}}}}
	a := &assemble.Cluster{Name: "a", Region: "westeurope", NodePools: []*source.Object{pool("100", "24h")}}
	b := &assemble.Cluster{Name: "b", Region: "westeurope", NodePools: []*source.Object{pool(crdtree.Unknown{}, crdtree.Unknown{})}}
	if got := fleet.FleetDrift(cfg, []*assemble.Cluster{a, b}); len(got) != 0 {
		t.Errorf("unknown values compared: %v", got)
	}
	// Known values that differ are reported, so the case above is not vacuous.
	b.NodePools = []*source.Object{pool("50", "48h")}
	if got := fleet.FleetDrift(cfg, []*assemble.Cluster{a, b}); len(got) != 2 {
		t.Errorf("known differences: %v", got)
	}
}

// Whatever two clusters' documents hold, comparing them never panics and every note has a
// message and a cluster.
func FuzzFleetDrift(f *testing.F) {
	f.Add([]byte(poolYAML(basePool)), []byte(poolYAML(strings.Replace(basePool, "weight: 10", "weight: [1]", 1))))
	f.Add([]byte(poolYAML("  limits: {cpu: x}\n  template: 3\n")), []byte(poolYAML("  limits: [1]\n")))
	f.Add([]byte("apiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata: {name: s}\nspec: {tags: {a.b: c}}\n"),
		[]byte("apiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata: {name: s}\nspec: 5\n"))
	cfg := &config.Config{Groups: []config.GroupConfig{{Name: "g", Clusters: []string{"a", "b"}}}}
	f.Fuzz(func(t *testing.T, x, y []byte) {
		var cs []*assemble.Cluster
		for i, data := range [][]byte{x, y} {
			c := &assemble.Cluster{Name: string(rune('a' + i)), Region: "westeurope"}
			docs, _ := source.ParseYAMLStream("f.yaml", data)
			for _, d := range docs {
				objs, _ := source.ObjectsOf("f.yaml", d)
				for _, o := range objs {
					if o.GVK.Kind == "NodePool" {
						c.NodePools = append(c.NodePools, o)
					} else {
						c.NodeClasses = append(c.NodeClasses, o)
					}
				}
			}
			cs = append(cs, c)
		}
		for _, fd := range fleet.FleetDrift(cfg, cs) {
			if fd.Message == "" || fd.Cluster == "" {
				t.Fatalf("finding %+v", fd)
			}
		}
	})
}
