package azure_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure/armfake"
)

const (
	napSub       = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
	napRG        = "rg-nap"
	napCluster   = "aks-nap"
	napPrincipal = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	napVNet      = "/subscriptions/" + napSub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet-nodes"
	napSubnet    = napVNet + "/subnets/nodes"
)

func napWorld(t *testing.T, nap armfake.NAP) *armfake.World {
	t.Helper()
	return armfake.New(napSub, napRG, napCluster, armfake.Compliant(napSubnet, napPrincipal), nap)
}

func clusterClient(t *testing.T, w *armfake.World) *azure.ClusterClient {
	t.Helper()
	opts := w.ClientOptions()
	c, err := azure.NewClusterClient(azure.ClusterID{SubscriptionID: napSub, ResourceGroup: napRG, Name: napCluster}, armfake.Credential(), &opts)
	if err != nil {
		t.Fatal(err)
	}
	c.PollInterval = 10 * time.Millisecond
	return c
}

var autoAuto = azure.NodeProvisioning{Mode: azure.ModeAuto, DefaultNodePools: azure.DefaultNodePoolsAuto}

// Enabling NAP on a Manual cluster: one guarded write of the document AKS returned, with only
// the node provisioning profile changed, at the API version that knows that profile.
func TestSetNodeProvisioningEnablesAuto(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: azure.ModeManual})
	// A property newer than armcontainerservice/v6: a typed round-trip would drop it.
	w.Extra = map[string]any{"futureProfile": map[string]any{"enabled": true}}
	w.LRO.InProgress = 2
	etag := w.ETag()
	var progress []string
	res, err := clusterClient(t, w).SetNodeProvisioning(context.Background(), autoAuto, nil, func(m string) { progress = append(progress, m) })
	if err != nil {
		t.Fatal(err)
	}
	if !res.Wrote || res.Attempts != 1 || w.Writes() != 1 {
		t.Fatalf("wrote=%v attempts=%d fake writes=%d, want one write", res.Wrote, res.Attempts, w.Writes())
	}
	if _, nap := w.Cluster(); nap != (armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}) {
		t.Fatalf("cluster profile after write = %+v", nap)
	}
	if res.Cluster.NodeProvisioning.Mode != "Auto" || res.Cluster.ETag == etag || res.Cluster.ETag != w.ETag() {
		t.Fatalf("result cluster = %+v (etag %s, world %s): want the state read after the write", res.Cluster.NodeProvisioning, res.Cluster.ETag, w.ETag())
	}
	var put armfake.Request
	for _, r := range w.Requests() {
		if r.API == "ManagedClustersClient.Get" || r.Method == http.MethodPut {
			if r.APIVersion != azure.NodeProvisioningAPIVersion {
				t.Errorf("%s %s used api-version %s, want %s", r.Method, r.API, r.APIVersion, azure.NodeProvisioningAPIVersion)
			}
		}
		if r.Method == http.MethodPut {
			put = r
		}
	}
	if put.IfMatch != etag {
		t.Errorf("PUT If-Match = %q, want the ETag that was read, %q", put.IfMatch, etag)
	}
	var body struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(w.PutBodies()[0], &body); err != nil {
		t.Fatal(err)
	}
	if _, ok := body.Properties["futureProfile"]; !ok {
		t.Errorf("the PUT dropped a property the SDK does not model: %s", w.PutBodies()[0])
	}
	if _, ok := w.Extra["futureProfile"]; !ok {
		t.Error("the cluster lost futureProfile in the write")
	}
	if np, _ := body.Properties["nodeProvisioningProfile"].(map[string]any); np["mode"] != "Auto" {
		t.Errorf("PUT nodeProvisioningProfile = %v", np)
	}
	joined := strings.Join(progress, "\n")
	if !strings.Contains(joined, "in progress") || !strings.Contains(joined, "finished") {
		t.Errorf("progress did not report the polling:\n%s", joined)
	}
}

