package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/pricing"
	pricingtypes "github.com/aws/aws-sdk-go-v2/service/pricing/types"

	ekscatalog "github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// priceListSource names the refreshed on-demand table in _meta.files of the on-demand file.
const priceListSource = "AWS Price List API GetProducts"

// refreshAWS refreshes the EC2 on-demand prices (Price List API, filtered as upstream's
// prices_gen filters them), the spot prices (DescribeSpotPriceHistory) and the ENI limits
// (DescribeInstanceTypes).
func refreshAWS(ctx context.Context, o options, r *report) error {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion("us-east-1"))
	if err != nil {
		return fmt.Errorf("AWS configuration: %w", err)
	}
	dir := filepath.Join(o.ref, "aws")
	at := o.now.Format(time.RFC3339)
	if err := refreshAWSOnDemand(ctx, o, r, cfg, filepath.Join(dir, ekscatalog.OnDemandFile), at); err != nil {
		return err
	}
	if err := refreshAWSSpot(ctx, o, r, cfg, filepath.Join(dir, ekscatalog.SpotFile), at); err != nil {
		return err
	}
	return refreshAWSLimits(ctx, o, r, cfg, filepath.Join(dir, ekscatalog.VPCFile), at)
}

func refreshAWSOnDemand(ctx context.Context, o options, r *report, cfg aws.Config, path, at string) error {
	f, err := readPriceFile(path, "on_demand")
	if err != nil {
		return err
	}
	// The Price List API answers in us-east-1 for every region.
	client := pricing.NewFromConfig(cfg, func(p *pricing.Options) {
		p.HTTPClient = o.httpClient
		if o.awsEndpoint != "" {
			p.BaseEndpoint = aws.String(o.awsEndpoint)
		}
	})
	var refreshed []string
	for _, region := range regionsOr(o.awsOnDemand, f, commercialAWS) {
		prices, err := onDemandPrices(ctx, client, region)
		if err == nil && len(prices) == 0 {
			err = fmt.Errorf("no Linux shared-tenancy on-demand prices: is %q an AWS region?", region)
		}
		if err != nil {
			r.fail("EC2 on-demand prices", region, err)
			continue
		}
		f.prices[region] = prices
		refreshed = append(refreshed, region)
		r.refreshed("EC2 %s: %d on-demand prices", region, len(prices))
	}
	if len(refreshed) == 0 {
		return f.write()
	}
	// The refreshed regions leave the upstream tables they came from for one entry of their own.
	files, _ := f.meta["files"].(map[string]any)
	if files == nil {
		files = map[string]any{}
	}
	for name, v := range files {
		entry, _ := v.(map[string]any)
		regions, _ := entry["regions"].([]any)
		var kept []any
		for _, reg := range regions {
			if s, _ := reg.(string); !contains(refreshed, s) {
				kept = append(kept, reg)
			}
		}
		if len(kept) == 0 && name != priceListSource {
			delete(files, name)
			continue
		}
		entry["regions"] = kept
	}
	prev, _ := files[priceListSource].(map[string]any)
	all := refreshed
	if prev != nil {
		for _, reg := range prev["regions"].([]any) {
			all = append(all, reg.(string))
		}
	}
	sort.Strings(all)
	files[priceListSource] = map[string]any{
		"generated_at": at, "regions": all,
		"source": "AWS Price List API GetProducts (AmazonEC2, Linux, preInstalledSw NA, capacitystatus Used, tenancy Shared), via make update-catalog",
	}
	f.meta["files"] = files
	return f.write()
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// onDemandPrices pages through GetProducts for one region with upstream's filters.
func onDemandPrices(ctx context.Context, client *pricing.Client, region string) (map[string]float64, error) {
	filter := func(field, value string) pricingtypes.Filter {
		return pricingtypes.Filter{Type: pricingtypes.FilterTypeTermMatch, Field: aws.String(field), Value: aws.String(value)}
	}
	pager := pricing.NewGetProductsPaginator(client, &pricing.GetProductsInput{
		ServiceCode: aws.String("AmazonEC2"),
		Filters: []pricingtypes.Filter{filter("regionCode", region), filter("operatingSystem", "Linux"),
			filter("preInstalledSw", "NA"), filter("capacitystatus", "Used"), filter("tenancy", "Shared"),
			filter("marketoption", "OnDemand")},
	})
	out := map[string]float64{}
	err := eachPage(ctx, pager, maxPages*10, func(page *pricing.GetProductsOutput) error {
		for _, doc := range page.PriceList {
			itype, price, err := onDemandPrice(doc)
			if err != nil {
				return err
			}
			if itype != "" && price > 0 {
				out[itype] = price
			}
		}
		return nil
	})
	return out, err
}

// pager is what the AWS SDK's paginators have in common.
type pager[T, O any] interface {
	HasMorePages() bool
	NextPage(context.Context, ...func(*O)) (T, error)
}

// eachPage hands every page to fn, failing past limit pages rather than paging for ever.
func eachPage[T, O any](ctx context.Context, p pager[T, O], limit int, fn func(T) error) error {
	for pages := 0; p.HasMorePages(); pages++ {
		if pages == limit {
			return fmt.Errorf("more than %d pages", limit)
		}
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		if err := fn(page); err != nil {
			return err
		}
	}
	return nil
}

// onDemandPrice reads one Price List document: the instance type and its USD hourly price.
func onDemandPrice(doc string) (string, float64, error) {
	var p struct {
		Product struct {
			Attributes struct {
				InstanceType string `json:"instanceType"`
			} `json:"attributes"`
		} `json:"product"`
		Terms struct {
			OnDemand map[string]struct {
				PriceDimensions map[string]struct {
					PricePerUnit map[string]string `json:"pricePerUnit"`
				} `json:"priceDimensions"`
			} `json:"OnDemand"`
		} `json:"terms"`
	}
	if err := json.Unmarshal([]byte(doc), &p); err != nil {
		return "", 0, fmt.Errorf("price list document: %w", err)
	}
	for _, term := range p.Terms.OnDemand {
		for _, dim := range term.PriceDimensions {
			if usd, ok := dim.PricePerUnit["USD"]; ok {
				v, err := strconv.ParseFloat(usd, 64)
				if err != nil {
					return "", 0, fmt.Errorf("%s: price %q: %w", p.Product.Attributes.InstanceType, usd, err)
				}
				return p.Product.Attributes.InstanceType, v, nil
			}
		}
	}
	return p.Product.Attributes.InstanceType, 0, nil
}

func (o options) ec2Client(cfg aws.Config, region string) *ec2.Client {
	return ec2.NewFromConfig(cfg, func(e *ec2.Options) {
		e.Region = region
		e.HTTPClient = o.httpClient
		if o.awsEndpoint != "" {
			e.BaseEndpoint = aws.String(o.awsEndpoint)
		}
	})
}

// refreshAWSSpot takes each region's current Linux spot price per type and zone and keeps
// the highest zone's: the file has one price per region.
func refreshAWSSpot(ctx context.Context, o options, r *report, cfg aws.Config, path, at string) error {
	f, err := readPriceFile(path, "spot")
	if err != nil {
		return err
	}
	for _, region := range regionsOr(o.awsSpot, f, commercialAWS) {
		prices, err := spotPrices(ctx, o.ec2Client(cfg, region), o.now)
		if err == nil && len(prices) == 0 {
			err = fmt.Errorf("no Linux/UNIX spot prices")
		}
		if err != nil {
			r.fail("EC2 spot prices", region, err)
			continue
		}
		f.set(region, prices, at)
		r.refreshed("EC2 %s: %d spot prices", region, len(prices))
	}
	return f.write()
}

func spotPrices(ctx context.Context, client *ec2.Client, now time.Time) (map[string]float64, error) {
	// StartTime now: the API then returns the price in effect now, per type and zone.
	pager := ec2.NewDescribeSpotPriceHistoryPaginator(client, &ec2.DescribeSpotPriceHistoryInput{
		ProductDescriptions: []string{"Linux/UNIX"}, StartTime: aws.Time(now),
	})
	type key struct{ itype, zone string }
	latest := map[key]ec2types.SpotPrice{}
	err := eachPage(ctx, pager, maxPages*10, func(page *ec2.DescribeSpotPriceHistoryOutput) error {
		for _, p := range page.SpotPriceHistory {
			k := key{string(p.InstanceType), aws.ToString(p.AvailabilityZone)}
			if cur, ok := latest[k]; !ok || aws.ToTime(p.Timestamp).After(aws.ToTime(cur.Timestamp)) {
				latest[k] = p
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for k, p := range latest {
		v, err := strconv.ParseFloat(aws.ToString(p.SpotPrice), 64)
		if err != nil {
			return nil, fmt.Errorf("%s in %s: spot price %q: %w", k.itype, k.zone, aws.ToString(p.SpotPrice), err)
		}
		if v > out[k.itype] {
			out[k.itype] = v
		}
	}
	return out, nil
}

// refreshAWSLimits updates the EC2 facts of the ENI table (interfaces, IPv4 per interface,
// network cards, hypervisor, bare metal) from DescribeInstanceTypes in one region. Trunking
// and branch interfaces come from the VPC resource controller, not EC2: kept as they are,
// and false/0 for a type new to the table.
func refreshAWSLimits(ctx context.Context, o options, r *report, cfg aws.Config, path, at string) error {
	raw, err := refdata.ReadFile(path)
	if err != nil {
		return err
	}
	var top map[string]json.RawMessage
	var meta map[string]any
	var limits map[string]map[string]any
	if err := json.Unmarshal(raw, &top); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := json.Unmarshal(top["_meta"], &meta); err != nil {
		return fmt.Errorf("%s: _meta: %w", path, err)
	}
	if err := json.Unmarshal(top["limits"], &limits); err != nil {
		return fmt.Errorf("%s: limits: %w", path, err)
	}
	pager := ec2.NewDescribeInstanceTypesPaginator(o.ec2Client(cfg, o.awsTypes), &ec2.DescribeInstanceTypesInput{})
	n := 0
	err = eachPage(ctx, pager, maxPages, func(page *ec2.DescribeInstanceTypesOutput) error {
		for _, it := range page.InstanceTypes {
			ni := it.NetworkInfo
			if ni == nil {
				continue
			}
			l := limits[string(it.InstanceType)]
			if l == nil {
				l = map[string]any{"IsTrunkingCompatible": false, "BranchInterface": 0}
				limits[string(it.InstanceType)] = l
			}
			cards := []map[string]any{}
			for _, c := range ni.NetworkCards {
				cards = append(cards, map[string]any{"MaximumNetworkInterfaces": aws.ToInt32(c.MaximumNetworkInterfaces), "NetworkCardIndex": aws.ToInt32(c.NetworkCardIndex)})
			}
			l["Interface"] = aws.ToInt32(ni.MaximumNetworkInterfaces)
			l["IPv4PerInterface"] = aws.ToInt32(ni.Ipv4AddressesPerInterface)
			l["DefaultNetworkCardIndex"] = aws.ToInt32(ni.DefaultNetworkCardIndex)
			l["NetworkCards"] = cards
			l["Hypervisor"] = string(it.Hypervisor)
			l["IsBareMetal"] = aws.ToBool(it.BareMetal)
			n++
		}
		return nil
	})
	if err != nil {
		// The table is written whole or not at all: a partial listing keeps the old one.
		r.fail("EC2 instance types", o.awsTypes, err)
		return nil
	}
	meta["refreshed"] = fmt.Sprintf("EC2 fields from DescribeInstanceTypes in %s at %s", o.awsTypes, at)
	if top["_meta"], err = json.Marshal(meta); err != nil {
		return err
	}
	if top["limits"], err = json.Marshal(limits); err != nil {
		return err
	}
	out, err := json.MarshalIndent(top, "", " ")
	if err != nil {
		return err
	}
	r.refreshed("EC2 %s: ENI limits of %d instance types", o.awsTypes, n)
	return refdata.WriteFile(path, append(out, '\n'))
}
