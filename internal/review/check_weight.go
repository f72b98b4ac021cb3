package review

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// CheckEqualWeights reports pairs of dynamic NodePools with the same weight whose
// requirements (template labels included) can be met by one node and that carry the same
// taints: they compete for the same pods, and Karpenter breaks the tie by name (it orders
// equal weights by name, descending), which nobody reading the manifests expects.
// Requirements are intersected with Karpenter's own scheduling package, so NotIn and
// DoesNotExist and the numeric operators mean what they mean to Karpenter. Pools whose
// weight, requirements or taints are unknown until apply, or invalid, are left out.
func CheckEqualWeights(_ context.Context, c *Cluster) []Finding {
	type pool struct {
		o      *Object
		weight int64
		reqs   scheduling.Requirements
		taints string
	}
	var pools []pool
	for _, o := range c.NodePools {
		if o.Get("spec", "replicas") != nil {
			continue // a static pool keeps a fixed node count and takes no pending pods
		}
		w, ok := weight(o)
		if !ok {
			continue
		}
		reqs, ok := requirements(o)
		if !ok {
			continue
		}
		taints, ok := taintKey(o)
		if !ok {
			continue
		}
		pools = append(pools, pool{o: o, weight: w, reqs: reqs, taints: taints})
	}
	// Karpenter's order: weight descending, then name descending.
	slices.SortFunc(pools, func(a, b pool) int {
		return cmp.Or(cmp.Compare(b.weight, a.weight), strings.Compare(b.o.Name, a.o.Name))
	})
	var out []Finding
	for i, first := range pools {
		for _, second := range pools[i+1:] {
			if second.weight != first.weight || second.taints != first.taints || second.o.Name == first.o.Name {
				continue
			}
			if first.reqs.Intersects(second.reqs) != nil {
				continue
			}
			f := second.o.Finding(findings.EqualWeightOverlap, weightField(second.o),
				fmt.Sprintf("NodePools %s and %s both have weight %d, the same taints and requirements that one node can meet; "+
					"Karpenter tries %s first only because its name sorts later, so %s gets just the pods %s cannot take",
					first.o.Name, second.o.Name, first.weight, first.o.Name, second.o.Name, first.o.Name),
				fmt.Sprintf("Give the pool that should win a higher spec.weight than the other, or make the requirements of %s and %s exclusive (e.g. different values of one label key).", first.o.Name, second.o.Name))
			f.Related = []Location{first.o.At(weightField(first.o))}
			out = append(out, f)
		}
	}
	return out
}

func weightField(o *Object) string {
	if o.Get("spec", "weight") != nil {
		return "spec.weight"
	}
	return "metadata.name"
}

// weight is spec.weight, 0 when unset as in Karpenter.
func weight(o *Object) (int64, bool) {
	switch w := o.Get("spec", "weight").(type) {
	case nil:
		return 0, true
	case int64:
		return w, true
	case float64:
		return int64(w), w == float64(int64(w))
	}
	return 0, false
}

// requirements are the pool's template requirements and labels as Karpenter reads them.
func requirements(o *Object) (scheduling.Requirements, bool) {
	raw := o.Get("spec", "template", "spec", "requirements")
	labels := o.Get("spec", "template", "metadata", "labels")
	if hasUnknown(raw) || hasUnknown(labels) {
		return nil, false
	}
	var reqs []karpv1.NodeSelectorRequirementWithMinValues
	if raw != nil && !remarshal(raw, &reqs) {
		return nil, false
	}
	for _, r := range reqs {
		switch r.Operator {
		case "In", "NotIn", "Exists", "DoesNotExist":
		case "Gt", "Lt", "Gte", "Lte":
			// Karpenter parses these without checking; the schema check reports bad ones.
			if len(r.Values) != 1 {
				return nil, false
			}
			if _, err := strconv.Atoi(r.Values[0]); err != nil {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	var lbls map[string]string
	if labels != nil && !remarshal(labels, &lbls) {
		return nil, false
	}
	out := scheduling.NewNodeSelectorRequirementsWithMinValues(reqs...)
	out.Add(scheduling.NewLabelRequirements(lbls).Values()...)
	return out, true
}

// taintKey is a canonical form of the taints that keep pods away (NoSchedule, NoExecute);
// PreferNoSchedule and startup taints do not decide which pods a pool can take.
func taintKey(o *Object) (string, bool) {
	raw := o.Get("spec", "template", "spec", "taints")
	if hasUnknown(raw) {
		return "", false
	}
	var taints []struct{ Key, Value, Effect string }
	if raw != nil && !remarshal(raw, &taints) {
		return "", false
	}
	var keys []string
	for _, t := range taints {
		if t.Effect == "NoSchedule" || t.Effect == "NoExecute" {
			keys = append(keys, t.Key+"="+t.Value+":"+t.Effect)
		}
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), ","), true
}

func remarshal(in, out any) bool {
	b, err := json.Marshal(in)
	return err == nil && json.Unmarshal(b, out) == nil
}

func hasUnknown(v any) bool {
	switch x := v.(type) {
	case tfcrd.Unknown:
		return true
	case map[string]any:
		for _, e := range x {
			if hasUnknown(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasUnknown(e) {
				return true
			}
		}
	}
	return false
}
