package clusterstate

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func readFixture(t *testing.T) *Snapshot {
	t.Helper()
	s, err := ReadFiles([]string{"testdata/kubectl-list.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) > 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	return s
}

// markerLines are the lines of a List's item markers, from 1.
func markerLines(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "- apiVersion:") {
			out = append(out, i+1)
		}
	}
	return out
}

func TestReadKubectlList(t *testing.T) {
	s := readFixture(t)
	if got, want := s.Counts(), "1 node, 1 NodeClaim, 2 pods (1 pending), 1 PodDisruptionBudget, 1 NodePool, 0 node classes"; got != want {
		t.Errorf("counts %q, want %q", got, want)
	}
	if s.Finished != 1 || s.PassedOver["Event"] != 1 {
		t.Errorf("finished %d, passed over %v: want the Succeeded pod and the Event left out", s.Finished, s.PassedOver)
	}
	n := s.Nodes[0]
	if n.Labels["node.kubernetes.io/instance-type"] != "Standard_D4s_v5" || n.Status.Allocatable.Cpu().MilliValue() != 3860 || len(n.Spec.Taints) != 1 {
		t.Errorf("node lost what scheduling reads: %+v", n)
	}
	if len(n.Status.Images) != 0 || len(n.Status.Addresses) != 0 || n.Status.NodeInfo.KubeletVersion != "" {
		t.Errorf("node kept images, addresses or system information: %+v", n.Status)
	}
	if c := s.NodeClaims[0]; c.Annotations["karpenter.sh/nodepool-hash"] != "4012513481623584108" || c.Status.NodeName != "aks-general-abcde" || len(c.ManagedFields) != 0 {
		t.Errorf("NodeClaim: hashes and status kept, managed fields dropped: %+v", c)
	}
	if np := s.NodePools[0].Body; np["spec"].(map[string]any)["limits"].(map[string]any)["cpu"] != int64(100) {
		t.Errorf("NodePool body is not read as manifests are (integers as int64): %#v", np["spec"])
	}
	if s.PDBs[0].Spec.MaxUnavailable.IntValue() != 1 || s.PDBs[0].Status.DisruptionsAllowed != 1 {
		t.Errorf("PDB: %+v", s.PDBs[0])
	}
}

// A snapshot may come from production: nothing of a pod but its labels, annotations, owners,
// requests, host ports and constraints may reach a report.
func TestReadKeepsNoSecrets(t *testing.T) {
	s := readFixture(t)
	var web *corev1.Pod
	for _, p := range s.Pods {
		if p.Name == "web-0" {
			web = p
		}
	}
	if web == nil {
		t.Fatal("web-0 not read")
	}
	all, err := json.Marshal(s.Pods)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2", "DB_PASSWORD", "API_KEY", "web-config", "registry.example", "/bin/web", "10.244.1.7", "last-applied"} {
		if bytes.Contains(all, []byte(secret)) {
			t.Errorf("the snapshot's pods hold %q", secret)
		}
	}
	c := web.Spec.Containers[0]
	if c.Resources.Requests.Cpu().MilliValue() != 500 || c.Resources.Limits.Memory().String() != "2Gi" {
		t.Errorf("requests and limits lost: %+v", c.Resources)
	}
	if len(c.Ports) != 1 || c.Ports[0].HostPort != 9100 {
		t.Errorf("host ports are kept, other ports not: %+v", c.Ports)
	}
	if web.Spec.NodeName != "aks-general-abcde" || len(web.Spec.TopologySpreadConstraints) != 1 || len(web.Spec.Tolerations) != 1 || web.Spec.NodeSelector["karpenter.sh/nodepool"] != "general" {
		t.Errorf("constraints lost: %+v", web.Spec)
	}
	if web.Annotations["karpenter.sh/do-not-disrupt"] != "true" || web.Annotations["note"] != "first line\n\n# not a comment: a line of a block scalar\n" {
		t.Errorf("annotations: %q", web.Annotations)
	}
	if len(web.OwnerReferences) != 1 || web.OwnerReferences[0].Kind != "StatefulSet" {
		t.Errorf("owners: %+v", web.OwnerReferences)
	}
}

