package armfake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	authfake "github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	csfake "github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6/fake"
)

// NAP is the cluster's node provisioning profile; empty fields are not returned at all, as
// AKS does for a cluster that never had one.
type NAP struct {
	Mode             string `json:"mode,omitempty"`
	DefaultNodePools string `json:"defaultNodePools,omitempty"`
}

// Request is one request that reached the transport (including the retried attempts).
type Request struct {
	API        string // e.g. ManagedClustersClient.Get
	Method     string
	Path       string
	APIVersion string
	IfMatch    string
	// Fault says the attempt was answered by a Fault, not by the SDK fake.
	Fault int
}

// Fault answers the next Times requests to API with Status (and Retry-After when set).
type Fault struct {
	API        string
	Status     int
	RetryAfter string
	Times      int
}

// LRO shapes the long-running cluster update: InProgress polls before the end, and FailCode,
// when set, makes it end in failure with that error code.
type LRO struct {
	InProgress int
	FailCode   string
}

// Running is an operation already running on the cluster when the test starts (one an
// earlier apply stopped waiting for): the next Reads reads report provisioningState
// Updating, then Then is applied and the cluster is Succeeded.
type Running struct {
	Reads int
	Then  func(c *armcontainerservice.ManagedCluster, nap *NAP)
}

// OperationRunning says whether the Running operation has not ended yet.
func (w *World) OperationRunning() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.Running != nil
}

// World is the fake Azure.
type World struct {
	mu sync.Mutex

	// Running, when set, is an operation in progress on the cluster.
	Running *Running

	SubscriptionID, ResourceGroup, Name string

	cluster *armcontainerservice.ManagedCluster
	nap     NAP
	etag    int
	// Extra are properties the cluster has but armcontainerservice/v6 does not model. They
	// are served in every GET, and a write that loses them drops them from the cluster.
	Extra map[string]any

	assignments map[string]*armauthorization.RoleAssignment

	LRO LRO
	// BeforeWrite runs, under no lock, at the start of every cluster PUT (n counts from 1);
	// tests change the cluster there to play a concurrent writer.
	BeforeWrite func(n int)
	// FailCreateAssignment, when set, refuses creating assignments at scopes it returns true for.
	FailCreateAssignment func(scope string) bool
	// UserKubeconfig answers ListClusterUserCredentials.
	UserKubeconfig []byte

	faults   []*Fault
	requests []Request
	putBody  [][]byte
	writes   int

	cs   csfake.ManagedClustersServer
	auth authfake.RoleAssignmentsServer
}

// ClusterID is the managed cluster's resource ID.
func (w *World) ClusterID() string {
	return fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.ContainerService/managedClusters/%s", w.SubscriptionID, w.ResourceGroup, w.Name)
}

// New returns a world holding cluster, whose node provisioning profile is nap.
func New(sub, rg, name string, cluster armcontainerservice.ManagedCluster, nap NAP) *World {
	w := &World{SubscriptionID: sub, ResourceGroup: rg, Name: name, nap: nap, etag: 1, assignments: map[string]*armauthorization.RoleAssignment{}}
	w.setCluster(cluster)
	w.wire()
	return w
}

// Compliant is a cluster that meets every NAP prerequisite: Azure CNI Overlay with Cilium, a
// system-assigned identity, no autoscaler, a custom subnet with the Standard load balancer.
func Compliant(subnetID, principalID string) armcontainerservice.ManagedCluster {
	return armcontainerservice.ManagedCluster{
		Location: to.Ptr("westeurope"),
		Identity: &armcontainerservice.ManagedClusterIdentity{
			Type:        to.Ptr(armcontainerservice.ResourceIdentityTypeSystemAssigned),
			PrincipalID: to.Ptr(principalID),
			TenantID:    to.Ptr("72f988bf-86f1-41af-91ab-2d7cd011db47"),
		},
		Properties: &armcontainerservice.ManagedClusterProperties{
			KubernetesVersion:        to.Ptr("1.33"),
			CurrentKubernetesVersion: to.Ptr("1.33.2"),
			DNSPrefix:                to.Ptr("aks"),
			ProvisioningState:        to.Ptr("Succeeded"),
			PowerState:               &armcontainerservice.PowerState{Code: to.Ptr(armcontainerservice.CodeRunning)},
			ServicePrincipalProfile:  &armcontainerservice.ManagedClusterServicePrincipalProfile{ClientID: to.Ptr("msi")},
			NetworkProfile: &armcontainerservice.NetworkProfile{
				NetworkPlugin:     to.Ptr(armcontainerservice.NetworkPluginAzure),
				NetworkPluginMode: to.Ptr(armcontainerservice.NetworkPluginModeOverlay),
				NetworkDataplane:  to.Ptr(armcontainerservice.NetworkDataplaneCilium),
				NetworkPolicy:     to.Ptr(armcontainerservice.NetworkPolicyCilium),
				LoadBalancerSKU:   to.Ptr(armcontainerservice.LoadBalancerSKUStandard),
				IPFamilies:        []*armcontainerservice.IPFamily{to.Ptr(armcontainerservice.IPFamilyIPv4)},
			},
			AgentPoolProfiles: []*armcontainerservice.ManagedClusterAgentPoolProfile{{
				Name:              to.Ptr("system"),
				Mode:              to.Ptr(armcontainerservice.AgentPoolModeSystem),
				Count:             to.Ptr[int32](3),
				VMSize:            to.Ptr("Standard_D4ds_v5"),
				OSType:            to.Ptr(armcontainerservice.OSTypeLinux),
				EnableAutoScaling: to.Ptr(false),
				VnetSubnetID:      to.Ptr(subnetID),
			}},
		},
	}
}

