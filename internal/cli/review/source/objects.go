package source

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// ObjectsOf picks the NodePools and AKSNodeClasses out of one document (a kind: List
// contributes its items). Documents of other kinds, and documents that are not Kubernetes
// objects at all (a CI workflow, Helm values), are passed over without a word.
func ObjectsOf(file string, d YAMLDoc) ([]*Object, []Finding) {
	m, ok := d.Value.(map[string]any)
	if !ok {
		return nil, nil
	}
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	if kind == "List" && apiVersion == "v1" {
		items, _ := m["items"].([]any)
		var objs []*Object
		var out []Finding
		for i, it := range items {
			at := []string{"items", strconv.Itoa(i)}
			sub := YAMLDoc{Line: d.Line, Value: it, Fields: d.Fields.Sub(at), Template: d.Template}
			if p, ok := d.Fields[PosKey(at)]; ok {
				sub.Line = p.Line
			}
			o, f := ObjectsOf(file, sub)
			objs, out = append(objs, o...), append(out, f...)
		}
		return objs, out
	}
	docLoc := func(field string) Location {
		loc := Location{File: file, Line: d.Line, Field: field}
		if p, ok := d.Fields.Lookup([]string{field}); ok {
			loc.Line, loc.Column = p.Line, p.Column
		}
		return loc
	}
	if gv, err := schema.ParseGroupVersion(apiVersion); err == nil && strings.HasSuffix(kind, "NodeClass") {
		if cloud, ok := OtherClouds[gv.Group]; ok {
			meta, _ := m["metadata"].(map[string]any)
			name, _ := meta["name"].(string)
			f := FileFinding(findings.OtherCloud, docLoc("kind"),
				fmt.Sprintf("%s %q (%s) is a node class of Karpenter on %s; it was skipped", kind, name, gv.Group, cloud),
				"Nothing to change for a cluster on "+cloud+"; on AKS, use an AKSNodeClass (karpenter.azure.com/v1beta1).")
			f.Object = kind + "/" + name
			return nil, []Finding{f}
		}
	}
	v := Classify(apiVersion, kind)
	if !v.Review && v.Problem == "" {
		return nil, nil
	}
	if d.Template {
		return nil, []Finding{TemplateFinding(file, docLoc("").Line)}
	}
	var out []Finding
	if v.Problem != "" {
		f := FileFinding(v.Problem, docLoc("apiVersion"), v.message, v.fix)
		if v.Problem == findings.UnknownKind {
			f.Location = docLoc("kind")
		}
		meta, _ := m["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		f.Object = kind + "/" + name
		out = append(out, f)
	}
	if !v.Review && v.gvk.GroupVersion() == v1beta1NodePool.GroupVersion() && v.gvk.Kind == v1beta1NodePool.Kind {
		// Checked as Karpenter's v1 migration converts it, so that its mistakes do not hide
		// behind KRP002.
		body, fields, moved, guessed := ConvertV1beta1NodePool(m, d.Fields)
		out[len(out)-1].Message += "; the review checked it as Karpenter's v1 migration converts it (" + strings.Join(moved, "; ") + ")"
		out[len(out)-1].Fix = "Change apiVersion to karpenter.sh/v1 and make the changes the message lists (Karpenter v1 migration guide); the other findings about this NodePool are about the converted object."
		o := &Object{GVK: kinds.NodePool.GVK, Body: body, Converted: true, ClassGuessed: guessed, Source: Source{File: file, Line: docLoc("").Line, Column: docLoc("").Column, Fields: fields}}
		o.Name, _ = o.Get("metadata", "name").(string)
		return []*Object{o}, out
	}
	if !v.Review {
		return nil, out
	}
	o := &Object{GVK: v.gvk, Body: m, Source: Source{File: file, Line: docLoc("").Line, Column: docLoc("").Column, Fields: d.Fields}}
	o.Name, _ = o.Get("metadata", "name").(string)
	return []*Object{o}, out
}

// v1beta1NodePool is the NodePool version AKS no longer serves, which the review converts.
var v1beta1NodePool = kinds.NodePool.GVK.GroupKind().WithVersion("v1beta1")
