package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	akscatalog "github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/source"
	ekscatalog "github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// The recorded responses below are small and hand-made, in the shape each API answers in
// (Retail Prices API pages, Resource SKUs list pages, EC2 query XML, Price List JSON 1.1).

// retailServer serves westeurope in two pages (the second answered first with a 429) and
// fails northeurope for good.
func retailServer(t *testing.T, throttled *atomic.Int32) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		filter := r.URL.Query().Get("$filter")
		switch {
		case strings.Contains(filter, "'northeurope'"):
			http.Error(w, "upstream timeout", http.StatusBadGateway)
		case strings.Contains(filter, "'westeurope'") && r.URL.Query().Get("$skip") == "":
			next := srv.URL + r.URL.Path + "?" + r.URL.RawQuery + "&$skip=1000"
			fmt.Fprintf(w, `{"BillingCurrency":"USD","Items":[
 {"currencyCode":"USD","retailPrice":0.11,"armRegionName":"westeurope","effectiveStartDate":"2026-11-01T00:00:00Z","meterName":"D2s v5","productName":"Virtual Machines Dsv5 Series","skuName":"D2s v5","serviceName":"Virtual Machines","serviceFamily":"Compute","type":"Consumption","armSkuName":"Standard_D2s_v5"},
 {"currencyCode":"USD","retailPrice":0.2,"armRegionName":"westeurope","effectiveStartDate":"2026-11-01T00:00:00Z","meterName":"D2s v5","productName":"Virtual Machines Dsv5 Series Windows","skuName":"D2s v5","serviceName":"Virtual Machines","serviceFamily":"Compute","type":"Consumption","armSkuName":"Standard_D2s_v5"},
 {"currencyCode":"USD","retailPrice":0.01,"armRegionName":"westeurope","effectiveStartDate":"2026-11-01T00:00:00Z","meterName":"D2s v5 Low Priority","productName":"Virtual Machines Dsv5 Series","skuName":"D2s v5 Low Priority","serviceName":"Virtual Machines","serviceFamily":"Compute","type":"Consumption","armSkuName":"Standard_D2s_v5"}
],"NextPageLink":%q,"Count":3}`, next)
		case strings.Contains(filter, "'westeurope'"):
			if throttled.Add(1) == 1 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			fmt.Fprint(w, `{"BillingCurrency":"USD","Items":[
 {"currencyCode":"USD","retailPrice":0.021,"armRegionName":"westeurope","effectiveStartDate":"2026-11-20T00:00:00Z","meterName":"D2s v5 Spot","productName":"Virtual Machines Dsv5 Series","skuName":"D2s v5 Spot","serviceName":"Virtual Machines","serviceFamily":"Compute","type":"Consumption","armSkuName":"Standard_D2s_v5"},
 {"currencyCode":"USD","retailPrice":0.12,"armRegionName":"westeurope","effectiveStartDate":"2026-10-01T00:00:00Z","meterName":"D2s v5","productName":"Virtual Machines Dsv5 Series","skuName":"D2s v5","serviceName":"Virtual Machines","serviceFamily":"Compute","type":"Consumption","armSkuName":"Standard_D2s_v5"}
],"NextPageLink":null,"Count":2}`)
		default:
			t.Errorf("unexpected Retail Prices query %s", r.URL)
			http.NotFound(w, r)
		}
	}))
	return srv
}

