package benchcmp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	emudisruption "github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/replicaset"
	"github.com/onsi/gomega"
	"github.com/samber/lo"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	coreapis "sigs.k8s.io/karpenter/pkg/apis"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/controllers/disruption"
	"sigs.k8s.io/karpenter/pkg/controllers/dynamicresources/deviceallocation"
	ncdisruption "sigs.k8s.io/karpenter/pkg/controllers/nodeclaim/disruption"
	"sigs.k8s.io/karpenter/pkg/controllers/nodeclaim/expiration"
	"sigs.k8s.io/karpenter/pkg/controllers/nodeclaim/podevents"
	nphash "sigs.k8s.io/karpenter/pkg/controllers/nodepool/hash"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/controllers/state/informer"
	"sigs.k8s.io/karpenter/pkg/metrics"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/state/cost"
	"sigs.k8s.io/karpenter/pkg/state/virtualpods"
	"sigs.k8s.io/karpenter/pkg/test"
	. "sigs.k8s.io/karpenter/pkg/test/expectations" //nolint:revive // upstream's suite reads this way
	"sigs.k8s.io/karpenter/pkg/test/v1alpha1"
	"sigs.k8s.io/karpenter/pkg/utils/pod"
)

// The Karpenter side of the disruption comparator runs Karpenter's own controllers in process
// the way its disruption suite does (pkg/controllers/disruption/suite_test.go): an envtest API
// server (the project's kube-apiserver and etcd), a fake clock, the fake cloud provider with the
// scenario's instance types, the cluster state fed by its informer controllers, the
// provisioner, the disruption queue and controller, and the NodeClaim controllers that set the
// conditions disruption reads (drift and consolidatable, pod events, expiration). What a real
// cluster adds around them is done here as the suite's expectations do it: NodeClaims launched
// and initialized at once (ExpectNodeClaimDeployedAndStateUpdated, ExpectMakeNodesInitialized),
// pods bound by a Binding, a deleted NodeClaim's Node removed (ExpectNodeClaimsCascadeDeletion)
// and its pods recreated pending, as their ReplicaSet would, for the provisioner to place.

// disruptionEnvironment is the one API server every scenario runs on, cleaned between them
// (ExpectCleanedUp), as upstream's suite shares one across its specs.
var disruptionEnvironment struct {
	once sync.Once
	env  *test.Environment
	err  error
	// direct reads and writes the API server without the cache.
	direct client.Client
}

// errNoAPIServer says the API server binaries are missing: the comparator needs them.
var errNoAPIServer = errors.New("KUBEBUILDER_ASSETS is not set: run through `make test` or `make compare-upstream-disruption`, which provide kube-apiserver and etcd")

// sharedDisruptionEnvironment starts the API server once, with Karpenter's CRDs and its test
// NodeClass CRD (the fake cloud provider's node class), as the suite's BeforeSuite does.
func sharedDisruptionEnvironment() (*test.Environment, error) {
	disruptionEnvironment.once.Do(func() {
		if os.Getenv("KUBEBUILDER_ASSETS") == "" {
			disruptionEnvironment.err = errNoAPIServer
			return
		}
		defer func() {
			if r := recover(); r != nil {
				disruptionEnvironment.err = fmt.Errorf("starting the API server: %v", r)
			}
		}()
		// The pod-event controller finds a node's NodeClaim by provider ID: the index its own
		// suite sets (pkg/controllers/nodeclaim/podevents/suite_test.go).
		ctx := context.Background()
		disruptionEnvironment.env = test.NewEnvironment(test.WithCRDs(coreapis.CRDs...), test.WithCRDs(v1alpha1.CRDs...),
			test.WithFieldIndexers(test.NodeClaimProviderIDFieldIndexer(ctx), test.NodeProviderIDFieldIndexer(ctx)))
		disruptionEnvironment.direct, disruptionEnvironment.err = client.New(disruptionEnvironment.env.Config, client.Options{Scheme: scheme.Scheme})
	})
	return disruptionEnvironment.env, disruptionEnvironment.err
}

// stopDisruptionEnvironment stops the API server if a test started it.
func stopDisruptionEnvironment() {
	if env := disruptionEnvironment.env; env != nil {
		env.Cancel()
		_ = env.Stop() // the processes are gone either way; nothing to report at exit
	}
}

// harnessFailure is a failed expectation of upstream's test helpers, raised as a panic by the
// fail handler and turned into an error by run.
type harnessFailure string

var registerFailHandler sync.Once

