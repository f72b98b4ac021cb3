package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// Input file names in the reference directory (reference/aws; each may be stored as name.gz).
const (
	DocsFile     = "instance_types_from_upstream_docs.json"
	VPCFile      = "vpc_limits.json"
	OnDemandFile = "prices_ondemand_by_region.json"
	SpotFile     = "prices_spot_by_region_2024-08-09.json"
)

// DocsType is one entry of instance_types_from_upstream_docs.json: the labels
// and resources (after overhead) that upstream's docs generator printed.
type DocsType struct {
	Name      string            `json:"name"`
	Labels    map[string]string `json:"labels"`
	Resources map[string]string `json:"resources"`
}

// ReadDocs reads instance_types_from_upstream_docs.json.
func ReadDocs(path string) ([]DocsType, error) {
	var out []DocsType
	if err := readJSON(path, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Build reads the reference directory and returns the catalog. Every problem
// found is reported, not only the first.
func Build(dir string) (*Catalog, error) {
	docs, err := ReadDocs(filepath.Join(dir, DocsFile))
	if err != nil {
		return nil, err
	}
	limits, vpcMeta, err := readVPCLimits(filepath.Join(dir, VPCFile))
	if err != nil {
		return nil, err
	}
	var problems []string
	types := make([]InstanceType, 0, len(docs))
	for _, d := range docs {
		t, errs := typeFromDocs(d, limits)
		for _, e := range errs {
			problems = append(problems, fmt.Sprintf("%s: %s: %s", DocsFile, d.Name, e))
		}
		types = append(types, t)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%d problems:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	od, odSources, err := readOnDemand(filepath.Join(dir, OnDemandFile))
	if err != nil {
		return nil, err
	}
	spot, spotSource, err := readSpot(filepath.Join(dir, SpotFile))
	if err != nil {
		return nil, err
	}
	sources := []string{
		DocsFile + ": instance-type facts as printed by aws/karpenter-provider-aws hack/docs/instancetypes_gen (main 1d92708, 2026-08-21)",
		VPCFile + ": " + vpcMeta,
	}
	sources = append(sources, odSources...)
	sources = append(sources, spotSource)
	return New(types, append(od, spot...), sources)
}

// Labels computed from the name or fixed by the node class, not facts: Build
// checks that it knows every other label, so that a label upstream adds fails
// the generator instead of vanishing from the catalog.
var derivedLabels = map[string]bool{
	"node.kubernetes.io/instance-type":           true,
	"kubernetes.io/os":                           true,
	"karpenter.k8s.aws/instance-category":        true,
	"karpenter.k8s.aws/instance-family":          true,
	"karpenter.k8s.aws/instance-generation":      true,
	"karpenter.k8s.aws/instance-size":            true,
	"karpenter.k8s.aws/instance-capability-flex": true,
}

// Resources the derivation computes (read only for the ENI fallback).
var derivedResources = map[string]bool{
	"cpu": true, "memory": true, "ephemeral-storage": true, "pods": true, "vpc.amazonaws.com/pod-eni": true,
}

func typeFromDocs(d DocsType, limits map[string]vpcLimit) (InstanceType, []string) {
	var errs []string
	t := InstanceType{Name: d.Name}
	l := d.Labels
	num := func(key string, required bool) *int64 {
		v, ok := l[key]
		if !ok {
			if required {
				errs = append(errs, fmt.Sprintf("label %s missing", key))
			}
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("label %s=%q is not an integer", key, v))
			return nil
		}
		return &n
	}
	str := func(key string) string {
		v, ok := l[key]
		if !ok {
			errs = append(errs, fmt.Sprintf("label %s missing", key))
		}
		return v
	}
	if v := num("karpenter.k8s.aws/instance-cpu", true); v != nil {
		t.VCPU = *v
	}
	if v := num("karpenter.k8s.aws/instance-memory", true); v != nil {
		t.MemoryMiB = *v
	}
	t.Arch = str("kubernetes.io/arch")
	t.CPUManufacturer = str("karpenter.k8s.aws/instance-cpu-manufacturer")
	t.ClockMHz = num("karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", false)
	t.EBSBandwidthMbps = num("karpenter.k8s.aws/instance-ebs-bandwidth", false)
	t.NetworkBandwidthMbps = num("karpenter.k8s.aws/instance-network-bandwidth", false)
	t.Hypervisor = str("karpenter.k8s.aws/instance-hypervisor")
	switch v := str("karpenter.k8s.aws/instance-encryption-in-transit-supported"); v {
	case "true":
		t.EncryptionInTransit = true
	case "false":
	default:
		errs = append(errs, fmt.Sprintf("label instance-encryption-in-transit-supported=%q is not a boolean", v))
	}
	t.LocalNVMeGB = num("karpenter.k8s.aws/instance-local-nvme", false)
	if _, ok := l["karpenter.k8s.aws/instance-gpu-name"]; ok {
		g := &Device{Name: str("karpenter.k8s.aws/instance-gpu-name"), Manufacturer: str("karpenter.k8s.aws/instance-gpu-manufacturer")}
		if v := num("karpenter.k8s.aws/instance-gpu-count", true); v != nil {
			g.Count = *v
		}
		g.MemoryMiB = num("karpenter.k8s.aws/instance-gpu-memory", true)
		t.GPU = g
	}
	if _, ok := l["karpenter.k8s.aws/instance-accelerator-name"]; ok {
		a := &Device{Name: str("karpenter.k8s.aws/instance-accelerator-name"), Manufacturer: str("karpenter.k8s.aws/instance-accelerator-manufacturer")}
		if v := num("karpenter.k8s.aws/instance-accelerator-count", true); v != nil {
			a.Count = *v
		}
		t.Accelerator = a
	}
	known := map[string]bool{}
	for _, k := range []string{"instance-cpu", "instance-memory", "instance-cpu-manufacturer", "instance-cpu-sustained-clock-speed-mhz",
		"instance-ebs-bandwidth", "instance-network-bandwidth", "instance-hypervisor", "instance-encryption-in-transit-supported",
		"instance-local-nvme", "instance-gpu-name", "instance-gpu-manufacturer", "instance-gpu-count", "instance-gpu-memory",
		"instance-accelerator-name", "instance-accelerator-manufacturer", "instance-accelerator-count"} {
		known["karpenter.k8s.aws/"+k] = true
	}
	known["kubernetes.io/arch"] = true
	for _, k := range slices.Sorted(maps.Keys(l)) {
		if !known[k] && !derivedLabels[k] {
			errs = append(errs, fmt.Sprintf("label %s is not known to the generator", k))
		}
	}

	for _, k := range slices.Sorted(maps.Keys(d.Resources)) {
		v := d.Resources[k]
		if derivedResources[k] {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("resource %s=%q is not an integer", k, v))
			continue
		}
		switch k {
		case "nvidia.com/gpu":
			t.NVIDIAGPUs = n
		case "amd.com/gpu":
			t.AMDGPUs = n
		case "habana.ai/gaudi":
			t.HabanaGaudis = n
		case "aws.amazon.com/neuron":
			t.NeuronDevices = n
		case "aws.amazon.com/neuroncore":
			t.NeuronCores = n
		case "vpc.amazonaws.com/efa":
			t.EFAs = n
		default:
			errs = append(errs, fmt.Sprintf("resource %s is not known to the generator", k))
		}
	}

	if lim, ok := limits[d.Name]; ok {
		e, err := lim.eni()
		if err != nil {
			errs = append(errs, err.Error())
		}
		t.ENI = e
	} else {
		// The generated VPC limits lack a few types (hpc*, trn2.48xlarge) that
		// EC2 describes; upstream derives their pods from DescribeInstanceTypes,
		// which the public data does not have. Upstream's printed density is the
		// one public number.
		p, err := strconv.ParseInt(d.Resources["pods"], 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("not in %s and pods=%q is not an integer", VPCFile, d.Resources["pods"]))
		} else {
			t.ENILimitedPods = &p
		}
	}
	return t, errs
}

