package simreport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// NodeCount says "1 node" or "N nodes".
func NodeCount(n int) string {
	if n == 1 {
		return "1 node"
	}
	return strconv.Itoa(n) + " nodes"
}

// PluralWord is n with the word for one or for many.
func PluralWord(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Refs names nodes by instance type and capacity type; "none" for no node.
func Refs(rs []simulation.NodeRef) string {
	if len(rs) == 0 {
		return "none"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.InstanceType + " " + r.CapacityType
	}
	return strings.Join(parts, ", ")
}

// DisruptionReasons are Karpenter's disruption reasons, in the order the totals list them.
var DisruptionReasons = []string{"Empty", "Drifted", "Underutilized", "Expired"}

// TotalsText is the nodes removed per reason: "Underutilized 2, Empty 1".
func TotalsText(t map[string]int) string {
	var parts []string
	for _, r := range DisruptionReasons {
		if t[r] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, t[r]))
		}
	}
	return strings.Join(parts, ", ")
}

// SavingsText is Karpenter's own estimate of a disruption's saving; "" when it has none.
func SavingsText(cur string, v float64) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf(", Karpenter's estimated saving %s (list prices)", money.Hourly(cur, v))
}

// OrDash is s, or "-" when it is empty.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
