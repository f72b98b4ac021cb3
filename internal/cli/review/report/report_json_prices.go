package report

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// The JSON report names each price source once. A price in a pool's facts or in a finding's
// message is written "USD 0.05132/h (source)"; for EC2 prices the source is a file, a commit
// and a generation time, repeated on every pool and KRP117 note of a region. The JSON report
// lists each distinct source once under priceSources (per region and currency) and writes
// "USD 0.05132/h (price source P1)" where it stood, with the ids in the fact's priceSource and
// the finding's priceSources. The text and SARIF reports keep the provenance inline.

// jsonPriceSource is one price table's provenance: the region (every cluster of a region is
// priced from the same catalog), the currency and where the prices come from ("list
// 2026-08-22", "override…", "estimated: …", or the EC2 table's file and generation time).
type jsonPriceSource struct {
	ID       string `json:"id"`
	Region   string `json:"region,omitempty"`
	Currency string `json:"currency"`
	Source   string `json:"source"`
}

// jsonFact is a Fact as the JSON report writes it.
type jsonFact struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	PriceSource string `json:"priceSource,omitempty"`
}

// jsonPool is a PoolSummary with its facts as jsonFacts.
type jsonPool struct {
	checks.PoolSummary
	Facts []jsonFact `json:"facts"`
}

// jsonFindingOut is a finding as the JSON report writes it, with the price sources its
// message references.
type jsonFindingOut struct {
	source.JSONFinding
	PriceSources []string `json:"priceSources,omitempty"`
}

// pricedAmount is an hourly price followed by its provenance in brackets (one level of
// brackets inside it): "USD 0.0227/h (estimated: … (coroot/cloud-pricing af03ead), …)".
var pricedAmount = regexp.MustCompile(`\b([A-Z]{3}) (-?[0-9][0-9.]*/h) \(((?:[^()]|\([^()]*\))*)\)`)

// priceSources collects the distinct sources, in the order met.
type priceSources struct {
	ids  map[[3]string]string
	list []jsonPriceSource
}

// refer replaces each priced amount's provenance in text with a reference to its entry.
func (ps *priceSources) refer(region, text string) (string, []string) {
	var ids []string
	out := pricedAmount.ReplaceAllStringFunc(text, func(m string) string {
		g := pricedAmount.FindStringSubmatch(m)
		k := [3]string{region, g[1], g[3]}
		id, ok := ps.ids[k]
		if !ok {
			id = fmt.Sprintf("P%d", len(ps.list)+1)
			ps.ids[k] = id
			ps.list = append(ps.list, jsonPriceSource{ID: id, Region: region, Currency: g[1], Source: g[3]})
		}
		ids = append(ids, id)
		return g[1] + " " + g[2] + " (price source " + id + ")"
	})
	return out, ids
}

// withPriceSources writes the pools' facts and the findings with references to one entry per
// price source.
func withPriceSources(r *Report) (pools []jsonPool, found, suppressed []jsonFindingOut, sources []jsonPriceSource) {
	ps := &priceSources{ids: map[[3]string]string{}}
	pools = make([]jsonPool, 0, len(r.Pools))
	for _, p := range r.Pools {
		jp := jsonPool{PoolSummary: p, Facts: make([]jsonFact, 0, len(p.Facts))}
		for _, f := range p.Facts {
			jf := jsonFact{Name: f.Name, Value: f.Value}
			var ids []string
			jf.Value, ids = ps.refer(p.Region, f.Value)
			if len(ids) > 0 {
				jf.PriceSource = ids[0]
			}
			jp.Facts = append(jp.Facts, jf)
		}
		pools = append(pools, jp)
	}
	regions := map[string]string{}
	for _, c := range r.Clusters {
		regions[c.Name] = c.Region
	}
	conv := func(fs []source.Finding) []jsonFindingOut {
		out := make([]jsonFindingOut, 0, len(fs))
		for _, f := range fs {
			j := jsonFindingOut{JSONFinding: source.JSONFinding{Code: f.Code, Severity: f.Severity(), Message: f.Message, Fix: f.Fix, Object: f.Object,
				Cluster: f.Cluster, Location: f.Location, Related: f.Related}}
			region, one := regions[f.Cluster]
			if !one && !strings.Contains(f.Cluster, ", ") {
				region = regions[""]
			}
			j.Message, j.PriceSources = ps.refer(region, f.Message)
			out = append(out, j)
		}
		return out
	}
	found, suppressed = conv(r.Findings), conv(r.SuppressedFindings)
	if len(suppressed) == 0 {
		suppressed = nil
	}
	return pools, found, suppressed, ps.list
}
