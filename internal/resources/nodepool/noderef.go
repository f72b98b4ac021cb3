package nodepool

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/planstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// nodeClassKinds are the node classes a pool's template may reference, one per cloud the
// provider knows (karpenter.azure.com/AKSNodeClass, karpenter.k8s.aws/EC2NodeClass): the cloud
// follows from the group.
var nodeClassKinds = kinds.WithRole(kinds.NodeClass)

const (
	// napNodeClass is the AKSNodeClass AKS Node Auto Provisioning creates in the cluster.
	napNodeClass = "default"
	refPath      = "spec.template.spec.nodeClassRef"
)

// checkNodeClassRef judges template.node_class_ref, which the CRD accepts for any group and
// kind: Karpenter launches nodes only from its cloud provider's node class, AKSNodeClass
// (karpenter.azure.com) on AKS or EC2NodeClass (karpenter.k8s.aws) on EKS, so another pair is
// an error (a pool that never launches a node). A literal name that no node class resource of
// that kind planned before this pool has is a warning (the class may exist in the cluster, or
// be in this configuration but planned later), except NAP's default AKSNodeClass, which AKS
// creates; EKS has no such class. A class the plan reads in the cluster (planTimeNodeClass)
// exists, and gets no warning either.
func checkNodeClassRef(ctx context.Context, pc *crdresource.PlanContext, suppress []findings.Code) {
	known, _ := crdtree.StripUnknown(pc.Object)
	group, hasGroup, _ := unstructured.NestedString(known, "spec", "template", "spec", "nodeClassRef", "group")
	kind, hasKind, _ := unstructured.NestedString(known, "spec", "template", "spec", "nodeClassRef", "kind")
	name, hasName, _ := unstructured.NestedString(known, "spec", "template", "spec", "nodeClassRef", "name")
	detail := crdresource.FindingDetail{Suppress: suppress, Silence: poolSilence}
	k := nodeClassKind(group, hasGroup, kind, hasKind)
	if k == nil && (hasGroup || hasKind) {
		var pairs, fixes []string
		for _, c := range nodeClassKinds {
			pairs = append(pairs, fmt.Sprintf("%s (%s) on %s", c.GVK.Kind, c.GVK.Group, cloudName(c)))
			fixes = append(fixes, fmt.Sprintf("group = %q and kind = %q", c.GVK.Group, c.GVK.Kind))
		}
		pc.ReportFinding(findings.New(findings.NodeClassNotFound, refPath,
			fmt.Sprintf("node_class_ref names kind %q of group %q, but Karpenter only launches nodes from its cloud provider's node class: "+
				"%s. The pool would never launch a node.", kind, group, strings.Join(pairs, ", or ")),
			"set "+strings.Join(fixes, ", or ")), detail)
		return
	}
	if k == nil || !hasName || !hasGroup || !hasKind || (k == kinds.AKSNodeClass && name == napNodeClass) || pc.Data == nil || pc.Data.Checks.Disabled {
		return
	}
	if pc.Data.Plan.NodePools().NodeClassOf(k.GVK.Kind, name).Exists() {
		return
	}
	// The pool's last refresh or write found the class in the cluster (observe): it exists,
	// whether or not a resource of this configuration is planned before the pool.
	if seen, ok := planstate.DecodeObserved(pc.Remembered, nil); ok && seen.Found && seen.Name == name && (seen.Kind == "" || seen.Kind == k.GVK.Kind) {
		return
	}
	// A new pool has no snapshot: the class may still be in the cluster. The read is the one
	// the pool's analysis makes (planstate.ForNewReference), shared per class and walk.
	if _, found, err := planTimeNodeClass(ctx, pc, group, refOf(cloudsOf(pc), group, kind, name)); err == nil && found {
		return
	}
	resourceType := "karpenter_" + strings.ToLower(k.GVK.Kind)
	msg := fmt.Sprintf("No %s planned before this pool is named %q", resourceType, name)
	if k == kinds.AKSNodeClass {
		msg += fmt.Sprintf(", and it is not the %q class AKS Node Auto Provisioning creates", napNodeClass)
	}
	// A warning, not the registry's error: the class may exist in the cluster.
	pc.ReportFinding(findings.New(findings.NodeClassNotFound, refPath+".name",
		fmt.Sprintf("%s. If the cluster has no such %s, Karpenter keeps the pool NotReady and launches nothing.", msg, k.GVK.Kind),
		fmt.Sprintf("reference the node class resource (name = %s.x.name) if it is in this configuration, "+
			"or make sure it exists in the cluster", resourceType)).As(findings.Warning), detail)
}

// cloudsOf is the clouds of the provider's solver, or the built-in ones when its catalog does
// not load (the analysis reports that).
func cloudsOf(pc *crdresource.PlanContext) *cloud.Registry {
	if s, err := pc.Data.Analyzer(); err == nil {
		return s.Clouds()
	}
	return builtinClouds()
}

// nodeClassKind is the node-class kind of group and kind, or nil when no cloud has it. A
// group or kind known only after apply (has false) matches any; with neither known, the
// result is nil and nothing is judged.
func nodeClassKind(group string, hasGroup bool, kind string, hasKind bool) *kinds.Kind {
	for _, k := range nodeClassKinds {
		if (!hasGroup || k.GVK.Group == group) && (!hasKind || k.GVK.Kind == kind) && (hasGroup || hasKind) {
			return k
		}
	}
	return nil
}

// cloudName names a node-class kind's cloud in messages.
func cloudName(k *kinds.Kind) string {
	switch k.Cloud {
	case "aks":
		return "AKS"
	case "eks":
		return "EKS"
	}
	return k.Cloud
}

// hint names the well-known key a requirement key rejected for its restricted domain
// (karpenter.azure.com/sku-familly) probably meant: the CRD only says the domain is restricted.
func hint(obj map[string]any, e *field.Error) string {
	segs := crdtree.ParseFieldPath(e.Field)
	if len(segs) != 6 || strings.Join(segs[:4], ".") != "spec.template.spec.requirements" || segs[5] != "key" {
		return ""
	}
	i, err := strconv.Atoi(segs[4])
	reqs, _, _ := unstructured.NestedSlice(obj, "spec", "template", "spec", "requirements")
	if err != nil || i < 0 || i >= len(reqs) {
		return ""
	}
	r, _ := reqs[i].(map[string]any)
	key, _ := r["key"].(string)
	sug := analysis.SuggestLabelKey(key)
	if len(sug) == 0 {
		return ""
	}
	q := make([]string, len(sug))
	for j, s := range sug {
		q[j] = strconv.Quote(s)
	}
	return fmt.Sprintf("%s: %s is not a well-known label key; did you mean %s?", findings.UnknownLabelKey, key, strings.Join(q, " or "))
}
