package azure

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
)

// NodeProvisioningAPIVersion is the AKS API version used to read and write the managed cluster
// when its node provisioning profile matters. armcontainerservice/v6 speaks 2025-02-01, whose
// model has no properties.nodeProvisioningProfile: read with that version, the field is not
// returned, and written with it, it is ignored. 2025-05-01 is the first stable version AKS
// documents for nodeProvisioningProfile (mode and defaultNodePools).
const NodeProvisioningAPIVersion = "2025-05-01"

// Node provisioning modes and default node pool sets, as AKS spells them.
const (
	ModeAuto             = "Auto"
	ModeManual           = "Manual"
	DefaultNodePoolsAuto = "Auto"
	DefaultNodePoolsNone = "None"
)

// NodeProvisioning is properties.nodeProvisioningProfile of a managed cluster. Empty fields
// mean that AKS returned none: the service defaults are Manual and Auto.
type NodeProvisioning struct {
	Mode             string `json:"mode,omitempty"`
	DefaultNodePools string `json:"defaultNodePools,omitempty"`
}

// EffectiveMode is the mode with the service default applied.
func (n NodeProvisioning) EffectiveMode() string {
	if n.Mode == "" {
		return ModeManual
	}
	return n.Mode
}

// EffectiveDefaultNodePools is defaultNodePools with the service default applied.
func (n NodeProvisioning) EffectiveDefaultNodePools() string {
	if n.DefaultNodePools == "" {
		return DefaultNodePoolsAuto
	}
	return n.DefaultNodePools
}

// Satisfies says that the cluster already has what want asks for, so no write is needed.
// defaultNodePools has no effect unless the mode is Auto, so it is compared only then.
func (n NodeProvisioning) Satisfies(want NodeProvisioning) bool {
	if !strings.EqualFold(n.EffectiveMode(), want.EffectiveMode()) {
		return false
	}
	if !strings.EqualFold(want.EffectiveMode(), ModeAuto) {
		return true
	}
	return strings.EqualFold(n.EffectiveDefaultNodePools(), want.EffectiveDefaultNodePools())
}

// Cluster is a managed cluster as read for a read-modify-write: the SDK's typed model for
// everything armcontainerservice/v6 knows, the node provisioning profile it does not, and the
// complete JSON document so that a write sends back every property the service returned,
// including those newer than the SDK.
type Cluster struct {
	ID               ClusterID
	Typed            armcontainerservice.ManagedCluster
	NodeProvisioning NodeProvisioning
	ETag             string
	document         map[string]any
}

// KubernetesVersion is the version the control plane runs (the requested one while an upgrade
// has not yet started).
func (c *Cluster) KubernetesVersion() string {
	if p := c.Typed.Properties; p != nil {
		if p.CurrentKubernetesVersion != nil && *p.CurrentKubernetesVersion != "" {
			return *p.CurrentKubernetesVersion
		}
		if p.KubernetesVersion != nil {
			return *p.KubernetesVersion
		}
	}
	return ""
}

// ClusterClient reads and writes one managed cluster.
type ClusterClient struct {
	id     ClusterID
	client *armcontainerservice.ManagedClustersClient
	// PollInterval is how often a long-running operation is polled when Azure does not say.
	PollInterval time.Duration
	// MaxPreconditionRetries bounds the read-modify-write attempts lost to concurrent writers.
	MaxPreconditionRetries int
}

// DefaultRetryOptions are the retries for the provider's ARM calls when the caller set none.
// The SDK pipeline retries 408, 429, 500, 502, 503 and 504 and waits what Retry-After says.
// azcore gives up outright when Retry-After exceeds MaxRetryDelay, and ARM throttling asks for
// tens of seconds, so the cap is raised from the SDK's 60s; TryTimeout keeps one hung
// connection from eating the whole Terraform timeout.
var DefaultRetryOptions = policy.RetryOptions{
	MaxRetries:    6,
	RetryDelay:    2 * time.Second,
	MaxRetryDelay: 2 * time.Minute,
	TryTimeout:    2 * time.Minute,
}

