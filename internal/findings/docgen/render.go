package main

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// where says which part of the project reports a code. The registry does not record it, so it
// is kept here, next to the only text that needs it; a test requires an entry for every code.
type where struct {
	Plan   bool   // the provider's plan-time checks of karpenter_nodepool
	Review bool   // the review command
	Note   string // Markdown: anything a reader of that section needs to know beyond the help text
	// Resource, when set, is the resource other than karpenter_nodepool whose plan reports the
	// code; it has no per-pool suppression.
	Resource string
}

// workloadsNote says where workloads are read from manifests.
const workloadsNote = "Only where workloads are read from manifests: the `simulate` command, `review --workloads` and the " +
	"`workloads_yaml` attribute of `karpenter_provisioning_simulation`."

var reportedBy = map[findings.Code]where{
	findings.APIServerRejects: {Review: true, Note: "In Terraform the same validation runs on every `karpenter_nodepool` and " +
		"`karpenter_aksnodeclass`, where the plan fails with `Invalid NodePool` or `Invalid AKSNodeClass` on the " +
		"attribute concerned, and in the `*_from_yaml` functions, which fail with `The Kubernetes API server would " +
		"reject this manifest`; without a code. It always runs and cannot be suppressed."},
	findings.VersionNotServed:   {Review: true, Note: "Terraform resources always write the served version."},
	findings.VersionDeprecated:  {Review: true},
	findings.UnknownKind:        {Review: true},
	findings.Unparseable:        {Review: true, Note: "`nodepool_from_yaml` and `aksnodeclass_from_yaml` fail with a function error instead."},
	findings.UnrenderedTemplate: {Review: true},
	findings.PlanSchemaMismatch: {Review: true},
	findings.DuplicateObject:    {Review: true},
	findings.NamespaceIgnored:   {Review: true, Note: "Terraform resources have no namespace attribute for cluster-scoped kinds."},
	findings.UnknownField: {Review: true, Note: "Terraform resources have an attribute for every field the CRD defines and " +
		"no other, so an unknown field is a configuration error there."},
	findings.OtherCloud: {Review: true, Note: "`terraform plan` fails on a `karpenter_nodepool` whose `template.node_class_ref` " +
		"names another kind than AKSNodeClass: this provider targets AKS."},
	findings.InputNotRead: {Review: true},

	findings.NoInstanceType:   {Plan: true, Review: true},
	findings.FewInstanceTypes: {Plan: true, Review: true},
	findings.MinValuesUnmet:   {Plan: true, Review: true},
	findings.NoLimits:         {Plan: true, Review: true},
	findings.LimitsBelowNode:  {Plan: true, Review: true},
	findings.UnknownLabelKey:  {Plan: true, Review: true},
	findings.UnknownLabelValue: {Plan: true, Review: true,
		Note: "Without a provider `region` the value is compared with every region of the catalog."},
	findings.ValueNotInRegion: {Plan: true, Review: true, Note: "Only when a region is set (provider `region`, `--region` or the review configuration)."},
	findings.GPUWithoutTaint:  {Plan: true, Review: true},
	findings.SpotWithoutFallback: {Review: true, Note: "It needs every NodePool of the cluster at once, while the provider plans " +
		"one pool at a time, so `terraform plan` does not report it. To check a Terraform configuration, review its plan: " +
		"`terraform show -json plan.out > plan.json && terraform-provider-karpenter review plan.json`."},
	findings.SingleZone:   {Plan: true, Review: true, Note: "Only when a region is set: zones are per region."},
	findings.PodNeverFits: {Plan: true, Note: "Only for pools that declare `checks = { largest_pod = { cpu = \"14\", memory = \"60Gi\" } }`."},
	findings.NodeClassAssumed: {Plan: true, Note: "A note: it is listed in `analysis.findings` and `analysis.node_class` says so, " +
		"but it is not shown as a diagnostic. Manage the AKSNodeClass in the same configuration and reference it " +
		"(`name = karpenter_aksnodeclass.default.name`) so that it is planned before the pool. The review command says " +
		"the same in its summary and reports a node class missing from the input as KRP201."},
	findings.UnknownRegion: {Plan: true, Review: true, Note: "The review command rejects an unknown `--region` or `region:` in " +
		"`.karpenter-review.yaml` as a usage error (exit code 2); it reports KRP114 for a region read from a plan's provider configuration."},
	findings.OnlyPenaltyPricedSKU: {Plan: true, Review: true},
	findings.SubnetNotGranted: {Plan: true, Resource: "karpenter_aksnodeclass", Note: "On `karpenter_aksnodeclass.vnet_subnet_id`, when a " +
		"`karpenter_aks_node_auto_provisioning` resource of the same provider configuration is planned before the node " +
		"class (`depends_on`) with `network_contributor_scopes` known at plan time. The review command does not see grants."},
	findings.SpotSavings: {Plan: true, Review: true, Note: "A note: in `terraform plan` it is listed in `analysis.findings`, not shown as " +
		"a diagnostic. The review command leaves it out when another NodePool of the cluster allows spot for the same pods."},
	findings.KarpenterDesignCost: {Review: true, Note: "Reported by `simulate --mode both` and `review --workloads` (which runs both modes), on the " +
		"requirements of the NodePool it edits; the `simulate` JSON report has it as `advice` per cluster, with every edit tried. The " +
		"`karpenter_provisioning_simulation` data source gives the same edit in its `advice` attribute (`mode = \"both\"`)."},

	findings.NodeClassNotFound: {Plan: true, Review: true, Note: "In Terraform, reference the node class resource " +
		"(`name = karpenter_aksnodeclass.default.name`); a missing one is then a configuration error. With a literal name, " +
		"`terraform plan` fails when `template.node_class_ref` names another group or kind than `karpenter.azure.com`/`AKSNodeClass`, " +
		"and warns when no `karpenter_aksnodeclass` planned before the pool has the name and it is not `default` " +
		"(the class may exist in the cluster). The review treats `default` as created by AKS Node Auto Provisioning unless " +
		"`.karpenter-review.yaml` says `selfHosted: true`, a reviewed plan sets `karpenter_aks_node_auto_provisioning` to " +
		"`mode = \"Manual\"`, or the input defines it."},
	findings.EqualWeightOverlap: {Review: true},

	findings.MalformedWorkload: {Review: true, Note: workloadsNote + " In Terraform it is an error on the element of `workloads_yaml`."},
	findings.PodWithoutRequests: {Review: true, Note: workloadsNote + " In Terraform it is a warning on the element of `workloads_yaml`. " +
		"`review --workloads` and `simulate` name the NodePools the prediction puts the pods on: those whose nodes are sized without the requests."},
	findings.WorkloadSkipped: {Review: true, Note: workloadsNote + " The data source does not show notes."},
}

