package checks

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	apifield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// CheckSchema runs the API server's create-time validation (OpenAPI schema and CEL rules of
// the CRD, after its defaults) on every object, offline, as the resources do at plan time:
// findings about values unknown until apply are set aside.
func CheckSchema(ctx context.Context, c *assemble.Cluster) []source.Finding {
	var out []source.Finding
	for _, o := range slices.Concat(c.NodePools, c.NodeClasses, c.NodeOverlays) {
		out = append(out, schemaFindings(ctx, o)...)
	}
	return out
}

func schemaFindings(ctx context.Context, o *source.Object) []source.Finding {
	v, err := crdvalidate.For(o.GVK)
	if o.GVK.GroupKind() == kinds.NodePool.GVK.GroupKind() {
		// An EKS pool is validated by the NodePool CRD an EKS cluster has (AWS's CEL rules).
		v, err = crdvalidate.NodePoolFor(o.GVK, crdvalidate.NodePoolGroup(o.Body))
	}
	if err != nil {
		// Loading admits only served versions, so this is a defect, not an input problem.
		panic(err)
	}
	known, unknown := crdtree.StripUnknown(WithoutNamespace(o.Body))
	errs := v.Validate(ctx, known)
	out := unknownFieldFindings(o, v, known)
	for _, e := range errs {
		field := e.Field
		if field == "<nil>" {
			// "some validation rules were not checked": only worth saying on its own.
			if len(errs) > 1 || len(unknown) > 0 {
				continue
			}
			field = ""
		}
		segs := crdtree.ParseFieldPath(field)
		if slices.ContainsFunc(unknown, func(u []string) bool { return crdtree.Related(u, segs) }) {
			continue
		}
		fix := "Change the field so that it satisfies the rule quoted in the message."
		if field != "" {
			fix = fmt.Sprintf("Change %s so that it satisfies the rule quoted in the message.", field)
		}
		msg := crdvalidate.Explain(e)
		if nearest := crdvalidate.Nearest(e); nearest != "" && field != "" {
			fix = fmt.Sprintf("Set %s to %q.", field, nearest)
		}
		if e.Type == apifield.ErrorTypeRequired && field != "" {
			// "Required value" alone names neither the field nor the rule.
			parent := "the object"
			if i := strings.LastIndexAny(field, ".["); i > 0 {
				parent = field[:i]
			}
			msg = fmt.Sprintf("%s is required: the CRD lists it as required in %s (%s)", field, parent, msg)
			fix = fmt.Sprintf("Set %s.", field)
		}
		if p, ok := o.Source.Fields[source.PosKey(segs)]; ok && p.YAML11Bool != "" {
			msg += fmt.Sprintf("; the unquoted %s is read as a boolean by kubectl, Flux and Argo CD (YAML 1.1)", p.YAML11Bool)
			fix = fmt.Sprintf("Quote the value: %q.", p.YAML11Bool)
		}
		if sug := suggestedKey(o, segs); len(sug) > 0 {
			fix = fmt.Sprintf("Did you mean %s? Use a well-known label key; %s", quoteList(sug), fix)
		}
		out = append(out, o.Finding(findings.APIServerRejects, field, msg, fix))
	}
	if ns, ok := o.Get("metadata", "namespace").(string); ok && ns != "" {
		out = append(out, o.Finding(findings.NamespaceIgnored, "metadata.namespace",
			fmt.Sprintf("%s is cluster-scoped: the API server ignores metadata.namespace %q, and the object is checked as if it had none", o.GVK.Kind, ns),
			"Remove metadata.namespace (harmless when a Kustomize namespace: adds it to every document)."))
	}
	return out
}

// WithoutNamespace drops metadata.namespace: NodePools and AKSNodeClasses are cluster-scoped,
// and kubectl, Flux and Argo CD send cluster-scoped objects without it, so a namespace that
// Kustomize's `namespace:` added to every document is harmless.
func WithoutNamespace(obj map[string]any) map[string]any {
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	if _, has := meta["namespace"]; !has {
		return obj
	}
	m := make(map[string]any, len(meta))
	for k, v := range meta {
		if k != "namespace" {
			m[k] = v
		}
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	out["metadata"] = m
	return out
}

// suggestedKey returns the well-known keys nearest to the key of the requirement at segs
// (spec.template.spec.requirements[i].key), when the key is in a Karpenter, Azure or
// Kubernetes domain but not well known: the CRD only says the domain is restricted.
func suggestedKey(o *source.Object, segs []string) []string {
	if len(segs) != 6 || segs[3] != "requirements" || segs[5] != "key" {
		return nil
	}
	i, err := strconv.Atoi(segs[4])
	if err != nil {
		return nil
	}
	reqs, _ := o.Get("spec", "template", "spec", "requirements").([]any)
	if i < 0 || i >= len(reqs) {
		return nil
	}
	r, _ := reqs[i].(map[string]any)
	key, _ := r["key"].(string)
	return analysis.SuggestLabelKey(key)
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " or ")
}