// WithDefaultRetries returns a copy of opts whose retry options are DefaultRetryOptions unless
// the caller configured any.
func WithDefaultRetries(opts *arm.ClientOptions) *arm.ClientOptions {
	var o arm.ClientOptions
	if opts != nil {
		o = *opts
	}
	r := o.Retry
	if r.MaxRetries == 0 && r.RetryDelay == 0 && r.MaxRetryDelay == 0 && r.TryTimeout == 0 && r.StatusCodes == nil && r.ShouldRetry == nil {
		o.Retry = DefaultRetryOptions
	}
	return &o
}

// NewClusterClient returns a client for the cluster. It makes no request.
func NewClusterClient(id ClusterID, cred azcore.TokenCredential, opts *arm.ClientOptions) (*ClusterClient, error) {
	o := WithDefaultRetries(opts)
	// Copy the slice: appending to the caller's backing array could leak this policy into
	// other clients built from the same options.
	o.PerCallPolicies = append(append([]policy.Policy(nil), o.PerCallPolicies...), &documentPolicy{
		path: strings.ToLower(fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.ContainerService/managedClusters/%s", id.SubscriptionID, id.ResourceGroup, id.Name)),
	})
	c, err := armcontainerservice.NewManagedClustersClient(id.SubscriptionID, cred, o)
	if err != nil {
		return nil, err
	}
	return &ClusterClient{id: id, client: c, PollInterval: 10 * time.Second, MaxPreconditionRetries: 5}, nil
}

// Get reads the cluster.
func (c *ClusterClient) Get(ctx context.Context) (*Cluster, error) {
	ex := &exchange{}
	resp, err := c.client.Get(withExchange(ctx, ex), c.id.ResourceGroup, c.id.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("reading AKS cluster %s: %w", c.id.Name, err)
	}
	cl := &Cluster{ID: c.id, Typed: resp.ManagedCluster}
	if resp.ETag != nil {
		cl.ETag = *resp.ETag
	}
	if ex.got == nil {
		return nil, fmt.Errorf("reading AKS cluster %s: the response body was not captured", c.id.Name)
	}
	if err := json.Unmarshal(ex.got, &cl.document); err != nil {
		return nil, fmt.Errorf("reading AKS cluster %s: %w", c.id.Name, err)
	}
	if props, ok := cl.document["properties"].(map[string]any); ok {
		if np, ok := props["nodeProvisioningProfile"].(map[string]any); ok {
			cl.NodeProvisioning.Mode, _ = np["mode"].(string)
			cl.NodeProvisioning.DefaultNodePools, _ = np["defaultNodePools"].(string)
		}
	}
	return cl, nil
}

// NotFound says that err is Azure's answer for a resource that does not exist.
func NotFound(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound
}

// Progress receives one line per poll of a long-running operation.
type Progress func(msg string)

// SetResult is the outcome of SetNodeProvisioning.
type SetResult struct {
	Cluster *Cluster
	// Wrote says that a write was needed (false when the cluster already had the profile).
	Wrote bool
	// Attempts counts the writes sent, including those refused for a stale ETag.
	Attempts int
}

// SetNodeProvisioning makes the cluster's node provisioning profile what want says, as a
// read-modify-write: read the cluster, change only nodeProvisioningProfile in the document the
// service returned, and write it back with If-Match on the ETag that was read. A concurrent
// writer makes AKS answer 412 Precondition Failed; the read-modify-write then starts over from
// a fresh read instead of overwriting that change. A cluster that already has the profile is
// not written at all. check runs on every fresh read before a write and can veto it.
func (c *ClusterClient) SetNodeProvisioning(ctx context.Context, want NodeProvisioning, check func(*Cluster) error, progress Progress) (SetResult, error) {
	var res SetResult
	for {
		cl, err := c.GetSettled(ctx, progress)
		if err != nil {
			return res, err
		}
		res.Cluster = cl
		if cl.NodeProvisioning.Satisfies(want) {
			return res, nil
		}
		if check != nil {
			if err := check(cl); err != nil {
				return res, err
			}
		}
		res.Attempts++
		res.Wrote = true
		err = c.write(ctx, cl, want, progress)
		var re *azcore.ResponseError
		if errors.As(err, &re) && re.StatusCode == http.StatusPreconditionFailed && res.Attempts <= c.MaxPreconditionRetries {
			if progress != nil {
				progress(fmt.Sprintf("AKS cluster %s changed since it was read (ETag %s is stale); reading it again", c.id.Name, cl.ETag))
			}
			continue
		}
		if err != nil {
			return res, err
		}
		// Read again: the state that counts is what AKS reports now, with the new ETag.
		after, err := c.Get(ctx)
		if err != nil {
			return res, err
		}
		res.Cluster = after
		return res, nil
	}
}

// GetSettled reads the cluster once no operation is running on it: an update that an earlier
// apply stopped waiting for (after its timeout) goes on in Azure, and AKS refuses a new write
// until it ends. Waiting resumes that apply: if the running update was the mode switch, the
// cluster then already has the mode and nothing is written again.
func (c *ClusterClient) GetSettled(ctx context.Context, progress Progress) (*Cluster, error) {
	start := time.Now()
	for {
		cl, err := c.Get(ctx)
		if err != nil && ctx.Err() != nil {
			// A read that the deadline cut short is the wait timing out, as a poll would be.
			return nil, &TimeoutError{Cluster: c.id.Name, Elapsed: time.Since(start).Round(time.Second), Err: ctx.Err()}
		}
		if err != nil {
			return nil, err
		}
		state := cl.ProvisioningState()
		if !operationRunning(state) {
			return cl, nil
		}
		if progress != nil {
			progress(fmt.Sprintf("AKS cluster %s is %s: waiting for the running operation to finish (%s elapsed)", c.id.Name, state, time.Since(start).Round(time.Second)))
		}
		t := time.NewTimer(c.PollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &TimeoutError{Cluster: c.id.Name, Elapsed: time.Since(start).Round(time.Second), Err: ctx.Err()}
		case <-t.C:
		}
	}
}

// ProvisioningState is the cluster's properties.provisioningState ("" when absent).
func (cl *Cluster) ProvisioningState() string {
	if p := cl.Typed.Properties; p != nil && p.ProvisioningState != nil {
		return *p.ProvisioningState
	}
	return ""
}

// operationRunning says whether a provisioning state is that of an operation in progress;
// the terminal ones are Succeeded, Failed and Canceled (a failed cluster can be written again).
func operationRunning(state string) bool {
	switch strings.ToLower(state) {
	case "", "succeeded", "failed", "canceled", "cancelled":
		return false
	}
	return true
}

func (c *ClusterClient) write(ctx context.Context, cl *Cluster, want NodeProvisioning, progress Progress) error {
	doc, err := withNodeProvisioning(cl.document, want)
	if err != nil {
		return err
	}
	ex := &exchange{put: doc}
	ctx = withExchange(ctx, ex)
	var opts *armcontainerservice.ManagedClustersClientBeginCreateOrUpdateOptions
	if cl.ETag != "" {
		opts = &armcontainerservice.ManagedClustersClientBeginCreateOrUpdateOptions{IfMatch: &cl.ETag}
	}
	if progress != nil {
		progress(fmt.Sprintf("setting node provisioning mode %s (default node pools %s) on AKS cluster %s", want.EffectiveMode(), want.EffectiveDefaultNodePools(), c.id.Name))
	}
	poller, err := c.client.BeginCreateOrUpdate(ctx, c.id.ResourceGroup, c.id.Name, cl.Typed, opts)
	if err != nil {
		return fmt.Errorf("updating AKS cluster %s: %w", c.id.Name, err)
	}
	start := time.Now()
	for !poller.Done() {
		resp, err := poller.Poll(ctx)
		if err != nil {
			return c.lroError(ctx, start, err)
		}
		if poller.Done() {
			break
		}
		if progress != nil {
			progress(fmt.Sprintf("AKS cluster %s: update in progress (%s elapsed)", c.id.Name, time.Since(start).Round(time.Second)))
		}
		wait := c.PollInterval
		if d := retryAfter(resp); d > 0 {
			wait = d
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return c.lroError(ctx, start, ctx.Err())
		case <-t.C:
		}
	}
	if _, err := poller.Result(ctx); err != nil {
		return c.lroError(ctx, start, err)
	}
	if progress != nil {
		progress(fmt.Sprintf("AKS cluster %s: update finished after %s", c.id.Name, time.Since(start).Round(time.Second)))
	}
	return nil
}

// lroError explains a long-running operation that failed or outlived the context. After a
// timeout the operation goes on in Azure, which the user must know before retrying.
func (c *ClusterClient) lroError(ctx context.Context, start time.Time, err error) error {
	if ctx.Err() != nil {
		return &TimeoutError{Cluster: c.id.Name, Elapsed: time.Since(start).Round(time.Second), Err: ctx.Err()}
	}
	return fmt.Errorf("the update of AKS cluster %s failed: %w", c.id.Name, err)
}

// TimeoutError says that the wait for an AKS operation ended before the operation did.
type TimeoutError struct {
	Cluster string
	Elapsed time.Duration
	Err     error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("stopped waiting for the update of AKS cluster %s after %s (%v); the operation may still be running in Azure", e.Cluster, e.Elapsed, e.Err)
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// retryAfter reads the polling delay Azure asks for, bounded so that a bogus header can
// neither spin nor stall the wait.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	s, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || s <= 0 {
		return 0
	}
	return min(time.Duration(s)*time.Second, time.Minute)
}