// run calls f, turning a failed upstream expectation into an error.
func run(f func()) (err error) {
	registerFailHandler.Do(func() {
		gomega.RegisterFailHandler(func(message string, _ ...int) { panic(harnessFailure(message)) })
	})
	defer func() {
		if r := recover(); r != nil {
			if m, ok := r.(harnessFailure); ok {
				err = errors.New(string(m))
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// disruptionStart is where both sides' clocks start: a Monday 00:00 UTC, so budget schedules
// ("0 9 * * 1-5" and the like) fall at the same instants on both sides.
var disruptionStart = time.Date(2026, time.January, 5, 0, 0, 0, 0, time.UTC)

// idleStep is how far the clock moves when no controller acted: Karpenter's disruption
// polling period (pkg/controllers/disruption/controller.go, pollingPeriod).
const idleStep = 10 * time.Second

// maxIdleStep caps a jump of the clock to the next instant something can change.
const maxIdleStep = 5 * time.Minute

// harness is one scenario's controllers on the shared API server.
type harness struct {
	ctx            context.Context
	env            *test.Environment
	c              disruptionCase
	cloud          *launchCloud
	cluster        *state.Cluster
	nodeState      *informer.NodeController
	nodeClaimState *informer.NodeClaimController
	podState       *informer.PodController
	prov           *provisioning.Provisioner
	queue          *disruption.Queue
	controller     *disruption.Controller
	conditions     *ncdisruption.Controller
	podEvents      *podevents.Controller
	expiry         *expiration.Controller
	hash           *nphash.Controller
	// launched is each NodeClaim's launch time on the fake clock: the API server stamps
	// creation with the wall clock, which the fake clock outruns.
	launched map[string]time.Time
	// seen names every Node and NodeClaim created, for the informers to see them go.
	seenNodes, seenClaims map[string]bool
	disruptions           []disruptionEvent
	// generation counts the pods recreated, to name them.
	generation int
	// identities are the scenario pods' UIDs and creation times as the API server gave them;
	// replacementUIDs the UIDs of the pods recreated for each, in order.
	identities      map[string]podIdentity
	replacementUIDs map[string][]types.UID
	// created is each pod's creation on the fake clock: the fake clock when its batch was
	// created, plus the wall clock's seconds from the batch's first pod to it.
	created map[string]time.Time
}

// newHarness builds a scenario's controllers as the suite's BeforeEach does.
func newHarness(env *test.Environment, c disruptionCase) *harness {
	ctx := options.ToContext(context.Background(), test.Options())
	env.Clock.SetTime(disruptionStart)
	cp := newLaunchCloud(c.sc)
	clusterCost := cost.NewClusterCost(ctx, cp, env.Client)
	cluster := state.NewCluster(env.Clock, env.Client, cp)
	recorder := test.NewEventRecorder()
	prov := provisioning.NewProvisioner(env.Client, recorder, cp, cluster, env.Clock, deviceallocation.NewController(env.Client), virtualpods.NewVirtualPodCache(env.Client))
	queue := disruption.NewQueue(env.Client, recorder, cluster, env.Clock, prov)
	launched := map[string]time.Time{}
	h := &harness{
		ctx: ctx, env: env, c: c, cloud: cp, cluster: cluster,
		nodeState:       informer.NewNodeController(env.Client, cluster),
		nodeClaimState:  informer.NewNodeClaimController(&launchTimeClient{Client: env.Client, launched: launched}, cp, cluster, clusterCost),
		podState:        informer.NewPodController(env.Client, cluster),
		prov:            prov,
		queue:           queue,
		controller:      disruption.NewController(env.Clock, env.Client, prov, cp, recorder, cluster, queue, clusterCost),
		conditions:      ncdisruption.NewController(env.Clock, env.Client, cp),
		podEvents:       podevents.NewController(env.Clock, env.Client, cp),
		expiry:          expiration.NewController(env.Clock, env.Client, cp),
		hash:            nphash.NewController(env.Client, cp),
		launched:        launched,
		created:         map[string]time.Time{},
		replacementUIDs: map[string][]types.UID{},
		seenNodes:       map[string]bool{}, seenClaims: map[string]bool{},
	}
	cp.clock = env.Clock
	ExpectSingletonReconciled(ctx, informer.NewPricingController(env.Client, cp, clusterCost))
	cluster.MarkUnconsolidated()
	return h
}

// upstreamDisruption is Karpenter's run of a case: the before input settled from empty to the
// horizon, then the change (if any) applied and settled to the horizon again.
func upstreamDisruption(c disruptionCase) (out disruptionOutcome, err error) {
	env, err := sharedDisruptionEnvironment()
	if err != nil {
		return out, err
	}
	start := time.Now()
	err = run(func() {
		defer ExpectCleanedUp(context.Background(), env.Client)
		h := newHarness(env, c)
		h.applyBefore()
		h.settle(c.horizon)
		out.before = h.steadyNodes()
		if c.changed() {
			h.applyChange()
			h.settle(c.horizon)
		}
		out.after = h.steadyNodes()
		out.disruptions = h.disruptions
		out.pending = h.pendingPods()
		out.identities = h.identities
		out.replacementUIDs = h.replacementUIDs
	})
	out.elapsed = time.Since(start)
	return out, err
}

// applyBefore creates the node class, NodePools, DaemonSets, PDBs and the pending pods.
func (h *harness) applyBefore() {
	nc := &v1alpha1.TestNodeClass{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
	nc.StatusConditions().SetTrue("Ready")
	ExpectApplied(h.ctx, h.env.Client, nc)
	for _, np := range h.c.sc.pools {
		h.applyPool(np)
	}
	for _, d := range h.c.sc.daemons {
		ExpectApplied(h.ctx, h.env.Client, daemonSetOf(d))
	}
	for _, p := range h.c.pdbs {
		ExpectApplied(h.ctx, h.env.Client, p.DeepCopy())
	}
	h.identities = map[string]podIdentity{}
	for _, p := range h.createPending(h.c.sc.pods) {
		h.identities[p.Namespace+"/"+p.Name] = podIdentity{uid: p.UID, created: p.CreationTimestamp}
	}
}

// applyPool applies a NodePool on the fake cloud's node class, ready, and runs the hash
// controller that stamps its drift hash.
func (h *harness) applyPool(np *karpv1.NodePool) {
	up := upstreamPool(np)
	ExpectApplied(h.ctx, h.env.Client, up)
	ExpectObjectReconciled(h.ctx, h.env.Client, h.hash, up)
}

// upstreamPool is the scenario's NodePool on the fake cloud's node class (TestNodeClass), with
// the status conditions its controllers would set once the class is ready.
func upstreamPool(np *karpv1.NodePool) *karpv1.NodePool {
	up := np.DeepCopy()
	up.UID, up.ResourceVersion = "", ""
	up.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.test.sh", Kind: "TestNodeClass", Name: "default"}
	if up.Spec.Template.Spec.Requirements == nil {
		// The CRD requires the list; an empty one means what no list means to the emulation.
		up.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{}
	}
	up.StatusConditions().SetTrue(karpv1.ConditionTypeValidationSucceeded)
	up.StatusConditions().SetTrue(karpv1.ConditionTypeNodeClassReady)
	up.StatusConditions().SetUnknown(karpv1.ConditionTypeNodeRegistrationHealthy)
	return up
}

// daemonSetOf is the DaemonSet whose pod the scenario lists.
func daemonSetOf(p *corev1.Pod) *appsv1.DaemonSet {
	labels := map[string]string{"app": p.Name}
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: withImage(p.Spec)},
		},
	}
}

// createPending creates pods unbound, marked unschedulable as kube-scheduler marks the pods it
// cannot place (the provisioner takes only those), and returns them as the API server stored
// them.
func (h *harness) createPending(pods []*corev1.Pod) []*corev1.Pod {
	out := make([]*corev1.Pod, 0, len(pods))
	at := h.env.Clock.Now()
	for _, p := range pods {
		q := p.DeepCopy()
		q.UID, q.ResourceVersion, q.Spec.NodeName = "", "", ""
		q.Status = corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{
			Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable, LastTransitionTime: metav1.Now(),
		}}}
		q.Spec = withImage(q.Spec)
		ExpectApplied(h.ctx, h.env.Client, q)
		out = append(out, q)
		h.created[q.Namespace+"/"+q.Name] = at.Add(q.CreationTimestamp.Sub(out[0].CreationTimestamp.Time))
	}
	return out
}

