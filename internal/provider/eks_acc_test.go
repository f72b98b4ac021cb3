package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/eksfake"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var ec2NodeClasses = schema.GroupVersionResource{Group: "karpenter.k8s.aws", Version: "v1", Resource: "ec2nodeclasses"}

// eksObjects are an EC2NodeClass and a NodePool using it, as Karpenter's getting-started guide
// for EKS has them; cluster is the body of their cluster attribute ("" = none).
func eksObjects(label, class, pool, cluster string) string {
	attr := ""
	if cluster != "" {
		attr = "  cluster = " + cluster + "\n"
	}
	return fmt.Sprintf(`
resource "karpenter_ec2nodeclass" %[1]q {
  name                          = %[2]q
  role                          = "KarpenterNodeRole-acc"
  ami_selector_terms            = [{ alias = "al2023@v20240625" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
%[4]s}

resource "karpenter_nodepool" %[1]q {
  name = %[3]q
%[4]s  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.%[1]s.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["c", "m", "r"] },
    ]
  }
  limits = { cpu = "100" }
}
`, label, class, pool, attr)
}

// The provider's own cluster named by kubernetes.eks_cluster_name: a plan of new resources
// calls no AWS API; apply assumes aws.assume_role at aws.endpoints.sts and reaches the local
// API server through the endpoint and CA that EKS DescribeCluster returns, with a token of
// the role that only its webhook's check of the presigned STS URL admits (no kubeconfig, no
// static token); the second plan is empty, and so is the plan after an import by name.
func TestAccEKSProviderConnection(t *testing.T) {
	bin := tfBinary(t)
	clearConnectionEnv(t)
	f := eksfake.Start(t)
	f.Env(t)
	c := f.Cluster(t, "eks-prod", "eu-west-1")
	const role = "arn:aws:iam::123456789012:role/karpenter-terraform"
	assumed := f.AddRole(role)
	f.STSHost = f.STSHostPort() // the tokens are presigned for the STS endpoint the provider uses
	d := newTFDir(t, bin).inProcess(provider.WithAWSOptions(awsclient.Options{HTTPClient: f.HTTPClient()}))
	cfg := fmt.Sprintf(`
provider "karpenter" {
  kubernetes = { eks_cluster_name = "eks-prod" }
  aws = {
    region      = "eu-west-1"
    assume_role = { role_arn = %q, session_name = "terraform" }
    endpoints   = { eks = %q, sts = %q }
  }
}
`, role, f.EKSEndpoint(), f.STSEndpoint()) + eksObjects("prod", "default", "general", "")
	d.write("main.tf", cfg)
	t.Cleanup(func() {
		if out, errOut, code := d.run("destroy", "-auto-approve", "-input=false"); code != 0 {
			t.Errorf("destroy: exit %d\n%s\n%s", code, out, errOut)
		}
		objectsIn(t, c, "eks-prod")
	})
	d.must("init", "-input=false")
	if got := d.planActions(); len(got) != 2 {
		t.Fatalf("first plan = %v, want two creates", got)
	}
	if n := f.Calls("eks-prod"); n != 0 {
		t.Errorf("the plan of new resources called DescribeCluster %d times, want none (lazy)", n)
	}
	d.must("apply", "-auto-approve", "-input=false")
	objectsIn(t, c, "eks-prod", "general")
	if _, err := c.Dynamic.Resource(ec2NodeClasses).Get(context.Background(), "default", metav1.GetOptions{}); err != nil {
		t.Errorf("EC2NodeClass default: %v", err)
	}
	if f.Calls("eks-prod") == 0 || f.Accepted("eks-prod") == 0 || len(f.Rejected("eks-prod")) > 0 {
		t.Errorf("DescribeCluster calls %d, tokens accepted %d, rejected %v; want the cluster described and every token accepted",
			f.Calls("eks-prod"), f.Accepted("eks-prod"), f.Rejected("eks-prod"))
	}
	if keys := f.AcceptedKeys("eks-prod"); len(keys) != 1 || keys[0] != assumed.AccessKeyID {
		t.Errorf("tokens accepted from access keys %v, want only the assumed role's %s", keys, assumed.AccessKeyID)
	}
	if got := d.planActions(); len(got) != 0 {
		t.Fatalf("second plan is not empty: %v", got)
	}
	d.must("state", "rm", "karpenter_nodepool.prod")
	d.must("import", "-input=false", "karpenter_nodepool.prod", "general")
	if got := d.planActions(); len(got) != 0 {
		t.Errorf("plan after import is not empty: %v", got)
	}
}

