package workload

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	karpenterpdb "sigs.k8s.io/karpenter/pkg/utils/pdb"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// parityCases is the size of the seeded corpus; parityWorkers the concurrent writers.
const (
	parityCases   = 240
	paritySeed    = 20261202
	parityWorkers = 8
)

// parityWorkload is one object of a case: its kind, its pods (bare Pods: that many Pod
// objects; a DaemonSet: pods on the server only, the input cannot say how many) and labels.
type parityWorkload struct {
	kind, name string
	replicas   int
	labels     map[string]string
	// doNotDisrupt annotates the pods karpenter.sh/do-not-disrupt "true"; tolerateAll gives
	// them a toleration of every taint: pods Karpenter's drain does not evict.
	doNotDisrupt, tolerateAll bool
}

type parityCase struct {
	ns        string
	workloads []parityWorkload
	budgets   []*policyv1.PodDisruptionBudget
}

// parityCorpus draws the cases. Each has one to three workloads of the kinds the disruption
// controller treats differently: a scale from spec.replicas, no controller, a controller
// without a scale. Replicas run from 0 to 20. Each has one budget (sometimes two) with every
// kind of limit and selector, including limits of 0, 100% and more than the replicas.
func parityCorpus(n int) []parityCase {
	r := rand.New(rand.NewSource(paritySeed))
	kinds := []string{"Deployment", "Deployment", "Deployment", "StatefulSet", "StatefulSet", "ReplicaSet", "ReplicationController", "Pod", "Pod", "Job", "DaemonSet"}
	tiers := []string{"front", "back"}
	var out []parityCase
	for i := range n {
		c := parityCase{ns: fmt.Sprintf("parity-%03d", i)}
		for j := range 1 + r.Intn(3) {
			k := kinds[r.Intn(len(kinds))]
			w := parityWorkload{kind: k, name: fmt.Sprintf("%s-%d", strings.ToLower(k), j), replicas: r.Intn(21),
				labels: map[string]string{"app": fmt.Sprintf("app-%d", j), "tier": tiers[r.Intn(2)]}}
			switch r.Intn(10) {
			case 0:
				w.doNotDisrupt = true
			case 1:
				w.tolerateAll = true
			}
			switch k {
			case "Pod", "DaemonSet":
				w.replicas = 1 + r.Intn(3)
			case "Job":
				w.replicas = r.Intn(6)
			}
			c.workloads = append(c.workloads, w)
		}
		for b := range 1 + r.Intn(5)/4 { // a second budget in one case of five
			c.budgets = append(c.budgets, parityBudget(r, fmt.Sprintf("pdb-%d", b), c.workloads))
		}
		out = append(out, c)
	}
	return out
}

func parityBudget(r *rand.Rand, name string, ws []parityWorkload) *policyv1.PodDisruptionBudget {
	b := &policyv1.PodDisruptionBudget{TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: metav1.ObjectMeta{Name: name}}
	switch r.Intn(8) {
	case 0: // nil: selects no pod
	case 1:
		b.Spec.Selector = &metav1.LabelSelector{} // the namespace
	case 2:
		b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "front"}}
	case 3:
		b.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"app-0", "app-2"}}}}
	case 4:
		b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "none"}}
	default:
		b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": ws[r.Intn(len(ws))].labels["app"]}}
	}
	limit := func() *intstr.IntOrString {
		var v intstr.IntOrString
		switch r.Intn(6) {
		case 0:
			v = intstr.FromInt32(0)
		case 1:
			v = intstr.FromInt32(int32(1 + r.Intn(3)))
		case 2:
			v = intstr.FromInt32(int32(r.Intn(26))) // often more than the replicas
		case 3:
			v = intstr.FromString([]string{"0%", "100%"}[r.Intn(2)])
		default:
			v = intstr.FromString(fmt.Sprintf("%d%%", []int{1, 10, 25, 33, 50, 66, 75, 99}[r.Intn(8)]))
		}
		return &v
	}
	switch r.Intn(9) {
	case 0: // neither: valid in policy/v1, and the controller then expects no pod
	case 1, 2, 3, 4:
		b.Spec.MaxUnavailable = limit()
	default:
		b.Spec.MinAvailable = limit()
	}
	switch r.Intn(3) {
	case 1:
		p := policyv1.IfHealthyBudget
		b.Spec.UnhealthyPodEvictionPolicy = &p
	case 2:
		p := policyv1.AlwaysAllow
		b.Spec.UnhealthyPodEvictionPolicy = &p
	}
	return b
}