// withImage gives every container an image, and an extended resource (a GPU) a limit equal to
// its request, which the API server requires; the scenarios leave them out, as scheduling
// reads neither.
func withImage(spec corev1.PodSpec) corev1.PodSpec {
	out := *spec.DeepCopy()
	for i := range out.Containers {
		c := &out.Containers[i]
		if c.Image == "" {
			c.Image = "registry.k8s.io/pause:3.10"
		}
		for name, q := range c.Resources.Requests {
			if name != corev1.ResourceCPU && name != corev1.ResourceMemory && name != corev1.ResourceEphemeralStorage {
				if c.Resources.Limits == nil {
					c.Resources.Limits = corev1.ResourceList{}
				}
				c.Resources.Limits[name] = q
			}
		}
	}
	return out
}

// applyChange applies the case's change: the NodePools after, the node class's new hash, or
// the pods after (pods gone are deleted, as a scale-down does).
func (h *harness) applyChange() {
	for _, np := range h.c.afterPools {
		h.applyPool(np)
		if os.Getenv("DISRUPTION_DEBUG") != "" {
			got := &karpv1.NodePool{}
			gomega.Expect(h.env.Client.Get(h.ctx, client.ObjectKeyFromObject(np), got)).To(gomega.Succeed())
			fmt.Printf("debug: pool %s changed: hash %s, template labels %v, requirements %v\n", np.Name, got.Annotations[karpv1.NodePoolHashAnnotationKey], got.Spec.Template.Labels, got.Spec.Template.Spec.Requirements)
			for _, nc := range h.listClaims() {
				fmt.Printf("debug:   claim %s pool %s hash %s\n", nc.Name, nc.Labels[karpv1.NodePoolLabelKey], nc.Annotations[karpv1.NodePoolHashAnnotationKey])
			}
		}
	}
	if h.c.classChanged {
		h.cloud.bumpNodeClass()
	}
	if h.c.afterPods != nil {
		h.scaleDown()
	}
}