// eksFleetConfig is one provider block with no kubernetes connection, an EC2NodeClass per EKS
// cluster and for_each over clusters × pools, each resource naming its cluster by ARN; "mover"
// is one pool in the cluster moverIn; extra are further clusters (with the same pools).
func eksFleetConfig(endpoint, moverIn string, extra ...string) string {
	clusters := fmt.Sprintf("    a = %q\n    b = %q\n", eksfake.ARN("eu-west-1", "eks-a"), eksfake.ARN("us-east-1", "eks-b"))
	for _, e := range extra {
		clusters += fmt.Sprintf("    %s = %q\n", e, eksfake.ARN("eu-west-1", "eks-"+e))
	}
	return fmt.Sprintf(`
provider "karpenter" {
  aws = { endpoints = { eks = %q } }
}

locals {
  clusters = {
%s  }
  pools = toset(["general", "batch"])
  fleet = { for p in setproduct(keys(local.clusters), local.pools) : "${p[0]}/${p[1]}" => { cluster = p[0], pool = p[1] } }
}

resource "karpenter_ec2nodeclass" "nc" {
  for_each                      = local.clusters
  name                          = "default"
  role                          = "KarpenterNodeRole-${each.key}"
  ami_selector_terms            = [{ alias = "al2023@v20240625" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = each.key } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = each.key } }]
  cluster                       = { eks_cluster_arn = each.value, name = each.key }
}

resource "karpenter_nodepool" "p" {
  for_each = local.fleet
  name     = each.value.pool
  cluster  = { eks_cluster_arn = local.clusters[each.value.cluster], name = each.value.cluster }
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.nc[each.value.cluster].name }
    requirements   = [{ key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["c", "m"] }]
  }
  limits = { cpu = "100" }
}

resource "karpenter_nodepool" "mover" {
  name    = "mover"
  cluster = { eks_cluster_arn = local.clusters[%q], name = %q }
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.nc[%q].name }
    requirements   = [{ key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["c", "m"] }]
  }
  limits = { cpu = "10" }
}
`, endpoint, clusters, moverIn, moverIn, moverIn)
}

