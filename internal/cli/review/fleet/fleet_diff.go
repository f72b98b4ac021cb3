package fleet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// regionalKeys are the requirement keys whose values name a region or its zones: clusters in
// different regions cannot share them, so they are not drift unless a group asks.
var regionalKeys = []string{
	"topology.kubernetes.io/zone", "topology.kubernetes.io/region",
	"failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
	"topology.k8s.aws/zone-id",
}

// clusterOwnFields are node class fields that identify one cluster's network or identity
// (a subnet, the security groups and IAM role its discovery tags select): never compared.
// regionalFields are compared only with compareRegional (AMI IDs are per region).
var (
	clusterOwnFields = map[string][]string{
		"AKSNodeClass": {"spec.vnetSubnetID"},
		"EC2NodeClass": {"spec.subnetSelectorTerms", "spec.securityGroupSelectorTerms", "spec.role", "spec.instanceProfile"},
	}
	regionalFields = map[string][]string{
		"EC2NodeClass": {"spec.amiSelectorTerms"},
	}
)

// member is one cluster of a group, with its object of the kind and name compared.
type member struct {
	c *assemble.Cluster
	o *source.Object
}

// FleetDrift compares the clusters of each group of the config that the review holds inputs
// for, and reports what differs as notes (KRP320–KRP324).
func FleetDrift(cfg *config.Config, clusters []*assemble.Cluster) []source.Finding {
	if cfg == nil {
		return nil
	}
	var out []source.Finding
	for _, g := range cfg.Groups {
		var cs []*assemble.Cluster
		for _, name := range g.Clusters {
			if i := slices.IndexFunc(clusters, func(c *assemble.Cluster) bool { return c.Name == name }); i >= 0 {
				cs = append(cs, clusters[i])
			}
		}
		if len(cs) < 2 {
			continue
		}
		regional := !g.CompareRegional && regionsDiffer(cs)
		out = append(out, comparePools(g.Name, cs, regional)...)
		out = append(out, compareNodeClasses(g.Name, cs, regional)...)
	}
	return out
}

func regionsDiffer(cs []*assemble.Cluster) bool {
	for _, c := range cs[1:] {
		if c.Region != cs[0].Region {
			return true
		}
	}
	return false
}

// objectNames lists the names of the objects pick returns, in the order the group first has them.
func objectNames(cs []*assemble.Cluster, pick func(*assemble.Cluster) []*source.Object) []string {
	var out []string
	for _, c := range cs {
		for _, o := range pick(c) {
			if o.Name != "" && o.Name != source.UnknownName && !slices.Contains(out, o.Label()) {
				out = append(out, o.Label())
			}
		}
	}
	return out
}

func find(objs []*source.Object, label string) *source.Object {
	for _, o := range objs {
		if o.Label() == label {
			return o
		}
	}
	return nil
}

// presence splits the group into the members that have the object and the clusters that lack it.
func presence(group string, cs []*assemble.Cluster, label string, pick func(*assemble.Cluster) []*source.Object, external func(*assemble.Cluster, string) bool) ([]member, []source.Finding) {
	var have []member
	var lacking []*assemble.Cluster
	for _, c := range cs {
		if o := find(pick(c), label); o != nil {
			have = append(have, member{c, o})
		} else if external == nil || !external(c, label) {
			lacking = append(lacking, c)
		}
	}
	if len(lacking) == 0 || len(have) == 0 {
		return have, nil
	}
	var names []string
	for _, c := range lacking {
		names = append(names, c.Name)
	}
	msg := fmt.Sprintf("%s is in %s of group %s but not in %s", label, clusterList(have), group, strings.Join(names, ", "))
	them := "it"
	if len(lacking) > 1 {
		them = "them"
	}
	fix := fmt.Sprintf("Add %s to %s, or, if %s is meant to differ, take %s out of group %s in .karpenter-review.yaml.",
		label, strings.Join(names, ", "), strings.Join(names, ", "), them, group)
	var out []source.Finding
	for _, c := range lacking {
		f := have[0].o.Finding(findings.FleetObjectMissing, "metadata.name", msg, fix)
		for _, m := range have[1:] {
			f.Related = appendPlace(f.Related, f.Location, m.o.At("metadata.name"))
		}
		f.Cluster = c.Name
		out = append(out, f)
	}
	return have, out
}

// appendPlace adds a related location unless the finding or an earlier one is already there
// (members built from one base share its lines).
func appendPlace(rel []source.Location, own, l source.Location) []source.Location {
	same := func(a source.Location) bool { return a.File == l.File && a.Line == l.Line && a.Address == l.Address }
	if same(own) || slices.ContainsFunc(rel, same) {
		return rel
	}
	return append(rel, l)
}

func memberNames(ms []member) string {
	var names []string
	for _, m := range ms {
		names = append(names, m.c.Name)
	}
	return strings.Join(names, ", ")
}

