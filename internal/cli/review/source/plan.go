package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// UnknownName names an object whose name is only known after apply.
const UnknownName = "(known after apply)"

// planKinds are the resource types whose values the review maps back to Kubernetes objects.
var planKinds = map[string]*kinds.Kind{
	"karpenter_nodepool":     kinds.NodePool,
	"karpenter_aksnodeclass": kinds.AKSNodeClass,
	"karpenter_ec2nodeclass": kinds.EC2NodeClass,
}

// notObjects are this provider's resource types that manage no Karpenter object.
var notObjects = map[string]bool{"karpenter_aks_node_auto_provisioning": true}

// planResourceAttrs are the attributes of the Terraform resources that are not CRD fields:
// the id, timeouts, the field managers taken over after an import, and the plan-time
// provisioning checks' settings and results, and the cluster a fleet's resource is managed in
// (not yet a cluster of its own in the review: the objects of one provider configuration are
// one cluster). A test keeps the list in step with the resources' schemas.
var planResourceAttrs = []string{"id", "timeouts", "take_ownership_from", "checks", "analysis", "cluster"}

// tfPlan is the part of `terraform show -json` plan output the review reads.
type tfPlan struct {
	FormatVersion    string `json:"format_version"`
	TerraformVersion string `json:"terraform_version"`
	PlannedValues    *struct {
		RootModule tfModule `json:"root_module"`
	} `json:"planned_values"`
	ResourceChanges []struct {
		Address string `json:"address"`
		Mode    string `json:"mode"`
		Type    string `json:"type"`
		Change  struct {
			Actions      []string `json:"actions"`
			After        any      `json:"after"`
			AfterUnknown any      `json:"after_unknown"`
		} `json:"change"`
	} `json:"resource_changes"`
	Configuration struct {
		RootModule     tfConfigModule `json:"root_module"`
		ProviderConfig map[string]struct {
			Name        string `json:"name"`
			Alias       string `json:"alias"`
			Expressions map[string]struct {
				ConstantValue any      `json:"constant_value"`
				References    []string `json:"references"`
			} `json:"expressions"`
		} `json:"provider_config"`
	} `json:"configuration"`
	Variables map[string]struct {
		Value any `json:"value"`
	} `json:"variables"`
}

// tfConfigModule is a module of the plan's configuration: which provider configuration each
// resource uses (the key into provider_config, resolved through module calls' providers).
type tfConfigModule struct {
	Resources []struct {
		Address           string `json:"address"`
		ProviderConfigKey string `json:"provider_config_key"`
	} `json:"resources"`
	ModuleCalls map[string]struct {
		Module tfConfigModule `json:"module"`
	} `json:"module_calls"`
}

// providerKeys maps each resource's configuration address (module path without instance
// keys) to its provider configuration key.
func (m tfConfigModule) providerKeys(prefix string, out map[string]string) {
	for _, r := range m.Resources {
		out[prefix+r.Address] = r.ProviderConfigKey
	}
	for name, c := range m.ModuleCalls {
		c.Module.providerKeys(prefix+"module."+name+".", out)
	}
}

// instanceKeys are the [0] and ["key"] parts of a resource instance address.
var instanceKeys = regexp.MustCompile(`\[[^\]]*\]`)

type tfModule struct {
	Resources []struct {
		Address string         `json:"address"`
		Mode    string         `json:"mode"`
		Type    string         `json:"type"`
		Values  map[string]any `json:"values"`
	} `json:"resources"`
	ChildModules []tfModule `json:"child_modules"`
}

// LooksLikePlan reports whether data is Terraform's JSON output of a plan.
func LooksLikePlan(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(t, &top) != nil {
		return false
	}
	_, fv := top["format_version"]
	_, pv := top["planned_values"]
	_, rc := top["resource_changes"]
	return fv && (pv || rc)
}

// plannedResource is one resource that will exist after the apply.
type plannedResource struct {
	address, typ   string
	after, unknown any
}

// DefaultProvider is the key of the karpenter provider configuration without alias.
const DefaultProvider = "karpenter"