type vpcLimit struct {
	Interface               int64 `json:"Interface"`
	IPv4PerInterface        int64 `json:"IPv4PerInterface"`
	IsTrunkingCompatible    bool  `json:"IsTrunkingCompatible"`
	BranchInterface         int64 `json:"BranchInterface"`
	DefaultNetworkCardIndex int64 `json:"DefaultNetworkCardIndex"`
	NetworkCards            []struct {
		MaximumNetworkInterfaces int64 `json:"MaximumNetworkInterfaces"`
		NetworkCardIndex         int64 `json:"NetworkCardIndex"`
	} `json:"NetworkCards"`
	Hypervisor  string `json:"Hypervisor"`
	IsBareMetal bool   `json:"IsBareMetal"`
}

// eni picks the default card's interface count: the VPC CNI, and so upstream's
// ENI-limited pod density, use that card only.
func (v vpcLimit) eni() (*ENILimits, error) {
	for _, c := range v.NetworkCards {
		if c.NetworkCardIndex == v.DefaultNetworkCardIndex {
			return &ENILimits{Interfaces: c.MaximumNetworkInterfaces, IPv4PerInterface: v.IPv4PerInterface,
				Trunking: v.IsTrunkingCompatible, BranchInterfaces: v.BranchInterface}, nil
		}
	}
	return nil, fmt.Errorf("%s: no network card with the default index %d", VPCFile, v.DefaultNetworkCardIndex)
}

