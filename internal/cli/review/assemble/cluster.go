package assemble

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// Cluster is what one cluster will hold once the reviewed inputs are applied: the unit every
// Check judges, so that references and weights are compared only within one cluster.
type Cluster struct {
	Name string
	// Region is the Azure region the cluster runs in ("" when nobody said).
	Region      string
	NodePools   []*source.Object
	NodeClasses []*source.Object
	// ExternalNodeClasses exist in the cluster but are not part of the input (e.g. the
	// `default` AKSNodeClass that AKS Node Auto Provisioning creates).
	ExternalNodeClasses []string
	// SelfHosted: the cluster runs self-hosted Karpenter, so no AKSNodeClass exists that the
	// input does not define (with NAP, AKS creates `default`).
	SelfHosted bool
	// NodeOverlays are judged only for whether the target runs them (checks/check_nodeoverlay.go).
	NodeOverlays []*source.Object
	// Target is the Karpenter the cluster runs (zero: the pinned release and default gates).
	Target analysis.Target
}

// NAPNodeClass is the AKSNodeClass that AKS Node Auto Provisioning creates (and that its own
// pools, default and system-surge, reference).
const NAPNodeClass = "default"

// ClusterLabel names a cluster in messages; the cluster of inputs that no config maps is
// unnamed (not "default", which is also the name of NAP's node class).
func ClusterLabel(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	return name
}

// ClusterPhrase is "cluster prod" or "the reviewed input" for the unnamed cluster.
func ClusterPhrase(name string) string {
	if name == "" {
		return "the reviewed input"
	}
	return "cluster " + name
}

// nodeOverlayKind is the NodeOverlay of the CRDs AKS ships (karpenter.sh/v1alpha1).
var nodeOverlayKind = kinds.NodeOverlay.GVK.GroupKind()
