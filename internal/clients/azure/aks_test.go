package azure_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6/fake"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
)

const (
	subID       = "11111111-2222-3333-4444-555555555555"
	clusterRG   = "rg-aks"
	clusterName = "aks-prod"
	clusterID   = "/subscriptions/" + subID + "/resourceGroups/" + clusterRG + "/providers/Microsoft.ContainerService/managedClusters/" + clusterName
)

// armCalls records what reached the SDK's fake server, so a test can tell which credential
// list was asked for and for which cluster.
type armCalls struct {
	mu    sync.Mutex
	paths []string
}

func (a *armCalls) Do(req *policy.Request) (*http.Response, error) {
	a.mu.Lock()
	a.paths = append(a.paths, req.Raw().URL.Path)
	a.mu.Unlock()
	return req.Next()
}

func (a *armCalls) list() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.paths...)
}

// armOptions routes the ARM client to the SDK's fake server. Retries are off so that error
// cases answer at once instead of backing off.
func armOptions(srv *fake.ManagedClustersServer, calls *armCalls) *arm.ClientOptions {
	return &arm.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport:       fake.NewManagedClustersServerTransport(srv),
		Retry:           policy.RetryOptions{MaxRetries: -1},
		PerCallPolicies: []policy.Policy{calls},
	}}
}

func userCreds(kubeconfigs ...[]byte) azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse] {
	var r azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse]
	r.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse{
		CredentialResults: armcontainerservice.CredentialResults{Kubeconfigs: credentialResults("clusterUser", kubeconfigs)},
	}, nil)
	return r
}

func adminCreds(kubeconfigs ...[]byte) azfake.Responder[armcontainerservice.ManagedClustersClientListClusterAdminCredentialsResponse] {
	var r azfake.Responder[armcontainerservice.ManagedClustersClientListClusterAdminCredentialsResponse]
	r.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientListClusterAdminCredentialsResponse{
		CredentialResults: armcontainerservice.CredentialResults{Kubeconfigs: credentialResults("clusterAdmin", kubeconfigs)},
	}, nil)
	return r
}

func credentialResults(name string, kubeconfigs [][]byte) []*armcontainerservice.CredentialResult {
	out := make([]*armcontainerservice.CredentialResult, 0, len(kubeconfigs))
	for _, k := range kubeconfigs {
		out = append(out, &armcontainerservice.CredentialResult{Name: to.Ptr(name), Value: k})
	}
	return out
}

// kubeconfig builds a kubeconfig the way AKS returns it: one cluster, one context, one user.
func kubeconfig(t *testing.T, server string, ca []byte, user *clientcmdapi.AuthInfo) []byte {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[clusterName] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca}
	cfg.AuthInfos["clusterUser_"+clusterRG+"_"+clusterName] = user
	cfg.Contexts[clusterName] = &clientcmdapi.Context{Cluster: clusterName, AuthInfo: "clusterUser_" + clusterRG + "_" + clusterName}
	cfg.CurrentContext = clusterName
	b, err := clientcmd.Write(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// kubeloginUser is the user entry of an AKS-managed Entra ID cluster's user kubeconfig: an
// exec plugin that needs the kubelogin binary, which the provider must not run.
func kubeloginUser(serverID string) *clientcmdapi.AuthInfo {
	return &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{
		APIVersion: "client.authentication.k8s.io/v1beta1",
		Command:    "kubelogin",
		Args: []string{"get-token", "--environment", "AzurePublicCloud", "--server-id", serverID,
			"--client-id", "80faf920-1908-4b52-b5ef-a8e7bedfc67a", "--tenant-id", "72f988bf-86f1-41af-91ab-2d7cd011db47", "--login", "devicecode"},
		InteractiveMode: clientcmdapi.IfAvailableExecInteractiveMode,
	}}
}

// scopeRecorder is the SDK's fake credential, remembering which scopes were asked for.
type scopeRecorder struct {
	azfake.TokenCredential
	mu     sync.Mutex
	scopes [][]string
}

func (s *scopeRecorder) GetToken(ctx context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	s.mu.Lock()
	s.scopes = append(s.scopes, o.Scopes)
	s.mu.Unlock()
	return s.TokenCredential.GetToken(ctx, o)
}

func (s *scopeRecorder) asked(scope string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sc := range s.scopes {
		if len(sc) == 1 && sc[0] == scope {
			return true
		}
	}
	return false
}

// apiServer stands in for the cluster's API server: a TLS server that records the
// Authorization header and the client certificate of every request.
type apiServer struct {
	*httptest.Server
	caPEM []byte
	mu    sync.Mutex
	auth  []string
	certs []string
}

