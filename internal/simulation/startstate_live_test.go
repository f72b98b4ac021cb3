package simulation

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var (
	nodesGVR = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	podsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// runningNodes adds to runningCluster the Nodes its NodeClaims became (with the status the
// kubelet reports), an unmanaged system node, pods bound to them (one of a DaemonSet) and
// pending pods.
func runningNodes(t *testing.T, c *testenv.Cluster) {
	t.Helper()
	ctx := context.Background()
	node := func(name string, labels map[string]any, cpu, mem string) {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": name, "labels": labels}}}
		got, err := c.Dynamic.Resource(nodesGVR).Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The TaintNodesByCondition admission plugin taints a new Node not-ready; the node
		// lifecycle controller lifts it once the kubelet reports Ready, as here.
		delete(got.Object["spec"].(map[string]any), "taints")
		if got, err = c.Dynamic.Resource(nodesGVR).Update(ctx, got, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		res := map[string]any{"cpu": cpu, "memory": mem, "pods": "110"}
		got.Object["status"] = map[string]any{"allocatable": res, "capacity": res}
		if _, err := c.Dynamic.Resource(nodesGVR).UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i, zone := range []string{"westeurope-1", "westeurope-2", "westeurope-3"} {
		name := "aks-general-" + string(rune('a'+i))
		node(name, map[string]any{"karpenter.sh/nodepool": "general", "node.kubernetes.io/instance-type": "Standard_D4s_v5",
			"topology.kubernetes.io/zone": zone, "karpenter.sh/capacity-type": "on-demand", "karpenter.azure.com/sku-family": "D",
			"kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux", "kubernetes.io/hostname": name}, "3860m", "12Gi")
	}
	node("aks-system-0", map[string]any{"kubernetes.azure.com/mode": "system", "node.kubernetes.io/instance-type": "Standard_D2s_v5",
		"topology.kubernetes.io/zone": "westeurope-1", "kubernetes.io/hostname": "aks-system-0"}, "1900m", "5Gi")
	pod := func(name, nodeName, cpu string, daemon bool) {
		md := map[string]any{"name": name, "namespace": "default", "labels": map[string]any{"app": strings.TrimRight(name, "-0123456789")}}
		if daemon {
			md["ownerReferences"] = []any{map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "agent", "uid": "d5", "controller": true}}
		}
		spec := map[string]any{"containers": []any{map[string]any{"name": "c", "image": "registry.example/app:1",
			"resources": map[string]any{"requests": map[string]any{"cpu": cpu, "memory": "1Gi"}}}}}
		if nodeName != "" {
			spec["nodeName"] = nodeName
		}
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec}}
		if _, err := c.Dynamic.Resource(podsGVR).Namespace("default").Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		pod(fmt.Sprintf("web-%d", i), "aks-general-"+string(rune('a'+i)), "2", false)
		pod(fmt.Sprintf("agent-%d", i), "aks-general-"+string(rune('a'+i)), "100m", true)
	}
	pod("coredns-0", "aks-system-0", "500m", false)
	for i := range 5 {
		pod(fmt.Sprintf("queue-%d", i), "", "1", false) // pending: four fit on the running nodes
	}
}