func TestReadRemembersLines(t *testing.T) {
	s := readFixture(t)
	lines := markerLines(t, "testdata/kubectl-list.yaml")
	for i, want := range []struct{ kind, ns, name string }{
		{"Node", "", "aks-general-abcde"}, {"Pod", "shop", "web-0"}, {}, {"Pod", "shop", "pending-1"},
		{"PodDisruptionBudget", "shop", "web"}, {"NodeClaim", "", "general-abcde"}, {"NodePool", "", "general"},
	} {
		if want.kind == "" {
			continue
		}
		src, ok := s.Where(want.kind, want.ns, want.name)
		if !ok || src.Line != lines[i] || src.File != "testdata/kubectl-list.yaml" {
			t.Errorf("%s %s/%s: read at %+v, want line %d", want.kind, want.ns, want.name, src, lines[i])
		}
	}
}

// kubectl -o json, other writers' indentation and plain multi-document streams give the same
// snapshot as kubectl -o yaml.
func TestReadFormatsAgree(t *testing.T) {
	want := readFixture(t)
	raw, err := os.ReadFile("testdata/kubectl-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	asJSON, err := yaml.YAMLToJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	var indentedJSON bytes.Buffer
	if err := json.Indent(&indentedJSON, asJSON, "", "    "); err != nil {
		t.Fatal(err)
	}
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal(asJSON, &list); err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, item := range list.Items {
		y, err := yaml.JSONToYAML(item)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(y))
	}
	indentedItems := strings.ReplaceAll(string(raw), "\n", "\n  ")
	indentedItems = strings.Replace(indentedItems, "items:\n  - ", "items:\n  - ", 1)
	for name, text := range map[string]string{
		"json":            string(asJSON),
		"indented json":   indentedJSON.String(),
		"documents":       "# cluster state\n---\n" + strings.Join(docs, "---\n") + "...\n",
		"indented items":  indentItems(string(raw)),
		"json object seq": strings.Join(jsonLines(t, list.Items), "\n"),
	} {
		got := &Snapshot{}
		if err := got.Read(name, strings.NewReader(text)); err != nil {
			t.Fatal(err)
		}
		got.sort()
		if len(got.Problems) > 0 {
			t.Errorf("%s: problems %v", name, got.Problems)
			continue
		}
		if !equalState(got, want) {
			t.Errorf("%s: read differently from kubectl -o yaml:\n%s", name, diffState(got, want))
		}
	}
}

// indentItems indents a List's items under their key, as yq and go-yaml v3 write them.
func indentItems(s string) string {
	head, rest, _ := strings.Cut(s, "items:\n")
	items, tail, _ := strings.Cut(rest, "\nkind: List")
	return head + "items:\n  " + strings.ReplaceAll(items, "\n", "\n  ") + "\nkind: List" + tail
}

func jsonLines(t *testing.T, items []json.RawMessage) []string {
	var out []string
	for _, it := range items {
		var b bytes.Buffer
		if err := json.Compact(&b, it); err != nil {
			t.Fatal(err)
		}
		out = append(out, b.String())
	}
	return out
}

// equalState compares what two snapshots hold, not where they read it.
func equalState(a, b *Snapshot) bool {
	return reflect.DeepEqual(strip(a), strip(b))
}

func strip(s *Snapshot) Snapshot {
	c := *s
	c.where, c.Problems = nil, nil
	c.NodePools = withoutSources(c.NodePools)
	c.NodeClasses = withoutSources(c.NodeClasses)
	return c
}

func withoutSources(in []Object) []Object {
	var out []Object
	for _, o := range in {
		out = append(out, Object{Body: o.Body})
	}
	return out
}

