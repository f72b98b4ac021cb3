package simulate

import (
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
)

func loadedOf(names ...string) *review.Loaded {
	l := &review.Loaded{}
	for _, n := range names {
		l.Clusters = append(l.Clusters, review.LoadedCluster{Cluster: &assemble.Cluster{Name: n}})
	}
	return l
}

// Before and after are matched by cluster name; a cluster only one tree has is an error that
// names it and the tree.
func TestAfterClustersMatchByName(t *testing.T) {
	got, err := afterClusters(loadedOf("prod", ""), loadedOf("", "prod"))
	if err != nil || len(got) != 2 || got["prod"].c.Name != "prod" {
		t.Fatalf("same clusters in another order: %v, %v", got, err)
	}
	_, err = afterClusters(loadedOf("prod", "dev"), loadedOf("prod", "stage"))
	if err == nil || !strings.Contains(err.Error(), "dev (before/ only)") || !strings.Contains(err.Error(), "stage (after/ only)") {
		t.Errorf("want dev and stage named with their tree, got %v", err)
	}
}