func readVPCLimits(path string) (map[string]vpcLimit, string, error) {
	var f struct {
		Meta struct {
			GeneratedAt string `json:"generated_at"`
			Path        string `json:"path"`
			Ref         string `json:"ref"`
			// Refreshed says which fields make update-catalog took from DescribeInstanceTypes, and when.
			Refreshed string `json:"refreshed"`
		} `json:"_meta"`
		Limits map[string]vpcLimit `json:"limits"`
	}
	if err := readJSON(path, &f); err != nil {
		return nil, "", err
	}
	src := fmt.Sprintf("ENI/IPv4 limits from aws/karpenter-provider-aws %s (%.7s, generated %s)", f.Meta.Path, f.Meta.Ref, f.Meta.GeneratedAt)
	if f.Meta.Refreshed != "" {
		src += "; " + f.Meta.Refreshed
	}
	return f.Limits, src, nil
}

func readOnDemand(path string) ([]*PriceTable, []string, error) {
	var f struct {
		Meta struct {
			Ref   string `json:"ref"`
			Files map[string]struct {
				GeneratedAt string   `json:"generated_at"`
				Regions     []string `json:"regions"`
				// Source replaces the upstream file as the origin (make update-catalog: the AWS Price List API).
				Source string `json:"source"`
			} `json:"files"`
		} `json:"_meta"`
		OnDemand map[string]map[string]float64 `json:"on_demand"`
	}
	if err := readJSON(path, &f); err != nil {
		return nil, nil, err
	}
	sourceOf := map[string]string{}
	var sources []string
	for file, m := range f.Meta.Files {
		s := fmt.Sprintf("%s: aws/karpenter-provider-aws %s (%.7s, generated %s)", OnDemandFile, file, f.Meta.Ref, m.GeneratedAt)
		if m.Source != "" {
			s = fmt.Sprintf("%s: %s (generated %s)", OnDemandFile, m.Source, m.GeneratedAt)
		}
		sources = append(sources, s+" for "+strings.Join(m.Regions, ", "))
		for _, r := range m.Regions {
			sourceOf[r] = s
		}
	}
	sort.Strings(sources)
	var out []*PriceTable
	for region, prices := range f.OnDemand {
		src, ok := sourceOf[region]
		if !ok {
			return nil, nil, fmt.Errorf("%s: region %s has no source file in _meta.files", path, region)
		}
		out = append(out, &PriceTable{Region: region, CapacityType: OnDemand, Currency: currencyOf(region), Source: src, Prices: prices})
	}
	return out, sources, nil
}

// currencyOf: upstream reads PricePerUnit["CNY"] in the aws-cn partition and
// USD elsewhere, and stores the number unchanged.
func currencyOf(region string) string {
	if strings.HasPrefix(region, "cn-") {
		return "CNY"
	}
	return "USD"
}

func readSpot(path string) ([]*PriceTable, string, error) {
	var f struct {
		Meta struct {
			Currency string `json:"currency"`
			// Refreshed maps a region make update-catalog fetched from DescribeSpotPriceHistory to the time it did.
			Refreshed map[string]string `json:"refreshed"`
		} `json:"_meta"`
		Spot map[string]map[string]float64 `json:"spot"`
	}
	if err := readJSON(path, &f); err != nil {
		return nil, "", err
	}
	if f.Meta.Currency != "USD" {
		return nil, "", fmt.Errorf("%s: currency %q, want USD", path, f.Meta.Currency)
	}
	src := SpotFile + ": third-party region-level Linux spot snapshot of 2024-08-09 (coroot/cloud-pricing af03ead), an estimate only"
	var out []*PriceTable
	for region, prices := range f.Spot {
		s := src
		if at, ok := f.Meta.Refreshed[region]; ok {
			s = fmt.Sprintf("%s: Linux spot prices of EC2 DescribeSpotPriceHistory at %s, the highest zone's per type, an estimate of any one zone", SpotFile, at)
		}
		out = append(out, &PriceTable{Region: region, CapacityType: Spot, Currency: "USD", Source: s, Estimate: true, Prices: prices})
	}
	return out, src, nil
}

func readJSON(path string, v any) error {
	b, err := refdata.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
