package ec2nodeclass_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var (
	gvr       = schema.GroupVersionResource{Group: "karpenter.k8s.aws", Version: "v1", Resource: "ec2nodeclasses"}
	nodePools = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
)

// config is the getting-started EC2NodeClass of Karpenter's docs (AL2023, discovery tags),
// with the settings people add most: a root volume, IMDS options, kubelet and tags.
func config(kubeconfig, name, alias string, volume, extra string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "karpenter_ec2nodeclass" "test" {
  name = %q
  role = "KarpenterNodeRole-acc"
  ami_selector_terms            = [{ alias = %q }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  block_device_mappings = [{
    device_name = "/dev/xvda"
    ebs         = { volume_size = %q, volume_type = "gp3", encrypted = true }
  }]
  metadata_options = { http_tokens = "required", http_put_response_hop_limit = 1 }
  kubelet          = { max_pods = 58 }
  tags             = { team = "platform" }
  %s
}
`, name, alias, volume, extra)
}

func get(c *testenv.Cluster, res schema.GroupVersionResource, name string) (*unstructured.Unstructured, error) {
	return c.Dynamic.Resource(res).Get(context.Background(), name, metav1.GetOptions{})
}

func live(t *testing.T, c *testenv.Cluster, name string) *unstructured.Unstructured {
	t.Helper()
	obj, err := get(c, gvr, name)
	if err != nil {
		t.Fatalf("get EC2NodeClass %s: %v", name, err)
	}
	return obj
}

// checkLive compares a field of the live object; want nil means the field is absent.
func checkLive(c *testenv.Cluster, res schema.GroupVersionResource, name string, path []string, want any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := get(c, res, name)
		if err != nil {
			return err
		}
		got, found, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
		if want == nil {
			if found {
				return fmt.Errorf("live %s %v = %v, want it absent", name, path, got)
			}
			return nil
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("live %s %v = %v (%T), want %v (%T)", name, path, got, got, want, want)
		}
		return nil
	}
}

func checkGone(c *testenv.Cluster, res schema.GroupVersionResource, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, name := range names {
			_, err := get(c, res, name)
			if err == nil {
				return fmt.Errorf("%s %s still exists", res.Resource, name)
			}
			if !apierrors.IsNotFound(err) {
				return err
			}
		}
		return nil
	}
}

// checkAppliedByProvider asserts that the provider's field manager owns the spec through
// server-side apply.
func checkAppliedByProvider(c *testenv.Cluster, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := get(c, gvr, name)
		if err != nil {
			return err
		}
		for _, mf := range obj.GetManagedFields() {
			if mf.Manager == kube.FieldManager && mf.Operation == metav1.ManagedFieldsOperationApply &&
				mf.FieldsV1 != nil && strings.Contains(string(mf.FieldsV1.Raw), `"f:amiSelectorTerms"`) {
				return nil
			}
		}
		return fmt.Errorf("no server-side apply entry of %s owning spec.amiSelectorTerms in %+v", kube.FieldManager, obj.GetManagedFields())
	}
}

// An EC2NodeClass's whole life through the real terraform binary and the real API server
// with the CRD of the pinned AWS provider: create, import, update, drift, delete outside
// Terraform, and an empty plan after each apply.
func TestAccEC2NodeClassLifecycle(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-ec2-lifecycle"
	addr := "karpenter_ec2nodeclass.test"
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, gvr, name),
		Steps: []resource.TestStep{
			{
				Config:           config(c.KubeconfigPath, name, "al2023@v20240625", "100Gi", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "id", name),
					resource.TestCheckResourceAttr(addr, "ami_selector_terms.0.alias", "al2023@v20240625"),
					// CRD defaults, planned up front and stored.
					resource.TestCheckResourceAttr(addr, "metadata_options.http_endpoint", "enabled"),
					resource.TestCheckResourceAttr(addr, "metadata_options.http_protocol_ipv6", "disabled"),
					checkLive(c, gvr, name, []string{"spec", "role"}, "KarpenterNodeRole-acc"),
					checkLive(c, gvr, name, []string{"spec", "amiSelectorTerms"}, []any{map[string]any{"alias": "al2023@v20240625"}}),
					checkLive(c, gvr, name, []string{"spec", "subnetSelectorTerms"}, []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "acc"}}}),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "maxPods"}, int64(58)),
					checkLive(c, gvr, name, []string{"spec", "metadataOptions", "httpEndpoint"}, "enabled"),
					checkLive(c, gvr, name, []string{"spec", "blockDeviceMappings"}, []any{map[string]any{"deviceName": "/dev/xvda",
						"ebs": map[string]any{"volumeSize": "100Gi", "volumeType": "gp3", "encrypted": true}}}),
					checkAppliedByProvider(c, name),
				),
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// In-place update: a new AMI version, a larger volume, a new setting.
				Config: config(c.KubeconfigPath, name, "al2023@v20250101", "200Gi", `user_data = "#!/bin/bash\necho hello"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: empty,
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, gvr, name, []string{"spec", "amiSelectorTerms"}, []any{map[string]any{"alias": "al2023@v20250101"}}),
					checkLive(c, gvr, name, []string{"spec", "blockDeviceMappings", "0"}, nil),
					func(*terraform.State) error {
						bdms, _, _ := unstructured.NestedSlice(live(t, c, name).Object, "spec", "blockDeviceMappings")
						if len(bdms) != 1 || fmt.Sprint(bdms[0].(map[string]any)["ebs"].(map[string]any)["volumeSize"]) != "200Gi" {
							return fmt.Errorf("blockDeviceMappings = %v, want one of 200Gi", bdms)
						}
						return nil
					},
					checkLive(c, gvr, name, []string{"spec", "userData"}, "#!/bin/bash\necho hello"),
				),
			},
			{
				// Drift: managed fields edited outside Terraform are planned back and reverted.
				PreConfig: func() {
					obj := live(t, c, name)
					_ = unstructured.SetNestedField(obj.Object, "KarpenterNodeRole-other", "spec", "role")
					_ = unstructured.SetNestedField(obj.Object, int64(110), "spec", "kubelet", "maxPods")
					_ = unstructured.SetNestedField(obj.Object, "someone-else", "spec", "tags", "team")
					if _, err := c.Dynamic.Resource(gvr).Update(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
						t.Fatalf("edit outside Terraform: %v", err)
					}
				},
				Config: config(c.KubeconfigPath, name, "al2023@v20250101", "200Gi", `user_data = "#!/bin/bash\necho hello"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: empty,
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, gvr, name, []string{"spec", "role"}, "KarpenterNodeRole-acc"),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "maxPods"}, int64(58)),
					checkLive(c, gvr, name, []string{"spec", "tags", "team"}, "platform"),
				),
			},
			{
				// Deleted outside Terraform: planned for creation and created again.
				PreConfig: func() {
					if err := c.Dynamic.Resource(gvr).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
				},
				Config: config(c.KubeconfigPath, name, "al2023@v20250101", "200Gi", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: empty,
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, gvr, name, []string{"spec", "role"}, "KarpenterNodeRole-acc"),
					checkLive(c, gvr, name, []string{"spec", "userData"}, nil),
				),
			},
			{
				// The configuration applied again: the plan is empty.
				Config:           config(c.KubeconfigPath, name, "al2023@v20250101", "200Gi", "") + "\n",
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: empty},
			},
		},
	})
}

// The CRD's CEL rule that a node class names exactly one of role and instanceProfile fails
// the plan, saying which attributes to change; a bad amiSelectorTerms alias fails it on the
// attribute of the term. Nothing reaches the cluster.
func TestAccEC2NodeClassRejectedAtPlan(t *testing.T) {
	c := testenv.Get(t)
	cfg := func(body string) string {
		return acctest.ProviderBlock(c.KubeconfigPath) + `
resource "karpenter_ec2nodeclass" "bad" {
  name                          = "acc-ec2-bad"
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
` + body + "}\n"
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg(`  role               = "KarpenterNodeRole-acc"
  instance_profile   = "KarpenterNodeInstanceProfile-acc"
  ami_selector_terms = [{ alias = "al2023@latest" }]
`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Attribute instance_profile:.*must specify exactly one of\s+\['role',\s+'instanceProfile'\].*Both role and\s+instance_profile are set`),
			},
			{
				Config: cfg(`  role               = "KarpenterNodeRole-acc"
  ami_selector_terms = [{ alias = "ubuntu@latest" }]
`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Attribute ami_selector_terms\[0\]\.alias:.*family\s+is not supported`),
			},
			{
				// Neither: the same rule, on role.
				Config: cfg(`  ami_selector_terms = [{ alias = "al2023@latest" }]
`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Attribute role:.*Neither role nor\s+instance_profile is set`),
			},
			{
				// Without an alias the CRD requires an amiFamily.
				Config: cfg(`  role               = "KarpenterNodeRole-acc"
  ami_selector_terms = [{ id = "ami-0123456789abcdef0" }]
`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`must specify amiFamily if amiSelectorTerms does not contain an\s+alias`),
			},
		},
	})
	if _, err := get(c, gvr, "acc-ec2-bad"); !apierrors.IsNotFound(err) {
		t.Errorf("a rejected node class reached the cluster: %v", err)
	}
}

