package azure_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
)

// tokenSequence issues tok-1, tok-2, ... with the lifetimes a test sets, because the SDK's
// fake credential always returns the same day-long token and so cannot show a refresh.
type tokenSequence struct {
	mu sync.Mutex
	n  int
	// issue returns the expiry and suggested refresh time of the n-th token (from 1).
	issue func(n int) (expiresOn, refreshOn time.Time)
	err   error
}

func (s *tokenSequence) GetToken(_ context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return azcore.AccessToken{}, s.err
	}
	if len(o.Scopes) != 1 || o.Scopes[0] != azure.AKSServerAppID+"/.default" {
		return azcore.AccessToken{}, fmt.Errorf("unexpected scopes %v", o.Scopes)
	}
	s.n++
	exp, ref := s.issue(s.n)
	return azcore.AccessToken{Token: fmt.Sprintf("tok-%d", s.n), ExpiresOn: exp, RefreshOn: ref}, nil
}

func (s *tokenSequence) issued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// bearerClient returns an HTTP client that authenticates to api with cred through BearerTransport.
func bearerClient(api *apiServer, cred azcore.TokenCredential) *http.Client {
	base := api.Client().Transport
	return &http.Client{Transport: azure.BearerTransport(cred, azure.TokenScope(azure.AKSServerAppID))(base)}
}

func send(t *testing.T, c *http.Client, url string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
}

func TestBearerTransportReusesValidToken(t *testing.T) {
	api := newAPIServer(t, nil)
	cred := &tokenSequence{issue: func(int) (time.Time, time.Time) { return time.Now().Add(time.Hour), time.Time{} }}
	c := bearerClient(api, cred)
	for range 3 {
		send(t, c, api.URL)
	}
	if got := api.headers(); strings.Join(got, ",") != "Bearer tok-1,Bearer tok-1,Bearer tok-1" {
		t.Errorf("Authorization headers = %q", got)
	}
	if cred.issued() != 1 {
		t.Errorf("%d tokens fetched for three requests within the token's lifetime, want 1", cred.issued())
	}
}

// A token within five minutes of expiry is replaced before it is sent, so a long apply does
// not fail half-way with 401s.
func TestBearerTransportRefreshesExpiringToken(t *testing.T) {
	api := newAPIServer(t, nil)
	cred := &tokenSequence{issue: func(n int) (time.Time, time.Time) {
		if n == 1 {
			return time.Now().Add(2 * time.Minute), time.Time{}
		}
		return time.Now().Add(time.Hour), time.Time{}
	}}
	c := bearerClient(api, cred)
	for range 3 {
		send(t, c, api.URL)
	}
	if got := api.headers(); strings.Join(got, ",") != "Bearer tok-1,Bearer tok-2,Bearer tok-2" {
		t.Errorf("Authorization headers = %q, want tok-1 replaced once and the fresh token reused", got)
	}
}

// Entra ID's suggested refresh time is honoured even while the token is far from expiry.
func TestBearerTransportHonoursRefreshOn(t *testing.T) {
	api := newAPIServer(t, nil)
	refreshAt := time.Now().Add(200 * time.Millisecond)
	cred := &tokenSequence{issue: func(n int) (time.Time, time.Time) {
		if n == 1 {
			return time.Now().Add(time.Hour), refreshAt
		}
		return time.Now().Add(time.Hour), time.Time{}
	}}
	c := bearerClient(api, cred)
	send(t, c, api.URL)
	send(t, c, api.URL)
	time.Sleep(time.Until(refreshAt) + 10*time.Millisecond)
	send(t, c, api.URL)
	if got := api.headers(); strings.Join(got, ",") != "Bearer tok-1,Bearer tok-1,Bearer tok-2" {
		t.Errorf("Authorization headers = %q, want tok-1 until its refresh time, then tok-2", got)
	}
}

func TestBearerTransportCredentialError(t *testing.T) {
	api := newAPIServer(t, nil)
	cred := &tokenSequence{err: errors.New("AADSTS50173: the provided grant has expired")}
	_, err := bearerClient(api, cred).Get(api.URL)
	if err == nil || !strings.Contains(err.Error(), "getting an Entra ID token for the AKS API server") || !strings.Contains(err.Error(), "AADSTS50173") {
		t.Fatalf("error = %v, want the credential's error explained", err)
	}
	if n := len(api.headers()); n != 0 {
		t.Errorf("%d unauthenticated requests reached the API server", n)
	}
}

// The caller's request is left as it was (http.RoundTripper contract): client-go reuses
// requests on retries and must not see a stale token in them.
func TestBearerTransportDoesNotModifyRequest(t *testing.T) {
	api := newAPIServer(t, nil)
	cred := &tokenSequence{issue: func(int) (time.Time, time.Time) { return time.Now().Add(time.Hour), time.Time{} }}
	rt := azure.BearerTransport(cred, azure.TokenScope(azure.AKSServerAppID))(api.Client().Transport)
	req, _ := http.NewRequest(http.MethodGet, api.URL, nil)
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if h := req.Header.Get("Authorization"); h != "" {
		t.Errorf("caller's request now has Authorization %q", h)
	}
	if got := api.headers(); len(got) != 1 || got[0] != "Bearer tok-1" {
		t.Errorf("API server saw %q", got)
	}
}

// Terraform applies resources in parallel over one client: concurrent requests share one
// token fetch (run with -race).
func TestBearerTransportConcurrentRequestsShareToken(t *testing.T) {
	api := newAPIServer(t, nil)
	cred := &tokenSequence{issue: func(int) (time.Time, time.Time) { return time.Now().Add(time.Hour), time.Time{} }}
	c := bearerClient(api, cred)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			resp, err := c.Get(api.URL)
			if err != nil {
				t.Error(err)
				return
			}
			_ = resp.Body.Close()
		})
	}
	wg.Wait()
	if cred.issued() != 1 {
		t.Errorf("%d tokens fetched for concurrent requests, want 1", cred.issued())
	}
	for _, h := range api.headers() {
		if h != "Bearer tok-1" {
			t.Errorf("API server saw %q", h)
		}
	}
}
