package checks

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// Fact is one line of a NodePool's summary, e.g. {"limits", "cpu=200, memory=800Gi"}.
type Fact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// FactFunc describes a NodePool of a cluster for the summary. The solver adds one with what
// it computes (admissible SKUs, cheapest SKU and price, largest node, cost at the limits).
type FactFunc func(ctx context.Context, c *assemble.Cluster, pool *source.Object) []Fact

// PoolSummary describes one NodePool.
type PoolSummary struct {
	Cluster  string          `json:"cluster,omitempty"`
	Region   string          `json:"region,omitempty"`
	Name     string          `json:"name"`
	Location source.Location `json:"location"`
	Facts    []Fact          `json:"facts"`
	Errors   int             `json:"errors"`
	Warnings int             `json:"warnings"`
}

// DefaultFacts are what the manifests themselves say about a pool.
func DefaultFacts() []FactFunc { return []FactFunc{ManifestFacts, ProvisioningFacts} }

// summaryKey is a requirement key worth a summary line, with its short name.
type summaryKey struct{ key, name string }

// wellKnownKeys are the requirement keys worth a summary line for a pool of the cloud with the
// vocabulary: the core ones and the cloud's category and family labels (AKS: sku-family; EKS:
// instance-category, instance-family).
func wellKnownKeys(words cloud.Vocabulary) []summaryKey {
	out := []summaryKey{{"karpenter.sh/capacity-type", "capacity types"}, {"kubernetes.io/arch", "architectures"}}
	if words.CategoryKey != "" {
		out = append(out, summaryKey{words.CategoryKey, "instance categories"})
	}
	if words.FamilyKey == "karpenter.azure.com/sku-family" {
		out = append(out, summaryKey{words.FamilyKey, "SKU families"})
	} else if words.FamilyKey != "" {
		out = append(out, summaryKey{words.FamilyKey, "instance families"})
	}
	return append(out, summaryKey{"node.kubernetes.io/instance-type", "instance types"}, summaryKey{"topology.kubernetes.io/zone", "zones"})
}

// ManifestFacts summarizes weight, node class, limits, the well-known requirements and taints.
func ManifestFacts(_ context.Context, _ *assemble.Cluster, p *source.Object) []Fact {
	var out []Fact
	add := func(name string, v any) {
		if s := Show(v); s != "" {
			out = append(out, Fact{name, s})
		}
	}
	if r := p.Get("spec", "replicas"); r != nil {
		add("replicas (static)", r)
	} else {
		w := p.Get("spec", "weight")
		if w == nil {
			w = int64(0)
		}
		add("weight", w)
	}
	add("node class", p.Get("spec", "template", "spec", "nodeClassRef", "name"))
	if l := p.Get("spec", "limits"); l != nil {
		add("limits", l)
	} else if p.Get("spec", "replicas") == nil {
		out = append(out, Fact{"limits", "none"})
	}
	reqs, _ := p.Get("spec", "template", "spec", "requirements").([]any)
	words := cloud.VocabularyOf(analysis.CloudServing(p.String("spec", "template", "spec", "nodeClassRef", "group")))
	for _, k := range wellKnownKeys(words) {
		var parts []string
		for _, r := range reqs {
			rm, _ := r.(map[string]any)
			if rm["key"] != k.key {
				continue
			}
			parts = append(parts, describeRequirement(rm))
		}
		if len(parts) > 0 {
			out = append(out, Fact{k.name, strings.Join(parts, "; ")})
		}
	}
	taints, _ := p.Get("spec", "template", "spec", "taints").([]any)
	var ts []string
	for _, t := range taints {
		tm, _ := t.(map[string]any)
		s := Show(tm["key"])
		if v := Show(tm["value"]); v != "" {
			s += "=" + v
		}
		ts = append(ts, s+":"+Show(tm["effect"]))
	}
	if len(ts) > 0 {
		out = append(out, Fact{"taints", strings.Join(ts, ", ")})
	}
	add("consolidation", p.Get("spec", "disruption", "consolidationPolicy"))
	add("expire after", p.Get("spec", "template", "spec", "expireAfter"))
	return out
}

func describeRequirement(r map[string]any) string {
	op, _ := r["operator"].(string)
	vals := Show(r["values"])
	switch op {
	case "In":
		return vals
	case "NotIn":
		return "not " + vals
	case "Exists":
		return "any"
	case "DoesNotExist":
		return "none"
	}
	return op + " " + vals
}

// Show renders a value of a Kubernetes object for people: lists and maps flat and sorted.
func Show(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case crdtree.Unknown:
		return "(known after apply)"
	case string:
		return x
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			parts = append(parts, Show(e))
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		parts := make([]string, 0, len(x))
		for k, e := range x {
			parts = append(parts, k+"="+Show(e))
		}
		slices.Sort(parts)
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

func Summarize(ctx context.Context, clusters []*assemble.Cluster, facts []FactFunc, fs []source.Finding) []PoolSummary {
	var out []PoolSummary
	for _, c := range clusters {
		for _, p := range c.NodePools {
			s := PoolSummary{Cluster: c.Name, Region: c.Region, Name: p.Name, Location: p.At("")}
			for _, fn := range facts {
				s.Facts = append(s.Facts, fn(ctx, c, p)...)
			}
			for _, f := range fs {
				if f.Object != p.Label() || !slices.Contains(strings.Split(f.Cluster, ", "), c.Name) {
					continue
				}
				switch f.Severity() {
				case findings.Error:
					s.Errors++
				case findings.Warning:
					s.Warnings++
				}
			}
			out = append(out, s)
		}
	}
	return out
}