func (w where) Text() string {
	if w.Resource != "" {
		plan := "`terraform plan` (`" + w.Resource + "`)"
		if w.Review {
			return plan + " and `review`"
		}
		return plan + " only"
	}
	switch {
	case w.Plan && w.Review:
		return "`terraform plan` (`karpenter_nodepool`) and `review`"
	case w.Plan:
		return "`terraform plan` (`karpenter_nodepool`) only"
	case w.Review:
		return "`review` only"
	}
	return "not reported"
}

type section struct {
	findings.Rule
	Where where
}

// PlanDiagnostic says whether terraform plan shows the code as a diagnostic, which a pool can
// suppress; notes are only recorded in the analysis attribute.
func (s section) PlanDiagnostic() bool {
	return s.Where.Plan && s.Where.Resource == "" && s.Severity != findings.Note
}

// Anchor is the heading's anchor on the Terraform Registry and GitHub: the code in lower case.
func (s section) Anchor() string { return strings.ToLower(string(s.Code)) }

// Render returns the findings guide as a tfplugindocs template.
func Render(rules []findings.Rule) ([]byte, error) {
	var secs []section
	for _, r := range rules {
		w, ok := reportedBy[r.Code]
		if !ok {
			// A new code without an entry: say what its number implies (see the findings
			// package comment). The test insists on an explicit entry.
			w = where{Plan: strings.HasPrefix(string(r.Code), "KRP1"), Review: true}
		}
		// The output is itself a template (tfplugindocs renders it): keep any "{{" in the
		// registry's texts literal.
		r.Title, r.Help, w.Note = literal(r.Title), literal(r.Help), literal(w.Note)
		secs = append(secs, section{Rule: r, Where: w})
	}
	var buf bytes.Buffer
	if err := guide.Execute(&buf, secs); err != nil {
		return nil, err
	}
	return append([]byte(header), buf.Bytes()...), nil
}

