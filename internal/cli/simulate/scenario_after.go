package simulate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// afterClusters are the change's clusters by name, each with the documents it runs (its own
// and, for a named cluster, the shared ones, as for Before). Before and after must map to the
// same clusters: a cluster only one tree has has no start or no change to run.
func afterClusters(before, after *review.Loaded) (map[string]visited, error) {
	names := func(l *review.Loaded) map[string]bool {
		out := map[string]bool{}
		for _, c := range l.Clusters {
			out[c.Name] = true
		}
		return out
	}
	b, a := names(before), names(after)
	var only []string
	for n := range a {
		if !b[n] {
			only = append(only, label(n)+" (after/ only)")
		}
	}
	for n := range b {
		if !a[n] {
			only = append(only, label(n)+" (before/ only)")
		}
	}
	if len(only) > 0 {
		sort.Strings(only)
		return nil, fmt.Errorf("before/ and after/ map to different clusters: %s; a scenario changes the same clusters", strings.Join(only, ", "))
	}
	var vs []visited
	for _, c := range after.Clusters {
		vs = append(vs, visited{c.Cluster, c.Documents})
	}
	shared, _ := sharedDocs(vs)
	out := map[string]visited{}
	for _, v := range vs {
		docs := v.docs
		if v.c.Name != "" {
			docs = review.WithShared(docs, shared)
		}
		out[v.c.Name] = visited{v.c, docs}
	}
	return out, nil
}

// afterOnly are the change's input findings that the tree before does not have already (the
// paths a scenario shares are read twice).
func afterOnly(after, before []source.Finding) []source.Finding {
	type key struct {
		code, msg, file string
		line            int
	}
	seen := map[key]bool{}
	for _, f := range before {
		seen[key{string(f.Code), f.Message, f.File, f.Line}] = true
	}
	var out []source.Finding
	for _, f := range after {
		if !seen[key{string(f.Code), f.Message, f.File, f.Line}] {
			out = append(out, f)
		}
	}
	return out
}
