package crdvalidate

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The parity test: every object of the table is judged offline by this package and by the
// real kube-apiserver of the local test cluster. The API server runs a dry run, so nothing is
// stored and the table runs fast. The two verdicts must be identical: the same accept or
// reject and, for a rejection, the same causes (type, field path and message) as the API
// server reports them in Status.details.causes. Each case also states what it expects, so
// that a case cannot quietly stop testing what its name says. The coverage checks at the end
// make sure that some case exercises every CEL rule and every schema constraint of both CRDs.

// cause is one reason of a rejection, as the API server reports it.
type cause struct{ Type, Field, Message string }

func (c cause) String() string { return fmt.Sprintf("%s %s: %s", c.Type, c.Field, c.Message) }

func offlineCauses(errs field.ErrorList) []cause {
	out := make([]cause, 0, len(errs))
	for _, e := range errs {
		out = append(out, cause{Type: string(e.Type), Field: e.Field, Message: e.ErrorBody()})
	}
	sortCauses(out)
	return out
}

func sortCauses(cs []cause) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].String() < cs[j].String() })
}

// serverCauses turns the API server's answer into causes: nil for acceptance, the causes of
// a 422 Invalid, and an error for any other failure (which is a broken test, not a verdict).
func serverCauses(err error) ([]cause, error) {
	if err == nil {
		return nil, nil
	}
	var st apierrors.APIStatus
	if !errors.As(err, &st) || st.Status().Reason != metav1.StatusReasonInvalid || st.Status().Details == nil {
		return nil, fmt.Errorf("API server did not answer with a validation verdict: %w", err)
	}
	var out []cause
	for _, c := range st.Status().Details.Causes {
		out = append(out, cause{Type: string(c.Type), Field: c.Field, Message: c.Message})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("API server rejected the object without causes: %w", err)
	}
	sortCauses(out)
	return out, nil
}

var resources = map[string]string{"NodePool": "nodepools", "AKSNodeClass": "aksnodeclasses"}

// servedVersions are the GVKs the CRD of kind serves; AKSNodeClass serves v1alpha2
// (deprecated) and v1beta1 with the same schema, and every AKSNodeClass case runs on both.
func servedVersions(kind string) []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for _, crd := range crds.All() {
		if crd.Spec.Names.Kind != kind {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Served {
				out = append(out, schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: kind})
			}
		}
	}
	return out
}

// run is one case judged on one version.
type run struct {
	gvk     schema.GroupVersionKind
	c       *parityCase
	offline []cause
	server  []cause
}

func TestParityWithAPIServer(t *testing.T) {
	cl := testenv.Get(t)
	ctx := context.Background()
	table := parityTable()
	var runs []*run
	start := time.Now()
	for i := range table {
		pc := &table[i]
		for _, gvk := range servedVersions(pc.kind) {
			r := &run{gvk: gvk, c: pc}
			runs = append(runs, r)
			t.Run(gvk.Version+"/"+pc.name, func(t *testing.T) {
				judge(ctx, t, cl, r, fmt.Sprintf("parity-%d-%s", i, gvk.Version))
			})
		}
	}
	elapsed := time.Since(start)

	for _, kind := range []string{"NodePool", "AKSNodeClass"} {
		var valid, invalid, update, generated, n int
		for _, pc := range table {
			if pc.kind != kind {
				continue
			}
			if len(pc.want) == 0 {
				valid++
			} else {
				invalid++
			}
			if pc.old != nil {
				update++
			}
			if pc.constraint != "" {
				generated++
			}
		}
		for _, r := range runs {
			if r.gvk.Kind == kind {
				n++
			}
		}
		t.Logf("parity table, %s: %d cases (%d valid, %d invalid; %d of them updates, %d generated from the schema constraints), %d runs over %d served version(s)",
			kind, valid+invalid, valid, invalid, update, generated, n, len(servedVersions(kind)))
	}
	t.Logf("parity table: %d cases, %d runs, judged both ways in %s", len(table), len(runs), elapsed.Round(time.Millisecond))

	t.Run("every CEL rule is triggered", func(t *testing.T) {
		for _, kind := range []string{"NodePool", "AKSNodeClass"} {
			rules := celRules(kind)
			covered := 0
			for _, rule := range rules {
				if triggered(runs, rule) {
					covered++
				} else {
					t.Errorf("%s %s: no table case triggers the rule at %s: %q (%s)", kind, rule.gvk.Version, rule.path, rule.message, rule.rule)
				}
			}
			t.Logf("%s: %d of %d CEL rules (x-kubernetes-validations over %d served versions) triggered on both sides", kind, covered, len(rules), len(servedVersions(kind)))
		}
	})
	t.Run("every schema constraint is exercised", func(t *testing.T) {
		for _, kind := range []string{"NodePool", "AKSNodeClass"} {
			all := schemaConstraints(kind)
			done := map[string]bool{}
			for _, pc := range table {
				if pc.kind == kind && pc.constraint != "" {
					done[pc.constraint] = true
				}
			}
			for _, c := range all {
				if !done[c] {
					t.Errorf("%s: no table case exercises %s", kind, c)
				}
			}
			t.Logf("%s: %d of %d spec schema constraints (enum, pattern, format, min/max, length, items, properties, required, list keys) exercised", kind, len(done), len(all))
		}
	})
}