func literal(s string) string { return strings.ReplaceAll(s, "{{", `{{"{{"}}`) }

// header is a template comment, so that the rendered docs/guides/findings.md starts with its
// front matter and does not carry the notice.
const header = "{{- /* Code generated by internal/findings/docgen from the internal/findings registry. DO NOT EDIT. */ -}}\n"

var guide = template.Must(template.New("findings").Funcs(template.FuncMap{
	"oneline": func(s string) string { return strings.TrimSuffix(s, ".") },
	"plan": func(secs []section) []section {
		var out []section
		for _, s := range secs {
			if s.Where.Plan {
				out = append(out, s)
			}
		}
		return out
	},
	"codes": func(secs []section) string {
		if len(secs) == 0 {
			return ""
		}
		return fmt.Sprintf("%s–%s", secs[0].Code, secs[len(secs)-1].Code)
	},
}).Parse(`---
page_title: "Reading the plan-time findings"
subcategory: "Guides"
description: |-
  What each finding code ({{ codes . }}) of the plan-time checks and the review command means, and how to fix or silence it.
---

# Reading the plan-time findings

` + "`terraform plan`" + ` checks every ` + "`karpenter_nodepool`" + ` offline, with no cluster and no Azure credentials, against the
embedded catalog of Azure VM sizes and prices in the provider's ` + "`region`" + `: which sizes the pool can launch, whether its
limits leave room for one node, whether a requirement has a typo, whether GPU sizes are tainted, and more. Each problem
is a *finding* with a stable code. The ` + "`review`" + ` command of the provider binary reports the same codes for YAML
manifests and for ` + "`terraform show -json`" + ` plans, so a code means the same thing in a plan, a CI log and a pull request
annotation. Codes are never reused or renumbered: KRP0xx are input and API server checks, KRP1xx provisioning checks of
one NodePool, KRP2xx checks across the objects of one cluster, KRP4xx disruption and lifecycle checks of one NodePool.

## Where findings appear

**As plan diagnostics**, on the attribute concerned. The summary is the code and its title; the detail says what was
found, how to fix it, what the pool was checked against, and how to silence the code:

` + "```text" + `
Warning: KRP104: The NodePool has no limits

  with karpenter_nodepool.batch,
  on main.tf line 10, in resource "karpenter_nodepool" "batch":
  10: resource "karpenter_nodepool" "batch" {

Attribute limits: the pool has no limits: a runaway deployment or a
scheduling loop can launch nodes without bound

Fix: set limits such as { cpu = "200", memory = "800Gi" }.

Checked offline against westeurope with AKSNodeClass default as planned.
Silence this for the pool with checks = { suppress = ["KRP104"] }.
` + "```" + `

**In the ` + "`analysis`" + ` attribute** of each ` + "`karpenter_nodepool`" + `, computed at plan time for an existing pool and after
apply for a new one (Terraform plans again during apply, and both plans must agree on it). ` + "`analysis.findings`" + ` lists every
finding (` + "`code`, `severity`, `path`" + ` as a Kubernetes field path, ` + "`message`" + `), including notes and suppressed codes,
next to the number of admissible sizes, the cheapest and the largest size and the monthly cost at the CPU limit. It is part
of ` + "`terraform show -json`" + ` output, for policy tools, and can feed outputs:

` + "```terraform" + `
output "general_pool" {
  value = {
    sizes    = karpenter_nodepool.general.analysis.admissible_skus
    cheapest = karpenter_nodepool.general.analysis.cheapest_sku
    findings = [for f in karpenter_nodepool.general.analysis.findings : "${f.severity} ${f.code}: ${f.message}"]
  }
}
` + "```" + `

**In the review command**, for manifests and plans (` + "`terraform-provider-karpenter review --list-codes`" + ` lists the codes):

` + "```sh" + `
terraform plan -out plan.out
terraform show -json plan.out > plan.json
terraform-provider-karpenter review plan.json   # checked against the region of the plan's provider block
` + "```" + `

## What the checks use

* **The region.** The provider's ` + "`region`" + ` selects the sizes offered there, their zones and prices. Without it every size
  of the catalog counts, with Karpenter's fallback prices, and the zone and region checks (KRP108, KRP111) are skipped.
* **The node class.** A pool is checked with the settings of the AKSNodeClass it references (image family, OS disk
  size, max pods, FIPS and GPU mode, encryption at host): as planned in the same configuration when referenced as
  ` + "`name = karpenter_aksnodeclass.default.name`" + ` (Terraform then plans it first), otherwise as the cluster has it;
  when there is no such node class, the CRD defaults are assumed (KRP113). The diagnostics use the node class as planned
  in this run; ` + "`analysis`" + ` uses it as the pool's last refresh or write saw it, the same in both of Terraform's plans,
  so a class changed in the same run without a reference reaches a pool's ` + "`analysis`" + ` in the next plan.
* **Known values only.** When part of a pool is known only after apply, ` + "`analysis`" + ` is unknown and nothing is reported
  for that pool in this plan.
* **One pool at a time.** Checks across pools (KRP110, KRP202) are made by the review command, which sees all of them.

## A strict configuration for CI

Strict mode turns every warning into an error, so a plan in CI fails on any finding a pool has not explicitly
accepted. Pools state what they accept and what they must be able to run:

{{ "{{" }} tffile "examples/scenarios/plan-time-findings/main.tf" }}

## Severity, strict mode and suppression

| severity | in ` + "`terraform plan`" + ` | in ` + "`review`" + ` |
|---|---|---|
| error | fails the plan | fails the run (exit code 1) |
| warning | a warning; an error with ` + "`checks = { strict = true }`" + ` in the provider block | fails with ` + "`--fail-on warning`" + ` or ` + "`--strict`" + ` |
| note | only in ` + "`analysis.findings`" + ` | listed, never fails |

A pool silences codes with ` + "`checks = { suppress = [\"KRP104\"] }`" + `: they are no longer diagnostics, not even in strict
mode, but stay in ` + "`analysis.findings`" + `. The review command takes ` + "`--suppress KRP104`" + `, or ` + "`suppress: [KRP104]`" + ` per
cluster in ` + "`.karpenter-review.yaml`" + `; a review of a plan also honours each pool's own ` + "`checks.suppress`" + `, for that pool
only. The JSON report counts what suppressions dropped (` + "`suppressed`" + `) and lists those findings (` + "`suppressedFindings`" + `).
` + "`checks = { enabled = false }`" + ` in the provider block turns the provisioning checks
off; the CRD validation always runs.

## All codes

| code | severity | finding | reported by |
|---|---|---|---|
{{- range . }}
| [{{ .Code }}](#{{ .Anchor }}) | {{ .Severity }} | {{ oneline .Title }} | {{ .Where.Text }} |
{{- end }}
{{ range . }}
## {{ .Code }}

**{{ .Title }}**

* Name: ` + "`{{ .Name }}`" + ` · severity: {{ .Severity }} · reported by {{ .Where.Text }}
{{- if .PlanDiagnostic }}
* Silence for one pool: ` + "`checks = { suppress = [\"{{ .Code }}\"] }`" + `
{{- end }}
{{- if .Where.Review }}
* Silence in a review: ` + "`--suppress {{ .Code }}`" + `
{{- end }}

{{ .Help }}
{{- with .Where.Note }}

{{ . }}
{{- end }}
{{ end -}}
`))
