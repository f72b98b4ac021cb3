package aws_test

import (
	"context"
	"strings"
	"testing"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/eksfake"
)

// A cluster reached by ARN: DescribeCluster (SigV4-signed with the default chain's
// credentials) gives the endpoint and CA of a local API server, which accepts the signed
// token only after its webhook checked, with the SDK's signer, that it is a presigned
// GetCallerIdentity URL for this cluster; RBAC then lets the mapped identity read.
func TestEKSConnectionReachesTheCluster(t *testing.T) {
	f := eksfake.Start(t)
	f.Env(t)
	c := f.Cluster(t, "eks-a", "eu-west-1")
	ctx := context.Background()
	s := awsclient.Settings{EKSEndpoint: f.EKSEndpoint()}
	cfg, err := s.Config(ctx, awsclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	arn, err := awsclient.ParseClusterARN(eksfake.ARN("eu-west-1", "eks-a"))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := awsclient.EKSConnection(ctx, cfg, s, awsclient.ClusterOf(arn))
	if err != nil {
		t.Fatal(err)
	}
	if conn.Host != c.Config.Host && conn.Host != "https://"+c.Config.Host {
		t.Errorf("host = %q, want the local API server's %q", conn.Host, c.Config.Host)
	}
	rc, err := conn.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	cs := kubernetes.NewForConfigOrDie(rc)
	if _, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatalf("list namespaces with the EKS token: %v (webhook rejected: %v)", err, f.Rejected("eks-a"))
	}
	if f.Accepted("eks-a") == 0 || len(f.Rejected("eks-a")) > 0 {
		t.Errorf("webhook accepted %d, rejected %v; want the token accepted", f.Accepted("eks-a"), f.Rejected("eks-a"))
	}

	// A token signed for another cluster name does not authenticate here.
	other := awsclient.Cluster{Name: "eks-b", Region: "eu-west-1"}
	f.Register("eks-b", "eu-west-1", conn.Host, conn.ClusterCACertificate) // the same server, by another name
	wrong, err := awsclient.EKSConnection(ctx, cfg, s, other)
	if err != nil {
		t.Fatal(err)
	}
	wrc, _ := wrong.RESTConfig()
	if _, err := kubernetes.NewForConfigOrDie(wrc).CoreV1().Namespaces().List(ctx, metav1.ListOptions{}); !apierrors.IsUnauthorized(err) {
		t.Errorf("list with a token for cluster eks-b = %v, want 401", err)
	}
	if r := f.Rejected("eks-a"); len(r) == 0 || !strings.Contains(r[len(r)-1], "signature does not match") {
		t.Errorf("webhook rejections = %v, want the signature of another cluster rejected", r)
	}

	// The ARN names the account: credentials of another one are an error, not its cluster.
	_, err = awsclient.EKSConnection(ctx, cfg, s, awsclient.Cluster{Name: "eks-a", Region: "eu-west-1", ARN: "arn:aws:eks:eu-west-1:999999999999:cluster/eks-a"})
	if err == nil || !strings.Contains(err.Error(), "another account") || !strings.Contains(err.Error(), "assume_role") {
		t.Errorf("cluster of another account: %v; want the account mismatch named, with the fix", err)
	}
	// Another region holds no such cluster: EKS's own error, with the cluster and region.
	_, err = awsclient.EKSConnection(ctx, cfg, s, awsclient.Cluster{Name: "eks-a", Region: "us-east-1"})
	if err == nil || !strings.Contains(err.Error(), "ResourceNotFoundException") || !strings.Contains(err.Error(), "us-east-1") {
		t.Errorf("cluster in another region: %v; want EKS's ResourceNotFoundException", err)
	}
	// No region anywhere.
	if _, err := awsclient.EKSConnection(ctx, sdkaws.Config{}, s, awsclient.Cluster{Name: "eks-a"}); err == nil || !strings.Contains(err.Error(), "aws.region") {
		t.Errorf("no region: %v; want the settings that give one", err)
	}
}

// The webhook refuses what EKS refuses: expired tokens and other credentials.
func TestVerifyTokenRejects(t *testing.T) {
	f := eksfake.Start(t)
	f.Env(t)
	ctx := context.Background()
	cfg, err := (awsclient.Settings{Region: "eu-west-1"}).Config(ctx, awsclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := awsclient.Token(ctx, (awsclient.Settings{}).STS(cfg), "eks-a")
	if err != nil {
		t.Fatal(err)
	}
	host := "sts.eu-west-1.amazonaws.com"
	if _, err := eksfake.VerifyToken(tok, "eks-a", host, f.Credentials, time.Now()); err != nil {
		t.Fatalf("fresh token rejected: %v", err)
	}
	if _, err := eksfake.VerifyToken(tok, "eks-a", host, f.Credentials, time.Now().Add(16*time.Minute)); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Errorf("token 16 minutes old: %v, want expired", err)
	}
	other := f.Credentials
	other.SecretAccessKey = "another-secret"
	if _, err := eksfake.VerifyToken(tok, "eks-a", host, other, time.Now()); err == nil {
		t.Error("token accepted with another secret key")
	}
	if _, err := eksfake.VerifyToken(tok, "eks-a", "sts.us-east-1.amazonaws.com", f.Credentials, time.Now()); err == nil {
		t.Error("token accepted for another STS host")
	}
}

// aws.assume_role and aws.endpoints.sts: the chain's credentials assume the role at the STS
// endpoint (a SigV4-signed AssumeRole), and DescribeCluster and the token are signed with the
// role's credentials and session token, which the webhook verifies as it does any other.
func TestEKSConnectionAssumesRole(t *testing.T) {
	f := eksfake.Start(t)
	f.Env(t)
	const role = "arn:aws:iam::123456789012:role/karpenter-terraform"
	assumed := f.AddRole(role)
	f.STSHost = f.STSHostPort()
	f.Cluster(t, "eks-a", "eu-west-1")
	ctx := context.Background()
	s := awsclient.Settings{EKSEndpoint: f.EKSEndpoint(), STSEndpoint: f.STSEndpoint(), RoleARN: role, SessionName: "terraform"}
	cfg, err := s.Config(ctx, awsclient.Options{HTTPClient: f.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := awsclient.EKSConnection(ctx, cfg, s, awsclient.Cluster{Name: "eks-a", Region: "eu-west-1", ARN: eksfake.ARN("eu-west-1", "eks-a")})
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := conn.RESTConfig()
	if _, err := kubernetes.NewForConfigOrDie(rc).CoreV1().Namespaces().List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatalf("list with the role's token: %v (rejected: %v)", err, f.Rejected("eks-a"))
	}
	if keys := f.AcceptedKeys("eks-a"); len(keys) != 1 || keys[0] != assumed.AccessKeyID {
		t.Errorf("tokens accepted from keys %v, want only the role's %s", keys, assumed.AccessKeyID)
	}
	// A role the identity may not assume: STS's AccessDenied, through the first call.
	s.RoleARN = "arn:aws:iam::123456789012:role/other"
	cfg, _ = s.Config(ctx, awsclient.Options{HTTPClient: f.HTTPClient()})
	if _, err := awsclient.EKSConnection(ctx, cfg, s, awsclient.Cluster{Name: "eks-a", Region: "eu-west-1"}); err == nil || !strings.Contains(err.Error(), "AccessDenied") {
		t.Errorf("unassumable role: %v, want STS's AccessDenied", err)
	}
}
