package benchcmp

import (
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// azureLaunchers gives every pool the Azure provider's launch choice, as the scenarios are AKS ones.
func azureLaunchers(pools []*karpv1.NodePool) map[string]cloud.Launcher {
	out := make(map[string]cloud.Launcher, len(pools))
	for _, np := range pools {
		out[np.Name] = aks.NewCloud(nil)
	}
	return out
}
