package review

import (
	"testing"
)

// Odd but parseable input never crashes the review: it ends with findings or clean, never
// with an exit code that claims the input could not be read (--allow-empty: some hold no
// Karpenter object, which is otherwise exit 2).
func TestOddInputs(t *testing.T) {
	for name, doc := range map[string]string{
		"metadata not a map":  "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: 5\n",
		"spec a list":         "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec: [1, 2]\n",
		"requirements a map":  "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec: {template: {spec: {requirements: {a: b}, taints: 3}}, weight: x}\n",
		"items not a list":    "apiVersion: v1\nkind: List\nitems: 7\n",
		"top-level list":      "- a\n- b\n",
		"scalar document":     "just text\n",
		"kind not a string":   "apiVersion: karpenter.sh/v1\nkind: [NodePool]\n",
		"plan without values": `{"format_version": "1.2", "resource_changes": [{"address": "karpenter_nodepool.a", "mode": "managed", "type": "karpenter_nodepool", "change": {"actions": ["create"], "after": {"template": 5, "limits": [1]}}}]}`,
		"plan of wrong types": `{"format_version": "1.2", "planned_values": {"root_module": {"resources": "none"}}}`,
		"anchors and aliases": "x: &a {name: n}\n---\napiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata: *a\n",
		// Karpenter's requirement parser reads Gt's one value unchecked; the CRD validation says what is wrong.
		"Gt without a value": "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec: {template: {spec: {nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}, requirements: [{key: karpenter.azure.com/sku-cpu, operator: Gt, values: []}]}}}\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := run(t, doc, "--allow-empty", "-")
			if r.code != ExitClean && r.code != ExitFindings {
				t.Errorf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
			}
		})
	}
}
