package checks

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// Provisioning runs the solver once per NodePool and shares the result between the check and
// the summary, which both need it.
type Provisioning struct {
	solver *analysis.Analyzer

	mu       sync.Mutex
	analyses map[*source.Object]*analysis.Analysis
}

// shared serves checks called outside a review (WithProvisioning), with the process's analyzer.
var shared = sync.OnceValue(func() *Provisioning {
	return &Provisioning{solver: clitool.Analyzer(), analyses: map[*source.Object]*analysis.Analysis{}}
})

type provisioningKey struct{}

// regionSetting is where a review's cluster gets its region, for KRP114's fix.
const regionSetting = "the cluster's region (--region, or region in .karpenter-review.yaml)"

// WithProvisioning gives a review its own store of analyses by solver, dropped with the
// review (the solver and its catalog are the caller's): a long-running process that reviews
// again and again does not keep every pool it ever saw.
func WithProvisioning(ctx context.Context, solver *analysis.Analyzer) context.Context {
	return context.WithValue(ctx, provisioningKey{}, &Provisioning{solver: solver, analyses: map[*source.Object]*analysis.Analysis{}})
}

// ProvisioningOf is the review's store of analyses (WithProvisioning), else the process's.
func ProvisioningOf(ctx context.Context) *Provisioning {
	if p, ok := ctx.Value(provisioningKey{}).(*Provisioning); ok {
		return p
	}
	return shared()
}

// analyse returns the pool's analysis, or nil when the pool cannot be analysed (values unknown
// until apply, or a shape the schema check already rejects). Only the findings and the
// summary are kept: the admissible candidates (about 100 KB a pool) are not needed after.
func (p *Provisioning) analyse(c *assemble.Cluster, pool *source.Object) *analysis.Analysis {
	p.mu.Lock()
	defer p.mu.Unlock()
	if a, ok := p.analyses[pool]; ok {
		return a
	}
	var a *analysis.Analysis
	// Only objects the API server would accept are analysed: for the others KRP001 says what
	// to fix first, and provisioning findings about a rejected object would be noise. The
	// namespace of a cluster-scoped object is ignored by the API server, and so here (KRP009).
	// A pool of another cloud's Karpenter is not judged against Azure's catalog (KRP011).
	if _, foreign := otherCloud(pool); foreign {
		p.analyses[pool] = nil
		return nil
	}
	v, err := crdvalidate.NodePoolFor(kinds.NodePool.GVK, crdvalidate.NodePoolGroup(pool.Body))
	if err != nil {
		panic(err) // the pinned providers' CRDs serve karpenter.sh/v1: a build defect
	}
	if known, unknown := crdtree.StripUnknown(WithoutNamespace(pool.Body)); len(unknown) == 0 && len(v.Validate(context.Background(), known)) == 0 {
		// The API server's defaults first, as the provider's plan has them: an absent
		// expireAfter is 720h, not Never.
		v.Default(known)
		if sp, err := analysis.PoolFromObject(known); err == nil {
			nc, assumed := nodeClassOf(p.solver, c, pool)
			full := p.solver.Analyze(sp, analysis.Options{Region: c.Region, NodeClass: nc, NodeClassAssumed: assumed, Target: c.Target, RegionSetting: regionSetting})
			a = &analysis.Analysis{Findings: full.Findings, Summary: full.Summary}
		}
	}
	p.analyses[pool] = a
	return a
}

// nodeClassOf returns the settings of the node class the pool references (an AKSNodeClass, or
// an EC2NodeClass for an EKS pool) when it is part of the input, decoded by the pool's cloud;
// otherwise nil (the cloud's defaults), and that they were
// assumed.
func nodeClassOf(s *analysis.Analyzer, c *assemble.Cluster, pool *source.Object) (cloud.NodeClass, bool) {
	name := pool.String("spec", "template", "spec", "nodeClassRef", "name")
	kind := kinds.AKSNodeClass
	if eksPool(pool) {
		kind = kinds.EC2NodeClass
	}
	cl := s.Clouds().Serving(kind.GVK.Group)
	for _, nc := range c.NodeClasses {
		if nc.Name != name || nc.GVK.GroupKind() != kind.GVK.GroupKind() {
			continue
		}
		known, _ := crdtree.StripUnknown(nc.Body)
		if decoded, err := cl.DecodeNodeClass(known); err == nil {
			return decoded, false
		}
	}
	return nil, true
}

