package simulation

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// disruptionPool is a NodePool with the capacity type, disruption block and template spec
// fields of a case.
func disruptionPool(t *testing.T, capacity, disruption, spec string) map[string]any {
	t.Helper()
	src := fmt.Sprintf(`
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: apps}
spec:
  disruption: {%s}
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [%s]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
%s`, disruption, capacity, spec)
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// manifests reads a multi-document YAML as the review hands documents to the reader.
func manifests(t *testing.T, src string) *workload.Set {
	t.Helper()
	var docs []workload.Document
	for i, part := range strings.Split(src, "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(part), &m); err != nil {
			t.Fatal(err)
		}
		if m != nil {
			docs = append(docs, workload.Document{File: "apps.yaml", Line: i + 1, Body: m})
		}
	}
	return workload.Read(docs, workload.Options{})
}

func deployment(name string, replicas int, podMeta, podSpec string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %s}
spec:
  replicas: %d
  selector: {matchLabels: {app: %s}}
  template:
    metadata: {labels: {app: %s}%s}
    spec:
      containers: [{name: main, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
%s`, name, replicas, name, name, podMeta, podSpec)
}

func pdb(name, app, limit string) string {
	return fmt.Sprintf(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: %s}
spec:
  %s
  selector: {matchLabels: {app: %s}}`, name, limit, app)
}

func barePod(name, app string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: %s, labels: {app: %s}}
spec:
  containers: [{name: main, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]`, name, app)
}

func job(name, app string) string {
	return fmt.Sprintf(`apiVersion: batch/v1
kind: Job
metadata: {name: %s}
spec:
  template:
    metadata: {labels: {app: %s}}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]`, name, app)
}

func daemonSet(name string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: %s}
spec:
  selector: {matchLabels: {app: %s}}
  template:
    metadata: {labels: {app: %s}}
    spec:
      containers: [{name: main, image: x, resources: {requests: {cpu: 100m, memory: 128Mi}}}]`, name, name, name)
}

