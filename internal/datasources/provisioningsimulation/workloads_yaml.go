package provisioningsimulation

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	manifests "github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	workloadreader "github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// workloadsYAMLAttribute reads workloads from manifests, as the simulate command does.
var workloadsYAMLAttribute = schema.ListAttribute{
	Optional: true, ElementType: types.StringType,
	MarkdownDescription: "Workload manifests (YAML or JSON streams, several documents each), e.g. `[file(\"apps/web.yaml\"), " +
		"data.helm_template.app.manifest]`: Deployments, ReplicaSets, StatefulSets, ReplicationControllers, Jobs, CronJobs (one run), " +
		"Pods and DaemonSets, with replicas as written and requests as Kubernetes computes them (limits for missing requests; " +
		"init and sidecar containers; the overhead and scheduling of a RuntimeClass and the defaults of a LimitRange given in the same manifests). DaemonSets add to `daemonset_overhead` on the pools they would run on. " +
		"Their pods join `workloads`, named `Kind/name`. Other kinds are ignored; a malformed workload is an error, a pod " +
		"without CPU or memory requests a warning (KRP301, KRP302), and so is what the pools' disruption settings do to the pods " +
		"the simulation puts on them (KRP411, KRP413, KRP414).",
}

// manifestWorkloads reads the workloads_yaml manifests into pods and DaemonSet pods, reporting
// problems on the element they come from.
func manifestWorkloads(texts []string, maxPods int, checks providerdata.Checks, diags *diag.Diagnostics) *workloadreader.Set {
	// All elements are read together: a RuntimeClass, LimitRange or HPA in one applies to the
	// workloads of the others, as in a cluster.
	var all []workloadreader.Document
	element := map[string]path.Path{}
	for i, text := range texts {
		at := path.Root("workloads_yaml").AtListIndex(i)
		name := fmt.Sprintf("workloads_yaml[%d]", i)
		element[name] = at
		docs, probs := manifests.Read(name, []byte(text), manifests.Options{})
		for _, p := range probs {
			report(diags, checks, at, p.Finding, fmt.Sprintf("%s line %d", name, p.Line))
		}
		all = append(all, workloadDocuments(docs)...)
	}
	set := workloadreader.Read(all, workloadreader.Options{MaxPods: maxPods})
	for _, f := range set.Findings {
		where := fmt.Sprintf("%s line %d", f.File, f.Line)
		if f.Path != "" {
			where += " (" + f.Object + " " + f.Path + ")"
		}
		report(diags, checks, element[f.File], f.Finding, where)
	}
	for _, a := range set.Assumptions {
		diags.AddAttributeWarning(path.Root("workloads_yaml"), "Simulation assumption", a)
	}
	return set
}

// workloadDocuments are the objects of a stream (the items of a kind: List each), read by
// internal/manifest as the review reads a file, for the workload reader; it ignores the kinds
// it does not simulate (NodePools among them).
func workloadDocuments(docs []manifests.Document) []workloadreader.Document {
	var out []workloadreader.Document
	for _, o := range manifests.Objects(docs) {
		fields := o.Fields
		out = append(out, workloadreader.Document{File: o.File, Line: o.Line, Body: o.Body, LineOf: func(path []string) int {
			p, _ := fields.Lookup(path)
			return p.Line
		}})
	}
	return out
}

// disruptionDiags reports the disruption checks of the workloads on the pools the simulation
// puts them on (KRP411, KRP413, KRP414; KRP412 is a note and not shown), on the element of
// workloads_yaml that holds the object concerned.
func disruptionDiags(set *workloadreader.Set, pools []simmodel.SimPool, sim *simmodel.Simulation, checks providerdata.Checks, diags *diag.Diagnostics) {
	for _, f := range simulation.PlacementDisruptionFindings(set, pools, sim) {
		at := path.Root("workloads_yaml")
		var i int
		if _, err := fmt.Sscanf(f.File, "workloads_yaml[%d]", &i); err == nil {
			at = at.AtListIndex(i)
		}
		report(diags, checks, at, f.Finding, fmt.Sprintf("%s line %d (%s %s)", f.File, f.Line, f.Object, f.Path))
	}
}

// report shows a finding on the element of workloads_yaml it comes from (where: its line and
// field), as every resource shows a finding (crdresource.AddFinding): notes are not shown,
// the provider's checks.suppress and strict mode apply.
func report(diags *diag.Diagnostics, checks providerdata.Checks, at path.Path, f findings.Finding, where string) {
	f.Message = where + ": " + f.Message
	crdresource.AddFinding(diags, checks, at, true, f, crdresource.FindingDetail{})
}
