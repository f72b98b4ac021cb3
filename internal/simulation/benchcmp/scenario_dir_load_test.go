package benchcmp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const loaderPool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
`

// loadOne loads the scenarios under root and returns the one named name.
func loadOne(t *testing.T, root, name string) scenario {
	t.Helper()
	scs, err := loadScenarioDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		if sc.name == name {
			return sc
		}
	}
	t.Fatalf("no scenario %s among %d", name, len(scs))
	return scenario{}
}

// The scenario reader takes every manifest form simulate takes: a Kustomize overlay over a base
// in a subdirectory (the base is part of the overlay's scenario, not one of its own), Helm
// output, CronJobs (one run), Jobs (parallelism), an HPA's maxReplicas when scenario.yaml asks,
// init containers and RuntimeClass overhead in the requests, DaemonSets.
func TestScenarioDirsReadEveryManifestForm(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"overlay/kustomization.yaml":      "resources: [base]\nnamespace: shop\npatches:\n  - target: {kind: Deployment, name: web}\n    patch: |-\n      - {op: replace, path: /spec/replicas, value: 5}\n",
		"overlay/base/kustomization.yaml": "resources: [pool.yaml, web.yaml]\n",
		"overlay/base/pool.yaml":          loaderPool,
		"overlay/base/web.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`,
		"overlay/scenario.yaml": "region: eastus\n",
		"helm/rendered.yaml": "---\n# Source: app/templates/pool.yaml\n" + loaderPool + `---
# Source: app/templates/cron.yaml
apiVersion: batch/v1
kind: CronJob
metadata: {name: report}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      parallelism: 3
      template:
        metadata: {labels: {app: report}}
        spec:
          restartPolicy: OnFailure
          runtimeClassName: kata
          initContainers: [{name: fetch, image: fetch, resources: {requests: {cpu: "3", memory: 1Gi}}}]
          containers: [{name: report, image: report, resources: {requests: {cpu: "1", memory: 2Gi}}}]
---
# Source: app/templates/runtimeclass.yaml
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m, memory: 160Mi}}
---
# Source: app/templates/api.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: api, image: api, resources: {requests: {cpu: 500m, memory: 512Mi}}}]
---
# Source: app/templates/hpa.yaml
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 2
  maxReplicas: 7
---
# Source: app/templates/agent.yaml
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`,
		"helm/scenario.yaml": "region: westus2\nhpaMaxReplicas: true\n",
	})
	overlay := loadOne(t, root, "overlay-eastus")
	if len(overlay.pools) != 1 || len(overlay.pods) != 5 || overlay.pods[0].Namespace != "shop" {
		t.Fatalf("overlay: %d pools, %d pods (namespace %q); want the base's pool and the patched 5 web replicas in shop", len(overlay.pools), len(overlay.pods), overlay.pods[0].Namespace)
	}
	helm := loadOne(t, root, "helm-westus2")
	count := map[string]int{}
	for _, p := range helm.pods {
		count[workloadOf(p)]++
		if workloadOf(p) == "report" {
			// max(init 3, containers 1) + overhead 250m
			if got := p.Spec.Overhead.Cpu().String(); got != "250m" {
				t.Errorf("report pod overhead %s, want the RuntimeClass's 250m", got)
			}
		}
	}
	if count["report"] != 3 || count["api"] != 7 || len(helm.daemons) != 1 {
		t.Fatalf("helm: pods %v, %d DaemonSets; want report×3 (the CronJob's one run), api×7 (the HPA's maxReplicas), one DaemonSet", count, len(helm.daemons))
	}
}