// armServer lists one westeurope VM size over two pages (with a disk SKU to skip) and
// rejects northeurope.
func armServer(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer test-token" {
			t.Errorf("Resource SKUs call without the credential's token: %q", r.Header.Get("Authorization"))
		}
		if !strings.HasSuffix(r.URL.Path, "/subscriptions/sub-1/providers/Microsoft.Compute/skus") {
			t.Errorf("unexpected ARM path %s", r.URL.Path)
		}
		filter := r.URL.Query().Get("$filter")
		switch {
		case strings.Contains(filter, "northeurope"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"code":"InvalidLocation","message":"not available"}}`)
		case r.URL.Query().Get("page") == "":
			next := srv.URL + r.URL.Path + "?" + r.URL.RawQuery + "&page=2"
			fmt.Fprintf(w, `{"value":[{"resourceType":"disks","name":"Premium_LRS","locations":["westeurope"]}],"nextLink":%q}`, next)
		default:
			fmt.Fprint(w, `{"value":[{"resourceType":"virtualMachines","name":"Standard_Z2s_v9","tier":"Standard","size":"Z2s_v9","family":"standardZSv9Family",
 "locations":["westeurope"],"locationInfo":[{"location":"westeurope","zones":["1","2","3"]}],
 "capabilities":[{"name":"vCPUs","value":"2"},{"name":"MemoryGB","value":"8"},{"name":"CpuArchitectureType","value":"x64"},{"name":"HyperVGenerations","value":"V1,V2"},{"name":"PremiumIO","value":"True"}],
 "restrictions":[]}]}`)
		}
	}))
	return srv
}

var regionInScope = regexp.MustCompile(`Credential=[^/]+/[0-9]+/([a-z0-9-]+)/`)

// awsServer answers the Price List API (JSON 1.1) and EC2 (query protocol, XML); eu-west-1
// is refused for both.
func awsServer(t *testing.T) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if target := r.Header.Get("X-Amz-Target"); target != "" {
			if target != "AWSPriceListService.GetProducts" {
				t.Errorf("unexpected Price List call %s", target)
			}
			w.Header().Set("Content-Type", "application/x-amz-json-1.1")
			var in struct {
				Filters   []struct{ Field, Value string }
				NextToken string
			}
			_ = json.Unmarshal(body, &in)
			for _, f := range in.Filters {
				if f.Field == "regionCode" && f.Value == "eu-west-1" {
					w.Header().Set("X-Amzn-ErrorType", "AccessDeniedException")
					w.WriteHeader(http.StatusBadRequest)
					fmt.Fprint(w, `{"__type":"AccessDeniedException","Message":"not allowed"}`)
					return
				}
			}
			doc := func(itype, usd string) string {
				b, _ := json.Marshal(fmt.Sprintf(`{"product":{"attributes":{"instanceType":%q,"regionCode":"us-east-1"}},"terms":{"OnDemand":{"T1":{"priceDimensions":{"D1":{"unit":"Hrs","pricePerUnit":{"USD":%q}}}}}}}`, itype, usd))
				return string(b)
			}
			if in.NextToken == "" {
				fmt.Fprintf(w, `{"FormatVersion":"aws_v1","PriceList":[%s],"NextToken":"p2"}`, doc("m5.large", "0.1"))
			} else {
				fmt.Fprintf(w, `{"FormatVersion":"aws_v1","PriceList":[%s,%s]}`, doc("c5.large", "0.09"), doc("t3.nano", "0.0000000000"))
			}
			return
		}
		form, _ := url.ParseQuery(string(body))
		region := ""
		if m := regionInScope.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
			region = m[1]
		}
		w.Header().Set("Content-Type", "text/xml")
		if region == "eu-west-1" {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<Response><Errors><Error><Code>UnauthorizedOperation</Code><Message>not allowed</Message></Error></Errors><RequestID>r</RequestID></Response>`)
			return
		}
		switch form.Get("Action") {
		case "DescribeSpotPriceHistory":
			item := func(zone, price, ts string) string {
				return fmt.Sprintf(`<item><availabilityZone>%s</availabilityZone><instanceType>m5.large</instanceType><productDescription>Linux/UNIX</productDescription><spotPrice>%s</spotPrice><timestamp>%s</timestamp></item>`, zone, price, ts)
			}
			if form.Get("NextToken") == "" {
				fmt.Fprintf(w, `<DescribeSpotPriceHistoryResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId><spotPriceHistorySet>%s%s</spotPriceHistorySet><nextToken>p2</nextToken></DescribeSpotPriceHistoryResponse>`,
					item("us-east-1a", "0.0400", "2026-12-04T00:00:00.000Z"), item("us-east-1a", "0.0300", "2026-12-03T00:00:00.000Z"))
			} else {
				fmt.Fprintf(w, `<DescribeSpotPriceHistoryResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId><spotPriceHistorySet>%s</spotPriceHistorySet><nextToken></nextToken></DescribeSpotPriceHistoryResponse>`,
					item("us-east-1b", "0.0350", "2026-12-04T00:00:00.000Z"))
			}
		case "DescribeInstanceTypes":
			fmt.Fprint(w, `<DescribeInstanceTypesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId><instanceTypeSet><item><instanceType>m5.large</instanceType><hypervisor>nitro</hypervisor><bareMetal>false</bareMetal><networkInfo><maximumNetworkInterfaces>4</maximumNetworkInterfaces><ipv4AddressesPerInterface>12</ipv4AddressesPerInterface><defaultNetworkCardIndex>0</defaultNetworkCardIndex><networkCards><item><networkCardIndex>0</networkCardIndex><maximumNetworkInterfaces>4</maximumNetworkInterfaces></item></networkCards></networkInfo></item></instanceTypeSet></DescribeInstanceTypesResponse>`)
		default:
			t.Errorf("unexpected EC2 action %q", form.Get("Action"))
		}
	}))
}