// template is the workload's pod template.
func (w parityWorkload) template() corev1.PodTemplateSpec {
	t := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: w.labels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "x", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")}}}}}}
	if w.doNotDisrupt {
		t.Annotations = map[string]string{"karpenter.sh/do-not-disrupt": "true"}
	}
	if w.tolerateAll {
		t.Spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	}
	if w.kind == "Job" {
		t.Spec.RestartPolicy = corev1.RestartPolicyNever
	}
	return t
}

// objects are the case's documents as a user writes them (no ReplicaSets of Deployments, no
// pods but bare ones), for Read and for the API server.
func (c parityCase) objects() []client.Object {
	var out []client.Object
	for _, w := range c.workloads {
		meta := metav1.ObjectMeta{Name: w.name, Namespace: c.ns, Labels: w.labels}
		tmpl := w.template()
		sel := &metav1.LabelSelector{MatchLabels: w.labels}
		n := int32(w.replicas)
		switch w.kind {
		case "Deployment":
			out = append(out, &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: w.kind}, ObjectMeta: meta,
				Spec: appsv1.DeploymentSpec{Replicas: &n, Selector: sel, Template: tmpl}})
		case "ReplicaSet":
			out = append(out, &appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: w.kind}, ObjectMeta: meta,
				Spec: appsv1.ReplicaSetSpec{Replicas: &n, Selector: sel, Template: tmpl}})
		case "StatefulSet":
			out = append(out, &appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: w.kind}, ObjectMeta: meta,
				Spec: appsv1.StatefulSetSpec{Replicas: &n, Selector: sel, Template: tmpl, ServiceName: w.name}})
		case "ReplicationController":
			out = append(out, &corev1.ReplicationController{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: w.kind}, ObjectMeta: meta,
				Spec: corev1.ReplicationControllerSpec{Replicas: &n, Selector: w.labels, Template: &tmpl}})
		case "DaemonSet":
			out = append(out, &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: w.kind}, ObjectMeta: meta,
				Spec: appsv1.DaemonSetSpec{Selector: sel, Template: tmpl}})
		case "Job":
			out = append(out, &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: w.kind}, ObjectMeta: meta,
				Spec: batchv1.JobSpec{Parallelism: &n, Template: tmpl}})
		case "Pod":
			for i := range w.replicas {
				out = append(out, &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", w.name, i), Namespace: c.ns, Labels: w.labels, Annotations: tmpl.Annotations}, Spec: tmpl.Spec})
			}
		}
	}
	for _, b := range c.budgets {
		b := b.DeepCopy()
		b.Namespace = c.ns
		out = append(out, b)
	}
	return out
}

// set is what the project reads from the case's documents.
func (c parityCase) set(t *testing.T) *Set {
	t.Helper()
	var parts []string
	for _, o := range c.objects() {
		b, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, string(b))
	}
	s := Read(docs(t, strings.Join(parts, "\n---\n")), Options{})
	if len(s.Findings) > 0 {
		t.Fatalf("%s: the reader reports %+v", c.ns, s.Findings)
	}
	return s
}

