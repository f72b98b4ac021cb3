package clitool

import (
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// Analyzer is the process's one analysis of the embedded catalogs. Loading a catalog takes
// about a second, and the analyzer derives each region's instance types once and keeps them.
// The commands build it here, on first use, and pass it to every stage that needs it: a
// review with --workloads checks and simulates with the same one.
var Analyzer = sync.OnceValue(func() *analysis.Analyzer { return analysis.New(catalog.Default()) })
