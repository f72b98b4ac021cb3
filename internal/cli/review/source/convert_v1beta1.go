package source

import (
	"strings"
)

// ConvertV1beta1NodePool converts a karpenter.sh/v1beta1 NodePool to v1 the way Karpenter's
// v1.0 conversion webhook did (sigs.k8s.io/karpenter v1.0.x, pkg/apis/v1/nodepool_conversion.go),
// on the object as v1beta1 stored it (with its defaults), so that every check can run on
// what the migration will produce. AKS no longer serves v1beta1, so the review does this for
// review only; moved lists what changed place or value, in the words of a migration step.
// The positions follow the moved fields, so findings point at what the author wrote.
func ConvertV1beta1NodePool(obj map[string]any, fields Positions) (map[string]any, Positions, []string, bool) {
	out := DeepCopy(obj).(map[string]any)
	pos := fields.Clone()
	var moved []string
	out["apiVersion"] = "karpenter.sh/v1"
	spec := child(out, "spec")
	disruption := child(spec, "disruption")
	tmplSpec := child(child(spec, "template"), "spec")

	// expireAfter moved from the disruption block to the node claim template (the v1beta1
	// default, 720h, is also v1's).
	if v, ok := disruption["expireAfter"]; ok {
		delete(disruption, "expireAfter")
		tmplSpec["expireAfter"] = v
		pos.Move([]string{"spec", "disruption", "expireAfter"}, []string{"spec", "template", "spec", "expireAfter"})
		moved = append(moved, "spec.disruption.expireAfter → spec.template.spec.expireAfter")
	}
	// WhenUnderutilized (v1beta1's default) became WhenEmptyOrUnderutilized, which in v1 also
	// needs consolidateAfter: the conversion sets 0s, v1beta1's behaviour.
	policy, _ := disruption["consolidationPolicy"].(string)
	if policy == "" || policy == "WhenUnderutilized" {
		disruption["consolidationPolicy"] = "WhenEmptyOrUnderutilized"
		disruption["consolidateAfter"] = "0s"
		moved = append(moved, "consolidationPolicy WhenUnderutilized → WhenEmptyOrUnderutilized with consolidateAfter: 0s")
	}
	// nodeClassRef names the group instead of an apiVersion, and kind and group are required.
	// v1beta1's providers defaulted an absent apiVersion and kind to their own node class, so a
	// reference with only a name is the node class of the cloud the pool's labels belong to.
	guessed := false
	if ref, ok := tmplSpec["nodeClassRef"].(map[string]any); ok {
		class, inferred := nodeClassOfLabels(tmplSpec["requirements"], ref)
		guessed = !inferred
		if av, _ := ref["apiVersion"].(string); av != "" {
			class.Group, _, _ = strings.Cut(av, "/")
			guessed = false
			pos.Move([]string{"spec", "template", "spec", "nodeClassRef", "apiVersion"}, []string{"spec", "template", "spec", "nodeClassRef", "group"})
		}
		delete(ref, "apiVersion")
		if g, has := ref["group"].(string); has && g != "" {
			guessed = false
		} else {
			ref["group"] = class.Group
		}
		if k, _ := ref["kind"].(string); k == "" {
			ref["kind"] = class.Kind
		}
		moved = append(moved, "nodeClassRef.apiVersion → nodeClassRef.group (kind and group are required)")
	}
	// kubelet settings moved to the node class; v1.0 kept them in an annotation only to
	// convert back.
	if _, ok := tmplSpec["kubelet"]; ok {
		delete(tmplSpec, "kubelet")
		pos.Drop([]string{"spec", "template", "spec", "kubelet"})
		moved = append(moved, "spec.template.spec.kubelet → the AKSNodeClass's spec.kubelet (not reviewed here)")
	}
	// v1 dropped the node claim template's resources.
	if _, ok := tmplSpec["resources"]; ok {
		delete(tmplSpec, "resources")
		pos.Drop([]string{"spec", "template", "spec", "resources"})
		moved = append(moved, "spec.template.spec.resources is removed in v1")
	}
	return out, pos, moved, guessed
}

// child returns the map at key of m, creating it when missing. A value that is not a map is
// left for the schema check to reject, and a detached map returned.
func child(m map[string]any, key string) map[string]any {
	if v, ok := m[key]; ok {
		if c, isMap := v.(map[string]any); isMap {
			return c
		}
		return map[string]any{}
	}
	c := map[string]any{}
	m[key] = c
	return c
}