// CheckProvisioning reports what the solver finds for each NodePool against the embedded SKU
// catalog in the cluster's region: the same findings, codes and messages as the provider's
// plan-time checks.
func CheckProvisioning(ctx context.Context, c *assemble.Cluster) []source.Finding {
	var out []source.Finding
	var pools []*analysis.Pool
	byName := map[string]*source.Object{}
	var all []*analysis.Pool
	for _, p := range c.NodePools {
		if known, unknown := crdtree.StripUnknown(p.Body); len(unknown) == 0 {
			if sp, err := analysis.PoolFromObject(known); err == nil {
				all = append(all, sp)
			}
		}
	}
	for _, p := range c.NodePools {
		if _, foreign := otherCloud(p); foreign {
			continue
		}
		a := ProvisioningOf(ctx).analyse(c, p)
		if a == nil {
			continue
		}
		for _, f := range a.Findings {
			if f.Code == findings.NodeClassAssumed {
				continue // KRP201 reports a missing node class; the summary says when defaults were assumed
			}
			if f.Code == findings.SpotSavings && spotServed(p, all) {
				continue // a spot pool of the cluster can take these pods: this pool is its fallback
			}
			f.Fix += "."
			out = append(out, p.Located(f))
		}
		if known, unknown := crdtree.StripUnknown(WithoutNamespace(p.Body)); len(unknown) == 0 {
			if sp, err := analysis.PoolFromObject(known); err == nil {
				pools = append(pools, sp)
				byName[sp.Name] = p
			}
		}
	}
	for _, f := range analysis.ClusterFindings(pools) {
		if p := byName[strings.TrimPrefix(f.Object, analysis.PoolObject(""))]; p != nil {
			f.Fix += "."
			out = append(out, p.Located(f))
		}
	}
	return out
}

// spotServed reports whether another pool of the cluster allows spot for pods the pool accepts.
func spotServed(p *source.Object, pools []*analysis.Pool) bool {
	for _, sp := range pools {
		if sp.Name == p.Name {
			return analysis.SpotServed(sp, pools)
		}
	}
	return false
}

// priceFact renders an hourly price with its currency and provenance.
func priceFact(cur string, price float64, source string) string {
	return fmt.Sprintf("%s/h (%s)", money.Format(cur, price, -1), source)
}

// ProvisioningFacts adds the solver's summary of a pool to the review's summary.
func ProvisioningFacts(ctx context.Context, c *assemble.Cluster, pool *source.Object) []Fact {
	a := ProvisioningOf(ctx).analyse(c, pool)
	if a == nil {
		return nil
	}
	s := a.Summary
	eks := eksPool(pool)
	admissible := "admissible SKUs"
	if eks {
		admissible = "admissible instance types"
	}
	out := []Fact{{"checked against", s.Scope}, {admissible, fmt.Sprint(s.AdmissibleSKUs)}}
	if _, assumed := nodeClassOf(ProvisioningOf(ctx).solver, c, pool); assumed {
		v := "defaults assumed (not in the input)"
		if pool.String("spec", "template", "spec", "nodeClassRef", "name") == assemble.NAPNodeClass && !c.SelfHosted && !eks {
			v = "defaults assumed (the default class AKS Node Auto Provisioning creates)"
		}
		out = append(out, Fact{"node class settings", v})
	}
	if s.AdmissibleSKUs == 0 {
		return out
	}
	out = append(out, Fact{"cheapest", fmt.Sprintf("%s, %s, %s", s.CheapestSKU, s.CheapestCapacity, priceFact(s.Currency, s.CheapestHourlyPrice, s.PriceSource))})
	if len(s.CapacityTypes) > 1 {
		why := " (the Azure provider ranks offerings by price, then spot before on-demand)"
		if eks {
			why = " (the AWS provider launches spot when the pool allows it; price-capacity-optimized spot allocation is out of reach offline, the cheapest spot offering stands in)"
		}
		out = append(out, Fact{"Karpenter launches", s.CheapestCapacity + why})
	}
	// Both sides of a pool that allows both capacity types, so that the spot
	// price and the on-demand fallback's are visible together.
	for _, ct := range []string{"spot", "on-demand"} {
		if c, ok := s.CapacityTypes[ct]; ok && len(s.CapacityTypes) > 1 {
			out = append(out, Fact{"cheapest " + ct, fmt.Sprintf("%s, %s", c.SKU, priceFact(c.Currency, c.HourlyPrice, c.PriceSource))})
		}
	}
	out = append(out, Fact{"largest node", fmt.Sprintf("%s (%d vCPU, %.0f GiB)", s.LargestSKU, s.LargestVCPU, s.LargestMemoryGiB)})
	// No fact at all when no limit binds: a cost the pool cannot have must not read as one.
	if s.MonthlyCostAtLimits != nil {
		v := money.Format(s.Currency, *s.MonthlyCostAtLimits, 0)
		if len(s.CapacityTypes) > 1 {
			var parts []string
			for _, ct := range []string{"spot", "on-demand"} {
				if c := s.CapacityTypes[ct]; c.MonthlyCostAtLimits != nil {
					parts = append(parts, fmt.Sprintf("%s %s", ct, money.Format(c.Currency, *c.MonthlyCostAtLimits, 0)))
				}
			}
			v += " (" + strings.Join(parts, ", ") + ")"
		}
		out = append(out, Fact{"monthly cost at the limits", v})
	}
	return out
}

// Analysed is the pool's analysis if the provisioning check (or the summary) made one: the
// fleet view does not run the solver itself, so that a review with other checks (simulate's)
// pays nothing for it; its pools are then uncosted.
func (p *Provisioning) Analysed(pool *source.Object) *analysis.Analysis {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.analyses[pool]
}
