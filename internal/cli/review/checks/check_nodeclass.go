package checks

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

const refField = "spec.template.spec.nodeClassRef"

// CheckNodeClassRefs reports NodePools whose nodeClassRef names an AKSNodeClass that the
// cluster will not have: Karpenter keeps such a pool NotReady and launches nothing from it.
// References whose name is unknown until apply are left alone. The `default` class counts as
// present unless the cluster runs self-hosted Karpenter: AKS Node Auto Provisioning creates it.
// An EKS pool (an EC2NodeClass reference) is checked against the cluster's EC2NodeClasses
// (check_nodeclass_eks.go); a pool of Karpenter on a cloud this build does not serve gets one
// note and no provisioning checks.
func CheckNodeClassRefs(_ context.Context, c *assemble.Cluster) []source.Finding {
	have := map[string]bool{}
	var names []string
	for _, nc := range c.NodeClasses {
		if nc.Name == source.UnknownName {
			return nil // any reference might be to the node class whose name is not known yet
		}
		if nc.GVK.GroupKind() != kinds.AKSNodeClass.GVK.GroupKind() {
			continue
		}
		have[nc.Name] = true
		names = append(names, nc.Name)
	}
	for _, n := range c.ExternalNodeClasses {
		have[n] = true
	}
	if !c.SelfHosted {
		have[assemble.NAPNodeClass] = true
	}
	slices.Sort(names)
	var out []source.Finding
	for _, p := range c.NodePools {
		group, kind, name := p.String("spec", "template", "spec", "nodeClassRef", "group"),
			p.String("spec", "template", "spec", "nodeClassRef", "kind"),
			p.String("spec", "template", "spec", "nodeClassRef", "name")
		if eksPool(p) {
			out = append(out, checkEC2NodeClassRef(c, p)...)
			continue
		}
		if cloud, ok := otherCloud(p); ok {
			out = append(out, p.Finding(findings.OtherCloud, refField,
				fmt.Sprintf("NodePool %s references %s %q (%s), a node class of Karpenter on %s; it was checked against the NodePool schema only, not against an instance catalog", p.Name, kind, name, group, cloud),
				fmt.Sprintf("Nothing to change for a cluster on %s; on AKS, reference an AKSNodeClass (group %s).", cloud, kinds.AKSNodeClass.GVK.Group)))
			continue
		}
		if (group != "" && group != kinds.AKSNodeClass.GVK.Group) || (kind != "" && kind != kinds.AKSNodeClass.GVK.Kind) {
			field := refField + ".kind"
			if group != kinds.AKSNodeClass.GVK.Group {
				field = refField + ".group"
			}
			out = append(out, p.Finding(findings.NodeClassNotFound, field,
				fmt.Sprintf("nodeClassRef names kind %q of group %q; Karpenter on AKS only provides %s (%s)", kind, group, kinds.AKSNodeClass.GVK.Kind, kinds.AKSNodeClass.GVK.Group),
				fmt.Sprintf("Set nodeClassRef to group %s, kind %s.", kinds.AKSNodeClass.GVK.Group, kinds.AKSNodeClass.GVK.Kind)))
			continue
		}
		if name == "" || have[name] {
			continue
		}
		msg := fmt.Sprintf("AKSNodeClass %q is not part of %s", name, assemble.ClusterPhrase(c.Name))
		fix := fmt.Sprintf("Add an AKSNodeClass named %q to the cluster, or list it under externalNodeClasses in .karpenter-review.yaml if it is created elsewhere.", name)
		if len(names) > 0 {
			msg += fmt.Sprintf(" (it has %s)", strings.Join(names, ", "))
			fix = fmt.Sprintf("Point nodeClassRef.name at one of %s, add an AKSNodeClass named %q, or list it under externalNodeClasses in .karpenter-review.yaml if it is created elsewhere.", strings.Join(names, ", "), name)
		}
		if name == assemble.NAPNodeClass {
			msg += "; the cluster is configured as self-hosted Karpenter, which does not create it (AKS Node Auto Provisioning does)"
		}
		out = append(out, p.Finding(findings.NodeClassNotFound, refField+".name", msg, fix))
	}
	return out
}

// otherCloud reports whether a NodePool's nodeClassRef names the node class of a cloud this
// build does not serve.
func otherCloud(p *source.Object) (string, bool) {
	group := p.String("spec", "template", "spec", "nodeClassRef", "group")
	if cloud, ok := source.OtherClouds[group]; ok {
		return cloud, true
	}
	return "", false
}
