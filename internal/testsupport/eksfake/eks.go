package eksfake

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// Account is the AWS account of the fake's clusters and credentials.
const Account = "123456789012"

// Fake is an EKS API (DescribeCluster) and the TokenReview webhook of its clusters.
type Fake struct {
	// Credentials are the static credentials the test's AWS default chain resolves to (Env).
	Credentials sdkaws.Credentials
	// STSHost is the host the tokens must be presigned for ("" = sts.<region>.amazonaws.com,
	// the SDK's regional endpoint).
	STSHost string

	eks, webhook, sts *httptest.Server

	mu       sync.Mutex
	roles    map[string]sdkaws.Credentials // by role ARN: what AssumeRole hands out
	clusters map[string]entry
	calls    map[string]int
	accepted map[string]int
	rejected map[string][]string
	// acceptedKeys are the access keys of the accepted tokens, by cluster.
	acceptedKeys map[string]map[string]bool
}

type entry struct {
	Region, Endpoint string
	CA               []byte
}

// Start serves the fake for the length of the test.
func Start(t *testing.T) *Fake {
	t.Helper()
	f := &Fake{
		Credentials: sdkaws.Credentials{AccessKeyID: "AKIAEKSFAKE000000001", SecretAccessKey: "eks-fake-secret-access-key", Source: "test"},
		clusters:    map[string]entry{}, calls: map[string]int{}, accepted: map[string]int{}, rejected: map[string][]string{},
		roles: map[string]sdkaws.Credentials{}, acceptedKeys: map[string]map[string]bool{},
	}
	f.eks = httptest.NewServer(http.HandlerFunc(f.serveEKS))
	f.webhook = httptest.NewTLSServer(http.HandlerFunc(f.serveTokenReview))
	f.sts = httptest.NewTLSServer(http.HandlerFunc(f.serveSTS))
	t.Cleanup(f.eks.Close)
	t.Cleanup(f.webhook.Close)
	t.Cleanup(f.sts.Close)
	return f
}

// known are the credentials the fake accepts signatures of: the test's and each role's.
func (f *Fake) known(akid string) (sdkaws.Credentials, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if akid == f.Credentials.AccessKeyID {
		return f.Credentials, true
	}
	for _, c := range f.roles {
		if c.AccessKeyID == akid {
			return c, true
		}
	}
	return sdkaws.Credentials{}, false
}

// EKSEndpoint is the URL of the fake EKS API (the provider's aws.endpoints.eks).
func (f *Fake) EKSEndpoint() string { return f.eks.URL }

// ARN is the ARN of the cluster name in region.
func ARN(region, name string) string {
	return "arn:aws:eks:" + region + ":" + Account + ":cluster/" + name
}

// Env points the AWS SDK's default credential chain at the fake's static credentials, through
// the environment as CI sets it, and away from any shared config, profile or instance metadata.
func (f *Fake) Env(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", f.Credentials.AccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", f.Credentials.SecretAccessKey)
	for _, k := range []string{"AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_REGION", "AWS_DEFAULT_REGION",
		"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_EKS", "AWS_ENDPOINT_URL_STS", "AWS_CA_BUNDLE"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent/aws-config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/aws-credentials")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// Cluster starts a local API server (with the EC2NodeClass CRD) that authenticates EKS tokens
// for the cluster name through the fake's webhook, binds the webhook's group to cluster-admin,
// and registers it as EKS cluster name in region.
func (f *Fake) Cluster(t *testing.T, name, region string) *testenv.Cluster {
	t.Helper()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: f.webhook.Certificate().Raw})
	c, err := testenv.StartWith(testenv.Options{EKS: true, TokenWebhook: &testenv.Webhook{URL: f.webhook.URL + "/" + name, CA: ca}})
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("%v (run `make test`, which builds the binaries, to run this test)", err)
	}
	t.Cleanup(c.Stop)
	cs, err := kubernetes.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	crb := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "eks-fake-admins"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects:   []rbacv1.Subject{{Kind: "Group", APIGroup: "rbac.authorization.k8s.io", Name: Group}},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(context.Background(), crb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	host := c.Config.Host
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	f.Register(name, region, host, c.Config.CAData)
	return c
}

// Register makes DescribeCluster of name in region answer with endpoint and ca.
func (f *Fake) Register(name, region, endpoint string, ca []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clusters[name] = entry{Region: region, Endpoint: endpoint, CA: ca}
}

// Calls is how many DescribeCluster calls named the cluster.
func (f *Fake) Calls(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[name]
}

func (f *Fake) stsHost(region string) string {
	if f.STSHost != "" {
		return f.STSHost
	}
	return "sts." + region + ".amazonaws.com"
}

// serveEKS answers GET /clusters/<name>, the REST route of DescribeCluster, for requests
// SigV4-signed with the fake's credentials in the cluster's region.
func (f *Fake) serveEKS(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/clusters/")
	if r.Method != http.MethodGet || !ok || strings.Contains(name, "/") {
		awsError(w, http.StatusNotFound, "UnknownOperationException", r.Method+" "+r.URL.Path)
		return
	}
	region, err := f.verifySigV4(r, nil, "eks")
	if err != nil {
		awsError(w, http.StatusForbidden, "InvalidSignatureException", err.Error())
		return
	}
	f.mu.Lock()
	f.calls[name]++
	c, ok := f.clusters[name]
	f.mu.Unlock()
	if !ok || c.Region != region {
		awsError(w, http.StatusNotFound, "ResourceNotFoundException", "No cluster found for name: "+name+".")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"cluster": map[string]any{
		"name": name, "arn": ARN(region, name), "endpoint": c.Endpoint, "status": "ACTIVE",
		"certificateAuthority": map[string]any{"data": base64.StdEncoding.EncodeToString(c.CA)},
	}})
}

// verifySigV4 signs the request again with the fake's credentials, over the headers it says
// it signed, and compares; it returns the region of the credential scope.
func (f *Fake) verifySigV4(r *http.Request, body []byte, service string) (string, error) {
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ")
	if !ok {
		return "", fmt.Errorf("request is not SigV4-signed (Authorization %q)", r.Header.Get("Authorization"))
	}
	parts := map[string]string{}
	for _, p := range strings.Split(auth, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		parts[k] = v
	}
	scope := strings.Split(parts["Credential"], "/")
	if len(scope) != 5 || scope[3] != service {
		return "", fmt.Errorf("credential scope %q is not one for %s", parts["Credential"], service)
	}
	creds, ok := f.known(scope[0])
	if !ok {
		return "", fmt.Errorf("access key %s is not the test's or an assumed role's", scope[0])
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return "", fmt.Errorf("X-Amz-Date: %w", err)
	}
	again, err := http.NewRequest(r.Method, "http://"+r.Host+r.URL.RequestURI(), nil)
	if err != nil {
		return "", err
	}
	again.ContentLength = int64(len(body)) // signed as content-length when there is a body
	for _, h := range strings.Split(parts["SignedHeaders"], ";") {
		if h != "host" && h != "content-length" {
			again.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, again, hash, service, scope[2], at); err != nil {
		return "", err
	}
	want := again.Header.Get("Authorization")
	if i := strings.Index(want, "Signature="); i < 0 || !hmac.Equal([]byte(want[i+len("Signature="):]), []byte(parts["Signature"])) {
		return "", fmt.Errorf("signature does not match")
	}
	return scope[2], nil
}

func awsError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-Errortype", typ)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}
