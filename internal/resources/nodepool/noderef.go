package nodepool

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider/planstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// The node class Karpenter on AKS launches from.
var (
	aksNodeClassGroup = kinds.AKSNodeClass.GVK.Group
	aksNodeClassKind  = kinds.AKSNodeClass.GVK.Kind
)

const (
	// napNodeClass is the AKSNodeClass AKS Node Auto Provisioning creates in the cluster.
	napNodeClass = "default"
	refPath      = "spec.template.spec.nodeClassRef"
)

// checkNodeClassRef judges template.node_class_ref, which the CRD accepts for any group and
// kind: on AKS only karpenter.azure.com/AKSNodeClass launches nodes, so another one is an
// error (a pool that never launches a node). A literal name that no karpenter_aksnodeclass
// planned before this pool has, and that is not NAP's default, is a warning: the class may
// exist in the cluster, or be in this configuration but planned later.
func checkNodeClassRef(pc *crdresource.PlanContext, suppress []findings.Code) {
	known, _ := crdtree.StripUnknown(pc.Object)
	group, hasGroup, _ := unstructured.NestedString(known, "spec", "template", "spec", "nodeClassRef", "group")
	kind, hasKind, _ := unstructured.NestedString(known, "spec", "template", "spec", "nodeClassRef", "kind")
	name, hasName, _ := unstructured.NestedString(known, "spec", "template", "spec", "nodeClassRef", "name")
	detail := crdresource.FindingDetail{Suppress: suppress, Silence: poolSilence}
	if (hasGroup && group != aksNodeClassGroup) || (hasKind && kind != aksNodeClassKind) {
		pc.ReportFinding(findings.New(findings.NodeClassNotFound, refPath,
			fmt.Sprintf("node_class_ref names kind %q of group %q, but this provider targets AKS, where Karpenter only provides "+
				"%s (%s): the pool would never launch a node.", kind, group, aksNodeClassKind, aksNodeClassGroup),
			fmt.Sprintf("set group = %q and kind = %q", aksNodeClassGroup, aksNodeClassKind)), detail)
		return
	}
	if !hasName || name == napNodeClass || pc.Data == nil || pc.Data.Checks.Disabled {
		return
	}
	if pc.Data.Plan.NodePools().NodeClass(name).Exists() {
		return
	}
	// The pool's last refresh or write found the class in the cluster (observe): it exists,
	// whether or not a resource of this configuration is planned before the pool.
	if seen, ok := planstate.DecodeObserved(pc.Remembered, nil); ok && seen.Found && seen.Name == name {
		return
	}
	// A warning, not the registry's error: the class may exist in the cluster.
	pc.ReportFinding(findings.New(findings.NodeClassNotFound, refPath+".name",
		fmt.Sprintf("No karpenter_aksnodeclass planned before this pool is named %q, and it is not the %q class AKS Node Auto "+
			"Provisioning creates. If the cluster has no such AKSNodeClass, Karpenter keeps the pool NotReady and launches nothing.", name, napNodeClass),
		"reference the node class resource (name = karpenter_aksnodeclass.x.name) if it is in this configuration, "+
			"or make sure it exists in the cluster").As(findings.Warning), detail)
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
