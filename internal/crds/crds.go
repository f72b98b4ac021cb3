package crds

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	azapis "github.com/Azure/karpenter-provider-azure/pkg/apis"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// BundleAnnotation marks a CRD this provider installed with the Bundle it came from, so that
// CRDs installed by an older provider version are recognised and upgraded.
const BundleAnnotation = "karpenter-iac.github.io/crd-bundle"

// Bundle identifies the CRDs this build ships: a hash of their content.
var Bundle = sync.OnceValue(func() string {
	h := sha256.New()
	for _, c := range azapis.CRDs {
		b, err := json.Marshal(c)
		if err != nil {
			panic(err) // CRD types always marshal
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

// All returns the NodePool, NodeClaim, NodeOverlay and AKSNodeClass CRDs.
func All() []*apiextensionsv1.CustomResourceDefinition {
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(azapis.CRDs))
	for _, c := range azapis.CRDs {
		out = append(out, c.DeepCopy())
	}
	return out
}