// create writes the case to the API server as its controllers would leave it: the objects,
// a ReplicaSet per Deployment, and every pod (owned by its controller, Running and Ready
// through the status subresource). The budgets come last.
func (c parityCase) create(ctx context.Context, cs kubernetes.Interface) error {
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: c.ns}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	objs := c.objects()
	var budgets []*policyv1.PodDisruptionBudget
	for _, o := range objs {
		var (
			owner *metav1.OwnerReference
			pods  int
			err   error
		)
		ref := func(apiVersion, kind string, m metav1.Object) *metav1.OwnerReference {
			t := true
			return &metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: m.GetName(), UID: m.GetUID(), Controller: &t, BlockOwnerDeletion: &t}
		}
		switch o := o.(type) {
		case *policyv1.PodDisruptionBudget:
			budgets = append(budgets, o)
			continue
		case *corev1.Pod:
			if err := createRunningPod(ctx, cs, o); err != nil {
				return err
			}
			continue
		case *appsv1.Deployment:
			var d *appsv1.Deployment
			if d, err = cs.AppsV1().Deployments(c.ns).Create(ctx, o, metav1.CreateOptions{}); err != nil {
				return err
			}
			rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: o.Name + "-5d8f9c", Namespace: c.ns, Labels: o.Labels,
				OwnerReferences: []metav1.OwnerReference{*ref("apps/v1", "Deployment", d)}},
				Spec: appsv1.ReplicaSetSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector, Template: o.Spec.Template}}
			if rs, err = cs.AppsV1().ReplicaSets(c.ns).Create(ctx, rs, metav1.CreateOptions{}); err != nil {
				return err
			}
			owner, pods = ref("apps/v1", "ReplicaSet", rs), int(*o.Spec.Replicas)
		case *appsv1.ReplicaSet:
			if o, err = cs.AppsV1().ReplicaSets(c.ns).Create(ctx, o, metav1.CreateOptions{}); err != nil {
				return err
			}
			owner, pods = ref("apps/v1", "ReplicaSet", o), int(*o.Spec.Replicas)
		case *appsv1.StatefulSet:
			if o, err = cs.AppsV1().StatefulSets(c.ns).Create(ctx, o, metav1.CreateOptions{}); err != nil {
				return err
			}
			owner, pods = ref("apps/v1", "StatefulSet", o), int(*o.Spec.Replicas)
		case *corev1.ReplicationController:
			if o, err = cs.CoreV1().ReplicationControllers(c.ns).Create(ctx, o, metav1.CreateOptions{}); err != nil {
				return err
			}
			owner, pods = ref("v1", "ReplicationController", o), int(*o.Spec.Replicas)
		case *appsv1.DaemonSet:
			if o, err = cs.AppsV1().DaemonSets(c.ns).Create(ctx, o, metav1.CreateOptions{}); err != nil {
				return err
			}
			owner, pods = ref("apps/v1", "DaemonSet", o), c.workloadNamed(o.Name).replicas
		case *batchv1.Job:
			if o, err = cs.BatchV1().Jobs(c.ns).Create(ctx, o, metav1.CreateOptions{}); err != nil {
				return err
			}
			owner, pods = ref("batch/v1", "Job", o), int(*o.Spec.Parallelism)
		}
		w := c.workloadNamed(owner.Name)
		if owner.Kind == "ReplicaSet" && strings.HasSuffix(owner.Name, "-5d8f9c") {
			w = c.workloadNamed(strings.TrimSuffix(owner.Name, "-5d8f9c"))
		}
		for i := range pods {
			tmpl := w.template()
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", owner.Name, i), Namespace: c.ns, Labels: w.labels,
				Annotations: tmpl.Annotations, OwnerReferences: []metav1.OwnerReference{*owner}}, Spec: tmpl.Spec}
			if err := createRunningPod(ctx, cs, p); err != nil {
				return err
			}
		}
	}
	for _, b := range budgets {
		if _, err := cs.PolicyV1().PodDisruptionBudgets(c.ns).Create(ctx, b, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

func (c parityCase) workloadNamed(name string) parityWorkload {
	for _, w := range c.workloads {
		if w.name == name {
			return w
		}
	}
	return parityWorkload{}
}

// createRunningPod creates the pod and marks it Running and Ready, as a kubelet would.
func createRunningPod(ctx context.Context, cs kubernetes.Interface, p *corev1.Pod) error {
	p = p.DeepCopy()
	p.Spec.NodeName = "node-a"
	got, err := cs.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	now := metav1.Now()
	got.Status = corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &now, Conditions: []corev1.PodCondition{
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
		{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
	}}
	_, err = cs.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, got, metav1.UpdateOptions{})
	return err
}

// The disruption controller is the oracle of the project's budget arithmetic. A seeded corpus
// of workloads and budgets goes to the real kube-apiserver, with kube-controller-manager
// running its disruption controller. Each budget's status as the controller writes it
// (expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed) must be the one
// BudgetStatus computes from the same objects read as input. Then Karpenter reads the same
// budgets (pkg/utils/pdb.NewLimits, CanEvictPods: what its disruption candidates are checked
// with). The API server's eviction subresource is also asked (dry run) to evict a pod of each
// workload. Both must agree with the project's verdict that the pods can never be evicted
// (KRP411's condition, NeverEvicted).
func TestBudgetStatusMatchesDisruptionController(t *testing.T) {
	c := testenv.Get(t)
	ctx := context.Background()
	cfg := *c.Config
	cfg.QPS, cfg.Burst = 1000, 2000
	cs, err := kubernetes.NewForConfig(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	corpus := parityCorpus(parityCases)
	start := time.Now()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		next = make(chan parityCase)
	)
	for range parityWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pc := range next {
				if err := pc.create(ctx, cs); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s: %w", pc.ns, err))
					mu.Unlock()
				}
			}
		}()
	}
	for _, pc := range corpus {
		next <- pc
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("creating the corpus: %v", errors.Join(errs...))
	}
	created := time.Since(start)

	// Wait until the controller has written every budget's status for its generation and the
	// statuses hold still (pod events may reach it after a budget's first sync).
	var servers map[string]policyv1.PodDisruptionBudget
	deadline := time.Now().Add(60 * time.Second)
	for stable := 0; stable < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("the disruption controller did not write every budget's status in 60s; its log:\n%s", tail(c.ControllerManagerLog(), 4000))
		}
		time.Sleep(time.Second)
		list, err := cs.PolicyV1().PodDisruptionBudgets("").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		now := map[string]policyv1.PodDisruptionBudget{}
		all := true
		for _, b := range list.Items {
			if !strings.HasPrefix(b.Namespace, "parity-") {
				continue
			}
			now[b.Namespace+"/"+b.Name] = b
			all = all && (b.Status.ObservedGeneration >= b.Generation || syncFailed(b))
		}
		switch {
		case !all:
			stable = 0
		case sameStatuses(servers, now):
			stable++
		default:
			stable = 0
		}
		servers = now
	}
	synced := time.Since(start) - created

	limits, err := karpenterpdb.NewLimits(ctx, mustClient(t, &cfg))
	if err != nil {
		t.Fatal(err)
	}
	var budgets, unknownBudgets, verdicts, unknownVerdicts, blocked, mismatches int
	for _, pc := range corpus {
		s := pc.set(t)
		for _, b := range s.Budgets {
			budgets++
			server, ok := servers[b.Namespace+"/"+b.Name]
			if !ok {
				t.Fatalf("%s/%s: not on the server", b.Namespace, b.Name)
			}
			st := s.BudgetStatus(b)
			if !st.Known {
				unknownBudgets++
				continue
			}
			got := Status{ExpectedPods: int(server.Status.ExpectedPods), DesiredHealthy: int(server.Status.DesiredHealthy),
				CurrentHealthy: int(server.Status.CurrentHealthy), DisruptionsAllowed: int(server.Status.DisruptionsAllowed)}
			want := st
			want.Why, want.Known = "", false
			// The input cannot say how many pods a DaemonSet runs: the corpus knows.
			for _, w := range s.Workloads {
				if w.Kind == "DaemonSet" && w.Namespace == b.Namespace && b.Selector.Matches(labels.Set(w.Pod.Labels)) {
					want.CurrentHealthy += pc.workloadNamed(w.Name).replicas
				}
			}
			if st.SyncFails != syncFailed(server) {
				mismatches++
				t.Errorf("%s/%s %s: the disruption controller's sync fails = %v, BudgetStatus says %v (%s)", b.Namespace, b.Name, specString(b.Spec), syncFailed(server), st.SyncFails, st.Why)
			}
			if st.SyncFails {
				// The fail-safe writes only disruptionsAllowed and a condition.
				got = Status{DisruptionsAllowed: got.DisruptionsAllowed}
				want = Status{DisruptionsAllowed: st.DisruptionsAllowed}
			}
			if got != want {
				mismatches++
				t.Errorf("%s/%s %s: the disruption controller writes %+v, BudgetStatus computes %+v (%s)\n  workloads %+v",
					b.Namespace, b.Name, specString(b.Spec), got, want, st.Why, pc.workloads)
			}
		}
		for _, w := range s.Workloads {
			pods, err := cs.CoreV1().Pods(pc.ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + w.Pod.Labels["app"]})
			if err != nil {
				t.Fatal(err)
			}
			if len(pods.Items) == 0 {
				continue
			}
			refused, why, known := s.NeverEvicted(w)
			// Karpenter's reading leaves out the pods its drain does not evict; the eviction
			// API does not know about them.
			never := refused && EvictedByDrain(w.Pod)
			if !known {
				unknownVerdicts++
				continue
			}
			verdicts++
			ptrs := make([]*corev1.Pod, len(pods.Items))
			for i := range pods.Items {
				ptrs[i] = &pods.Items[i]
			}
			_, canEvict := limits.CanEvictPods(ptrs, clock.RealClock{}, nil)
			// No retries: client-go would otherwise wait out the Retry-After of every 429.
			evictErr := cs.PolicyV1().RESTClient().Post().AbsPath("/api/v1").Namespace(pc.ns).Resource("pods").Name(pods.Items[0].Name).SubResource("eviction").
				MaxRetries(0).Body(&policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: pods.Items[0].Name, Namespace: pc.ns},
				DeleteOptions: &metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}}).Do(ctx).Error()
			evicted := evictErr == nil
			if evictErr != nil && !apierrors.IsTooManyRequests(evictErr) && !strings.Contains(evictErr.Error(), "more than one PodDisruptionBudget") {
				t.Fatalf("%s %s: eviction: %v", pc.ns, w.Label(), evictErr)
			}
			if never {
				blocked++
			}
			if never == canEvict || refused == evicted {
				mismatches++
				t.Errorf("%s %s: the project says the eviction API refuses = %v (%s) and Karpenter never evicts = %v; the eviction API (dry run) evicts = %v (%v), Karpenter's CanEvictPods says evictable = %v",
					pc.ns, w.Label(), refused, why, never, evicted, evictErr, canEvict)
			}
		}
	}
	t.Logf("%d cases, %d budgets (%d not determined by the input), %d workload verdicts (%d never evicted by Karpenter; %d more not determined), %d mismatches; corpus written in %s, statuses synced in %s more",
		len(corpus), budgets, unknownBudgets, verdicts, blocked, unknownVerdicts, mismatches, created.Round(time.Millisecond), synced.Round(time.Millisecond))
	// A verdict the input cannot determine is not compared: the corpus must keep them few, or
	// the parity would hold over little. The caps are the corpus' counts when they were set.
	if unknownBudgets > maxUnknownBudgets || unknownVerdicts > maxUnknownVerdicts {
		t.Errorf("%d budgets and %d workload verdicts not determined by the input, at most %d and %d allowed: the comparison covers less than it did",
			unknownBudgets, unknownVerdicts, maxUnknownBudgets, maxUnknownVerdicts)
	}
}