// scaleDown brings each workload to its replicas after, deleting the pods the ReplicaSet
// controller would (replicaset.PodsToDelete) on the API server's pods, on the fake clock (the
// controller shares the cluster's clock; the API server stamps the wall clock, which the fake
// clock outruns).
func (h *harness) scaleDown() {
	want := map[string]int{}
	for _, p := range h.c.afterPods {
		want[p.Namespace+"/"+workloadOf(p)]++
	}
	replicas := map[string][]*corev1.Pod{}
	var order []string
	for _, p := range h.listPods() {
		if pod.IsOwnedByDaemonSet(p) || !p.DeletionTimestamp.IsZero() {
			continue
		}
		k := p.Namespace + "/" + workloadOf(p)
		if replicas[k] == nil {
			order = append(order, k)
		}
		replicas[k] = append(replicas[k], p)
	}
	sort.Strings(order)
	now := h.env.Clock.Now()
	for _, k := range order {
		views := make([]*corev1.Pod, len(replicas[k]))
		of := map[*corev1.Pod]*corev1.Pod{}
		for i, p := range replicas[k] {
			views[i] = h.replicaView(p)
			of[views[i]] = p
		}
		// A tie is the emulation's to report: both sides rank the same pods alike.
		gone, _ := replicaset.PodsToDelete(views, views, len(views)-want[k], now)
		for _, v := range gone {
			h.deletePod(of[v])
		}
	}
}

// replicaView is a pod as the ReplicaSet controller ranks it on the fake clock: created when
// the fake clock says, and named as the scenario pod it stands for (the name breaks ties
// the controller breaks at random, as the emulation's name does).
func (h *harness) replicaView(p *corev1.Pod) *corev1.Pod {
	v := p.DeepCopy()
	v.Name = scenarioPodName(p)
	v.CreationTimestamp = metav1.NewTime(h.created[p.Namespace+"/"+p.Name])
	return v
}

// settle runs the controllers until the clock passes horizon from now.
func (h *harness) settle(horizon time.Duration) {
	deadline := h.env.Clock.Now().Add(horizon)
	wall, iterations := time.Now(), 0
	h.provisionPending()
	for h.env.Clock.Now().Before(deadline) {
		iterations++
		t0 := time.Now()
		h.syncState()
		t1 := time.Now()
		acted := h.expire()
		h.updatePDBs()
		t2 := time.Now()
		h.markConditions()
		t3 := time.Now()
		acted = h.disrupt() || acted
		if os.Getenv("DISRUPTION_DEBUG") != "" {
			fmt.Printf("debug: iteration %d at %s: sync %s expire+pdb %s conditions %s disrupt %s (acted %v)\n", iterations, h.env.Clock.Now().Sub(disruptionStart), t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), time.Since(t3), acted)
		}
		if acted {
			continue
		}
		h.env.Clock.Step(h.idleStep(deadline))
	}
	if os.Getenv("DISRUPTION_DEBUG") != "" {
		deleting := 0
		for _, p := range h.listPods() {
			if !p.DeletionTimestamp.IsZero() {
				deleting++
			}
		}
		fmt.Printf("debug: settled at %s after %d iterations in %s; %d pods deleting\n", h.env.Clock.Now().Sub(disruptionStart), iterations, time.Since(wall), deleting)
	}
}