// The EC2NodeClass findings the CRD lets through are reported at plan on the attribute of the
// term: empty tags select every subnet of the region (KRP121, an error); a malformed ID
// beside a term that selects (KRP122) and a production class on @latest (KRP120) are
// warnings, errors in strict mode; checks.suppress silences them.
func TestAccEC2NodeClassFindingsAtPlan(t *testing.T) {
	c := testenv.Get(t)
	cfg := func(provider, name, body string) string {
		return fmt.Sprintf(`
provider "karpenter" {
  kubernetes = { config_path = %q }
  %s
}

resource "karpenter_ec2nodeclass" "x" {
  name                          = %q
  role                          = "KarpenterNodeRole-acc"
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
%s}
`, c.KubeconfigPath, provider, name, body)
	}
	pinned := `  ami_selector_terms = [{ alias = "al2023@v20240625" }]
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg("", "acc-ec2-everything", pinned+`  subnet_selector_terms = [{ tags = {} }]
`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)KRP121.*Attribute subnet_selector_terms\[0\]\.tags:.*every\s+subnet\s+of\s+the\s+region`),
			},
			{
				Config: cfg(`checks = { strict = true }`, "acc-ec2-typo", pinned+`  subnet_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }, { id = "subnet-12345" }]
`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)KRP122.*Attribute subnet_selector_terms\[1\]\.id:.*"subnet-12345"`),
			},
			{
				Config: cfg(`checks = { strict = true }`, "prod-general", `  ami_selector_terms = [{ alias = "al2023@latest" }]
  subnet_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)KRP120.*Attribute ami_selector_terms\[0\]\.alias:.*its\s+name\s+"prod-general"`),
			},
			{
				Config: cfg(`checks = { strict = true, suppress = ["KRP120"] }`, "prod-general", `  ami_selector_terms = [{ alias = "al2023@latest" }]
  subnet_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
`),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}