// Each check fires on its case and stays silent when one condition of it is missing.
func TestDisruptionFindings(t *testing.T) {
	const noTGP, tgp = "", "      terminationGracePeriod: 24h"
	const consolidate = "consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s"
	const whenEmpty = "consolidationPolicy: WhenEmpty, consolidateAfter: 0s"
	tolerate := "      tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]"
	spotTaint := "      taints: [{key: spot, value: \"true\", effect: NoSchedule}]"
	dnd := ", annotations: {karpenter.sh/do-not-disrupt: \"true\"}"
	cases := []struct {
		name                   string
		capacity, disr, spec   string
		manifests              string
		want                   []findings.Code
		wantObject, wantInText string
	}{
		{name: "maxUnavailable 0 blocks expiry", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 2, "", "") + "\n---\n" + pdb("db", "db", "maxUnavailable: 0"),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}, wantObject: "PodDisruptionBudget/db", wantInText: "maxUnavailable 0 of 2 replicas"},
		{name: "minAvailable equal to replicas blocks expiry", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 3, "", "") + "\n---\n" + pdb("db", "db", "minAvailable: 3"),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}, wantInText: "minAvailable 3 of 3 pods"},
		{name: "minAvailable 100% blocks expiry", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 3, "", "") + "\n---\n" + pdb("db", "db", "minAvailable: 100%"),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}},
		{name: "two budgets on one pod block expiry", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 3, "", "") + "\n---\n" + pdb("a", "db", "maxUnavailable: 1") + "\n---\n" + pdb("b", "db", "maxUnavailable: 1"),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}, wantObject: "Deployment/db", wantInText: "more than one PodDisruptionBudget"},
		{name: "pods that tolerate every taint are not drained", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 2, dnd, "      tolerations: [{operator: Exists}]") + "\n---\n" + pdb("db", "db", "maxUnavailable: 0")},
		{name: "terminationGracePeriod bounds the drain", capacity: "on-demand", disr: whenEmpty, spec: tgp,
			manifests: deployment("db", 2, "", "") + "\n---\n" + pdb("db", "db", "maxUnavailable: 0")},
		{name: "expireAfter Never", capacity: "on-demand", disr: whenEmpty, spec: "      expireAfter: Never",
			manifests: deployment("db", 2, "", "") + "\n---\n" + pdb("db", "db", "maxUnavailable: 0")},
		{name: "a budget that allows one eviction", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 3, "", "") + "\n---\n" + pdb("db", "db", "minAvailable: 2")},
		{name: "bare pods are not expected by maxUnavailable", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: barePod("db-a", "db") + "\n---\n" + barePod("db-b", "db") + "\n---\n" + pdb("db", "db", "maxUnavailable: 1"),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}, wantObject: "PodDisruptionBudget/db", wantInText: "no pod is expected"},
		{name: "a Job's pods fail a scaled budget until they end", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: job("train", "train") + "\n---\n" + pdb("train", "train", "maxUnavailable: 1"),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}, wantObject: "PodDisruptionBudget/train", wantInText: "until those pods end on their own"},
		{name: "a Job's pods under an integer minAvailable", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: job("train", "train") + "\n---\n" + pdb("train", "train", "minAvailable: 0")},
		{name: "a DaemonSet's pods fail a scaled budget", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("web", 2, "", "") + "\n---\n" + daemonSet("agent") + "\n---\n" + pdb("agent", "agent", "maxUnavailable: 1"),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}, wantObject: "PodDisruptionBudget/agent", wantInText: "each running a pod of DaemonSet/agent"},
		{name: "a budget with neither limit", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 2, "", "") + "\n---\n" + pdb("db", "db", ""),
			want:      []findings.Code{findings.ExpiryBlockedByPDB}, wantObject: "PodDisruptionBudget/db", wantInText: "neither minAvailable nor maxUnavailable"},
		{name: "do-not-disrupt pods are KRP414's, not the budget's", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 2, dnd, "") + "\n---\n" + pdb("db", "db", "maxUnavailable: 0"),
			want:      []findings.Code{findings.ExpiryBlockedByDoNotDisrupt}},
		{name: "a budget of another namespace", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("db", 2, "", "") + "\n---\n" + strings.Replace(pdb("db", "db", "maxUnavailable: 0"), "{name: db}", "{name: db, namespace: other}", 1)},

		{name: "single replica on a consolidating pool", capacity: "on-demand", disr: consolidate, spec: tgp,
			manifests: deployment("web", 1, "", ""),
			want:      []findings.Code{findings.SingleReplicaConsolidated}, wantObject: "Deployment/web", wantInText: "NodePool/apps"},
		{name: "one replica an HPA scales to at least two", capacity: "on-demand", disr: consolidate, spec: tgp,
			manifests: deployment("web", 1, "", "") + "\n---\n" + `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5`},
		{name: "one replica an HPA scales from one", capacity: "on-demand", disr: consolidate, spec: tgp,
			manifests: deployment("web", 1, "", "") + "\n---\n" + `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5`, want: []findings.Code{findings.SingleReplicaConsolidated}},
		{name: "single replica on a pool whose nodes are do-not-disrupt", capacity: "on-demand", disr: consolidate,
			spec: tgp + "\n    metadata: {annotations: {karpenter.sh/do-not-disrupt: \"true\"}}", manifests: deployment("web", 1, "", "")},
		{name: "two replicas", capacity: "on-demand", disr: consolidate, spec: tgp, manifests: deployment("web", 2, "", "")},
		{name: "single replica with a budget", capacity: "on-demand", disr: consolidate, spec: tgp,
			manifests: deployment("web", 1, "", "") + "\n---\n" + pdb("web", "web", "maxUnavailable: 1")},
		{name: "single replica on a WhenEmpty pool", capacity: "on-demand", disr: whenEmpty, spec: tgp, manifests: deployment("web", 1, "", "")},
		{name: "budgets that block consolidation", capacity: "on-demand", disr: consolidate + `, budgets: [{nodes: "0", reasons: [Underutilized]}]`, spec: tgp,
			manifests: deployment("web", 1, "", "")},
		{name: "a budget that blocks drift only", capacity: "on-demand", disr: consolidate + `, budgets: [{nodes: "0", reasons: [Drifted]}]`, spec: tgp,
			manifests: deployment("web", 1, "", ""), want: []findings.Code{findings.SingleReplicaConsolidated}},
		{name: "consolidateAfter Never", capacity: "on-demand", disr: "consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: Never", spec: tgp,
			manifests: deployment("web", 1, "", "")},

		{name: "do-not-disrupt tolerating a spot pool's taint", capacity: "spot", disr: whenEmpty, spec: tgp + "\n" + spotTaint,
			manifests: deployment("batch", 2, dnd, tolerate),
			want:      []findings.Code{findings.SpotDoNotDisrupt}, wantObject: "Deployment/batch", wantInText: "tolerate the taints of NodePool/apps"},
		{name: "do-not-disrupt on on-demand", capacity: "on-demand", disr: whenEmpty, spec: tgp, manifests: deployment("batch", 2, dnd, "")},
		{name: "do-not-disrupt blocks expiry", capacity: "on-demand", disr: whenEmpty, spec: noTGP, manifests: deployment("batch", 2, dnd, ""),
			want: []findings.Code{findings.ExpiryBlockedByDoNotDisrupt}, wantObject: "Deployment/batch", wantInText: "never evicts"},
		{name: "do-not-disrupt on a bare Pod that restarts", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: strings.Replace(barePod("db-a", "db"), "metadata: {name: db-a, labels: {app: db}}", "metadata: {name: db-a, labels: {app: db}, annotations: {karpenter.sh/do-not-disrupt: \"true\"}}", 1),
			want:      []findings.Code{findings.ExpiryBlockedByDoNotDisrupt}, wantObject: "Pod/db-a", wantInText: "never evicts"},
		{name: "do-not-disrupt on a DaemonSet", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("web", 2, "", "") + "\n---\n" + strings.Replace(daemonSet("agent"), "metadata: {labels: {app: agent}}", "metadata: {labels: {app: agent}, annotations: {karpenter.sh/do-not-disrupt: \"true\"}}", 1),
			want:      []findings.Code{findings.ExpiryBlockedByDoNotDisrupt}, wantObject: "DaemonSet/agent", wantInText: "one on every node of the pool"},
		{name: "do-not-disrupt for a duration", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: deployment("batch", 2, ", annotations: {karpenter.sh/do-not-disrupt: 2h}", "")},
		{name: "do-not-disrupt on a Job", capacity: "on-demand", disr: whenEmpty, spec: noTGP,
			manifests: `apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  template:
    metadata: {annotations: {karpenter.sh/do-not-disrupt: "true"}}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]`},
		{name: "do-not-disrupt on spot without terminationGracePeriod", capacity: "spot", disr: whenEmpty, spec: noTGP, manifests: deployment("batch", 2, dnd, ""),
			want: []findings.Code{findings.ExpiryBlockedByDoNotDisrupt, findings.SpotDoNotDisrupt}},
		{name: "spot without do-not-disrupt", capacity: "spot", disr: whenEmpty, spec: tgp + "\n" + spotTaint, manifests: deployment("batch", 2, "", tolerate)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set := manifests(t, tc.manifests)
			if len(set.Findings) > 0 {
				t.Fatalf("reader findings: %+v", set.Findings)
			}
			res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope",
				NodePools: []map[string]any{disruptionPool(t, tc.capacity, tc.disr, tc.spec)}, Pods: set.Pods, DaemonSets: set.DaemonSets}, Karpenter)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Karpenter.Unschedulable) > 0 {
				t.Fatalf("unschedulable: %+v", res.Karpenter.Unschedulable)
			}
			got := DisruptionFindings(set, res)
			var codes []findings.Code
			for _, f := range got {
				codes = append(codes, f.Code)
			}
			if fmt.Sprint(codes) != fmt.Sprint(tc.want) {
				t.Fatalf("codes = %v, want %v\n%+v", codes, tc.want, got)
			}
			if len(got) == 0 {
				return
			}
			f := got[0]
			if tc.wantObject != "" && f.Object != tc.wantObject {
				t.Errorf("object = %q, want %q", f.Object, tc.wantObject)
			}
			if !strings.Contains(f.Message, tc.wantInText) || !strings.Contains(f.Message, "Karpenter's predicted placement") || f.File != "apps.yaml" || f.Line == 0 || f.Fix == "" {
				t.Errorf("finding = %+v, want %q in the message, a location and a fix", f, tc.wantInText)
			}
		})
	}
}