// idleStep is how far the clock moves when nothing acted: to the next instant a NodeClaim
// becomes consolidatable or expires, at least idleStep and at most maxIdleStep, and never past
// the deadline.
func (h *harness) idleStep(deadline time.Time) time.Duration {
	now := h.env.Clock.Now()
	next := now.Add(maxIdleStep)
	pools := map[string]*karpv1.NodePool{}
	npl := &karpv1.NodePoolList{}
	mustList(h, npl)
	for i := range npl.Items {
		pools[npl.Items[i].Name] = &npl.Items[i]
	}
	for _, nc := range h.listClaims() {
		if np := pools[nc.Labels[karpv1.NodePoolLabelKey]]; np != nil && np.Spec.Disruption.ConsolidateAfter.Duration != nil {
			t := nc.Status.LastPodEventTime.Time
			if init := nc.StatusConditions().Get(karpv1.ConditionTypeInitialized); init != nil && init.LastTransitionTime.After(t) {
				t = init.LastTransitionTime.Time
			}
			if at := t.Add(*np.Spec.Disruption.ConsolidateAfter.Duration); at.After(now) && at.Before(next) {
				next = at
			}
		}
		if d := nc.Spec.ExpireAfter.Duration; d != nil {
			if at := h.launched[nc.Name].Add(*d); at.After(now) && at.Before(next) {
				next = at
			}
		}
	}
	step := max(next.Sub(now), idleStep)
	if left := deadline.Sub(now); left > 0 && step > left {
		step = left
	}
	return step
}

// launchTimeClient reads NodeClaims with their creation time on the fake clock (their
// launch), for the cluster state: the API server stamps the wall clock, which the fake clock
// does not follow, and the eviction cost reads a NodeClaim's age against the fake clock
// (utils/disruption LifetimeRemaining).
type launchTimeClient struct {
	client.Client
	launched map[string]time.Time
}

func (c *launchTimeClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if err := c.Client.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	if nc, ok := obj.(*karpv1.NodeClaim); ok {
		if t, ok := c.launched[nc.Name]; ok {
			nc.CreationTimestamp = metav1.NewTime(t)
		}
	}
	return nil
}

// mustList lists objects, failing the scenario on an error.
func mustList(h *harness, list client.ObjectList) {
	gomega.Expect(h.env.Client.List(h.ctx, list)).To(gomega.Succeed())
}

// provisionPending runs the provisioner until no pending pod is placed: each NodeClaim it
// creates is launched and initialized, and the pods bound where it scheduled them (on new or
// existing nodes), as kube-scheduler would follow its nominations.
func (h *harness) provisionPending() {
	for range 2 * simulationMaxRounds {
		if h.pendingPods() == 0 {
			return
		}
		h.syncState()
		results, err := h.prov.Schedule(h.ctx)
		if os.Getenv("DISRUPTION_DEBUG") != "" {
			onExisting := 0
			for _, en := range results.ExistingNodes {
				onExisting += len(en.Pods)
			}
			fmt.Printf("debug: schedule: %d pending, %d new NodeClaims, %d on existing, %d pod errors, synced %v, err %v\n", h.pendingPods(), len(results.NewNodeClaims), onExisting, len(results.PodErrors), h.cluster.Synced(h.ctx), err)
			for _, p := range h.listPods() {
				if p.Spec.NodeName == "" {
					fmt.Printf("debug:   pending %s deleting=%v conditions=%v\n", p.Name, p.DeletionTimestamp, p.Status.Conditions)
				}
			}
			for p, e := range results.PodErrors {
				fmt.Printf("debug:   %s: %v\n", p.Name, e)
				break
			}
		}
		if err != nil {
			if errors.Is(err, provisioning.ErrNodePoolsNotFound) {
				return
			}
			gomega.Expect(err).ToNot(gomega.HaveOccurred())
		}
		placed := 0
		for _, m := range results.NewNodeClaims {
			name, err := h.prov.Create(h.ctx, m, provisioning.WithReason(metrics.ProvisionedReason))
			if err != nil {
				if os.Getenv("DISRUPTION_DEBUG") != "" {
					fmt.Printf("debug: create: %v\n", err)
				}
				continue
			}
			node := h.launch(name)
			if node == nil {
				continue
			}
			for _, p := range m.Pods {
				h.bind(p, node)
				placed++
			}
		}
		for _, en := range results.ExistingNodes {
			if en.Node == nil {
				continue
			}
			for _, p := range en.Pods {
				h.bind(p, en.Node)
				placed++
			}
		}
		if placed == 0 {
			return
		}
	}
}

// simulationMaxRounds bounds provisionPending's rounds (twice this many).
const simulationMaxRounds = 10

