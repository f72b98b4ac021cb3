package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// eksPool reports whether a NodePool runs on Karpenter for AWS: its nodeClassRef names the
// EC2NodeClass group (or, without a group, the EC2NodeClass kind).
func eksPool(p *source.Object) bool {
	group := p.String("spec", "template", "spec", "nodeClassRef", "group")
	kind := p.String("spec", "template", "spec", "nodeClassRef", "kind")
	return group == kinds.EC2NodeClass.GVK.Group || (group == "" && kind == kinds.EC2NodeClass.GVK.Kind)
}

// checkEC2NodeClassRef is CheckNodeClassRefs for an EKS pool: the reference must name kind
// EC2NodeClass, and an EC2NodeClass of that name must be in the cluster's input or listed as
// external. EKS creates no node class of its own (unlike AKS's NAP `default`), so `default`
// counts only when the input has it.
func checkEC2NodeClassRef(c *assemble.Cluster, p *source.Object) []source.Finding {
	gk := kinds.EC2NodeClass.GVK
	group, kind, name := p.String("spec", "template", "spec", "nodeClassRef", "group"),
		p.String("spec", "template", "spec", "nodeClassRef", "kind"),
		p.String("spec", "template", "spec", "nodeClassRef", "name")
	if group != gk.Group || kind != gk.Kind {
		field := refField + ".kind"
		if group != gk.Group {
			field = refField + ".group"
		}
		return []source.Finding{p.Finding(findings.NodeClassNotFound, field,
			fmt.Sprintf("nodeClassRef names kind %q of group %q; Karpenter on EKS only provides %s (%s)", kind, group, gk.Kind, gk.Group),
			fmt.Sprintf("Set nodeClassRef to group %s, kind %s.", gk.Group, gk.Kind))}
	}
	var names []string
	for _, nc := range c.NodeClasses {
		if nc.GVK.GroupKind() == gk.GroupKind() {
			names = append(names, nc.Name)
		}
	}
	if name == "" || name == source.UnknownName || slices.Contains(names, name) || slices.Contains(c.ExternalNodeClasses, name) {
		return nil
	}
	slices.Sort(names)
	msg := fmt.Sprintf("EC2NodeClass %q is not part of %s", name, assemble.ClusterPhrase(c.Name))
	fix := fmt.Sprintf("Add an EC2NodeClass named %q to the cluster, or list it under externalNodeClasses in .karpenter-review.yaml if it is created elsewhere.", name)
	if len(names) > 0 {
		msg += fmt.Sprintf(" (it has %s)", strings.Join(names, ", "))
		fix = fmt.Sprintf("Point nodeClassRef.name at one of %s, add an EC2NodeClass named %q, or list it under externalNodeClasses in .karpenter-review.yaml if it is created elsewhere.", strings.Join(names, ", "), name)
	}
	return []source.Finding{p.Finding(findings.NodeClassNotFound, refField+".name", msg, fix)}
}

// CountEC2NodeClasses counts the cluster's EC2NodeClasses.
func CountEC2NodeClasses(c *assemble.Cluster) int {
	n := 0
	for _, nc := range c.NodeClasses {
		if nc.GVK.GroupKind() == kinds.EC2NodeClass.GVK.GroupKind() {
			n++
		}
	}
	return n
}

// NodeClassCounts is the closing line's node classes: AKSNodeClasses as always, and
// EC2NodeClasses when there are any.
func NodeClassCounts(aks, ec2 int) string {
	out := clitool.PluralWord(aks, "AKSNodeClass", "AKSNodeClasses")
	if ec2 > 0 {
		out += ", " + clitool.PluralWord(ec2, "EC2NodeClass", "EC2NodeClasses")
	}
	return out
}