func diffState(a, b *Snapshot) string {
	x, _ := json.MarshalIndent(strip(a), "", " ")
	y, _ := json.MarshalIndent(strip(b), "", " ")
	xl, yl := strings.Split(string(x), "\n"), strings.Split(string(y), "\n")
	for i := range min(len(xl), len(yl)) {
		if xl[i] != yl[i] {
			return "first difference at line " + itoa(i) + ":\n got " + xl[i] + "\nwant " + yl[i]
		}
	}
	return "lengths differ"
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// A malformed item is a problem at its line; the items after it are still read.
func TestReadMalformedItems(t *testing.T) {
	text := `apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: a
- apiVersion: v1
  kind: Node
  metadata:
    name: b
	  labels: {}
- apiVersion: v1
  kind: Pod
  metadata:
    name: p
  spec:
    containers: 3
- kind: Node
  metadata:
    name: c
- apiVersion: v1
  kind: Node
  metadata:
    name: d
kind: List
`
	s := &Snapshot{}
	if err := s.Read("snap.yaml", strings.NewReader(text)); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range s.Nodes {
		names = append(names, n.Name)
	}
	if strings.Join(names, ",") != "a,d" {
		t.Errorf("nodes %v, want a and d (b, p and c are malformed)", names)
	}
	var got []string
	for _, p := range s.Problems {
		got = append(got, p.File+":"+itoa(p.Line))
	}
	// The tab is on line 11; the pod whose containers are a number starts at line 12; the
	// item without apiVersion at line 18.
	if strings.Join(got, " ") != "snap.yaml:11 snap.yaml:12 snap.yaml:18" {
		t.Errorf("problems at %v, want snap.yaml:11 snap.yaml:12 snap.yaml:18: %v", got, s.Problems)
	}
	for _, p := range s.Problems {
		if p.Fix == "" || p.Message == "" {
			t.Errorf("a problem without message or fix: %+v", p)
		}
	}
}

func TestReadMalformedJSON(t *testing.T) {
	text := "{\n \"apiVersion\": \"v1\",\n \"items\": [\n  {\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}},\n  {\"apiVersion\": \"v1\", \"kind\": \"Node\",\n   \"metadata\": {\"name\": \"b\"}},\n  {\"apiVersion\": \"v1\", \"kind\": \"Node\" \"metadata\": {}}\n ]\n}\n"
	s := &Snapshot{}
	if err := s.Read("snap.json", strings.NewReader(text)); err != nil {
		t.Fatal(err)
	}
	if len(s.Nodes) != 2 {
		t.Errorf("%d nodes, want the two before the syntax error", len(s.Nodes))
	}
	if len(s.Problems) != 1 || s.Problems[0].Line != 7 {
		t.Errorf("problems %+v, want one at line 7", s.Problems)
	}
	// The second node's item starts on line 5.
	if src, _ := s.Where("Node", "", "b"); src.Line != 5 {
		t.Errorf("node b read at line %d, want 5", src.Line)
	}
}

func TestReadOversizedObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: big\n    annotations:\n")
	for i := 0; b.Len() < MaxObjectBytes+64<<10; i++ {
		b.WriteString("      k" + itoa(i) + ": " + strings.Repeat("x", 1000) + "\n")
	}
	b.WriteString("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: small\nkind: List\n")
	s := &Snapshot{}
	if err := s.Read("big.yaml", strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	if len(s.Nodes) != 1 || s.Nodes[0].Name != "small" {
		t.Errorf("%d nodes, want only the small one", len(s.Nodes))
	}
	if len(s.Problems) != 1 || s.Problems[0].Line != 3 || !strings.Contains(s.Problems[0].Message, "MiB") {
		t.Errorf("problems %+v, want one at line 3 naming the size", s.Problems)
	}
}

func TestReadEmpty(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# nothing\n", "apiVersion: v1\nitems: []\nkind: List\n", `{"apiVersion":"v1","items":[],"kind":"List"}`} {
		s := &Snapshot{}
		if err := s.Read("e", strings.NewReader(text)); err != nil {
			t.Fatal(err)
		}
		if len(s.Problems)+len(s.Nodes)+len(s.Pods) > 0 || s.PassedOver != nil {
			t.Errorf("%q: %+v", text, s)
		}
	}
}