// A malformed document fails the load with its file and line and what is wrong, with the
// other scenarios' problems in the same error; nothing panics.
func TestScenarioDirsReportMalformedManifests(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"broken-yaml/pool.yaml":    loaderPool,
		"broken-yaml/app.yaml":     "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x\nspec: [\n",
		"bad-field/pool.yaml":      loaderPool,
		"bad-field/app.yaml":       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: worker}\nspec:\n  replicas: many\n  selector: {matchLabels: {app: worker}}\n  template:\n    metadata: {labels: {app: worker}}\n    spec: {containers: [{name: worker, image: worker}]}\n",
		"bad-config/pool.yaml":     loaderPool,
		"bad-config/scenario.yaml": "regoin: eastus\n",
		"no-pool/app.yaml":         "apiVersion: v1\nkind: Pod\nmetadata: {name: z}\nspec: {containers: [{name: z, image: z}]}\n",
	})
	_, err := loadScenarioDirs(root)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{"broken-yaml/app.yaml:", "bad-field/app.yaml:", "spec.replicas", "bad-config/scenario.yaml", "regoin", "no-pool: no NodePool"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not mention %q:\n%s", want, msg)
		}
	}
}

// The unseen-scenario corpus (testdata/unseen, made by testdata/unseen/gen.py, written apart
// from corpusScenario: other shapes and kinds) loads whole: make compare-upstream
// SCENARIOS=internal/simulation/benchcmp/testdata/unseen runs it.
func TestUnseenCorpusLoads(t *testing.T) {
	scs, err := loadScenarioDirs("testdata/unseen")
	if err != nil {
		t.Fatal(err)
	}
	pods := 0
	for _, sc := range scs {
		pods += len(sc.pods)
	}
	if len(scs) < 30 {
		t.Fatalf("%d scenarios, want at least 30", len(scs))
	}
	t.Logf("%d scenarios, %d pods", len(scs), pods)
}

// The EKS scenario directories load as EKS scenarios: pools on EC2NodeClasses, instance types
// from internal/cloud/eks for their node class (a kubelet maxPods, a Bottlerocket family),
// the region of scenario.yaml. A scenario mixing clouds, or an EKS one in an Azure region, is
// an error naming the file.
func TestEKSScenarioDirsLoad(t *testing.T) {
	scs, err := loadScenarioDirs("testdata/eks")
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) < 5 {
		t.Fatalf("%d EKS scenarios, want at least 5", len(scs))
	}
	for _, sc := range scs {
		if !sc.eks {
			t.Errorf("%s: not read as an EKS scenario", sc.name)
		}
		for _, np := range sc.pools {
			if len(sc.its[np.Name]) < 1000 {
				t.Errorf("%s: pool %s has %d instance types, want the EC2 catalog's", sc.name, np.Name, len(sc.its[np.Name]))
			}
		}
	}
	mp := loadOne(t, "testdata/eks", "stateful-minvalues-us-east-1")
	for _, it := range mp.its["memory"] {
		if it.Name == "r6i.xlarge" {
			if pods := it.Capacity[corev1.ResourcePods]; pods.Value() != 58 {
				t.Errorf("r6i.xlarge with kubelet maxPods 58: %v pods", pods.String())
			}
		}
	}

	root := t.TempDir()
	ec2Pool := strings.ReplaceAll(strings.ReplaceAll(loaderPool, "karpenter.azure.com, kind: AKSNodeClass", "karpenter.k8s.aws, kind: EC2NodeClass"), "karpenter.azure.com/sku-family", "karpenter.k8s.aws/instance-family")
	ec2Pool = strings.Replace(ec2Pool, "name: general", "name: aws", 1)
	writeFiles(t, root, map[string]string{
		"mixed/pools.yaml":    loaderPool + "---\n" + ec2Pool,
		"mixed/pods.yaml":     "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]\n",
		"azure/pools.yaml":    ec2Pool,
		"azure/pods.yaml":     "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]\n",
		"azure/scenario.yaml": "region: westeurope\n",
	})
	_, err = loadScenarioDirs(root)
	if err == nil || !strings.Contains(err.Error(), "a scenario's pools are of one cloud") || !strings.Contains(err.Error(), `region "westeurope" is not an AWS region`) {
		t.Fatalf("error %v; want the mixed scenario and the EKS one in an Azure region reported", err)
	}
}
