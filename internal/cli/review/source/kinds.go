package source

import (
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// reviewedKinds are the kinds the review judges: Karpenter's NodePool and NodeOverlay and the
// node classes of the clouds it reviews for (AKSNodeClass, EC2NodeClass); other kinds of the Karpenter groups
// (NodeClaim) are passed over like any other Kubernetes object.
var reviewedKinds = func() map[schema.GroupKind]bool {
	m := map[schema.GroupKind]bool{}
	for _, k := range writtenKinds() {
		m[k.GVK.GroupKind()] = true
	}
	return m
}()

// writtenKinds are the kinds a reviewed manifest may hold, in the order the fix for an
// unknown kind names them: the pools, the node classes of the reviewed clouds (AKS first), the
// overlays.
func writtenKinds() []*kinds.Kind {
	var out []*kinds.Kind
	out = append(out, kinds.WithRole(kinds.Pool)...)
	for _, k := range kinds.WithRole(kinds.NodeClass) {
		if k.Cloud == kinds.AKSNodeClass.Cloud {
			out = append(out, k)
		}
	}
	for _, k := range kinds.WithRole(kinds.NodeClass) {
		if k.Cloud == kinds.EC2NodeClass.Cloud {
			out = append(out, k)
		}
	}
	return append(out, kinds.WithRole(kinds.Overlay)...)
}

// useKindsFix is the fix for a kind no Karpenter CRD defines: the pool and node-class kinds
// to write, each with its apiVersion.
func useKindsFix() string {
	var alts []string
	for _, k := range writtenKinds() {
		if k.Role != kinds.Overlay {
			alts = append(alts, fmt.Sprintf("%s with apiVersion %s", k.GVK.Kind, k.APIVersion()))
		}
	}
	return "Use kind " + strings.Join(alts, ", or ")
}

// karpenterCRDs indexes the CRDs AKS ships and the EC2NodeClass CRD by group and kind, so that the versions a
// document may use come from the CRDs themselves.
var karpenterCRDs = func() map[schema.GroupKind]*apiextensionsv1.CustomResourceDefinition {
	m := map[schema.GroupKind]*apiextensionsv1.CustomResourceDefinition{}
	for _, c := range crds.Known() {
		m[schema.GroupKind{Group: c.Spec.Group, Kind: c.Spec.Names.Kind}] = c
	}
	return m
}()

func karpenterGroup(group string) bool {
	for gk := range karpenterCRDs {
		if gk.Group == group {
			return true
		}
	}
	return false
}

// verdict is what the review does with a document of a given apiVersion and kind.
type verdict struct {
	Review bool // a NodePool or AKSNodeClass of a served version
	gvk    schema.GroupVersionKind
	// Problem, when set, is reported (with message and fix) instead of or besides reviewing.
	Problem      findings.Code
	message, fix string
}

// Classify decides from apiVersion and kind alone; documents outside the Karpenter groups
// get the zero verdict and are ignored.
func Classify(apiVersion, kind string) verdict {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || !karpenterGroup(gv.Group) {
		return verdict{}
	}
	gvk := gv.WithKind(kind)
	crd, ok := karpenterCRDs[gvk.GroupKind()]
	if !ok {
		return verdict{Problem: findings.UnknownKind,
			message: fmt.Sprintf("no Karpenter CRD defines kind %q in group %s", kind, gv.Group),
			fix:     useKindsFix() + kindHint(kind) + "."}
	}
	if !reviewedKinds[gvk.GroupKind()] {
		return verdict{}
	}
	storage := ""
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			storage = gv.Group + "/" + v.Name
		}
	}
	for _, v := range crd.Spec.Versions {
		if v.Name != gv.Version || !v.Served {
			continue
		}
		out := verdict{Review: true, gvk: gvk}
		if v.Deprecated {
			out.Problem = findings.VersionDeprecated
			out.message = fmt.Sprintf("%s %s is deprecated", apiVersion, kind)
			if v.DeprecationWarning != nil {
				out.message += ": " + *v.DeprecationWarning
			}
			out.fix = fmt.Sprintf("Move the object to apiVersion %s.", storage)
		}
		return out
	}
	return verdict{Problem: findings.VersionNotServed, gvk: gvk,
		message: fmt.Sprintf("%s %s is not served by %s", apiVersion, kind, crdsOf(gv.Group)),
		fix:     fmt.Sprintf("Migrate the object to apiVersion %s (see the Karpenter v1 migration guide: field names and defaults changed).", storage)}
}

// crdsOf names who serves a group's CRDs: Karpenter's own (karpenter.sh) are the same on every
// cloud, a node class's are its cloud's.
func crdsOf(group string) string {
	switch group {
	case kinds.NodePool.GVK.Group:
		return "Karpenter v1's CRDs (on any cloud)"
	case kinds.EC2NodeClass.GVK.Group:
		return "the CRDs karpenter-provider-aws ships"
	}
	return "the Karpenter CRDs AKS installs"
}

// kindHint names the kind the author probably meant when only the case or group is wrong.
func kindHint(kind string) string {
	for gk := range reviewedKinds {
		if strings.EqualFold(kind, gk.Kind) || strings.EqualFold(strings.TrimSuffix(kind, "s"), gk.Kind) {
			return fmt.Sprintf(" (%s belongs to group %s)", gk.Kind, gk.Group)
		}
	}
	return ""
}

// OtherClouds are the groups of the node classes of Karpenter's cloud providers this build
// does not serve (AKS and EKS are served).
var OtherClouds = map[string]string{
	"karpenter.k8s.gcp": "Google Cloud",
	// EKS Auto Mode is managed Karpenter with a NodeClass of its own and labels under
	// eks.amazonaws.com (https://docs.aws.amazon.com/eks/latest/userguide/create-node-pool.html),
	// which neither this build's EKS cloud nor its EC2 catalog models.
	"eks.amazonaws.com": "EKS Auto Mode",
}
