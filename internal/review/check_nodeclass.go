package review

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/aksnodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

const refField = "spec.template.spec.nodeClassRef"

// CheckNodeClassRefs reports NodePools whose nodeClassRef names an AKSNodeClass that the
// cluster will not have: Karpenter keeps such a pool NotReady and launches nothing from it.
// References whose name is unknown until apply are left alone.
func CheckNodeClassRefs(_ context.Context, c *Cluster) []Finding {
	have := map[string]bool{}
	var names []string
	for _, nc := range c.NodeClasses {
		if nc.Name == unknownName {
			return nil // any reference might be to the node class whose name is not known yet
		}
		have[nc.Name] = true
		names = append(names, nc.Name)
	}
	for _, n := range c.ExternalNodeClasses {
		have[n] = true
	}
	slices.Sort(names)
	var out []Finding
	for _, p := range c.NodePools {
		group, kind, name := p.String("spec", "template", "spec", "nodeClassRef", "group"),
			p.String("spec", "template", "spec", "nodeClassRef", "kind"),
			p.String("spec", "template", "spec", "nodeClassRef", "name")
		if (group != "" && group != aksnodeclass.GVK.Group) || (kind != "" && kind != aksnodeclass.GVK.Kind) {
			field := refField + ".kind"
			if group != aksnodeclass.GVK.Group {
				field = refField + ".group"
			}
			out = append(out, p.Finding(findings.NodeClassNotFound, field,
				fmt.Sprintf("nodeClassRef names a %s of group %s; Karpenter on AKS only provides %s (%s)", kind, group, aksnodeclass.GVK.Kind, aksnodeclass.GVK.Group),
				fmt.Sprintf("Set nodeClassRef to group %s, kind %s.", aksnodeclass.GVK.Group, aksnodeclass.GVK.Kind)))
			continue
		}
		if name == "" || have[name] {
			continue
		}
		msg := fmt.Sprintf("AKSNodeClass %q is not part of cluster %s", name, clusterLabel(c.Name))
		fix := fmt.Sprintf("Add an AKSNodeClass named %q to the cluster, or list it under externalNodeClasses in .karpenter-review.yaml if it is created elsewhere.", name)
		if len(names) > 0 {
			msg += fmt.Sprintf(" (it has %s)", strings.Join(names, ", "))
			fix = fmt.Sprintf("Point nodeClassRef.name at one of %s, add an AKSNodeClass named %q, or list it under externalNodeClasses in .karpenter-review.yaml if it is created elsewhere.", strings.Join(names, ", "), name)
		}
		out = append(out, p.Finding(findings.NodeClassNotFound, refField+".name", msg, fix))
	}
	return out
}

func clusterLabel(name string) string {
	if name == "" {
		return "(default)"
	}
	return name
}