// Two workloads of one name in different namespaces share their name in the simulation: when
// their pods are on different pools, neither is attributed the other's pool.
func TestDisruptionFindingsSameNameTwoNamespaces(t *testing.T) {
	const consolidate = "consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s"
	apps := disruptionPool(t, "on-demand", consolidate, "      terminationGracePeriod: 1h")
	other := disruptionPool(t, "on-demand", consolidate, "      terminationGracePeriod: 1h")
	other["metadata"] = map[string]any{"name": "other"}
	a := strings.Replace(deployment("web", 1, "", "      nodeSelector: {karpenter.sh/nodepool: apps}"), "{name: web}", "{name: web, namespace: a}", 1)
	b := strings.Replace(deployment("web", 1, "", "      nodeSelector: {karpenter.sh/nodepool: other}"), "{name: web}", "{name: web, namespace: b}", 1)
	set := manifests(t, a+"\n---\n"+b)
	res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{apps, other}, Pods: set.Pods}, Karpenter)
	if err != nil {
		t.Fatal(err)
	}
	if pl := placements(res.Karpenter)["Deployment/web"]; pl == nil || len(pl.pools) != 2 {
		t.Fatalf("placement %+v: the case needs the two on different pools", pl)
	}
	if got := DisruptionFindings(set, res); len(got) != 0 {
		t.Errorf("findings %+v", got)
	}
}