// One provider configuration manages two EKS clusters in two regions, two local API servers
// each reached by the eks_cluster_arn of its resources through EKS DescribeCluster in the
// ARN's region, with one for_each over clusters × pools: apply with -parallelism=50, an empty
// second plan, import with the ARN in the ID, a pool moved to the other cluster is replaced,
// and a cluster EKS does not know fails only its own resources, naming the cluster.
func TestAccEKSFleetTwoClusters(t *testing.T) {
	bin := tfBinary(t)
	clearConnectionEnv(t)
	f := eksfake.Start(t)
	f.Env(t)
	a := f.Cluster(t, "eks-a", "eu-west-1")
	b := f.Cluster(t, "eks-b", "us-east-1")
	d := newTFDir(t, bin).inProcess()
	t.Cleanup(func() {
		d.write("main.tf", eksFleetConfig(f.EKSEndpoint(), "b"))
		if out, errOut, code := d.run("destroy", "-auto-approve", "-input=false"); code != 0 {
			t.Errorf("destroy: exit %d\n%s\n%s", code, out, errOut)
		}
		objectsIn(t, a, "a")
		objectsIn(t, b, "b")
		for label, c := range map[string]*testenv.Cluster{"a": a, "b": b} {
			if l, err := c.Dynamic.Resource(ec2NodeClasses).List(context.Background(), metav1.ListOptions{}); err != nil || len(l.Items) > 0 {
				t.Errorf("cluster %s still holds EC2NodeClasses after destroy (%v)", label, err)
			}
		}
	})

	d.write("main.tf", eksFleetConfig(f.EKSEndpoint(), "a"))
	d.must("init", "-input=false")
	d.must("apply", "-auto-approve", "-input=false", "-parallelism=50")
	objectsIn(t, a, "a", "general", "batch", "mover")
	objectsIn(t, b, "b", "general", "batch")
	for _, name := range []string{"eks-a", "eks-b"} {
		if f.Calls(name) == 0 || f.Accepted(name) == 0 || len(f.Rejected(name)) > 0 {
			t.Errorf("%s: DescribeCluster calls %d, tokens accepted %d, rejected %v; want it described and its tokens accepted", name, f.Calls(name), f.Accepted(name), f.Rejected(name))
		}
	}
	if got := d.planActions(); len(got) != 0 {
		t.Fatalf("second plan is not empty: %v", got)
	}

	// Import with the cluster's ARN in the ID: the label is configuration only, so the plan
	// after the import sets it in place; a cluster lost on import would be a replacement.
	d.must("state", "rm", `karpenter_nodepool.p["b/general"]`)
	d.must("import", "-input=false", `karpenter_nodepool.p["b/general"]`, eksfake.ARN("us-east-1", "eks-b")+"//general")
	if got := d.planActions(); len(got) != 1 || got[`karpenter_nodepool.p["b/general"]`] != "update" {
		t.Errorf("plan after import = %v, want only the update of cluster.name", got)
	}
	d.must("apply", "-auto-approve", "-input=false", "plan.out")
	if show := d.must("state", "show", `karpenter_nodepool.p["b/general"]`); !strings.Contains(show, eksfake.ARN("us-east-1", "eks-b")) {
		t.Errorf("imported state has no cluster:\n%s", show)
	}

	// The mover goes to cluster b: replaced, the others untouched.
	d.write("main.tf", eksFleetConfig(f.EKSEndpoint(), "b"))
	if got := d.planActions(); len(got) != 1 || got["karpenter_nodepool.mover"] != "delete,create" {
		t.Errorf("plan of the move = %v, want only the mover replaced (delete,create)", got)
	}
	d.must("apply", "-auto-approve", "-input=false", "plan.out")
	objectsIn(t, a, "a", "general", "batch")
	objectsIn(t, b, "b", "general", "batch", "mover")

	// A cluster EKS does not know: its resources fail, named; the others are untouched.
	d.write("main.tf", eksFleetConfig(f.EKSEndpoint(), "b", "down"))
	out, errOut, code := d.run("apply", "-auto-approve", "-input=false", "-parallelism=50")
	if code == 0 || !regexp.MustCompile(`(?s)Cannot connect to the Kubernetes cluster.*cluster "down"\s+\(arn:aws:eks:eu-west-1:\d+:cluster/eks-down\):.*ResourceNotFoundException`).MatchString(errOut) {
		t.Errorf("apply with an unknown cluster: exit %d, want the cluster named in the error\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "eks-a") || strings.Contains(errOut, "eks-b") {
		t.Errorf("the failure of cluster down touched the others:\n%s", errOut)
	}
	objectsIn(t, b, "b", "general", "batch", "mover")
	d.write("main.tf", eksFleetConfig(f.EKSEndpoint(), "b"))
	d.must("apply", "-auto-approve", "-input=false")
	if got := d.planActions(); len(got) != 0 {
		t.Errorf("plan after dropping cluster down is not empty: %v", got)
	}
}

// A pool in an EKS cluster named by ARN is checked, offline at plan, in the ARN's region
// (no region anywhere else): the plan's KRP101 says which region it checked.
func TestAccEKSFleetPoolCheckedInTheARNsRegion(t *testing.T) {
	bin := tfBinary(t)
	clearConnectionEnv(t)
	d := newTFDir(t, bin).inProcess()
	d.write("main.tf", `
provider "karpenter" {}

resource "karpenter_nodepool" "huge" {
  name    = "huge"
  cluster = { eks_cluster_arn = "arn:aws:eks:us-east-1:123456789012:cluster/prod-use1" }
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = "default" }
    requirements   = [{ key = "karpenter.k8s.aws/instance-cpu", operator = "Gt", values = ["4096"] }]
  }
}
`)
	d.must("init", "-input=false")
	_, errOut, code := d.run("plan", "-input=false")
	if flat := strings.Join(strings.Fields(errOut), " "); code == 0 || !strings.Contains(flat, "KRP101") || !strings.Contains(flat, "in us-east-1") {
		t.Errorf("plan of a pool no type satisfies: exit %d, want KRP101 checked in us-east-1, the ARN's region\n%s", code, errOut)
	}
}
