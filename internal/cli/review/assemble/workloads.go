package assemble

import (
	"fmt"
	"slices"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// patchStructs are the built-in kinds whose Kustomize patches are strategic merge patches
// with the API's own merge keys (containers by name, ...), as Kustomize applies them.
var patchStructs = map[string]any{
	"Deployment": appsv1.Deployment{}, "ReplicaSet": appsv1.ReplicaSet{}, "StatefulSet": appsv1.StatefulSet{},
	"DaemonSet": appsv1.DaemonSet{}, "Job": batchv1.Job{}, "CronJob": batchv1.CronJob{}, "Pod": corev1.Pod{},
	"ReplicationController": corev1.ReplicationController{},
}

// Documents returns the cluster's other Kubernetes objects (everything but NodePools and
// AKSNodeClasses: Deployments, Jobs, HPAs, ...) for readers such as internal/workload, with
// the cluster's Kustomize patches applied. A patch applied here is no longer reported as
// matching no object.
func (m *membership) Documents(name string) ([]workload.Document, []source.Finding) {
	var docs []workload.Document
	var out []source.Finding
	for _, f := range m.l.Order {
		if !m.files[name][f] || m.isPatch[f] || f.Kust != nil {
			continue
		}
		// The review keeps only the bytes of the documents it passes over; parse them again.
		// Their syntax problems were reported with the file already.
		parsed, _ := source.ParseYAMLStream(f.Path, f.Raw)
		for _, d := range parsed {
			docs = append(docs, flatten(f.Path, d, &out)...)
		}
	}
	for _, p := range m.patches[name] {
		st, ok := patchStructs[p.kind]
		if !ok {
			continue
		}
		matched := false
		for i := 0; i < len(docs); i++ {
			d := docs[i]
			meta, _ := d.Body["metadata"].(map[string]any)
			if d.Body["kind"] != p.kind || meta["name"] != p.name {
				continue
			}
			matched = true
			if dir, _ := p.value["$patch"].(string); dir == "delete" {
				docs = slices.Delete(docs, i, i+1)
				i--
				continue
			}
			merged, err := strategicpatch.StrategicMergeMapPatch(d.Body, p.value, st)
			if err != nil {
				out = append(out, source.FileFinding(findings.MalformedWorkload, source.Location{File: p.file, Line: p.line},
					fmt.Sprintf("the patch of %s/%s cannot be applied: %v", p.kind, p.name, err), "Fix the patch; the object was read unpatched."))
				continue
			}
			docs[i].Body = merged
		}
		if matched {
			m.Skipped = slices.DeleteFunc(m.Skipped, func(s Skipped) bool {
				return s.Kind == source.SkipUnmatchedPatch && s.File == p.file && s.Line == p.line && s.patch == patchTarget{p.kind, p.name, name}
			})
		}
	}
	return m.kustomizeWorkloads(name, docs), out
}

// flatten turns a document into workload documents: the items of a kind: List each count.
func flatten(file string, d source.YAMLDoc, out *[]source.Finding) []workload.Document {
	m, ok := d.Value.(map[string]any)
	if !ok {
		return nil
	}
	if m["kind"] == "List" && m["apiVersion"] == "v1" {
		items, _ := m["items"].([]any)
		var docs []workload.Document
		for i, it := range items {
			at := []string{"items", strconv.Itoa(i)}
			sub := source.YAMLDoc{Line: d.Line, Value: it, Fields: d.Fields.Sub(at), Template: d.Template}
			if p, ok := d.Fields[source.PosKey(at)]; ok {
				sub.Line = p.Line
			}
			docs = append(docs, flatten(file, sub, out)...)
		}
		return docs
	}
	if v := source.Classify(str(m["apiVersion"]), str(m["kind"])); v.Review || v.Problem != "" {
		return nil // a Karpenter object: the review reads it
	}
	if d.Template {
		*out = append(*out, source.TemplateFinding(file, d.Line))
		return nil
	}
	fields := d.Fields
	return []workload.Document{{File: file, Line: d.Line, Body: source.DeepCopy(m).(map[string]any), LineOf: func(path []string) int {
		p, _ := fields.Lookup(path)
		return p.Line
	}}}
}

func str(v any) string { s, _ := v.(string); return s }

// WorkloadFindings turns the reader's findings into the review's.
func WorkloadFindings(in []workload.Finding) []source.Finding {
	out := make([]source.Finding, 0, len(in))
	for _, f := range in {
		out = append(out, source.Finding{Finding: f.Finding, Location: source.Location{File: f.File, Line: f.Line, Field: f.Path}})
	}
	return out
}

// WorkloadDocuments parses a YAML or JSON stream as the review parses a file (documents
// split at their markers, each parsed on its own, kind: List expanded) into the documents
// workload readers take; syntax problems are findings at their lines. NodePools and
// AKSNodeClasses are left out.
func WorkloadDocuments(name string, data []byte) ([]workload.Document, []source.Finding) {
	docs, out := source.ParseYAMLStream(name, data)
	var wd []workload.Document
	for _, d := range docs {
		wd = append(wd, flatten(name, d, &out)...)
	}
	return wd, out
}