// withNodeProvisioning returns the JSON of doc with properties.nodeProvisioningProfile set to
// want. defaultNodePools is only written for Auto: it has no effect otherwise, and leaving
// the stored value alone avoids an unasked-for change.
func withNodeProvisioning(doc map[string]any, want NodeProvisioning) ([]byte, error) {
	if doc == nil {
		return nil, errors.New("no cluster document to modify")
	}
	// Work on a copy: the document belongs to the Cluster, which a retry reads afresh anyway,
	// but a caller may still look at it.
	var cp map[string]any
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, err
	}
	props, _ := cp["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		cp["properties"] = props
	}
	np, _ := props["nodeProvisioningProfile"].(map[string]any)
	if np == nil {
		np = map[string]any{}
		props["nodeProvisioningProfile"] = np
	}
	np["mode"] = want.EffectiveMode()
	if strings.EqualFold(want.EffectiveMode(), ModeAuto) {
		np["defaultNodePools"] = want.EffectiveDefaultNodePools()
	}
	return json.Marshal(cp)
}

// exchange carries, through the request context, the document to send instead of the SDK's
// serialization and the body of the response, which the SDK's model would truncate.
type exchange struct {
	put []byte
	got []byte
}

type exchangeKey struct{}

func withExchange(ctx context.Context, ex *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, ex)
}