// maxUnknownBudgets and maxUnknownVerdicts cap what TestBudgetStatusMatchesDisruptionController
// leaves uncompared (BudgetStatus or NeverEvicted not Known).
const (
	maxUnknownBudgets  = 2
	maxUnknownVerdicts = 2
)

func mustClient(t *testing.T, cfg *rest.Config) client.Client {
	t.Helper()
	cl, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// syncFailed is whether the controller's fail-safe wrote the budget's status: it sets
// disruptionsAllowed 0 and a SyncFailed condition but leaves observedGeneration as it was.
func syncFailed(b policyv1.PodDisruptionBudget) bool {
	for _, c := range b.Status.Conditions {
		if c.Type == policyv1.DisruptionAllowedCondition && c.Reason == policyv1.SyncFailedReason {
			return true
		}
	}
	return false
}

func sameStatuses(a, b map[string]policyv1.PodDisruptionBudget) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || x.Status.DisruptionsAllowed != y.Status.DisruptionsAllowed || x.Status.CurrentHealthy != y.Status.CurrentHealthy ||
			x.Status.ExpectedPods != y.Status.ExpectedPods || x.Status.DesiredHealthy != y.Status.DesiredHealthy {
			return false
		}
	}
	return true
}

func specString(s policyv1.PodDisruptionBudgetSpec) string {
	var parts []string
	if s.MinAvailable != nil {
		parts = append(parts, "minAvailable "+s.MinAvailable.String())
	}
	if s.MaxUnavailable != nil {
		parts = append(parts, "maxUnavailable "+s.MaxUnavailable.String())
	}
	if s.Selector == nil {
		parts = append(parts, "selector nil")
	} else {
		parts = append(parts, "selector "+metav1.FormatLabelSelector(s.Selector))
	}
	return strings.Join(parts, ", ")
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