// kubectlYAML is `kubectl get nodes,nodeclaims,pods,pdb,nodepools,aksnodeclasses -A -o yaml`:
// one v1 List of every object, through kubectl's own YAML printer.
func kubectlYAML(t *testing.T, c *testenv.Cluster) []byte {
	t.Helper()
	list := &unstructured.UnstructuredList{Object: map[string]any{"kind": "List", "apiVersion": "v1", "metadata": map[string]any{}}}
	for _, gvr := range clusterstate.Resources() {
		got, err := c.Dynamic.Resource(gvr).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			continue // a kind the cluster does not serve, as kubectl skips it
		}
		list.Items = append(list.Items, got.Items...)
	}
	var out bytes.Buffer
	if err := (&printers.YAMLPrinter{}).PrintObj(list, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// startView is what a simulation from a start state comes to: the start nodes as the
// scheduler takes them, Karpenter's provisioning rounds and the change's drift.
type startView struct {
	Nodes       []string
	Rounds      *Provisioning
	Drift       []PoolDrift
	Drifted     []DriftedNode
	Assumptions []string
}

func simulateFrom(t *testing.T, s *analysis.Analyzer, snap *clusterstate.Snapshot, in Input) string {
	t.Helper()
	st := Start(s, snap, in)
	in.Start = st
	res, err := Simulate(context.Background(), s, in, Karpenter)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Drift(context.Background(), s, snap, in)
	if err != nil {
		t.Fatal(err)
	}
	v := startView{Rounds: res.Provisioned, Drift: d.Impact(snap, impactStart), Drifted: d.Drifted, Assumptions: res.Assumptions}
	for _, n := range st.Nodes {
		var pods []string
		for _, p := range append(n.Pods, n.DaemonSetPods...) {
			pods = append(pods, p.Name)
		}
		v.Nodes = append(v.Nodes, fmt.Sprintf("%s pool=%q alloc=%s/%s pods=%v daemons=%d price=%v/%v claim=%v",
			n.Name, n.NodePool(), n.Allocatable.Cpu(), n.Allocatable.Memory(), pods, len(n.DaemonSetPods), n.HourlyPrice, n.PriceKnown, n.NodeClaim != nil))
	}
	out, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// The simulation from a kubectl snapshot equals the simulation from the live listing: the
// start state, Karpenter's provisioning rounds on the running nodes, and the drift.
func TestSimulationFromSnapshotEqualsLive(t *testing.T) {
	c := startCluster(t)
	runningCluster(t, c)
	runningNodes(t, c)
	live, err := clusterstate.List(context.Background(), c.Dynamic)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(file, kubectlYAML(t, c), 0o600); err != nil {
		t.Fatal(err)
	}
	snap, err := clusterstate.ReadFiles([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Problems) > 0 {
		t.Fatalf("snapshot problems: %v", snap.Problems)
	}
	s := analysis.New(catalog.Default())
	change := strings.Replace(drifterPool, "values: [D]", "values: [E]", 1)
	in := Input{Region: "westeurope", NodePools: []map[string]any{body(t, change)}, NodeClasses: []map[string]any{body(t, drifterClass)}}
	fromLive, fromSnap := simulateFrom(t, s, live, in), simulateFrom(t, s, snap, in)
	if fromLive != fromSnap {
		t.Errorf("from the live listing:\n%s\nfrom the snapshot:\n%s", fromLive, fromSnap)
	}
	var v startView
	if err := json.Unmarshal([]byte(fromLive), &v); err != nil {
		t.Fatal(err)
	}
	// The start state is the cluster's: four nodes, three of them the pool's, bound pods kept.
	if len(v.Nodes) != 4 || !strings.Contains(v.Nodes[0], `aks-general-a pool="general" alloc=3860m/12Gi pods=[web-0 agent-0] daemons=1`) {
		t.Errorf("start nodes %q", v.Nodes)
	}
	// Karpenter places the pending pods on the running nodes first: 1.76 CPU is left on each
	// pool node and 1.4 on the system node, one 1-CPU pod each; the fifth gets a NodeClaim of
	// the changed family.
	if v.Rounds == nil || len(v.Rounds.Rounds) != 1 || v.Rounds.Rounds[0].OnExistingNodes != 4 || len(v.Rounds.Nodes) != 1 || !strings.HasPrefix(v.Rounds.Nodes[0].SKU, "Standard_E") {
		t.Errorf("rounds %+v: want four pods on the running nodes, the fifth on family E", v.Rounds)
	}
	if len(v.Drift) != 1 || v.Drift[0].Drifted != 3 || v.Drift[0].Nodes != 3 {
		t.Errorf("drift %+v, want the three pool nodes drifted", v.Drift)
	}
}