// documentPolicy lets the v6 SDK client carry what its model predates. For a GET or PUT of
// the cluster itself, from a call that carries an exchange, it raises api-version to
// NodeProvisioningAPIVersion, sends the exchange's document as the PUT body, and keeps the
// raw GET body. Everything else (authentication, retries, long-running operation polling,
// error decoding, the SDK's fake servers in tests) stays the SDK's own.
type documentPolicy struct {
	path string
}

func (p *documentPolicy) Do(req *policy.Request) (*http.Response, error) {
	raw := req.Raw()
	ex, _ := raw.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil || strings.ToLower(strings.TrimSuffix(raw.URL.Path, "/")) != p.path || (raw.Method != http.MethodGet && raw.Method != http.MethodPut) {
		return req.Next()
	}
	q := raw.URL.Query()
	q.Set("api-version", NodeProvisioningAPIVersion)
	raw.URL.RawQuery = q.Encode()
	if raw.Method == http.MethodPut {
		if ex.put == nil {
			// Sending the SDK's serialization would silently drop the node provisioning
			// profile and every property newer than the SDK.
			return nil, errors.New("internal error: a cluster write without the document to send")
		}
		if err := req.SetBody(streaming.NopCloser(bytes.NewReader(ex.put)), "application/json"); err != nil {
			return nil, err
		}
	}
	resp, err := req.Next()
	if err != nil || raw.Method != http.MethodGet || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	// Payload buffers the body, so the SDK can still decode it afterwards.
	body, err := runtime.Payload(resp)
	if err != nil {
		return nil, err
	}
	ex.got = body
	return resp, nil
}
