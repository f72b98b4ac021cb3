package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/karpenter-iac/terraform-provider-karpenter"

// terraformSDK are the Terraform plugin libraries: only the provider's resources, data sources
// and functions speak Terraform. (An entry matches whole path elements, so the framework's
// -timeouts and -validators modules are entries of their own.)
var terraformSDK = []string{
	"github.com/hashicorp/terraform-plugin-framework",
	"github.com/hashicorp/terraform-plugin-framework-timeouts",
	"github.com/hashicorp/terraform-plugin-framework-validators",
	"github.com/hashicorp/terraform-plugin-go",
	"github.com/hashicorp/terraform-plugin-log",
	"github.com/hashicorp/terraform-plugin-testing",
}

// resourcePackages are the Terraform-facing packages of this module (resources, data sources,
// functions, the provider, its settings, plan-time state and lazy connections), and tfcrd,
// which maps CRD trees onto Terraform schemas and values.
var resourcePackages = []string{
	module + "/internal/provider",
	module + "/internal/providerdata",
	module + "/internal/planstate",
	module + "/internal/connect",
	module + "/internal/resources/crdresource",
	module + "/internal/tfcrd",
	module + "/internal/resources/nodepool",
	module + "/internal/resources/aksnodeclass",
	module + "/internal/resources/nap",
	module + "/internal/datasources/instancetypes",
	module + "/internal/datasources/provisioningsimulation",
	module + "/internal/functions",
}

// resourceUsers are the Terraform-facing packages that the provider serves: the provider itself,
// the resources (and their engine, crdresource), the data sources and the functions. The
// helpers (providerdata, planstate, connect, tfcrd, validators) sit below them.
var resourceUsers = []string{
	module + "/internal/provider",
	module + "/internal/resources",
	module + "/internal/datasources",
	module + "/internal/functions",
}

// cliPackages are the commands (review, simulate): nothing else builds on them.
var cliPackages = []string{module + "/internal/cli"}

// simulationPackages are the simulation (modes, the Karpenter emulation, the optimum) and its
// model: the analysis sits below them, as Karpenter's requirement algebra sits below its
// scheduler.
var simulationPackages = []string{module + "/internal/simulation", module + "/internal/simmodel"}

// aboveTheDomain is what no domain package may reach: the Terraform libraries, the
// Terraform-facing packages and the commands.
var aboveTheDomain = [][]string{terraformSDK, resourcePackages, cliPackages}

// belowTheAnalysis is what a cloud, its catalog and the catalog tools may not reach: what is
// above the domain, the analysis and the simulation, all of which build on them.
var belowTheAnalysis = append(aboveTheDomain, []string{module + "/internal/analysis"}, simulationPackages)

