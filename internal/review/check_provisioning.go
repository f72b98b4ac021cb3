package review

import (
	"context"
	"fmt"
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/instancetype"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/nodepool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/solver"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// provisioning runs the solver once per NodePool and shares the result between the check and
// the summary, which both need it.
type provisioning struct {
	once   sync.Once
	solver *solver.Solver

	mu       sync.Mutex
	analyses map[*Object]*solver.Analysis
}

var shared = &provisioning{analyses: map[*Object]*solver.Analysis{}}

type provisioningKey struct{}

// withProvisioning gives a review its own store of analyses, dropped with the review (the
// solver and its catalog are shared): a long-running process that reviews again and again
// does not keep every pool it ever saw.
func withProvisioning(ctx context.Context) context.Context {
	return context.WithValue(ctx, provisioningKey{}, &provisioning{analyses: map[*Object]*solver.Analysis{}})
}

func provisioningOf(ctx context.Context) *provisioning {
	if p, ok := ctx.Value(provisioningKey{}).(*provisioning); ok {
		return p
	}
	return shared
}

// analyse returns the pool's analysis, or nil when the pool cannot be analysed (values unknown
// until apply, or a shape the schema check already rejects). Only the findings and the
// summary are kept: the admissible candidates (about 100 KB a pool) are not needed after.
func (p *provisioning) analyse(c *Cluster, pool *Object) *solver.Analysis {
	shared.once.Do(func() { shared.solver = solver.New(catalog.Default()) })
	p.mu.Lock()
	defer p.mu.Unlock()
	if a, ok := p.analyses[pool]; ok {
		return a
	}
	var a *solver.Analysis
	// Only objects the API server would accept are analysed: for the others KRP001 says what
	// to fix first, and provisioning findings about a rejected object would be noise.
	if known, unknown := tfcrd.StripUnknown(pool.Body); len(unknown) == 0 && len(crdvalidate.MustFor(nodepool.GVK).Validate(context.Background(), known)) == 0 {
		if sp, err := solver.PoolFromObject(known); err == nil {
			nc, assumed := nodeClassOf(c, pool)
			full := shared.solver.Analyze(sp, solver.Options{Region: c.Region, NodeClass: nc, NodeClassAssumed: assumed})
			a = &solver.Analysis{Findings: full.Findings, Summary: full.Summary}
		}
	}
	p.analyses[pool] = a
	return a
}

// nodeClassOf returns the settings of the AKSNodeClass the pool references when it is part of
// the input; otherwise the defaults, and that they were assumed.
func nodeClassOf(c *Cluster, pool *Object) (instancetype.NodeClass, bool) {
	name := pool.String("spec", "template", "spec", "nodeClassRef", "name")
	for _, nc := range c.NodeClasses {
		if nc.Name != name {
			continue
		}
		known, _ := tfcrd.StripUnknown(nc.Body)
		if s, err := solver.NodeClassFromObject(known); err == nil {
			return s, false
		}
	}
	return instancetype.NodeClass{}, true
}

// CheckProvisioning reports what the solver finds for each NodePool against the embedded SKU
// catalog in the cluster's region: the same findings, codes and messages as the provider's
// plan-time checks.
func CheckProvisioning(ctx context.Context, c *Cluster) []Finding {
	var out []Finding
	var pools []*solver.Pool
	byName := map[string]*Object{}
	for _, p := range c.NodePools {
		a := provisioningOf(ctx).analyse(c, p)
		if a == nil {
			continue
		}
		for _, f := range a.Findings {
			if f.Code == findings.NodeClassAssumed {
				continue // KRP201 reports a missing node class; the summary says when defaults were assumed
			}
			fd := p.Finding(f.Code, f.Path, f.Message, f.Fix+".")
			fd.Severity = f.Severity
			out = append(out, fd)
		}
		if known, unknown := tfcrd.StripUnknown(p.Body); len(unknown) == 0 {
			if sp, err := solver.PoolFromObject(known); err == nil {
				pools = append(pools, sp)
				byName[sp.Name] = p
			}
		}
	}
	for _, f := range solver.ClusterFindings(pools) {
		if p := byName[f.Pool]; p != nil {
			out = append(out, p.Finding(f.Code, f.Path, f.Message, f.Fix+"."))
		}
	}
	return out
}

// ProvisioningFacts adds the solver's summary of a pool to the review's summary.
func ProvisioningFacts(ctx context.Context, c *Cluster, pool *Object) []Fact {
	a := provisioningOf(ctx).analyse(c, pool)
	if a == nil {
		return nil
	}
	s := a.Summary
	out := []Fact{{"checked against", s.Scope}, {"admissible SKUs", fmt.Sprint(s.AdmissibleSKUs)}}
	if _, assumed := nodeClassOf(c, pool); assumed {
		out = append(out, Fact{"node class settings", "defaults assumed (not in the input)"})
	}
	if s.AdmissibleSKUs == 0 {
		return out
	}
	price := fmt.Sprintf("%s, %s, $%.4f/h", s.CheapestSKU, s.CheapestCapacity, s.CheapestHourlyPrice)
	if s.PriceEstimated {
		price += " (estimated)"
	}
	out = append(out, Fact{"cheapest", price},
		Fact{"largest node", fmt.Sprintf("%s (%d vCPU, %.0f GiB)", s.LargestSKU, s.LargestVCPU, s.LargestMemoryGiB)})
	if s.MonthlyCostAtLimits > 0 {
		out = append(out, Fact{"monthly cost at the CPU limit", fmt.Sprintf("$%.0f", s.MonthlyCostAtLimits)})
	}
	return out
}
