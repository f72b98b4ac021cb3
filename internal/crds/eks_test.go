package crds

import "testing"

// The EC2NodeClass CRD is known (kinds, validation) but not in All, which the NAP resource
// installs into AKS clusters and Bundle hashes.
func TestEKSIsKnownButNotInstalledWithAKS(t *testing.T) {
	eks := EKS()
	if len(eks) != 1 || eks[0].Spec.Group != "karpenter.k8s.aws" || eks[0].Spec.Names.Kind != "EC2NodeClass" {
		t.Fatalf("EKS() = %v", eks)
	}
	for _, c := range All() {
		if c.Spec.Group == "karpenter.k8s.aws" {
			t.Errorf("All() holds %s", c.Name)
		}
	}
	if got, want := len(Known()), len(All())+1; got != want {
		t.Errorf("Known() has %d CRDs, want %d", got, want)
	}
}
