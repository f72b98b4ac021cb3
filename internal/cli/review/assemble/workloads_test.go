package assemble

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// Workloads read through the review's YAML reading: YAML 1.1 as kubectl reads it (010 is
// octal 8), each document on its own (a malformed one does not hide the next), kind: List
// expanded, Karpenter objects left to the review, and findings at the line of the field.
func TestWorkloadDocuments(t *testing.T) {
	stream := `apiVersion: apps/v1
kind: Deployment
metadata: {name: octal}
spec:
  replicas: 010
  template:
    spec:
      containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: broken
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: listed}
    spec:
      nodeSelector:
        disk: ssd
        fast: on
      containers: [{name: a}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
`
	docs, probs := WorkloadDocuments("apps.yaml", []byte(stream))
	// The broken document is lines 9-12 (review's parse-error line is its own concern).
	if len(probs) != 1 || probs[0].Code != findings.Unparseable || probs[0].Line < 9 || probs[0].Line > 12 {
		t.Fatalf("parse findings = %+v", probs)
	}
	if len(docs) != 2 {
		t.Fatalf("documents = %d, want the Deployment and the List's Pod", len(docs))
	}
	s := workload.Read(docs, workload.Options{})
	if len(s.Workloads) != 1 || s.Workloads[0].Replicas != 8 {
		t.Fatalf("workloads = %+v", s.Workloads)
	}
	if len(s.Findings) != 1 || s.Findings[0].Code != findings.MalformedWorkload || s.Findings[0].Line != 23 ||
		s.Findings[0].Path != "spec.nodeSelector.fast" {
		t.Errorf("findings = %+v", s.Findings)
	}
}