// A cluster that already has the requested profile (for instance set by azurerm) is not
// written; service defaults count as set.
func TestSetNodeProvisioningNoWriteWhenSatisfied(t *testing.T) {
	cases := []struct {
		name string
		live armfake.NAP
		want azure.NodeProvisioning
	}{
		{"already Auto", armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}, autoAuto},
		{"Auto with default pools unset", armfake.NAP{Mode: "Auto"}, autoAuto},
		{"Manual by default", armfake.NAP{}, azure.NodeProvisioning{Mode: azure.ModeManual}},
		{"Manual ignores default pools", armfake.NAP{Mode: "Manual", DefaultNodePools: "None"}, azure.NodeProvisioning{Mode: azure.ModeManual, DefaultNodePools: "Auto"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := napWorld(t, tc.live)
			res, err := clusterClient(t, w).SetNodeProvisioning(context.Background(), tc.want, func(*azure.Cluster) error {
				t.Error("the prerequisite check ran although nothing is written")
				return nil
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Wrote || w.Count("ManagedClustersClient.BeginCreateOrUpdate", "") != 0 {
				t.Fatalf("wrote an already satisfied cluster (requests %+v)", w.Requests())
			}
		})
	}
	// And a difference in default node pools under Auto is a write.
	w := napWorld(t, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"})
	res, err := clusterClient(t, w).SetNodeProvisioning(context.Background(), azure.NodeProvisioning{Mode: "Auto", DefaultNodePools: "None"}, nil, nil)
	if err != nil || !res.Wrote {
		t.Fatalf("Auto/Auto to Auto/None: wrote=%v err=%v", res.Wrote, err)
	}
	if _, nap := w.Cluster(); nap.DefaultNodePools != "None" {
		t.Fatalf("default node pools = %q", nap.DefaultNodePools)
	}
}

// A concurrent change between read and write makes AKS refuse the stale ETag; the write is
// redone from a fresh read, so the other writer's change survives.
func TestSetNodeProvisioningRetriesStaleETag(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: "Manual"})
	w.BeforeWrite = func(n int) {
		if n == 1 {
			w.Modify(func(c *armcontainerservice.ManagedCluster, _ *armfake.NAP) {
				c.Tags = map[string]*string{"changed-by": to.Ptr("someone-else")}
			})
		}
	}
	checks := 0
	res, err := clusterClient(t, w).SetNodeProvisioning(context.Background(), autoAuto, func(*azure.Cluster) error { checks++; return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || w.Writes() != 2 || checks != 2 {
		t.Fatalf("attempts=%d writes=%d checks=%d, want 2 each (refused, then redone from a fresh read)", res.Attempts, w.Writes(), checks)
	}
	c, nap := w.Cluster()
	if nap.Mode != "Auto" {
		t.Fatalf("mode = %q", nap.Mode)
	}
	if c.Tags["changed-by"] == nil || *c.Tags["changed-by"] != "someone-else" {
		t.Fatalf("the concurrent change was overwritten: tags %v", c.Tags)
	}
	var ifMatch []string
	for _, r := range w.Requests() {
		if r.Method == http.MethodPut {
			ifMatch = append(ifMatch, r.IfMatch)
		}
	}
	if len(ifMatch) != 2 || ifMatch[0] == ifMatch[1] {
		t.Fatalf("If-Match of the two writes = %v, want the old and then the new ETag", ifMatch)
	}
}

// A writer that keeps racing makes the read-modify-write give up with the 412, not loop.
func TestSetNodeProvisioningGivesUpOnPersistentConflict(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: "Manual"})
	w.BeforeWrite = func(int) { w.Modify(func(*armcontainerservice.ManagedCluster, *armfake.NAP) {}) }
	c := clusterClient(t, w)
	c.MaxPreconditionRetries = 2
	_, err := c.SetNodeProvisioning(context.Background(), autoAuto, nil, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusPreconditionFailed {
		t.Fatalf("err = %v, want the 412", err)
	}
	if w.Writes() != 3 {
		t.Fatalf("writes = %d, want 1 + 2 retries", w.Writes())
	}
}

// Throttling: the SDK pipeline, with the provider's retry options, waits what Retry-After
// says (1s twice, not the exponential backoff of 2s then 6s) and then succeeds.
func TestClusterReadRetriesThrottlingWithRetryAfter(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: "Manual"})
	w.AddFault(armfake.Fault{API: "ManagedClustersClient.Get", Status: http.StatusTooManyRequests, RetryAfter: "1", Times: 2})
	start := time.Now()
	cl, err := clusterClient(t, w).Get(context.Background())
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if cl.NodeProvisioning.Mode != "Manual" {
		t.Fatalf("mode = %q", cl.NodeProvisioning.Mode)
	}
	if n := w.Count("ManagedClustersClient.Get", ""); n != 3 {
		t.Fatalf("GET attempts = %d, want 2 throttled + 1", n)
	}
	if elapsed < 2*time.Second || elapsed > 5*time.Second {
		t.Fatalf("took %s; Retry-After asked for 2 x 1s (exponential backoff would take over 6s)", elapsed)
	}
}

// A 5xx on the write is retried by the SDK with the same body: the node provisioning profile
// the policy put in survives the rewind.
func TestClusterWriteRetries5xx(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: "Manual"})
	w.AddFault(armfake.Fault{API: "ManagedClustersClient.BeginCreateOrUpdate", Status: http.StatusServiceUnavailable, Times: 1})
	res, err := clusterClient(t, w).SetNodeProvisioning(context.Background(), autoAuto, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	puts := 0
	for _, r := range w.Requests() {
		if r.Method == http.MethodPut {
			puts++
		}
	}
	if puts != 2 || w.Writes() != 1 || res.Attempts != 1 {
		t.Fatalf("PUT attempts=%d accepted=%d read-modify-writes=%d; want the 503 retried inside one attempt", puts, w.Writes(), res.Attempts)
	}
	if _, nap := w.Cluster(); nap.Mode != "Auto" {
		t.Fatalf("mode after retried write = %q", nap.Mode)
	}
}