// rules are DESIGN.md's layers, per package of this module (relative path): which import paths
// it may not reach, directly or through any chain of imports; an entry forbids the path itself
// and everything below it. Only the packages' own (non-test) imports count: tests may compare a
// domain package with the resources built on it.
var rules = map[string][][]string{
	// The commands and the Bicep generator work on Kubernetes objects and CRD trees (internal/kinds);
	// they share the domain with the provider but sit beside it, not above it.
	"internal/cli/review":   {terraformSDK, resourcePackages, {module + "/internal/cli/simulate"}},
	"internal/cli/simulate": {terraformSDK, resourcePackages},
	"internal/cli/clitool":  {terraformSDK, resourcePackages, {module + "/internal/cli/review", module + "/internal/cli/simulate"}},
	// The report parts both commands print sit below both.
	"internal/cli/simreport": {terraformSDK, resourcePackages, {module + "/internal/cli/review", module + "/internal/cli/simulate"}},
	// The review's stages (config -> source -> assemble -> checks -> report, fleet beside
	// checks): a stage never reaches a later one, nor the commands.
	"internal/cli/review/config":   {terraformSDK, resourcePackages, reviewStagesAfter("config")},
	"internal/cli/review/source":   {terraformSDK, resourcePackages, reviewStagesAfter("source")},
	"internal/cli/review/assemble": {terraformSDK, resourcePackages, reviewStagesAfter("assemble")},
	"internal/cli/review/checks":   {terraformSDK, resourcePackages, reviewStagesAfter("checks")},
	"internal/cli/review/fleet":    {terraformSDK, resourcePackages, reviewStagesAfter("fleet")},
	"internal/cli/review/report":   {terraformSDK, resourcePackages, reviewStagesAfter("report")},
	"internal/bicepgen":            aboveTheDomain,
	// The Terraform-facing packages build on the domain, never on a command.
	"internal/provider": {cliPackages},
	// The resource engine serves the resources, the data sources and the functions: it reaches
	// none of them, nor the provider.
	"internal/resources/crdresource": {cliPackages, resourceUsers},
	// The settings hand the connections and the plan-time board to the engine and the resources:
	// they reach neither, nor the schema mapping or the validators.
	"internal/providerdata": {cliPackages, resourceUsers, {module + "/internal/tfcrd", module + "/internal/validators"}},
	// The helpers below them reach no other Terraform-facing package. The schema mapping also
	// connects nowhere.
	"internal/connect":    {cliPackages, resourcePackages},
	"internal/validators": {cliPackages, resourcePackages},
	"internal/tfcrd":      {cliPackages, resourcePackages, {module + "/internal/clients"}},
	// The plan-time board holds typed values and no Terraform library: the resources convert.
	"internal/planstate":                          {terraformSDK, cliPackages, resourcePackages},
	"internal/datasources/instancetypes":          {cliPackages},
	"internal/datasources/provisioningsimulation": {cliPackages},
	"internal/functions":                          {cliPackages},
	// Resources of different kinds share the engine and the kinds, not each other.
	"internal/resources/nodepool":     {cliPackages, {module + "/internal/resources/aksnodeclass", module + "/internal/resources/ec2nodeclass", module + "/internal/resources/nap", module + "/internal/datasources"}},
	"internal/resources/aksnodeclass": {cliPackages, {module + "/internal/resources/nodepool", module + "/internal/resources/ec2nodeclass", module + "/internal/resources/nap", module + "/internal/datasources"}},
	"internal/resources/ec2nodeclass": {cliPackages, {module + "/internal/resources/nodepool", module + "/internal/resources/aksnodeclass", module + "/internal/resources/nap", module + "/internal/datasources"}},
	"internal/resources/nap":          {cliPackages, {module + "/internal/resources/nodepool", module + "/internal/resources/aksnodeclass", module + "/internal/resources/ec2nodeclass", module + "/internal/datasources"}},
	// The domain: kinds and CRD trees, manifests, workloads, findings, the simulation, the
	// analysis, the clouds, the clients.
	"internal/kinds":                 aboveTheDomain,
	"internal/kinds/crdtree":         aboveTheDomain,
	"internal/crds":                  aboveTheDomain,
	"internal/crdvalidate":           aboveTheDomain,
	"internal/manifest":              aboveTheDomain,
	"internal/manifest/kustomize":    aboveTheDomain,
	"internal/manifest/helmchart":    aboveTheDomain,
	"internal/workload":              aboveTheDomain,
	"internal/clusterstate":          aboveTheDomain,
	"internal/findings":              aboveTheDomain,
	"internal/simulation":            aboveTheDomain,
	"internal/simulation/optimal":    aboveTheDomain,
	"internal/simulation/optimal/lp": aboveTheDomain,
	"internal/simmodel":              aboveTheDomain,
	"internal/bitset":                aboveTheDomain,
	"internal/money":                 aboveTheDomain,
	"internal/refdata":               aboveTheDomain,
	"internal/clients/kube":          aboveTheDomain,
	"internal/clients/azure":         aboveTheDomain,
	"internal/clients/aws":           aboveTheDomain,
	// The emulation takes instance types and launchers, not the analysis that derives them.
	"internal/simulation/karpenter": append(aboveTheDomain, []string{module + "/internal/analysis", module + "/internal/simmodel"}),
	// So does its disruption controller, which launches through the clouds' launch choice.
	"internal/simulation/karpenter/disruption": append(aboveTheDomain, []string{module + "/internal/analysis", module + "/internal/simmodel"}),
	// So does its NodeClaim disruption part, which also knows no cloud: the caller asks it.
	"internal/simulation/karpenter/nodeclaim/disruption": append(aboveTheDomain, []string{module + "/internal/analysis", module + "/internal/simmodel", module + "/internal/cloud"}),
	// The ReplicaSet controller's scale-down choice reads pods only.
	"internal/simulation/replicaset": append(aboveTheDomain, []string{module + "/internal/analysis", module + "/internal/simmodel", module + "/internal/cloud", module + "/internal/simulation/karpenter", module + "/internal/workload"}),
	// The analysis imports no simulation (the simulations read its instance-type cache).
	"internal/analysis": append(aboveTheDomain, simulationPackages),
	// A cloud knows its catalog and Karpenter's types, not the analysis or the simulation.
	"internal/cloud":             belowTheAnalysis,
	"internal/cloud/aks":         belowTheAnalysis,
	"internal/cloud/aks/catalog": belowTheAnalysis,
	"internal/cloud/eks":         append(aboveTheDomain, []string{module + "/internal/analysis", module + "/internal/cloud/aks"}, simulationPackages),
	"internal/cloud/eks/catalog": belowTheAnalysis,
	// The EC2NodeClass checks read plain objects: not the AWS provider (its init changes
	// Karpenter's globals), not the EKS derivation.
	"internal/cloud/eks/nodeclasscheck": append(aboveTheDomain, []string{module + "/internal/analysis", module + "/internal/cloud/aks", module + "/internal/cloud/eks", "github.com/aws/karpenter-provider-aws"}, simulationPackages),
	// Tools and generators work on the domain, outside the binary; nothing above it.
	"bicep":                          aboveTheDomain,
	"bicep/gen":                      aboveTheDomain,
	"examples":                       aboveTheDomain,
	"internal/findings/docgen":       aboveTheDomain,
	"internal/clients/azure/armfake": aboveTheDomain,
	// The catalog tools read and write the catalogs' data, not what is derived from it.
	"internal/catalogupdate":             belowTheAnalysis,
	"internal/cloud/aks/catalog/gen":     belowTheAnalysis,
	"internal/cloud/aks/catalog/source":  belowTheAnalysis,
	"internal/cloud/aks/catalog/reftest": belowTheAnalysis,
	"internal/cloud/eks/catalog/gen":     belowTheAnalysis,
	// The real parts tests run on (API server, AWS endpoints) know no provider.
	"internal/testsupport/testenv":              aboveTheDomain,
	"internal/testsupport/testenv/localcluster": aboveTheDomain,
	"internal/testsupport/eksfake":              aboveTheDomain,
	"internal/testsupport/archtest":             aboveTheDomain,
	// The acceptance-test support starts the provider, and reaches no command through it.
	"internal/testsupport/acctest": {cliPackages},
	// The tests' optimum digest reads simulation results only.
	"internal/testsupport/optimumdigest": append(aboveTheDomain, simulationPackages[:1]),
	// The test-only second cloud is a cloud like the others: written against the seam alone.
	"internal/testsupport/fakecloud": append(aboveTheDomain, []string{module + "/internal/analysis", module + "/internal/cloud/aks", module + "/internal/cloud/eks"}, simulationPackages),
	// Running nodes for the drift warning's tests are plain API objects: no provider, no analysis.
	"internal/testsupport/runningnodes": append(aboveTheDomain, []string{module + "/internal/analysis"}, simulationPackages),
}

