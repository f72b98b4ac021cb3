package review

import (
	"context"
	"fmt"
	"slices"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// CheckSchema runs the API server's create-time validation (OpenAPI schema and CEL rules of
// the CRD, after its defaults) on every object, offline, as the resources do at plan time:
// findings about values unknown until apply are set aside.
func CheckSchema(ctx context.Context, c *Cluster) []Finding {
	var out []Finding
	for _, o := range slices.Concat(c.NodePools, c.NodeClasses, c.NodeOverlays) {
		out = append(out, schemaFindings(ctx, o)...)
	}
	return out
}

func schemaFindings(ctx context.Context, o *Object) []Finding {
	v, err := crdvalidate.For(o.GVK)
	if err != nil {
		// Loading admits only served versions, so this is a defect, not an input problem.
		panic(err)
	}
	known, unknown := tfcrd.StripUnknown(withoutNamespace(o.Body))
	errs := v.Validate(ctx, known)
	var out []Finding
	for _, e := range errs {
		field := e.Field
		if field == "<nil>" {
			// "some validation rules were not checked": only worth saying on its own.
			if len(errs) > 1 || len(unknown) > 0 {
				continue
			}
			field = ""
		}
		segs := tfcrd.ParseFieldPath(field)
		if slices.ContainsFunc(unknown, func(u []string) bool { return tfcrd.Related(u, segs) }) {
			continue
		}
		fix := "Change the field so that it satisfies the rule quoted in the message."
		if field != "" {
			fix = fmt.Sprintf("Change %s so that it satisfies the rule quoted in the message.", field)
		}
		out = append(out, o.Finding(findings.APIServerRejects, field, e.ErrorBody(), fix))
	}
	return out
}

// withoutNamespace drops metadata.namespace: NodePools and AKSNodeClasses are cluster-scoped,
// and kubectl, Flux and Argo CD send cluster-scoped objects without it, so a namespace that
// Kustomize's `namespace:` added to every document is harmless.
func withoutNamespace(obj map[string]any) map[string]any {
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
