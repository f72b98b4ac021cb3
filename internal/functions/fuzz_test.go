package functions

import (
	"fmt"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/nodepool"
)

// The manifest reader of nodepool_from_yaml and aksnodeclass_from_yaml: any text gives the one
// object of the function's kind or an argument error, never a panic.
func FuzzPickManifest(f *testing.F) {
	f.Add("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n---\napiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\n")
	f.Add("---\n---\n{}\n")
	f.Add("apiVersion: [karpenter.sh/v1]\nkind: {NodePool: 1}\n")
	f.Add("x: &a [*a, *a]\n")
	fn := &FromYAML{kind: nodepool.Kind}
	f.Fuzz(func(t *testing.T, manifest string) {
		obj, err := fn.pick(manifest)
		if err == nil && (fmt.Sprint(obj["kind"]) != "NodePool" || fmt.Sprint(obj["apiVersion"]) != "karpenter.sh/v1") {
			t.Fatalf("picked %v", obj)
		}
	})
}
