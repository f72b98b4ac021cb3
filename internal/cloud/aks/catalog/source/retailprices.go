package source

import (
	"encoding/json"
	"strings"
)

// retailPricesPage is one page of the Azure Retail Prices API
// (https://prices.azure.com/api/retail/prices).
type retailPricesPage struct {
	BillingCurrency string       `json:"BillingCurrency"`
	Items           []retailItem `json:"Items"`
	NextPageLink    string       `json:"NextPageLink"`
}

type retailItem struct {
	CurrencyCode       string  `json:"currencyCode"`
	RetailPrice        float64 `json:"retailPrice"`
	ArmRegionName      string  `json:"armRegionName"`
	EffectiveStartDate string  `json:"effectiveStartDate"`
	MeterName          string  `json:"meterName"`
	ProductName        string  `json:"productName"`
	SkuName            string  `json:"skuName"`
	ServiceName        string  `json:"serviceName"`
	ServiceFamily      string  `json:"serviceFamily"`
	Type               string  `json:"type"`
	ArmSkuName         string  `json:"armSkuName"`
}

// RetailPrice is one Retail Prices API item the Azure Karpenter provider keeps.
type RetailPrice struct {
	Region, SKU        string
	Spot               bool
	Price              float64
	EffectiveStartDate string
}

// RetailPricesPage parses one Retail Prices API page and keeps exactly the items the Azure
// Karpenter provider keeps: its query asks for USD Consumption prices of Compute / Virtual
// Machines, it drops Windows products and Low Priority meters, and it files "... Spot" SKUs
// as spot prices, everything else as on-demand. It returns the page's item count and its
// NextPageLink too.
func RetailPricesPage(data []byte) (kept []RetailPrice, items int, next string, err error) {
	var page retailPricesPage
	if err := json.Unmarshal(data, &page); err != nil {
		return nil, 0, "", err
	}
	for _, it := range page.Items {
		switch {
		case it.ArmSkuName == "" || it.ArmRegionName == "":
		case !strings.EqualFold(it.Type, "Consumption"):
		case it.CurrencyCode != "" && it.CurrencyCode != "USD":
		case it.ServiceName != "Virtual Machines" || (it.ServiceFamily != "" && it.ServiceFamily != "Compute"):
		case strings.HasSuffix(it.ProductName, " Windows"):
		case strings.HasSuffix(it.MeterName, " Low Priority"):
		case it.RetailPrice < 0:
		default:
			kept = append(kept, RetailPrice{Region: strings.ToLower(it.ArmRegionName), SKU: it.ArmSkuName,
				Spot: strings.HasSuffix(it.SkuName, " Spot"), Price: it.RetailPrice, EffectiveStartDate: it.EffectiveStartDate})
		}
	}
	return kept, len(page.Items), page.NextPageLink, nil
}

// readRetailPrices reads a saved page; see RetailPricesPage for what is kept.
func (b *Builder) readRetailPrices(name string, data []byte) error {
	kept, items, _, err := RetailPricesPage(data)
	if err != nil {
		return err
	}
	spot := 0
	for _, p := range kept {
		// A saved page does not say when it was fetched; the meter's effective
		// date is the only date it has, and the label says which it is.
		label := "list (Retail Prices API)"
		if d := dateOf(p.EffectiveStartDate); d != "" {
			label = "list (Retail Prices API, effective " + d + ")"
		}
		b.setPrice(p.Region, p.SKU, p.Spot, p.Price, p.EffectiveStartDate, label)
		if p.Spot {
			spot++
		}
	}
	b.note("%s: Retail Prices API page, %d of %d items kept (%d spot)", name, len(kept), items, spot)
	return nil
}