type fakeCredential struct{}

func (fakeCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: "test-token", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// copyReference copies the repository's reference/catalog and reference/aws to a temporary
// directory, for the refresh to rewrite.
func copyReference(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, sub := range []string{"catalog", "aws"} {
		src := reftest.Dir(t, sub)
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dst, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, sub, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dst
}

// TestUpdateCatalogAgainstRecordedResponses runs the command as make update-catalog does,
// with every endpoint on httptest, and builds both catalogs from what it wrote.
func TestUpdateCatalogAgainstRecordedResponses(t *testing.T) {
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "AKIDTEST", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "",
		"AWS_PROFILE": "", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull, "AWS_EC2_METADATA_DISABLED": "true"} {
		t.Setenv(k, v)
	}
	var throttled atomic.Int32
	retail, arm, awsSrv := retailServer(t, &throttled), armServer(t), awsServer(t)
	defer retail.Close()
	defer arm.Close()
	defer awsSrv.Close()
	ref := copyReference(t)
	now := time.Date(2026, 12, 4, 1, 0, 0, 0, time.UTC)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{
		"--ref", ref, "--azure-regions", "westeurope,northeurope", "--azure-prices-url", retail.URL + "/api/retail/prices",
		"--subscription", "sub-1", "--arm-endpoint", arm.URL,
		"--aws-endpoint", awsSrv.URL, "--aws-ondemand-regions", "us-east-1,eu-west-1", "--aws-spot-regions", "us-east-1,eu-west-1",
	}, &stdout, &stderr, options{now: now, httpClient: arm.Client(), credential: fakeCredential{}, maxRetryAfter: 10 * time.Millisecond})
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (some regions failed)\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	for _, want := range []string{"Azure prices northeurope", "Azure Resource SKUs northeurope", "EC2 on-demand prices eu-west-1", "EC2 spot prices eu-west-1"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the failures do not list %q:\n%s", want, &stderr)
		}
	}
	if throttled.Load() != 2 {
		t.Errorf("the throttled page was asked %d times, want 2 (a 429, then the retry)", throttled.Load())
	}

	// Azure: westeurope has the new prices, northeurope its old snapshot, and the new size is in.
	b := source.NewBuilder()
	if err := b.ReadSnapshotDir(filepath.Join(ref, "catalog")); err != nil {
		t.Fatal(err)
	}
	data, err := b.Data()
	if err != nil {
		t.Fatal(err)
	}
	c, err := akscatalog.New(data)
	if err != nil {
		t.Fatal(err)
	}
	old := akscatalog.Default()
	// Two Linux meters: the newer (2026-11-01, 0.11) wins over 2026-10-01's 0.12; the Windows
	// and Low Priority meters are not Linux pay-as-you-go prices.
	for _, tc := range []struct {
		ct    akscatalog.CapacityType
		price float64
	}{{akscatalog.OnDemand, 0.11}, {akscatalog.Spot, 0.021}} {
		q, ok := c.Quote("westeurope", "Standard_D2s_v5", tc.ct)
		if !ok || q.Price != tc.price || q.Source != "list 2026-12-04" || q.Estimated {
			t.Errorf("westeurope %s: %+v %v, want %v from list 2026-12-04", tc.ct, q, ok, tc.price)
		}
	}
	if q, _ := c.Quote("westeurope", "Standard_D4s_v5", akscatalog.OnDemand); q.Source == "list 2026-12-04" {
		t.Errorf("westeurope Standard_D4s_v5 is not in the refreshed listing, yet has a refreshed price: %+v", q)
	}
	qNew, _ := c.Quote("northeurope", "Standard_D2s_v5", akscatalog.OnDemand)
	qOld, _ := old.Quote("northeurope", "Standard_D2s_v5", akscatalog.OnDemand)
	if qNew != qOld {
		t.Errorf("northeurope failed but changed: %+v, was %+v", qNew, qOld)
	}
	if s, ok := c.SKU("Standard_Z2s_v9"); !ok || s.VCPUs != 2 {
		t.Errorf("the listed size is not in the catalog with 2 vCPUs: %+v %v", s, ok)
	} else if zones, known := c.Zones("westeurope", "Standard_Z2s_v9"); !known || len(zones) != 3 {
		t.Errorf("Standard_Z2s_v9 zones %v (known %v), want 3", zones, known)
	}

	// The refreshed catalog as a replace-mode override (what `gen -ref DIR -format json` writes)
	// is what checks.catalog_path loads over the embedded one, without a rebuild.
	var override bytes.Buffer
	if err := c.WriteOverrideJSON(&override); err != nil {
		t.Fatal(err)
	}
	overridePath := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(overridePath, override.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := akscatalog.Load(overridePath)
	if err != nil {
		t.Fatal(err)
	}
	if q, ok := loaded.Quote("westeurope", "Standard_D2s_v5", akscatalog.OnDemand); !ok || q.Price != 0.11 || q.Source != "list 2026-12-04" {
		t.Errorf("through catalog_path: westeurope Standard_D2s_v5 %+v %v, want 0.11 from list 2026-12-04", q, ok)
	}
	if _, ok := loaded.SKU("Standard_Z2s_v9"); !ok {
		t.Error("through catalog_path: the listed size is missing")
	}

	// EC2: us-east-1 refreshed, eu-west-1's spot kept, m5.large's ENIs from DescribeInstanceTypes.
	e, err := ekscatalog.Build(filepath.Join(ref, "aws"))
	if err != nil {
		t.Fatal(err)
	}
	table := func(region string, ct ekscatalog.CapacityType) *ekscatalog.PriceTable {
		for _, p := range e.PriceTables {
			if p.Region == region && p.CapacityType == ct {
				return p
			}
		}
		return nil
	}
	od := table("us-east-1", ekscatalog.OnDemand)
	if od == nil || od.Prices["m5.large"] != 0.1 || od.Prices["c5.large"] != 0.09 || len(od.Prices) != 2 || !strings.Contains(od.Source, "AWS Price List API") {
		t.Errorf("us-east-1 on-demand: %+v", od)
	}
	// The latest price per zone (us-east-1a: 0.04 of 2026-12-04, not 0.03 of the day before), then the highest zone.
	if sp := table("us-east-1", ekscatalog.Spot); sp == nil || sp.Prices["m5.large"] != 0.04 || !strings.Contains(sp.Source, "DescribeSpotPriceHistory at 2026-12-04") {
		t.Errorf("us-east-1 spot: %+v", sp)
	}
	if sp := table("eu-west-1", ekscatalog.Spot); sp == nil || strings.Contains(sp.Source, "DescribeSpotPriceHistory") {
		t.Errorf("eu-west-1 failed but its spot table changed: %+v", sp)
	}
	if m5, ok := e.Get("m5.large"); !ok || m5.ENI == nil || m5.ENI.Interfaces != 4 || m5.ENI.IPv4PerInterface != 12 {
		t.Errorf("m5.large ENI limits not refreshed: %+v", m5)
	}
}

