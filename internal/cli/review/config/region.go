package config

import "github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"

// NormalizeRegion turns a region as people write it ("West Europe", "westeurope", "us-east-1")
// into the ARM or AWS name and checks that a built-in cloud's embedded catalog knows it, so that a typo fails the run
// instead of checking against nothing. "" stays "" (no region given). The provider checks its
// region the same way (analysis.NormalizeRegion).
func NormalizeRegion(s string) (string, error) { return analysis.NormalizeRegion(s) }