// reviewStages are the review's pipeline stages in order (internal/cli/review/doc.go).
var reviewStages = []string{"config", "source", "assemble", "checks", "fleet", "report"}

// reviewStagesAfter are the stages after stage and the commands, which a stage may not reach.
func reviewStagesAfter(stage string) []string {
	out := []string{module + "/internal/cli/simulate"}
	for _, s := range reviewStages[slices.Index(reviewStages, stage)+1:] {
		out = append(out, module+"/internal/cli/review/"+s)
	}
	return out
}

// directRules are imports a package may not make itself, though it reaches them through the
// layer it builds on. The simulation data source maps Terraform types to and from
// simulation.Simulate, which alone picks each pool's cloud and runs the emulation and the optimum.
var directRules = map[string][]string{
	"internal/datasources/provisioningsimulation": {
		module + "/internal/simulation/optimal", module + "/internal/simulation/karpenter",
		module + "/internal/cloud/aks", module + "/internal/cloud/eks",
	},
}

// unruled are the packages of this module that need no rule, each with the reason.
var unruled = map[string]string{
	"":                             "main.go is the top: it serves the provider and runs the commands (providerImporters)",
	"internal/simulation/benchcmp": "test-only: it has no non-test imports to judge",
}

// providerImporters are the only packages that may import internal/provider: main.go serves
// it, and the acceptance-test support starts it. Every other package sits below it.
var providerImporters = []string{module, module + "/internal/testsupport/acctest"}

// listed is one package of `go list -deps -json`.
type listed struct {
	ImportPath string
	Imports    []string
	Error      *struct{ Err string }
}

// TestLayering fails naming the import chain by which a package reaches what its rule forbids.
func TestLayering(t *testing.T) {
	roots := make([]string, 0, len(rules))
	for p := range rules {
		roots = append(roots, p)
	}
	sort.Strings(roots)
	graph := goListDeps(t, roots)
	for _, root := range roots {
		for _, forbidden := range rules[root] {
			if chain := shortestChain(graph, module+"/"+root, forbidden); chain != nil {
				t.Errorf("%s may not import %s, but reaches it:\n\t%s", root, describe(forbidden), strings.Join(chain, "\n\t→ "))
			}
		}
	}
}