func newAPIServer(t *testing.T, clientCA *x509.Certificate) *apiServer {
	a := &apiServer{}
	a.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.auth = append(a.auth, r.Header.Get("Authorization"))
		if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
			a.certs = append(a.certs, r.TLS.PeerCertificates[0].Subject.CommonName)
		}
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"34","gitVersion":"v1.34.0"}`))
	}))
	if clientCA != nil {
		pool := x509.NewCertPool()
		pool.AddCert(clientCA)
		a.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	}
	a.StartTLS()
	t.Cleanup(a.Close)
	a.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: a.Certificate().Raw})
	return a
}

func (a *apiServer) headers() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.auth...)
}

// get sends one request with a client built from the connection, as the provider does.
func get(t *testing.T, cfg *rest.Config) {
	t.Helper()
	c, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(cfg.Host + "/version")
	if err != nil {
		t.Fatalf("request to the API server: %v", err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("API server answered %s", resp.Status)
	}
}

// clientCert makes a CA and a client certificate it signed, as AKS admin kubeconfigs carry.
func clientCert(t *testing.T, cn string) (ca *x509.Certificate, certPEM, keyPEM []byte) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ca"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ = x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: cn, Organization: []string{"system:masters"}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	return ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

func mustParse(t *testing.T, id string) azure.ClusterID {
	t.Helper()
	c, err := azure.ParseClusterID(id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// An Entra ID cluster's user kubeconfig names kubelogin; the provider replaces it with an
// in-process token for the AKS server application, so requests carry that bearer token.
func TestAKSConnectionUserCredentialsUseEntraToken(t *testing.T) {
	api := newAPIServer(t, nil)
	var got struct{ rg, name string }
	srv := &fake.ManagedClustersServer{
		ListClusterUserCredentials: func(_ context.Context, rg, name string, _ *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
			got.rg, got.name = rg, name
			return userCreds(kubeconfig(t, api.URL, api.caPEM, kubeloginUser(azure.AKSServerAppID))), azfake.ErrorResponder{}
		},
	}
	calls := &armCalls{}
	cred := &scopeRecorder{}
	conn, err := azure.AKSConnection(context.Background(), mustParse(t, clusterID), cred, armOptions(srv, calls), false)
	if err != nil {
		t.Fatal(err)
	}
	if got.rg != clusterRG || got.name != clusterName {
		t.Errorf("ARM asked for %s/%s, want %s/%s", got.rg, got.name, clusterRG, clusterName)
	}
	if p := calls.list(); len(p) != 1 || !strings.HasPrefix(p[0], "/subscriptions/"+subID+"/") || !strings.HasSuffix(p[0], "/listClusterUserCredential") {
		t.Errorf("ARM requests = %v, want one listClusterUserCredential in subscription %s", p, subID)
	}
	if conn.Host != api.URL || string(conn.ClusterCACertificate) != string(api.caPEM) {
		t.Errorf("connection host/CA = %q / %d bytes, want the kubeconfig's %q", conn.Host, len(conn.ClusterCACertificate), api.URL)
	}
	if conn.Exec != nil || conn.Token != "" || len(conn.ClientCertificate) > 0 {
		t.Errorf("connection keeps kubeconfig credentials (exec %v, token %q, cert %d bytes); kubelogin must not be needed", conn.Exec, conn.Token, len(conn.ClientCertificate))
	}
	cfg, err := conn.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ExecProvider != nil {
		t.Fatalf("REST config would run %q", cfg.ExecProvider.Command)
	}
	get(t, cfg)
	if h := api.headers(); len(h) != 1 || h[0] != "Bearer fake_token" {
		t.Errorf("API server saw Authorization %q, want the credential's bearer token", h)
	}
	if !cred.asked(azure.AKSServerAppID + "/.default") {
		t.Errorf("token scopes asked = %v, want %s/.default", cred.scopes, azure.AKSServerAppID)
	}
}

// Clusters with the legacy Entra ID integration accept tokens for their own server
// application, which the kubeconfig names; a token for the AKS-managed one would be refused.
func TestAKSConnectionUsesKubeconfigServerID(t *testing.T) {
	const legacyServerApp = "0c3f5a4b-aaaa-bbbb-cccc-000000000001"
	for name, user := range map[string]*clientcmdapi.AuthInfo{
		"kubelogin --server-id": kubeloginUser(legacyServerApp),
		"kubelogin --server-id=": {Exec: &clientcmdapi.ExecConfig{APIVersion: "client.authentication.k8s.io/v1beta1", Command: "kubelogin",
			Args: []string{"get-token", "--server-id=" + legacyServerApp}}},
		"azure auth provider": {AuthProvider: &clientcmdapi.AuthProviderConfig{Name: "azure", Config: map[string]string{
			"apiserver-id": legacyServerApp, "client-id": "80faf920-1908-4b52-b5ef-a8e7bedfc67a", "config-mode": "1", "environment": "AzurePublicCloud"}}},
	} {
		t.Run(name, func(t *testing.T) {
			api := newAPIServer(t, nil)
			srv := &fake.ManagedClustersServer{
				ListClusterUserCredentials: func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
					return userCreds(kubeconfig(t, api.URL, api.caPEM, user)), azfake.ErrorResponder{}
				},
			}
			cred := &scopeRecorder{}
			conn, err := azure.AKSConnection(context.Background(), mustParse(t, clusterID), cred, armOptions(srv, &armCalls{}), false)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := conn.RESTConfig()
			if err != nil {
				t.Fatal(err)
			}
			if cfg.AuthProvider != nil || cfg.ExecProvider != nil {
				t.Fatalf("REST config keeps the kubeconfig's plugin: %+v %+v", cfg.AuthProvider, cfg.ExecProvider)
			}
			get(t, cfg)
			if !cred.asked(legacyServerApp + "/.default") {
				t.Errorf("token scopes asked = %v, want %s/.default", cred.scopes, legacyServerApp)
			}
		})
	}
}

// Admin credentials are a client certificate; they are used as such, with no Entra token.
func TestAKSConnectionAdminCredentialsUseClientCertificate(t *testing.T) {
	ca, certPEM, keyPEM := clientCert(t, "masterclient")
	api := newAPIServer(t, ca)
	userCalled := false
	srv := &fake.ManagedClustersServer{
		ListClusterAdminCredentials: func(_ context.Context, rg, name string, _ *armcontainerservice.ManagedClustersClientListClusterAdminCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterAdminCredentialsResponse], azfake.ErrorResponder) {
			if rg != clusterRG || name != clusterName {
				t.Errorf("ARM asked for %s/%s", rg, name)
			}
			return adminCreds(kubeconfig(t, api.URL, api.caPEM, &clientcmdapi.AuthInfo{ClientCertificateData: certPEM, ClientKeyData: keyPEM})), azfake.ErrorResponder{}
		},
		ListClusterUserCredentials: func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
			userCalled = true
			return userCreds(), azfake.ErrorResponder{}
		},
	}
	cred := &scopeRecorder{}
	conn, err := azure.AKSConnection(context.Background(), mustParse(t, clusterID), cred, armOptions(srv, &armCalls{}), true)
	if err != nil {
		t.Fatal(err)
	}
	if userCalled {
		t.Error("admin connection also fetched user credentials")
	}
	if string(conn.ClientCertificate) != string(certPEM) || string(conn.ClientKey) != string(keyPEM) {
		t.Error("connection does not carry the admin kubeconfig's client certificate and key")
	}
	if conn.WrapTransport != nil {
		t.Error("admin connection adds an Entra ID bearer token")
	}
	cfg, err := conn.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	get(t, cfg)
	api.mu.Lock()
	defer api.mu.Unlock()
	if len(api.certs) != 1 || api.certs[0] != "masterclient" {
		t.Errorf("API server saw client certificates %v, want masterclient", api.certs)
	}
	if len(api.auth) != 1 || api.auth[0] != "" {
		t.Errorf("API server saw Authorization %q, want none", api.auth)
	}
	if cred.asked(azure.AKSServerAppID + "/.default") {
		t.Error("an Entra token for the API server was requested for an admin connection")
	}
}

func TestAKSConnectionErrors(t *testing.T) {
	notFound := func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
		var e azfake.ErrorResponder
		e.SetResponseError(http.StatusNotFound, "ResourceNotFound")
		return azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse]{}, e
	}
	returns := func(kubeconfigs ...[]byte) func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
		return func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
			return userCreds(kubeconfigs...), azfake.ErrorResponder{}
		}
	}
	noContext := clientcmdapi.NewConfig()
	noContext.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://aks.example:443"}
	noContextBytes, err := clientcmd.Write(*noContext)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		list   func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder)
		want   string
		status int
	}{
		{name: "cluster not found", list: notFound, want: "fetching user credentials of AKS cluster " + clusterName, status: http.StatusNotFound},
		{name: "empty kubeconfig list", list: returns(), want: "returned no kubeconfig"},
		{name: "empty kubeconfig", list: returns([]byte{}), want: "returned no kubeconfig"},
		{name: "malformed kubeconfig", list: returns([]byte("apiVersion: v1\nclusters: [this is: not yaml")), want: "unreadable kubeconfig"},
		{name: "kubeconfig without current context", list: returns(noContextBytes), want: "has no current context"},
		{name: "kubeconfig without server", list: returns(kubeconfig(t, "", nil, kubeloginUser(azure.AKSServerAppID))), want: "names no cluster server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := &fake.ManagedClustersServer{ListClusterUserCredentials: tc.list}
			_, err := azure.AKSConnection(context.Background(), mustParse(t, clusterID), &azfake.TokenCredential{}, armOptions(srv, &armCalls{}), false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if tc.status != 0 {
				var re *azcore.ResponseError
				if !errors.As(err, &re) || re.StatusCode != tc.status {
					t.Errorf("error does not wrap the ARM response error with status %d: %#v", tc.status, err)
				}
			}
		})
	}
}

// A null entry in the list AKS returns decodes to a nil pointer, which must not panic.
func TestAKSConnectionNullKubeconfigEntry(t *testing.T) {
	srv := &fake.ManagedClustersServer{
		ListClusterUserCredentials: func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
			var r azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse]
			r.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse{
				CredentialResults: armcontainerservice.CredentialResults{Kubeconfigs: []*armcontainerservice.CredentialResult{nil}},
			}, nil)
			return r, azfake.ErrorResponder{}
		},
	}
	_, err := azure.AKSConnection(context.Background(), mustParse(t, clusterID), &azfake.TokenCredential{}, armOptions(srv, &armCalls{}), false)
	if err == nil || !strings.Contains(err.Error(), "returned no kubeconfig") {
		t.Fatalf("error = %v, want returned no kubeconfig", err)
	}
}

// A credential that cannot get an ARM token fails the call with its own message.
func TestAKSConnectionCredentialError(t *testing.T) {
	called := false
	srv := &fake.ManagedClustersServer{
		ListClusterUserCredentials: func(context.Context, string, string, *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
			called = true
			return userCreds(), azfake.ErrorResponder{}
		},
	}
	cred := &azfake.TokenCredential{}
	cred.SetError(errors.New("AADSTS700016: application not found in tenant"))
	_, err := azure.AKSConnection(context.Background(), mustParse(t, clusterID), cred, armOptions(srv, &armCalls{}), false)
	if err == nil || !strings.Contains(err.Error(), "AADSTS700016") {
		t.Fatalf("error = %v, want the credential's error", err)
	}
	if called {
		t.Error("ARM was called without a token")
	}
}

func TestParseClusterID(t *testing.T) {
	valid := map[string]azure.ClusterID{
		clusterID: {SubscriptionID: subID, ResourceGroup: clusterRG, Name: clusterName},
		// The Azure CLI and some portals spell the segments in lower case.
		"/subscriptions/" + subID + "/resourcegroups/RG-Mixed/providers/microsoft.containerservice/managedclusters/aks1": {SubscriptionID: subID, ResourceGroup: "RG-Mixed", Name: "aks1"},
		clusterID + "/": {SubscriptionID: subID, ResourceGroup: clusterRG, Name: clusterName},
	}
	for id, want := range valid {
		got, err := azure.ParseClusterID(id)
		if err != nil || got != want {
			t.Errorf("ParseClusterID(%q) = %+v, %v; want %+v", id, got, err, want)
		}
	}
	invalid := map[string]string{
		"":                        "not an Azure resource ID",
		"aks-prod":                "not an Azure resource ID",
		" " + clusterID:           "not an Azure resource ID",
		"/subscriptions/" + subID: "resource type is Microsoft.Resources/subscriptions",
		"/subscriptions/" + subID + "/resourceGroups/" + clusterRG:                                                            "resource type is Microsoft.Resources/resourceGroups",
		clusterID + "/agentPools/nodepool1":                                                                                   "resource type is Microsoft.ContainerService/managedClusters/agentPools",
		"/subscriptions/" + subID + "/resourceGroups/" + clusterRG + "/providers/Microsoft.Compute/virtualMachines/vm1":       "resource type is Microsoft.Compute/virtualMachines",
		"/subscriptions/" + subID + "/resourceGroups/" + clusterRG + "/providers/Microsoft.ContainerService/managedClusters":  "not an Azure resource ID",
		"/subscriptions/" + subID + "/resourceGroups/" + clusterRG + "/providers/Microsoft.ContainerService/managedClusters/": "not an Azure resource ID",
		"/subscriptions/" + subID + "/providers/Microsoft.ContainerService/managedClusters/aks1":                              "names no subscription or resource group",
	}
	for id, want := range invalid {
		_, err := azure.ParseClusterID(id)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseClusterID(%q) error = %v, want it to contain %q", id, err, want)
		}
	}
}