// judge runs one case on one version, both ways, and compares.
func judge(ctx context.Context, t *testing.T, cl *testenv.Cluster, r *run, name string) {
	t.Helper()
	v := MustFor(r.gvk)
	res := cl.Dynamic.Resource(r.gvk.GroupVersion().WithResource(resources[r.gvk.Kind]))
	obj := r.c.obj
	if !r.c.keepName {
		obj = withName(obj, name)
	}
	u := &unstructured.Unstructured{Object: deepCopy(obj)}
	u.SetAPIVersion(r.gvk.GroupVersion().String())
	u.SetKind(r.gvk.Kind)

	var offline field.ErrorList
	var err error
	if r.c.old == nil {
		offline = v.Validate(ctx, obj)
		_, err = res.Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	} else {
		// The old object is stored for real, so that both judge the update against the very
		// object the API server holds (resourceVersion, uid and defaults included).
		old := &unstructured.Unstructured{Object: deepCopy(withName(r.c.old, name))}
		old.SetAPIVersion(r.gvk.GroupVersion().String())
		old.SetKind(r.gvk.Kind)
		stored, cerr := res.Create(ctx, old, metav1.CreateOptions{})
		if cerr != nil {
			t.Fatalf("storing the old object: %v", cerr)
		}
		defer func() { _ = res.Delete(ctx, name, metav1.DeleteOptions{}) }()
		offline = v.ValidateUpdate(ctx, obj, stored.Object)
		u.SetResourceVersion(stored.GetResourceVersion())
		_, err = res.Update(ctx, u, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	}
	r.offline = offlineCauses(offline)
	r.server, err = serverCauses(err)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.offline, r.server) {
		t.Errorf("DISAGREEMENT between crdvalidate and the API server\noffline:\n%s\nAPI server:\n%s", list(r.offline), list(r.server))
	}
	// What the case is about must be what happened, on both sides.
	for side, got := range map[string][]cause{"offline": r.offline, "API server": r.server} {
		if len(r.c.want) == 0 && len(got) > 0 {
			t.Errorf("%s rejected a case meant to be valid:\n%s", side, list(got))
		}
		for _, w := range r.c.want {
			if !slices.ContainsFunc(got, w.matches) {
				t.Errorf("%s: expected %s at %s containing %q, got:\n%s", side, w.typ, w.field, w.msg, list(got))
			}
		}
	}
}

func list(cs []cause) string {
	if len(cs) == 0 {
		return "  (accepted)"
	}
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("  " + c.String() + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// expect is one cause a case must produce: the field, the type ("" for any) and a part of
// the message ("" for any).
type expect struct {
	field string
	typ   field.ErrorType
	msg   string
}

func (e expect) matches(c cause) bool {
	return c.Field == e.field && (e.typ == "" || c.Type == string(e.typ)) && strings.Contains(c.Message, e.msg)
}

// celRule is one x-kubernetes-validations entry of one served version.
type celRule struct {
	gvk                 schema.GroupVersionKind
	path, message, rule string
}

// celRules lists the CEL rules of every served version of kind's CRD, as the CRD (the
// pinned module's, the one the API server serves) declares them.
func celRules(kind string) []celRule {
	var out []celRule
	for _, crd := range crds.All() {
		if crd.Spec.Names.Kind != kind {
			continue
		}
		for _, ver := range crd.Spec.Versions {
			if !ver.Served || ver.Schema == nil {
				continue
			}
			gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: ver.Name, Kind: kind}
			walkSchema(ver.Schema.OpenAPIV3Schema, "", func(s *apiextensionsv1.JSONSchemaProps, at string) {
				for _, r := range s.XValidations {
					p := at
					if r.FieldPath != "" {
						p += r.FieldPath
					}
					out = append(out, celRule{gvk: gvk, path: strings.TrimPrefix(p, "."), message: r.Message, rule: r.Rule})
				}
			})
		}
	}
	return out
}

// walkSchema calls fn for s and every schema below it with its field path in the notation
// of API server errors, list indexes and map keys written [*].
func walkSchema(s *apiextensionsv1.JSONSchemaProps, at string, fn func(*apiextensionsv1.JSONSchemaProps, string)) {
	if s == nil {
		return
	}
	fn(s, at)
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := s.Properties[k]
		walkSchema(&p, at+"."+k, fn)
	}
	if s.Items != nil {
		walkSchema(s.Items.Schema, at+"[*]", fn)
	}
	if s.AdditionalProperties != nil {
		walkSchema(s.AdditionalProperties.Schema, at+"[*]", fn)
	}
}

var indexOrKey = regexp.MustCompile(`\[[^\]]*\]`)

// triggered reports whether some run of the rule's version rejected an object with the
// rule's message at the rule's path, offline and on the API server alike. A rule that fails
// to evaluate ("no such key: values evaluating rule: <message>") does not count: the rule
// must have been evaluated and found false.
func triggered(runs []*run, rule celRule) bool {
	hit := func(cs []cause) bool {
		return slices.ContainsFunc(cs, func(c cause) bool {
			return c.Type == string(field.ErrorTypeInvalid) && indexOrKey.ReplaceAllString(c.Field, "[*]") == rule.path &&
				strings.HasSuffix(c.Message, ": "+rule.message) && !strings.Contains(c.Message, " evaluating rule: ")
		})
	}
	for _, r := range runs {
		if r.gvk == rule.gvk && hit(r.offline) && hit(r.server) {
			return true
		}
	}
	return false
}

// Rules that only the parity run can judge are still counted without the cluster, so that
// a CRD update that adds or removes rules is visible even in a run without the binaries.
func TestCELRuleInventory(t *testing.T) {
	for kind, want := range map[string]int{"NodePool": 30, "AKSNodeClass": 44} {
		got := celRules(kind)
		if len(got) != want {
			t.Errorf("%s CRD declares %d CEL rules over its served versions, the parity table was written for %d: add cases for the new rules", kind, len(got), want)
		}
	}
}