func (w *World) setCluster(c armcontainerservice.ManagedCluster) {
	c.ID = to.Ptr(w.ClusterID())
	c.Name = to.Ptr(w.Name)
	c.Type = to.Ptr("Microsoft.ContainerService/ManagedClusters")
	w.cluster = &c
}

// ETag is the cluster's current ETag.
func (w *World) ETag() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.etagLocked()
}

func (w *World) etagLocked() string { return fmt.Sprintf("\"etag-%d\"", w.etag) }

// Modify changes the cluster as a writer outside Terraform would: a new ETag follows.
func (w *World) Modify(fn func(c *armcontainerservice.ManagedCluster, nap *NAP)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fn(w.cluster, &w.nap)
	w.etag++
}

// Cluster returns a copy of the cluster and its profile.
func (w *World) Cluster() (armcontainerservice.ManagedCluster, NAP) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.copyLocked(), w.nap
}

// copyLocked deep-copies the cluster, so that a response encoded after the lock is released
// cannot see a later change.
func (w *World) copyLocked() armcontainerservice.ManagedCluster {
	var c armcontainerservice.ManagedCluster
	if w.cluster == nil {
		return c
	}
	b, _ := json.Marshal(w.cluster) // the SDK model always marshals
	_ = json.Unmarshal(b, &c)
	return c
}

// AddFault queues a retriable failure.
func (w *World) AddFault(f Fault) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.faults = append(w.faults, &f)
}

// Requests returns what reached the transport so far.
func (w *World) Requests() []Request {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Request(nil), w.requests...)
}

// Count counts the requests to api with method (any method when "").
func (w *World) Count(api, method string) int {
	n := 0
	for _, r := range w.Requests() {
		if r.API == api && (method == "" || r.Method == method) {
			n++
		}
	}
	return n
}

// Writes counts the cluster PUTs the SDK fake accepted or refused (not those a Fault answered).
func (w *World) Writes() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes
}

// PutBodies returns the raw bodies of the cluster PUTs, as sent.
func (w *World) PutBodies() [][]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([][]byte(nil), w.putBody...)
}

// AddAssignment records an existing role assignment, as made outside this provider.
func (w *World) AddAssignment(scope, name, principalID, roleDefinitionID string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return *w.putAssignmentLocked(scope, name, principalID, roleDefinitionID).ID
}

// Assignments returns the role assignments now in the world.
func (w *World) Assignments() []armauthorization.RoleAssignment {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []armauthorization.RoleAssignment
	for _, a := range w.assignments {
		out = append(out, *a)
	}
	return out
}

// DeleteAssignment removes an assignment, as done outside this provider.
func (w *World) DeleteAssignment(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := strings.ToLower(id)
	_, ok := w.assignments[k]
	delete(w.assignments, k)
	return ok
}

func normScope(scope string) string { return "/" + strings.Trim(scope, "/") }

func (w *World) putAssignmentLocked(scope, name, principalID, roleDefinitionID string) *armauthorization.RoleAssignment {
	scope = normScope(scope)
	id := scope + "/providers/Microsoft.Authorization/roleAssignments/" + name
	ra := &armauthorization.RoleAssignment{
		ID:   to.Ptr(id),
		Name: to.Ptr(name),
		Type: to.Ptr("Microsoft.Authorization/roleAssignments"),
		Properties: &armauthorization.RoleAssignmentProperties{
			PrincipalID:      to.Ptr(principalID),
			RoleDefinitionID: to.Ptr(roleDefinitionID),
			Scope:            to.Ptr(scope),
			PrincipalType:    to.Ptr(armauthorization.PrincipalTypeServicePrincipal),
		},
	}
	w.assignments[strings.ToLower(id)] = ra
	return ra
}