// launch deploys a created NodeClaim on the fake cloud, joins and initializes its Node and
// binds the DaemonSet pods that run there, as the suite's ExpectMakeNewNodeClaimsReady does.
func (h *harness) launch(name string) *corev1.Node {
	nc := &karpv1.NodeClaim{}
	gomega.Expect(h.env.Client.Get(h.ctx, types.NamespacedName{Name: name}, nc)).To(gomega.Succeed())
	h.launched[name] = h.env.Clock.Now()
	nc, node := ExpectNodeClaimDeployedAndStateUpdated(h.ctx, h.env.Client, h.cluster, h.cloud, nc)
	if node == nil {
		return nil
	}
	ExpectMakeNodeClaimsInitialized(h.ctx, h.env.Client, h.env.Clock, nc)
	ExpectMakeNodesInitialized(h.ctx, h.env.Client, h.env.Clock, node)
	h.seenNodes[node.Name], h.seenClaims[nc.Name] = true, true
	ExpectReconcileSucceeded(h.ctx, h.nodeState, client.ObjectKeyFromObject(node))
	ExpectReconcileSucceeded(h.ctx, h.nodeClaimState, client.ObjectKeyFromObject(nc))
	h.bindDaemons(node)
	return node
}

// bindDaemons binds a pod of each DaemonSet that tolerates the node's taints and whose node
// affinity its labels meet, as the DaemonSet controller and kube-scheduler would.
func (h *harness) bindDaemons(node *corev1.Node) {
	for _, d := range h.c.sc.daemons {
		if !daemonRunsOn(d, node) {
			continue
		}
		p := d.DeepCopy()
		p.Name = d.Name + "-" + node.Name
		p.UID, p.ResourceVersion, p.Spec.NodeName = "", "", ""
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: d.Name, UID: h.daemonUID(d), Controller: lo.ToPtr(true)}}
		p.Status = corev1.PodStatus{Phase: corev1.PodRunning}
		p.Spec = withImage(p.Spec)
		ExpectApplied(h.ctx, h.env.Client, p)
		h.bind(p, node)
	}
}

func (h *harness) daemonUID(d *corev1.Pod) types.UID {
	ds := &appsv1.DaemonSet{}
	gomega.Expect(h.env.Client.Get(h.ctx, types.NamespacedName{Namespace: d.Namespace, Name: d.Name}, ds)).To(gomega.Succeed())
	return ds.UID
}

// bind binds a pod to a node and tells the cluster state and the pod-event controller. The
// Binding goes through a client without the cache (the caching client would wait a second for
// a Binding it never caches), then the cache is awaited, as the caching client awaits writes.
func (h *harness) bind(p *corev1.Pod, node *corev1.Node) {
	ExpectManualBinding(h.ctx, disruptionEnvironment.direct, p, node)
	gomega.Eventually(func(g gomega.Gomega) {
		g.Expect(h.env.Client.Get(h.ctx, client.ObjectKeyFromObject(p), p)).To(gomega.Succeed())
		g.Expect(p.Spec.NodeName).To(gomega.Equal(node.Name))
	}).WithPolling(time.Millisecond).Should(gomega.Succeed())
	gomega.Expect(h.cluster.UpdatePod(h.ctx, p)).To(gomega.Succeed())
	_, err := h.podEvents.Reconcile(h.ctx, p)
	gomega.Expect(err).ToNot(gomega.HaveOccurred())
}

// deletePod deletes a bound pod at once (no kubelet runs), recording the pod event first.
func (h *harness) deletePod(p *corev1.Pod) {
	if p.Spec.NodeName != "" {
		_, err := h.podEvents.Reconcile(h.ctx, p)
		gomega.Expect(err).ToNot(gomega.HaveOccurred())
	}
	gomega.Expect(client.IgnoreNotFound(h.env.Client.Delete(h.ctx, p, client.GracePeriodSeconds(0)))).To(gomega.Succeed())
	ExpectReconcileSucceeded(h.ctx, h.podState, client.ObjectKeyFromObject(p))
}

// syncState reconciles the informer controllers on every Node and NodeClaim there is or was.
func (h *harness) syncState() {
	for _, n := range h.listNodes() {
		h.seenNodes[n.Name] = true
	}
	for _, nc := range h.listClaims() {
		h.seenClaims[nc.Name] = true
	}
	for name := range h.seenNodes {
		ExpectReconcileSucceeded(h.ctx, h.nodeState, types.NamespacedName{Name: name})
	}
	for name := range h.seenClaims {
		ExpectReconcileSucceeded(h.ctx, h.nodeClaimState, types.NamespacedName{Name: name})
	}
}

// markConditions runs the NodeClaim disruption controller (Drifted, Consolidatable) on every
// NodeClaim.
func (h *harness) markConditions() {
	for _, nc := range h.listClaims() {
		if nc.DeletionTimestamp.IsZero() {
			ExpectObjectReconciled(h.ctx, h.env.Client, h.conditions, nc)
		}
	}
	h.syncState()
}