// A second run that changes nothing leaves every file byte-identical: the writes are stable.
func TestUpdateCatalogIsStable(t *testing.T) {
	var throttled atomic.Int32
	retail := retailServer(t, &throttled)
	defer retail.Close()
	ref := copyReference(t)
	args := []string{"--ref", ref, "--azure-regions", "westeurope", "--azure-prices-url", retail.URL + "/api/retail/prices", "--skip", "aws"}
	o := options{now: time.Date(2026, 12, 4, 1, 0, 0, 0, time.UTC), httpClient: http.DefaultClient, maxRetryAfter: time.Millisecond}
	if code := run(context.Background(), args, io.Discard, io.Discard, o); code != 0 {
		t.Fatalf("first run: exit %d", code)
	}
	first, _ := os.ReadFile(filepath.Join(ref, "catalog", source.SnapshotPrices+".gz"))
	throttled.Store(0)
	if code := run(context.Background(), args, io.Discard, io.Discard, o); code != 0 {
		t.Fatalf("second run: exit %d", code)
	}
	second, _ := os.ReadFile(filepath.Join(ref, "catalog", source.SnapshotPrices+".gz"))
	if !bytes.Equal(first, second) {
		t.Error("the same answers wrote different bytes")
	}
}

func TestBadFlagsAreUsageErrors(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--skip", "gcp"}, io.Discard, &stderr, options{}); code != 2 || !strings.Contains(stderr.String(), "valid are azure-prices, azure-skus, aws") {
		t.Errorf("--skip gcp: exit %d, %s", code, &stderr)
	}
}

func TestRetryAfter(t *testing.T) {
	if got := retryAfter("3", 1); got != 3*time.Second {
		t.Errorf("seconds: %v", got)
	}
	if got := retryAfter("", 2); got != 4*time.Second {
		t.Errorf("no header: %v", got)
	}
	if got := retryAfter(time.Now().Add(10*time.Second).UTC().Format(http.TimeFormat), 1); got < 8*time.Second || got > 10*time.Second {
		t.Errorf("HTTP date: %v", got)
	}
}