// ClientOptions route the ARM clients to this world. Retry options are left to the code under
// test, so that its own retry configuration is what a test exercises.
func (w *World) ClientOptions() arm.ClientOptions {
	return arm.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: &transport{w: w,
		cs: csfake.NewManagedClustersServerTransport(&w.cs), auth: authfake.NewRoleAssignmentsServerTransport(&w.auth)}}}
}

// Credential is the SDK's fake credential.
func Credential() azcore.TokenCredential { return &azfake.TokenCredential{} }

type sentKey struct{}

// sent is what a cluster PUT carried beyond the v6 model.
type sent struct {
	nap   *NAP
	extra map[string]any
}

type transport struct {
	w    *World
	cs   *csfake.ManagedClustersServerTransport
	auth *authfake.RoleAssignmentsServerTransport
}

func (t *transport) Do(req *http.Request) (*http.Response, error) {
	api, _ := req.Context().Value(runtime.CtxAPINameKey{}).(string)
	rec := Request{API: api, Method: req.Method, Path: req.URL.Path, APIVersion: req.URL.Query().Get("api-version"), IfMatch: req.Header.Get("If-Match")}
	t.w.mu.Lock()
	var fault *Fault
	for _, f := range t.w.faults {
		if f.API == api && f.Times > 0 {
			f.Times--
			fault = f
			break
		}
	}
	if fault != nil {
		rec.Fault = fault.Status
	}
	t.w.requests = append(t.w.requests, rec)
	t.w.mu.Unlock()
	if fault != nil {
		return faultResponse(req, fault), nil
	}
	switch {
	case strings.HasPrefix(api, "ManagedClustersClient."):
		return t.cluster(req, api)
	case strings.HasPrefix(api, "RoleAssignmentsClient."):
		return shielded(req, t.auth.Do)
	}
	return nil, fmt.Errorf("armfake: no fake for API %q (%s %s)", api, req.Method, req.URL.Path)
}

// shielded calls an SDK fake with a request whose context is never cancelled and gives up on
// the caller's cancellation itself. The fakes' dispatch (dispatchToMethodFake in the generated
// fake/*_server.go, armcontainerservice v6.6.0 and armauthorization v2) closes its result
// channel when the context ends while its worker may still choose the send case of a select:
// a "send on closed channel" panic that took down test binaries whose requests time out.
func shielded(req *http.Request, do func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	type result struct {
		resp *http.Response
		err  error
	}
	ctx := req.Context()
	done := make(chan result, 1) // the worker never blocks, also after the caller gave up
	go func() {
		resp, err := do(req.WithContext(context.WithoutCancel(ctx)))
		done <- result{resp, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-done:
		return r.resp, r.err
	}
}

func faultResponse(req *http.Request, f *Fault) *http.Response {
	code := map[int]string{http.StatusTooManyRequests: "TooManyRequests"}[f.Status]
	if code == "" {
		code = "InternalServerError"
	}
	body := fmt.Sprintf(`{"error":{"code":%q,"message":"armfake: injected %d"}}`, code, f.Status)
	h := http.Header{"Content-Type": []string{"application/json"}}
	if f.RetryAfter != "" {
		h.Set("Retry-After", f.RetryAfter)
	}
	return &http.Response{
		StatusCode: f.Status, Status: strconv.Itoa(f.Status) + " " + http.StatusText(f.Status),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}
}

// cluster passes a managed cluster request to the SDK fake, carrying the properties the v6
// model cannot hold across it.
func (t *transport) cluster(req *http.Request, api string) (*http.Response, error) {
	if api == "ManagedClustersClient.BeginCreateOrUpdate" && req.Method == http.MethodPut && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		var doc struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			return nil, err
		}
		var sent sent
		if raw, ok := doc.Properties["nodeProvisioningProfile"]; ok {
			var n NAP
			if err := json.Unmarshal(raw, &n); err != nil {
				return nil, err
			}
			sent.nap = &n
		}
		sent.extra = map[string]any{}
		for k := range t.w.Extra {
			if raw, ok := doc.Properties[k]; ok {
				var v any
				_ = json.Unmarshal(raw, &v)
				sent.extra[k] = v
			}
		}
		t.w.mu.Lock()
		t.w.putBody = append(t.w.putBody, body)
		t.w.mu.Unlock()
		req = req.Clone(context.WithValue(req.Context(), sentKey{}, &sent))
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	resp, err := shielded(req, t.cs.Do)
	if err != nil || api != "ManagedClustersClient.Get" || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	_ = resp.Body.Close()
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, err
	}
	props, _ := doc["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		doc["properties"] = props
	}
	t.w.mu.Lock()
	if t.w.nap != (NAP{}) {
		props["nodeProvisioningProfile"] = t.w.nap
	}
	for k, v := range t.w.Extra {
		props[k] = v
	}
	t.w.mu.Unlock()
	body, err = json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// wire implements the SDK fakes' methods against the world's state.