// expire runs the expiration controller on every NodeClaim, with its creation time the fake
// clock's at launch, and terminates what it deleted.
func (h *harness) expire() bool {
	acted := false
	for _, nc := range h.listClaims() {
		if nc.Spec.ExpireAfter.Duration == nil || !nc.DeletionTimestamp.IsZero() {
			continue
		}
		view := nc.DeepCopy()
		view.CreationTimestamp = metav1.NewTime(h.launched[nc.Name])
		if _, err := h.expiry.Reconcile(h.ctx, view); err != nil {
			gomega.Expect(err).ToNot(gomega.HaveOccurred())
		}
		if err := h.env.Client.Get(h.ctx, client.ObjectKeyFromObject(nc), &karpv1.NodeClaim{}); apierrors.IsNotFound(err) {
			h.record(string(emudisruption.ReasonExpired), nc)
			h.terminate(nc)
			acted = true
		}
	}
	if acted {
		h.provisionPending()
	}
	return acted
}

// updatePDBs sets each PDB's status as the kube-controller-manager's disruption controller
// would for a minAvailable budget: healthy pods are the bound ones it selects, and the
// disruptions allowed what exceeds minAvailable (Karpenter reads only that).
func (h *harness) updatePDBs() {
	list := &policyv1.PodDisruptionBudgetList{}
	mustList(h, list)
	if len(list.Items) == 0 {
		return
	}
	pods := h.listPods()
	for i := range list.Items {
		pdb := &list.Items[i]
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		gomega.Expect(err).ToNot(gomega.HaveOccurred())
		healthy := int32(0)
		for _, p := range pods {
			if p.Namespace == pdb.Namespace && p.Spec.NodeName != "" && p.DeletionTimestamp.IsZero() && sel.Matches(labels.Set(p.Labels)) {
				healthy++
			}
		}
		desired := int32(0)
		if pdb.Spec.MinAvailable != nil {
			desired = int32(pdb.Spec.MinAvailable.IntValue())
		}
		stored := pdb.DeepCopy()
		pdb.Status.CurrentHealthy, pdb.Status.DesiredHealthy, pdb.Status.ExpectedPods = healthy, desired, healthy
		pdb.Status.DisruptionsAllowed = max(healthy-desired, 0)
		pdb.Status.ObservedGeneration = pdb.Generation
		gomega.Expect(h.env.Client.Status().Patch(h.ctx, pdb, client.MergeFrom(stored))).To(gomega.Succeed())
	}
}

// disrupt runs the disruption controller once, stepping the clock whenever it waits (the
// consolidation validation period), as the suite's consolidation specs do; then carries out
// what it queued: replacements launched and initialized, the queue reconciled on each
// candidate (it deletes them), the candidates' Nodes removed and their pods rescheduled.
func (h *harness) disrupt() bool {
	var finished atomic.Bool
	done := make(chan error, 1)
	go func() {
		done <- run(func() { ExpectSingletonReconciled(h.ctx, h.controller) })
		finished.Store(true)
	}()
	for !finished.Load() {
		if h.env.Clock.HasWaiters() {
			h.env.Clock.Step(time.Second)
			continue
		}
		time.Sleep(time.Millisecond)
	}
	if err := <-done; err != nil {
		panic(harnessFailure(err.Error()))
	}
	cmds := h.queue.GetCommands()
	if len(cmds) == 0 {
		return false
	}
	for _, cmd := range cmds {
		for _, r := range cmd.Replacements {
			h.launch(r.Name)
		}
		for _, cand := range cmd.Candidates {
			h.record(string(cmd.Reason()), cand.NodeClaim)
		}
		for _, cand := range cmd.Candidates {
			ExpectObjectReconciled(h.ctx, h.env.Client, h.queue, cand.NodeClaim)
		}
		for _, cand := range cmd.Candidates {
			h.terminate(cand.NodeClaim)
		}
	}
	h.provisionPending()
	return true
}

// record notes a disruption of a NodeClaim.
func (h *harness) record(reason string, nc *karpv1.NodeClaim) {
	h.disruptions = append(h.disruptions, disruptionEvent{at: h.env.Clock.Now().Sub(disruptionStart), reason: reason, node: nodeKeyOf(nc.Labels)})
}

// terminate finishes a deleted NodeClaim: its Node goes (ExpectNodeClaimsCascadeDeletion), its
// pods are recreated pending (a DaemonSet's are not: the DaemonSet has no node left there),
// and the cluster state sees both go.
func (h *harness) terminate(nc *karpv1.NodeClaim) {
	ExpectFinalizersRemoved(h.ctx, h.env.Client, nc)
	var nodeName string
	for _, n := range h.listNodes() {
		if n.Spec.ProviderID == nc.Status.ProviderID {
			nodeName = n.Name
		}
	}
	ExpectNodeClaimsCascadeDeletion(h.ctx, h.env.Client, nc)
	if nodeName != "" {
		var again []*corev1.Pod
		for _, p := range h.listPods() {
			if p.Spec.NodeName != nodeName {
				continue
			}
			h.deletePod(p)
			if !pod.IsOwnedByDaemonSet(p) {
				again = append(again, p)
			}
		}
		for _, p := range h.createPending(h.replicas(again)) {
			k := p.Namespace + "/" + scenarioPodName(p)
			h.replacementUIDs[k] = append(h.replacementUIDs[k], p.UID)
		}
	}
	h.syncState()
}