// TestEveryPackageHasARule fails naming each package of this module that has no rule, so a new
// package states its place in the layers when it is added.
func TestEveryPackageHasARule(t *testing.T) {
	for p := range listGraph(t, module+"/...") {
		if p != module && !strings.HasPrefix(p, module+"/") {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if _, ok := rules[rel]; ok {
			continue
		}
		if _, ok := unruled[rel]; ok {
			continue
		}
		t.Errorf("%s has no rule: add its layer to rules (DESIGN.md's layers), or to unruled with the reason", strings.TrimPrefix(p, module+"/"))
	}
	for rel := range unruled {
		if _, ok := rules[rel]; ok {
			t.Errorf("%q is both in rules and in unruled", rel)
		}
	}
}

// TestDirectImports fails naming each import a package makes that its direct rule forbids.
func TestDirectImports(t *testing.T) {
	roots := make([]string, 0, len(directRules))
	for p := range directRules {
		roots = append(roots, p)
	}
	sort.Strings(roots)
	graph := goListDeps(t, roots)
	for _, root := range roots {
		for _, imp := range graph[module+"/"+root] {
			if matches(imp, directRules[root]) {
				t.Errorf("%s may not import %s itself: it goes through the layer below", root, strings.TrimPrefix(imp, module+"/"))
			}
		}
	}
}

// TestProviderIsTheTop fails naming the import chain by which a package other than main.go and
// the acceptance-test support reaches internal/provider.
func TestProviderIsTheTop(t *testing.T) {
	provider := module + "/internal/provider"
	graph := listGraph(t, module+"/...")
	var pkgs []string
	for p := range graph {
		if (p == module || strings.HasPrefix(p, module+"/")) && p != provider && !slices.Contains(providerImporters, p) {
			pkgs = append(pkgs, p)
		}
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if chain := shortestChain(graph, p, []string{provider}); chain != nil {
			t.Errorf("%s may not import internal/provider, but reaches it:\n\t%s", strings.TrimPrefix(p, module+"/"), strings.Join(chain, "\n\t→ "))
		}
	}
}

// TestShortestChain checks the search itself on a small graph, so that a rule that passes
// passes because nothing is reached, not because the search missed it.
func TestShortestChain(t *testing.T) {
	g := map[string][]string{
		"a":     {"b", "c"},
		"b":     {"d"},
		"c":     {"x/y/z"},
		"d":     {"x/y"},
		"x/y":   nil,
		"x/y/z": nil,
	}
	if got := shortestChain(g, "a", []string{"x/y"}); !slices.Equal(got, []string{"a", "c", "x/y/z"}) && !slices.Equal(got, []string{"a", "b", "d", "x/y"}) {
		t.Errorf("chain to x/y: %v", got)
	}
	if got := shortestChain(g, "a", []string{"x/y/z"}); !slices.Equal(got, []string{"a", "c", "x/y/z"}) {
		t.Errorf("chain to x/y/z: %v", got)
	}
	if got := shortestChain(g, "a", []string{"x/yy", "c/z"}); got != nil {
		t.Errorf("x/yy and c/z match nothing, got %v", got)
	}
	if got := shortestChain(g, "a", []string{"a"}); got != nil {
		t.Errorf("a package does not reach itself, got %v", got)
	}
}

// goListDeps returns the import graph of the given packages and everything they import.
func goListDeps(t *testing.T, roots []string) map[string][]string {
	t.Helper()
	patterns := make([]string, len(roots))
	for i, r := range roots {
		patterns[i] = module + "/" + r
	}
	graph := listGraph(t, patterns...)
	for _, r := range roots {
		if _, ok := graph[module+"/"+r]; !ok {
			t.Fatalf("go list did not list %s: a rule names a package that does not exist", r)
		}
	}
	return graph
}

// listGraph is the import graph of the packages matching the patterns and everything they import.
func listGraph(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-deps", "-json=ImportPath,Imports,Error"}, patterns...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		graph[p.ImportPath] = p.Imports
	}
	return graph
}

// shortestChain returns the shortest import chain from root to a package matching one of the
// prefixes, or nil.
func shortestChain(graph map[string][]string, root string, prefixes []string) []string {
	parent := map[string]string{root: ""}
	queue := []string{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p != root && matches(p, prefixes) {
			var chain []string
			for at := p; at != ""; at = parent[at] {
				chain = append(chain, at)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, imp := range graph[p] {
			if _, seen := parent[imp]; !seen {
				parent[imp] = p
				queue = append(queue, imp)
			}
		}
	}
	return nil
}

func matches(p string, prefixes []string) bool {
	for _, pre := range prefixes {
		pre = strings.TrimSuffix(pre, "/")
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	return false
}

func describe(prefixes []string) string {
	short := make([]string, len(prefixes))
	for i, p := range prefixes {
		short[i] = strings.TrimPrefix(p, module+"/")
	}
	return fmt.Sprintf("any of [%s]", strings.Join(short, ", "))
}