// A failed long-running operation is an error naming AKS's code, and the mode is unchanged.
func TestSetNodeProvisioningLROFailure(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: "Manual"})
	w.LRO = armfake.LRO{InProgress: 1, FailCode: "NodeProvisioningUpdateFailed"}
	_, err := clusterClient(t, w).SetNodeProvisioning(context.Background(), autoAuto, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "NodeProvisioningUpdateFailed") || !strings.Contains(err.Error(), "failed") {
		t.Fatalf("err = %v", err)
	}
	var te *azure.TimeoutError
	if errors.As(err, &te) {
		t.Fatal("a failed operation was reported as a timeout")
	}
	if _, nap := w.Cluster(); nap.Mode != "Manual" {
		t.Fatalf("mode = %q after a failed update", nap.Mode)
	}
}

// The wait honours the context deadline and says that the operation may go on in Azure.
func TestSetNodeProvisioningTimeout(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: "Manual"})
	w.LRO.InProgress = 10000
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := clusterClient(t, w).SetNodeProvisioning(ctx, autoAuto, nil, nil)
	var te *azure.TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a TimeoutError wrapping the deadline", err)
	}
	if !strings.Contains(err.Error(), "may still be running") {
		t.Errorf("message does not warn that the operation continues: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("returned after %s, long after the 300ms deadline", d)
	}
}

// An update that an earlier apply stopped waiting for is still running (AKS reports
// Updating and refuses writes): the next switch waits for it. When it was the same switch,
// nothing is written again; otherwise the write follows once the cluster is settled; and the
// wait itself ends at the deadline with a TimeoutError.
func TestSetNodeProvisioningWaitsForRunningOperation(t *testing.T) {
	w := napWorld(t, armfake.NAP{Mode: "Manual"})
	w.Running = &armfake.Running{Reads: 3, Then: func(_ *armcontainerservice.ManagedCluster, nap *armfake.NAP) {
		*nap = armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}
	}}
	var waits int
	res, err := clusterClient(t, w).SetNodeProvisioning(context.Background(), autoAuto, nil, func(msg string) {
		if strings.Contains(msg, "is Updating: waiting for the running operation") {
			waits++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Wrote || w.Writes() != 0 || waits != 3 || w.OperationRunning() {
		t.Fatalf("wrote=%v writes=%d waits=%d running=%v; want no write after 3 waits", res.Wrote, w.Writes(), waits, w.OperationRunning())
	}

	w = napWorld(t, armfake.NAP{Mode: "Manual"})
	w.Running = &armfake.Running{Reads: 2}
	res, err = clusterClient(t, w).SetNodeProvisioning(context.Background(), autoAuto, nil, nil)
	if err != nil || !res.Wrote || w.Writes() != 1 {
		t.Fatalf("after another operation: wrote=%v writes=%d err=%v; want one write", res.Wrote, w.Writes(), err)
	}
	if _, nap := w.Cluster(); nap.Mode != "Auto" {
		t.Fatalf("mode %q after the write", nap.Mode)
	}

	w = napWorld(t, armfake.NAP{Mode: "Manual"})
	w.Running = &armfake.Running{Reads: 1 << 20}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = clusterClient(t, w).SetNodeProvisioning(ctx, autoAuto, nil, nil)
	var te *azure.TimeoutError
	if !errors.As(err, &te) || w.Writes() != 0 {
		t.Fatalf("err = %v, writes = %d; want a TimeoutError and no write", err, w.Writes())
	}
}

func TestClusterGetNotFound(t *testing.T) {
	w := napWorld(t, armfake.NAP{})
	w.RemoveCluster()
	_, err := clusterClient(t, w).Get(context.Background())
	if !azure.NotFound(err) {
		t.Fatalf("err = %v, want not found", err)
	}
	if azure.NotFound(errors.New("404")) {
		t.Fatal("a plain error counted as not found")
	}
}

// Retry options set by the caller win; unset ones become the provider's defaults. Adding the
// client's own policy must not write into the caller's slice.
func TestWithDefaultRetries(t *testing.T) {
	got := azure.WithDefaultRetries(nil)
	if got.Retry.MaxRetries != azure.DefaultRetryOptions.MaxRetries || got.Retry.MaxRetryDelay < time.Minute {
		t.Fatalf("defaults = %+v", got.Retry)
	}
	own := &arm.ClientOptions{}
	own.Retry.MaxRetries = -1
	if r := azure.WithDefaultRetries(own).Retry; r.MaxRetries != -1 || r.RetryDelay != 0 {
		t.Fatalf("caller's retry options replaced: %+v", r)
	}

	w := napWorld(t, armfake.NAP{})
	opts := w.ClientOptions()
	policies := make([]policy.Policy, 0, 4)
	opts.PerCallPolicies = policies
	if _, err := azure.NewClusterClient(azure.ClusterID{SubscriptionID: napSub, ResourceGroup: napRG, Name: napCluster}, armfake.Credential(), &opts); err != nil {
		t.Fatal(err)
	}
	if spare := policies[:1]; spare[0] != nil {
		t.Fatal("NewClusterClient appended into the caller's PerCallPolicies backing array")
	}
}
