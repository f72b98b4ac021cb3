package azure

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// AKSServerAppID is the Entra ID application that AKS-managed Entra ID clusters accept tokens
// for (the same one kubelogin asks a token for).
const AKSServerAppID = "6dae42f8-4368-4678-94ff-3960e28e3630"

// ClusterID is a parsed AKS managed cluster resource ID.
type ClusterID struct {
	SubscriptionID, ResourceGroup, Name string
}

// String is the cluster's resource ID.
func (c ClusterID) String() string {
	return "/subscriptions/" + c.SubscriptionID + "/resourceGroups/" + c.ResourceGroup + "/providers/Microsoft.ContainerService/managedClusters/" + c.Name
}

// ParseClusterID checks that id is a Microsoft.ContainerService/managedClusters resource ID.
func ParseClusterID(id string) (ClusterID, error) {
	r, err := arm.ParseResourceID(id)
	if err != nil {
		return ClusterID{}, fmt.Errorf("not an Azure resource ID: %w", err)
	}
	const want = "(an ID like /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>)"
	if !strings.EqualFold(r.ResourceType.String(), "Microsoft.ContainerService/managedClusters") {
		return ClusterID{}, fmt.Errorf("resource type is %s, expected Microsoft.ContainerService/managedClusters %s", r.ResourceType, want)
	}
	// arm.ParseResourceID also accepts a cluster directly under a subscription, which no ARM
	// call can address; without this check the ID fails only at apply, far from its cause.
	if r.SubscriptionID == "" || r.ResourceGroupName == "" {
		return ClusterID{}, fmt.Errorf("the ID names no subscription or resource group %s", want)
	}
	return ClusterID{SubscriptionID: r.SubscriptionID, ResourceGroup: r.ResourceGroupName, Name: r.Name}, nil
}

// AKSConnection fetches an AKS cluster's endpoint and CA through the Azure API and
// authenticates with an Entra ID token from cred, so no kubelogin binary is needed. With admin
// set it uses the cluster's local admin credentials instead (for clusters with local accounts).
func AKSConnection(ctx context.Context, id ClusterID, cred azcore.TokenCredential, opts *arm.ClientOptions, admin bool) (kube.Connection, error) {
	client, err := armcontainerservice.NewManagedClustersClient(id.SubscriptionID, cred, opts)
	if err != nil {
		return kube.Connection{}, err
	}
	var results []*armcontainerservice.CredentialResult
	if admin {
		r, err := client.ListClusterAdminCredentials(ctx, id.ResourceGroup, id.Name, nil)
		if err != nil {
			return kube.Connection{}, fmt.Errorf("fetching admin credentials of AKS cluster %s: %w", id.Name, err)
		}
		results = r.Kubeconfigs
	} else {
		r, err := client.ListClusterUserCredentials(ctx, id.ResourceGroup, id.Name, nil)
		if err != nil {
			return kube.Connection{}, fmt.Errorf("fetching user credentials of AKS cluster %s: %w", id.Name, err)
		}
		results = r.Kubeconfigs
	}
	// JSON null in the list decodes to a nil entry; it must be an error, not a panic.
	if len(results) == 0 || results[0] == nil || len(results[0].Value) == 0 {
		return kube.Connection{}, fmt.Errorf("AKS cluster %s returned no kubeconfig", id.Name)
	}
	cfg, err := clientcmd.Load(results[0].Value)
	if err != nil {
		return kube.Connection{}, fmt.Errorf("AKS cluster %s returned an unreadable kubeconfig: %w", id.Name, err)
	}
	kctx := cfg.Contexts[cfg.CurrentContext]
	if kctx == nil {
		return kube.Connection{}, fmt.Errorf("AKS kubeconfig of %s has no current context", id.Name)
	}
	cluster, user := cfg.Clusters[kctx.Cluster], cfg.AuthInfos[kctx.AuthInfo]
	if cluster == nil || cluster.Server == "" {
		// Caught here because an empty host would later read as "no connection configured".
		return kube.Connection{}, fmt.Errorf("AKS kubeconfig of %s names no cluster server", id.Name)
	}
	conn := kube.Connection{Host: cluster.Server, ClusterCACertificate: cluster.CertificateAuthorityData}
	if user != nil && (len(user.ClientCertificateData) > 0 || user.Token != "") && user.Exec == nil && user.AuthProvider == nil {
		// Local accounts (admin, or clusters without Entra ID integration).
		conn.ClientCertificate, conn.ClientKey, conn.Token = user.ClientCertificateData, user.ClientKeyData, user.Token
		return conn, nil
	}
	conn.WrapTransport = BearerTransport(cred, TokenScope(serverAppID(user)))
	return conn, nil
}

// serverAppID is the Entra ID application the API server accepts tokens for. AKS-managed
// Entra ID clusters all use AKSServerAppID, but clusters with the legacy (customer-made)
// Entra ID integration name their own server application, and the kubeconfig AKS returns
// carries it: as kubelogin's --server-id, or as the azure auth provider's apiserver-id.
func serverAppID(user *clientcmdapi.AuthInfo) string {
	if user == nil {
		return AKSServerAppID
	}
	if user.Exec != nil {
		args := user.Exec.Args
		for i, a := range args {
			if v, ok := strings.CutPrefix(a, "--server-id="); ok && v != "" {
				return v
			}
			if a == "--server-id" && i+1 < len(args) && args[i+1] != "" {
				return args[i+1]
			}
		}
	}
	if user.AuthProvider != nil && user.AuthProvider.Config["apiserver-id"] != "" {
		return user.AuthProvider.Config["apiserver-id"]
	}
	return AKSServerAppID
}

// BearerTransport adds an Entra ID bearer token to each request, refreshing it before expiry.
func BearerTransport(cred azcore.TokenCredential, scopes []string) func(http.RoundTripper) http.RoundTripper {
	return func(next http.RoundTripper) http.RoundTripper {
		return &bearer{next: next, cred: cred, scopes: scopes}
	}
}

type bearer struct {
	next   http.RoundTripper
	cred   azcore.TokenCredential
	scopes []string
	mu     sync.Mutex
	token  azcore.AccessToken
}

func (b *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	b.mu.Lock()
	if b.stale() {
		tok, err := b.cred.GetToken(req.Context(), policy.TokenRequestOptions{Scopes: b.scopes})
		if err != nil {
			b.mu.Unlock()
			return nil, fmt.Errorf("getting an Entra ID token for the AKS API server: %w", err)
		}
		b.token = tok
	}
	token := b.token.Token
	b.mu.Unlock()
	// A RoundTripper must not modify the caller's request.
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+token)
	return b.next.RoundTrip(req)
}

// stale says the token must be fetched again: close to expiry, or past the refresh time
// Entra ID suggests (long-lived tokens carry one so that revocation takes effect sooner).
func (b *bearer) stale() bool {
	now := time.Now()
	if !b.token.RefreshOn.IsZero() && !now.Before(b.token.RefreshOn) {
		return true
	}
	return b.token.ExpiresOn.Sub(now) < 5*time.Minute
}