func (w *World) wire() {
	w.cs.Get = func(_ context.Context, rg, name string, _ *armcontainerservice.ManagedClustersClientGetOptions) (resp azfake.Responder[armcontainerservice.ManagedClustersClientGetResponse], errResp azfake.ErrorResponder) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.isCluster(rg, name) {
			errResp.SetResponseError(http.StatusNotFound, "ResourceNotFound")
			return
		}
		if r := w.Running; r != nil && w.cluster.Properties != nil {
			if r.Reads > 0 {
				r.Reads--
				w.cluster.Properties.ProvisioningState = to.Ptr("Updating")
			} else {
				if r.Then != nil {
					r.Then(w.cluster, &w.nap)
				}
				w.cluster.Properties.ProvisioningState = to.Ptr("Succeeded")
				w.Running = nil
				w.etag++
			}
		}
		c := w.copyLocked()
		c.ETag = to.Ptr(w.etagLocked())
		resp.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientGetResponse{ManagedCluster: c}, nil)
		return
	}
	w.cs.BeginCreateOrUpdate = func(ctx context.Context, rg, name string, params armcontainerservice.ManagedCluster, opts *armcontainerservice.ManagedClustersClientBeginCreateOrUpdateOptions) (resp azfake.PollerResponder[armcontainerservice.ManagedClustersClientCreateOrUpdateResponse], errResp azfake.ErrorResponder) {
		w.mu.Lock()
		w.writes++
		n, hook := w.writes, w.BeforeWrite
		w.mu.Unlock()
		if hook != nil {
			hook(n)
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.isCluster(rg, name) || w.cluster == nil {
			errResp.SetResponseError(http.StatusNotFound, "ResourceNotFound")
			return
		}
		if opts != nil && opts.IfMatch != nil && *opts.IfMatch != w.etagLocked() {
			errResp.SetResponseError(http.StatusPreconditionFailed, "PreconditionFailed")
			return
		}
		if w.Running != nil {
			errResp.SetResponseError(http.StatusConflict, "OperationNotAllowed")
			return
		}
		for i := 0; i < w.LRO.InProgress; i++ {
			resp.AddNonTerminalResponse(http.StatusOK, nil)
		}
		if w.LRO.FailCode != "" {
			if w.cluster.Properties != nil {
				w.cluster.Properties.ProvisioningState = to.Ptr("Failed")
			}
			w.etag++
			resp.SetTerminalError(http.StatusConflict, w.LRO.FailCode)
			return
		}
		sent, _ := ctx.Value(sentKey{}).(*sent)
		w.setCluster(params)
		if w.cluster.Properties != nil {
			w.cluster.Properties.ProvisioningState = to.Ptr("Succeeded")
		}
		if sent != nil && sent.nap != nil {
			w.nap = *sent.nap
		}
		// Properties the write did not carry are gone, as after a PUT that omitted them.
		for k := range w.Extra {
			if sent == nil || sent.extra[k] == nil {
				delete(w.Extra, k)
			}
		}
		w.etag++
		c := w.copyLocked()
		c.ETag = to.Ptr(w.etagLocked())
		resp.SetTerminalResponse(http.StatusOK, armcontainerservice.ManagedClustersClientCreateOrUpdateResponse{ManagedCluster: c}, nil)
		return
	}
	w.cs.ListClusterUserCredentials = func(_ context.Context, rg, name string, _ *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (resp azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], errResp azfake.ErrorResponder) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.isCluster(rg, name) || w.UserKubeconfig == nil {
			errResp.SetResponseError(http.StatusNotFound, "ResourceNotFound")
			return
		}
		resp.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse{CredentialResults: armcontainerservice.CredentialResults{
			Kubeconfigs: []*armcontainerservice.CredentialResult{{Name: to.Ptr("clusterUser"), Value: w.UserKubeconfig}},
		}}, nil)
		return
	}

	w.auth.Create = func(_ context.Context, scope, name string, params armauthorization.RoleAssignmentCreateParameters, _ *armauthorization.RoleAssignmentsClientCreateOptions) (resp azfake.Responder[armauthorization.RoleAssignmentsClientCreateResponse], errResp azfake.ErrorResponder) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.FailCreateAssignment != nil && w.FailCreateAssignment(normScope(scope)) {
			errResp.SetResponseError(http.StatusForbidden, "AuthorizationFailed")
			return
		}
		p := params.Properties
		if p == nil || p.PrincipalID == nil || p.RoleDefinitionID == nil {
			errResp.SetResponseError(http.StatusBadRequest, "InvalidRoleAssignmentRequest")
			return
		}
		// Azure refuses a second assignment of the same role to the same principal at the
		// same scope under another name.
		for _, a := range w.assignments {
			ap := a.Properties
			if strings.EqualFold(*ap.Scope, normScope(scope)) && strings.EqualFold(*ap.PrincipalID, *p.PrincipalID) &&
				strings.EqualFold(*ap.RoleDefinitionID, *p.RoleDefinitionID) && !strings.EqualFold(*a.Name, name) {
				errResp.SetResponseError(http.StatusConflict, "RoleAssignmentExists")
				return
			}
		}
		a := w.putAssignmentLocked(scope, name, *p.PrincipalID, *p.RoleDefinitionID)
		resp.SetResponse(http.StatusCreated, armauthorization.RoleAssignmentsClientCreateResponse{RoleAssignment: *a}, nil)
		return
	}
	w.auth.Get = func(_ context.Context, scope, name string, _ *armauthorization.RoleAssignmentsClientGetOptions) (resp azfake.Responder[armauthorization.RoleAssignmentsClientGetResponse], errResp azfake.ErrorResponder) {
		w.mu.Lock()
		defer w.mu.Unlock()
		a, ok := w.assignments[strings.ToLower(normScope(scope)+"/providers/Microsoft.Authorization/roleAssignments/"+name)]
		if !ok {
			errResp.SetResponseError(http.StatusNotFound, "RoleAssignmentNotFound")
			return
		}
		resp.SetResponse(http.StatusOK, armauthorization.RoleAssignmentsClientGetResponse{RoleAssignment: *a}, nil)
		return
	}
	w.auth.Delete = func(_ context.Context, scope, name string, _ *armauthorization.RoleAssignmentsClientDeleteOptions) (resp azfake.Responder[armauthorization.RoleAssignmentsClientDeleteResponse], errResp azfake.ErrorResponder) {
		w.mu.Lock()
		defer w.mu.Unlock()
		k := strings.ToLower(normScope(scope) + "/providers/Microsoft.Authorization/roleAssignments/" + name)
		a, ok := w.assignments[k]
		if !ok {
			// Azure answers 204 for an assignment that does not exist.
			resp.SetResponse(http.StatusNoContent, armauthorization.RoleAssignmentsClientDeleteResponse{}, nil)
			return
		}
		delete(w.assignments, k)
		resp.SetResponse(http.StatusOK, armauthorization.RoleAssignmentsClientDeleteResponse{RoleAssignment: *a}, nil)
		return
	}
	w.auth.NewListForScopePager = func(scope string, opts *armauthorization.RoleAssignmentsClientListForScopeOptions) (resp azfake.PagerResponder[armauthorization.RoleAssignmentsClientListForScopeResponse]) {
		w.mu.Lock()
		defer w.mu.Unlock()
		principal := ""
		if opts != nil && opts.Filter != nil {
			f := *opts.Filter
			if strings.HasPrefix(f, "principalId eq '") && strings.HasSuffix(f, "'") {
				principal = strings.TrimSuffix(strings.TrimPrefix(f, "principalId eq '"), "'")
			}
		}
		s := strings.ToLower(normScope(scope))
		var page armauthorization.RoleAssignmentsClientListForScopeResponse
		for _, a := range w.assignments {
			as := strings.ToLower(*a.Properties.Scope)
			// At, above or below the scope, as Azure lists them.
			related := as == s || strings.HasPrefix(s, as+"/") || strings.HasPrefix(as, s+"/")
			if related && (principal == "" || strings.EqualFold(*a.Properties.PrincipalID, principal)) {
				cp := *a
				page.Value = append(page.Value, &cp)
			}
		}
		resp.AddPage(http.StatusOK, page, nil)
		return
	}
}

func (w *World) isCluster(rg, name string) bool {
	return strings.EqualFold(rg, w.ResourceGroup) && strings.EqualFold(name, w.Name) && w.cluster != nil
}

// RemoveCluster deletes the cluster, as done outside Terraform.
func (w *World) RemoveCluster() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cluster = nil
}