// ParsePlan reads the karpenter_* resources that will exist after applying the plan, each
// with the key of the provider configuration it uses (one cluster per configuration), and
// the region of each karpenter provider configuration where it is a constant or a variable.
func ParsePlan(file string, data []byte) (objs []*Object, regions map[string]string, out []Finding) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var p tfPlan
	if err := dec.Decode(&p); err != nil {
		return nil, nil, []Finding{FileFinding(findings.Unparseable, Location{File: file},
			"not a Terraform JSON plan this review can read: "+err.Error(), "Produce it with terraform show -json PLANFILE.")}
	}
	if major, _, _ := strings.Cut(p.FormatVersion, "."); major != "0" && major != "1" {
		// A new major version of Terraform's JSON format is incompatible by definition.
		return nil, nil, []Finding{FileFinding(findings.Unparseable, Location{File: file},
			fmt.Sprintf("format_version %q is not a Terraform JSON plan format this review can read (it reads 0.x and 1.x); nothing in the plan was reviewed", p.FormatVersion),
			"Produce the plan with a Terraform version whose terraform show -json writes format 1.x, or run a review version that reads this format.")}
	}
	out = append(out, malformedChanges(file, &p)...)
	regions = map[string]string{}
	for key, pc := range p.Configuration.ProviderConfig {
		if pc.Name != DefaultProvider {
			continue
		}
		e := pc.Expressions["region"]
		region, _ := e.ConstantValue.(string)
		// region = var.region: the plan records the variable's value.
		if len(e.References) == 1 && strings.HasPrefix(e.References[0], "var.") {
			region, _ = p.Variables[strings.TrimPrefix(e.References[0], "var.")].Value.(string)
		}
		if region != "" {
			regions[key] = region
		}
	}
	keys := map[string]string{}
	p.Configuration.RootModule.providerKeys("", keys)
	var targets []map[string]any // each object's planned attributes
	for _, r := range plannedResources(&p) {
		if !strings.HasPrefix(r.typ, "karpenter_") || notObjects[r.typ] {
			continue
		}
		kind, ok := planKinds[r.typ]
		if !ok {
			out = append(out, FileFinding(findings.PlanSchemaMismatch, Location{File: file, Address: r.address},
				fmt.Sprintf("resource type %s is not known to this version of the provider; it was not reviewed", r.typ),
				"Run the review with the provider version that made the plan."))
			continue
		}
		attrs, ok := r.after.(map[string]any)
		if !ok {
			out = append(out, FileFinding(findings.PlanSchemaMismatch, Location{File: file, Address: r.address},
				fmt.Sprintf("the planned values of %s are %s, not an object of attributes; it was not reviewed", r.address, jsonKind(r.after)),
				"Produce the plan with terraform show -json PLANFILE, unedited."))
			continue
		}
		o, f := planObject(file, r, kind, attrs)
		o.Provider = keys[instanceKeys.ReplaceAllString(r.address, "")]
		if o.Provider == "" {
			o.Provider = DefaultProvider
		}
		objs = append(objs, o)
		targets = append(targets, attrs)
		out = append(out, f...)
	}
	// Resources with a `cluster` attribute are reviewed as the cluster they target, in its
	// region (the provider's when it sets none), so two clusters' pools never vouch for each
	// other, as at plan time.
	fleet := fleetClusters{}
	for _, attrs := range targets {
		id, name, _ := planCluster(attrs)
		fleet.add(id, name)
	}
	for i, o := range objs {
		id, _, region := planCluster(targets[i])
		base := o.Provider
		if o.Provider = fleet.key(base, id); o.Provider == base {
			continue
		}
		if region == "" {
			region = regions[base]
		}
		if region != "" {
			regions[o.Provider] = region
		}
	}
	return objs, regions, out
}

