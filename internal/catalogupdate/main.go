package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// options are the command's flags; the test sets the endpoints to httptest servers.
type options struct {
	ref           string
	azureRegions  []string
	pricesURL     string
	subscription  string
	armEndpoint   string
	awsOnDemand   []string
	awsSpot       []string
	awsTypes      string
	awsEndpoint   string
	skip          map[string]bool
	now           time.Time
	httpClient    *http.Client
	credential    azcore.TokenCredential
	maxRetryAfter time.Duration
}

// Sources the command refreshes, for --skip.
const (
	srcAzurePrices = "azure-prices"
	srcAzureSKUs   = "azure-skus"
	srcAWS         = "aws"
)

func main() {
	base := options{now: time.Now().UTC(), httpClient: http.DefaultClient, maxRetryAfter: time.Minute}
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, base))
}

// run parses args into o and refreshes. o brings what flags do not set: the clock, the HTTP
// client, the longest Retry-After honoured and, in tests, the Azure credential.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, o options) int {
	fs := flag.NewFlagSet("update-catalog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.skip = map[string]bool{}
	var azureRegions, awsOnDemand, awsSpot, skip string
	fs.StringVar(&o.ref, "ref", "reference", "the reference directory (catalog/ and aws/ below it)")
	fs.StringVar(&azureRegions, "azure-regions", "", "Azure regions to refresh, comma-separated (default: every region of the current price files)")
	fs.StringVar(&o.pricesURL, "azure-prices-url", "https://prices.azure.com/api/retail/prices", "Retail Prices API endpoint")
	fs.StringVar(&o.subscription, "subscription", "", "subscription whose Resource SKUs are listed (empty: the Resource SKUs are not refreshed)")
	fs.StringVar(&o.armEndpoint, "arm-endpoint", "https://management.azure.com", "Azure Resource Manager endpoint")
	fs.StringVar(&awsOnDemand, "aws-ondemand-regions", "", "AWS regions whose on-demand prices are refreshed (default: the commercial regions of the current file)")
	fs.StringVar(&awsSpot, "aws-spot-regions", "", "AWS regions whose spot prices are refreshed (default: the regions of the current file)")
	fs.StringVar(&o.awsTypes, "aws-types-region", "us-east-1", "AWS region whose DescribeInstanceTypes refreshes the ENI limits")
	fs.StringVar(&o.awsEndpoint, "aws-endpoint", "", "endpoint for every AWS call (default: the SDK's per service and region)")
	fs.StringVar(&skip, "skip", "", "sources not to refresh, comma-separated: "+srcAzurePrices+", "+srcAzureSKUs+", "+srcAWS)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "update-catalog: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	o.azureRegions, o.awsOnDemand, o.awsSpot = list(azureRegions), list(awsOnDemand), list(awsSpot)
	for _, s := range list(skip) {
		if s != srcAzurePrices && s != srcAzureSKUs && s != srcAWS {
			fmt.Fprintf(stderr, "update-catalog: --skip %q: valid are %s, %s, %s\n", s, srcAzurePrices, srcAzureSKUs, srcAWS)
			return 2
		}
		o.skip[s] = true
	}
	if o.subscription == "" {
		o.skip[srcAzureSKUs] = true
		fmt.Fprintln(stdout, "update-catalog: no --subscription: the Resource SKUs are not refreshed")
	}
	if o.credential == nil && !o.skip[srcAzureSKUs] {
		c, err := azidentity.NewDefaultAzureCredential(nil)
		if err != nil {
			fmt.Fprintf(stderr, "update-catalog: Azure credential: %v\n", err)
			return 1
		}
		o.credential = c
	}
	r := &report{out: stdout}
	steps := []struct {
		source string
		fn     func(context.Context, options, *report) error
	}{{srcAzurePrices, refreshAzurePrices}, {srcAzureSKUs, refreshAzureSKUs}, {srcAWS, refreshAWS}}
	for _, s := range steps {
		if o.skip[s.source] {
			continue
		}
		if err := s.fn(ctx, o, r); err != nil {
			fmt.Fprintf(stderr, "update-catalog: %s: %v\n", s.source, err)
			return 1
		}
	}
	return r.close(stderr)
}

// report collects what was refreshed and what failed and kept its old snapshot.
type report struct {
	out    io.Writer
	failed []string
}

func (r *report) refreshed(format string, args ...any) {
	fmt.Fprintf(r.out, "update-catalog: "+format+"\n", args...)
}

func (r *report) fail(what, region string, err error) {
	r.failed = append(r.failed, fmt.Sprintf("%s %s: %v", what, region, err))
}

func (r *report) close(stderr io.Writer) int {
	if len(r.failed) == 0 {
		return 0
	}
	sort.Strings(r.failed)
	fmt.Fprintf(stderr, "update-catalog: %d failed, their old snapshot kept:\n", len(r.failed))
	for _, f := range r.failed {
		fmt.Fprintln(stderr, "  "+f)
	}
	return 1
}

func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
