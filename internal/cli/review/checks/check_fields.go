package checks

import (
	"fmt"
	"slices"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// movedInV1 are fields of Karpenter's v1beta1 API that v1 moved, keyed by where a v1 object
// still carrying them has them (from the Karpenter v1 migration guide).
var movedInV1 = map[string]string{
	"spec.disruption.expireAfter":                "spec.template.spec.expireAfter (v1 moved it from spec.disruption)",
	"spec.template.spec.kubelet":                 "the AKSNodeClass's spec.kubelet (v1 moved kubelet settings to the node class)",
	"spec.template.spec.nodeClassRef.apiVersion": "spec.template.spec.nodeClassRef.group, without the version (v1 references the node class by group and kind)",
}

// settledElsewhere are unknown fields seen in real AKSNodeClasses whose intent the Azure
// provider takes from somewhere else, or not at all.
var settledElsewhere = map[string]string{
	"spec.osDiskDiskEncryptionSetID": "Karpenter on Azure takes the disk encryption set from its operator setting " +
		"--node-osdisk-diskencryptionset-id (NODE_OSDISK_DISKENCRYPTIONSET_ID; with NAP, the cluster's diskEncryptionSetID), not from the AKSNodeClass.",
	"spec.imageVersion": "The AKSNodeClass cannot pin a node image version: Karpenter picks the image from spec.imageFamily " +
		"(the images it uses are in status.images). Remove the field.",
}

// unknownFieldFindings reports the fields the API server would prune from obj (the object as
// sent, without its namespace and unknown values), exactly as it finds them: the structural
// schema pruning of the CRD's version, which answers each with an `unknown field` warning.
func unknownFieldFindings(o *source.Object, v *crdvalidate.Validator, obj map[string]any) []source.Finding {
	paths := pruning.PruneWithOptions(source.DeepCopy(obj), v.Structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	slices.Sort(paths)
	var out []source.Finding
	for _, p := range paths {
		msg := fmt.Sprintf("unknown field %q: the %s CRD (%s) does not define it, so the API server drops it with a warning and its setting has no effect", p, o.GVK.Kind, o.GVK.GroupVersion())
		fix := fmt.Sprintf("Remove %s, or move its setting to a field the CRD defines.", p)
		if to, ok := movedInV1[p]; ok && o.GVK.GroupKind() == kinds.NodePool.GVK.GroupKind() {
			msg += "; it is a Karpenter v1beta1 field"
			fix = fmt.Sprintf("Move the setting to %s.", to)
		}
		if elsewhere, ok := settledElsewhere[p]; ok && o.GVK.GroupKind() == kinds.AKSNodeClass.GVK.GroupKind() {
			fix = elsewhere
		}
		out = append(out, o.Finding(findings.UnknownField, p, msg, fix))
	}
	return out
}