// malformedChanges reports resource_changes entries of this provider's resource types that
// lack what a plan always has (address, mode, actions, planned values unless deleted): such
// an entry is not understood, and saying nothing would pass it as reviewed.
func malformedChanges(file string, p *tfPlan) []Finding {
	var out []Finding
	for i, rc := range p.ResourceChanges {
		if !strings.HasPrefix(rc.Type, "karpenter_") && rc.Type != "" {
			continue
		}
		var missing []string
		if rc.Type == "" {
			missing = append(missing, "type")
		}
		if rc.Address == "" {
			missing = append(missing, "address")
		}
		if rc.Mode != "managed" && rc.Mode != "data" {
			missing = append(missing, fmt.Sprintf("mode (%q)", rc.Mode))
		}
		if len(rc.Change.Actions) == 0 {
			missing = append(missing, "change.actions")
		} else if rc.Change.After == nil && !slices.Equal(rc.Change.Actions, []string{"delete"}) && rc.Mode == "managed" {
			missing = append(missing, "change.after")
		}
		if len(missing) == 0 {
			continue
		}
		name := rc.Address
		if name == "" {
			name = fmt.Sprintf("resource_changes[%d]", i)
		}
		out = append(out, FileFinding(findings.PlanSchemaMismatch, Location{File: file, Address: rc.Address},
			fmt.Sprintf("resource_changes entry %s was not understood: %s missing or invalid; it was not reviewed", name, strings.Join(missing, ", ")),
			"Produce the plan with terraform show -json PLANFILE, unedited."))
	}
	return out
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case []any:
		return "a list"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

// plannedResources are the managed resources of the plan that still exist after it, with
// their planned values: from resource_changes (which also says what is unknown) or, in plan
// output without it, from planned_values.
func plannedResources(p *tfPlan) []plannedResource {
	var out []plannedResource
	if p.ResourceChanges != nil {
		for _, rc := range p.ResourceChanges {
			if rc.Mode != "managed" || rc.Change.After == nil || slices.Equal(rc.Change.Actions, []string{"delete"}) {
				continue
			}
			out = append(out, plannedResource{address: rc.Address, typ: rc.Type, after: rc.Change.After, unknown: rc.Change.AfterUnknown})
		}
		return out
	}
	if p.PlannedValues == nil {
		return nil
	}
	var walk func(m tfModule)
	walk = func(m tfModule) {
		for _, r := range m.Resources {
			if r.Mode == "managed" {
				out = append(out, plannedResource{address: r.Address, typ: r.Type, after: r.Values})
			}
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	walk(p.PlannedValues.RootModule)
	return out
}

func planObject(file string, r plannedResource, kind *kinds.Kind, attrs map[string]any) (*Object, []Finding) {
	tree := kind.Tree()
	crdAttrs := make(map[string]any, len(attrs))
	for k, v := range attrs {
		if !slices.Contains(planResourceAttrs, k) {
			crdAttrs[k] = v
		}
	}
	body, probs := tree.FromJSON(crdAttrs, r.unknown)
	body["apiVersion"] = kind.GVK.GroupVersion().String()
	body["kind"] = kind.GVK.Kind
	o := &Object{GVK: kind.GVK, Body: body, Source: Source{File: file, Address: r.address, tree: tree}}
	o.Name, _ = o.Get("metadata", "name").(string)
	if checks, ok := attrs["checks"].(map[string]any); ok {
		list, _ := checks["suppress"].([]any)
		for _, c := range list {
			if s, ok := c.(string); ok {
				o.Suppress = append(o.Suppress, findings.Code(strings.ToUpper(s)))
			}
		}
	}
	if _, unknown := o.Get("metadata", "name").(crdtree.Unknown); unknown {
		o.Name = UnknownName
	}
	if len(probs) == 0 {
		return o, nil
	}
	var parts []string
	for _, p := range probs {
		parts = append(parts, p.Path+" ("+p.Reason+")")
	}
	f := o.Finding(findings.PlanSchemaMismatch, "",
		"the plan has attribute values this version of the provider cannot map to the CRD: "+strings.Join(parts, "; ")+"; they were not reviewed",
		"Run the review with the provider version that made the plan (terraform version -json lists it).")
	f.Attribute = probs[0].Path
	return o, []Finding{f}
}

// planSelfHosted returns the keys of the provider configurations whose
// karpenter_aks_node_auto_provisioning the plan sets to mode Manual: the cluster then runs
// self-hosted Karpenter, and AKS creates no `default` AKSNodeClass for it.
func planSelfHosted(data []byte) map[string]bool {
	var p tfPlan
	if json.Unmarshal(data, &p) != nil {
		return nil
	}
	keys := map[string]string{}
	p.Configuration.RootModule.providerKeys("", keys)
	out := map[string]bool{}
	fleet := fleetClusters{}
	for _, r := range plannedResources(&p) {
		attrs, _ := r.after.(map[string]any)
		id, name, _ := planCluster(attrs)
		fleet.add(id, name)
	}
	for _, r := range plannedResources(&p) {
		attrs, _ := r.after.(map[string]any)
		if r.typ != "karpenter_aks_node_auto_provisioning" || attrs["mode"] != "Manual" {
			continue
		}
		key := keys[instanceKeys.ReplaceAllString(r.address, "")]
		if key == "" {
			key = DefaultProvider
		}
		out[key] = true
		// The NAP resource of a cluster other resources target with their `cluster` attribute.
		if id, _ := attrs["cluster_id"].(string); fleet.key(key, strings.ToLower(id)) != key {
			out[fleet.key(key, strings.ToLower(id))] = true
		}
	}
	return out
}

// PlanIsSelfHosted reports whether the plan sets the cluster of provider configuration key
// to self-hosted Karpenter ("" as planRegion reads it).
func (f *File) PlanIsSelfHosted(key string) bool {
	if key == "" {
		if ps := f.Providers(); len(ps) == 1 {
			key = ps[0]
		} else {
			key = DefaultProvider
		}
	}
	return f.planSelfHosted[key]
}