// comparePools compares each NodePool across the group: presence, limits, requirements, the rest of its spec.
func comparePools(group string, cs []*assemble.Cluster, regional bool) []source.Finding {
	pick := func(c *assemble.Cluster) []*source.Object { return c.NodePools }
	var out []source.Finding
	for _, label := range objectNames(cs, pick) {
		have, missing := presence(group, cs, label, pick, nil)
		out = append(out, missing...)
		if len(have) < 2 {
			continue
		}
		specs := make([]map[string]any, len(have))
		var unknown []string
		for i, m := range have {
			var u []string
			specs[i], u = normalisedSpec(m.o)
			unknown = append(unknown, u...)
		}
		limits := make([]map[string]string, len(have))
		reqs := make([]map[string]string, len(have))
		rest := make([]map[string]string, len(have))
		for i, s := range specs {
			limits[i] = limitsOf(s)
			reqs[i] = requirementsOf(s, regional)
			rest[i] = dropUnknown(leaves(withoutPoolParts(s), "spec"), unknown)
		}
		// A value known only after apply (a plan's) is not compared: it may well be equal.
		if !under(unknown, "spec.limits") {
			out = append(out, differences(group, have, limits, findings.FleetLimitsDiffer, "spec.limits", "limits", describeLimits)...)
		}
		if !under(unknown, "spec.template.spec.requirements") {
			out = append(out, differences(group, have, reqs, findings.FleetRequirementsDiffer, "spec.template.spec.requirements", "requirements", describeKeys)...)
		}
		out = append(out, differences(group, have, rest, findings.FleetPoolSettingsDiffer, "", "settings", describeKeys)...)
	}
	return out
}

// compareNodeClasses compares each node class across the group: presence and spec.
func compareNodeClasses(group string, cs []*assemble.Cluster, regional bool) []source.Finding {
	pick := func(c *assemble.Cluster) []*source.Object { return c.NodeClasses }
	external := func(c *assemble.Cluster, label string) bool {
		name := label[strings.Index(label, "/")+1:]
		return slices.Contains(c.ExternalNodeClasses, name) ||
			(strings.HasPrefix(label, kinds.AKSNodeClass.GVK.Kind+"/") && name == assemble.NAPNodeClass && !c.SelfHosted)
	}
	var out []source.Finding
	for _, label := range objectNames(cs, pick) {
		have, missing := presence(group, cs, label, pick, external)
		out = append(out, missing...)
		if len(have) < 2 {
			continue
		}
		kind := have[0].o.GVK.Kind
		values := make([]map[string]string, len(have))
		var unknown []string
		for i, m := range have {
			s, u := normalisedSpec(m.o)
			unknown = append(unknown, u...)
			drop := clusterOwnFields[kind]
			if regional {
				drop = append(slices.Clone(drop), regionalFields[kind]...)
			}
			for _, f := range drop {
				delete(s, strings.TrimPrefix(f, "spec."))
			}
			values[i] = leaves(s, "spec")
		}
		for i := range values {
			values[i] = dropUnknown(values[i], unknown)
		}
		out = append(out, differences(group, have, values, findings.FleetNodeClassDiffers, "", "settings", describeKeys)...)
	}
	return out
}

// differences reports the members whose values differ from the reference: the value most
// members share (on a tie, the first member's). field is where the note points ("" for the
// first field that differs).
func differences(group string, have []member, values []map[string]string, code findings.Code, field, what string,
	describe func(here, ref map[string]string, hereName, refName string) (string, []string)) []source.Finding {
	ref := reference(values)
	var refMembers []member
	for i, m := range have {
		if equalValues(values[i], values[ref]) {
			refMembers = append(refMembers, m)
		}
	}
	var out []source.Finding
	for i, m := range have {
		if equalValues(values[i], values[ref]) {
			continue
		}
		detail, keys := describe(values[i], values[ref], m.c.Name, memberNames(refMembers))
		at := field
		if at == "" && len(keys) > 0 {
			at = keys[0]
		}
		msg := fmt.Sprintf("%s of %s differ from %s in group %s: %s", what, m.o.Label(), clusterList(refMembers), group, detail)
		fix := fmt.Sprintf("Make them equal to %s's, or, if %s is meant to differ, suppress %s for it or take it out of group %s.",
			refMembers[0].c.Name, m.c.Name, code, group)
		f := m.o.Finding(code, at, msg, fix)
		f.Related = appendPlace(nil, f.Location, refMembers[0].o.At(at))
		f.Cluster = m.c.Name
		out = append(out, f)
	}
	return out
}

func clusterList(ms []member) string {
	if len(ms) == 1 {
		return "cluster " + memberNames(ms)
	}
	return "clusters " + memberNames(ms)
}

// reference is the index of the value most members share, the first one on a tie.
func reference(values []map[string]string) int {
	best, bestN := 0, 0
	for i := range values {
		n := 0
		for j := range values {
			if equalValues(values[i], values[j]) {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return best
}

func equalValues(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// describeKeys names each key that differs with its value here and in the reference.
func describeKeys(here, ref map[string]string, hereName, refName string) (string, []string) {
	var keys []string
	for k := range here {
		if ref[k] != here[k] {
			keys = append(keys, k)
		}
	}
	for k := range ref {
		if _, ok := here[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s is %s in %s, %s in %s", k, orUnset(here, k), hereName, orUnset(ref, k), refName))
	}
	return strings.Join(parts, "; "), keys
}

func orUnset(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "unset"
}

// describeLimits gives both sets of limits whole: the difference is in their sizes.
func describeLimits(here, ref map[string]string, hereName, refName string) (string, []string) {
	_, keys := describeKeys(here, ref, hereName, refName)
	return fmt.Sprintf("%s in %s; %s in %s", showLimits(here), hereName, showLimits(ref), refName), keys
}

func showLimits(l map[string]string) string {
	if len(l) == 0 {
		return "no limits"
	}
	var parts []string
	for k, v := range l {
		parts = append(parts, k+"="+v)
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}