// replicaOfAnnotation names the scenario pod a recreated pod stands for.
const replicaOfAnnotation = "benchcmp.karpenter-iac/replica-of"

// replicas are new pods for evicted ones, named anew as a ReplicaSet names its pods, each
// remembering the scenario pod it replaces.
func (h *harness) replicas(pods []*corev1.Pod) []*corev1.Pod {
	out := make([]*corev1.Pod, len(pods))
	for i, p := range pods {
		h.generation++
		q := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("%s-r%d", scenarioPodName(p), h.generation), Namespace: p.Namespace,
			Labels: p.Labels, Annotations: lo.Assign(p.Annotations, map[string]string{replicaOfAnnotation: scenarioPodName(p)}),
			OwnerReferences: p.OwnerReferences,
		}, Spec: *p.Spec.DeepCopy()}
		q.Spec.NodeName = ""
		out[i] = q
	}
	return out
}

// scenarioPodName is the scenario pod a pod stands for.
func scenarioPodName(p *corev1.Pod) string {
	if n := p.Annotations[replicaOfAnnotation]; n != "" {
		return n
	}
	return p.Name
}

func (h *harness) listNodes() []*corev1.Node {
	return ExpectNodes(h.ctx, h.env.Client)
}

func (h *harness) listClaims() []*karpv1.NodeClaim {
	return ExpectNodeClaims(h.ctx, h.env.Client)
}

func (h *harness) listPods() []*corev1.Pod {
	list := &corev1.PodList{}
	mustList(h, list)
	out := make([]*corev1.Pod, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out
}

// pendingPods counts the pods no node runs.
func (h *harness) pendingPods() int {
	n := 0
	for _, p := range h.listPods() {
		if p.Spec.NodeName == "" {
			n++
		}
	}
	return n
}

// steadyNodes are the NodeClaims not being deleted, as node keys, sorted.
func (h *harness) steadyNodes() []nodeKey {
	var out []nodeKey
	for _, nc := range h.listClaims() {
		if nc.DeletionTimestamp.IsZero() {
			k := nodeKeyOf(nc.Labels)
			k.price = h.cloud.price(k)
			out = append(out, k)
		}
	}
	sortNodeKeys(out)
	return out
}

// nodeKeyOf is a NodeClaim's identity in the comparison, from its labels.
func nodeKeyOf(labels map[string]string) nodeKey {
	return nodeKey{
		pool:         labels[karpv1.NodePoolLabelKey],
		instanceType: labels[corev1.LabelInstanceTypeStable],
		capacityType: labels[karpv1.CapacityTypeLabelKey],
		zone:         labels[corev1.LabelTopologyZone],
	}
}

func sortNodeKeys(ks []nodeKey) {
	sort.Slice(ks, func(i, j int) bool { return ks[i].String() < ks[j].String() })
}

// nodeKey is a steady-state node as the comparator compares it.
type nodeKey struct {
	pool, instanceType, capacityType, zone string
	// price is the node's hourly list price (the catalog's), not part of the identity.
	price float64
}

func (k nodeKey) String() string {
	return strings.Join([]string{k.pool, k.instanceType, k.capacityType, k.zone}, "/")
}

// offeringOf is an instance type's offering with a capacity type and zone (an offering
// without a zone, as the EKS catalog's, matches the empty zone).
func offeringOf(it *cloudprovider.InstanceType, capacityType, zone string) *cloudprovider.Offering {
	for _, o := range it.Offerings {
		z := ""
		if o.Requirements.Has(corev1.LabelTopologyZone) {
			z = o.Zone()
		}
		if o.CapacityType() == capacityType && z == zone {
			return o
		}
	}
	return nil
}

// daemonRunsOn says whether a DaemonSet's pod runs on a node: it tolerates the node's taints
// and the node's labels meet its node selector and required node affinity.
func daemonRunsOn(p *corev1.Pod, node *corev1.Node) bool {
	if kscheduling.Taints(node.Spec.Taints).ToleratesPod(p) != nil {
		return false
	}
	return kscheduling.NewLabelRequirements(node.Labels).Compatible(kscheduling.NewStrictPodRequirements(p)) == nil
}
