package bicep

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// sdkAPIVersion reads the api-version a pinned Azure SDK module sends from its client source in
// the module cache, so that upgrading the module in go.mod moves the expectation with it.
func sdkAPIVersion(t *testing.T, module, clientFile string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	dir := strings.TrimSpace(string(out))
	src, err := os.ReadFile(filepath.Join(dir, clientFile))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`reqQP\.Set\("api-version", "([^"]+)"\)`).FindAllStringSubmatch(string(src), -1)
	if len(m) == 0 {
		t.Fatalf("%s/%s sets no api-version", module, clientFile)
	}
	for _, x := range m[1:] {
		if x[1] != m[0][1] {
			t.Fatalf("%s/%s uses several api-versions: %s and %s", module, clientFile, m[0][1], x[1])
		}
	}
	return m[0][1]
}

// Every resource declaration in the Bicep files uses a type this test knows and the API
// version the provider's Go code uses for it: Azure types from the pinned SDK modules (or the
// provider's own override), Kubernetes types from the CRDs the provider pins.
func TestResourceTypesAndAPIVersionsMatchTheGoSDK(t *testing.T) {
	const (
		containerService = "github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
		authorization    = "github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	)
	sdkClusters := sdkAPIVersion(t, containerService, "managedclusters_client.go")
	// The provider writes managed clusters with azure.NodeProvisioningAPIVersion because the
	// SDK's version predates nodeProvisioningProfile; once the SDK is at least as new, its
	// version is the one to use. (API versions are dates, so they compare as strings.)
	clusters := azure.NodeProvisioningAPIVersion
	if sdkClusters >= clusters {
		clusters = sdkClusters
	}
	roles := sdkAPIVersion(t, authorization, "roleassignments_client.go")

	// The provider has no Network SDK: the virtual network and subnet are only referenced as
	// `existing` scopes of the role assignments, so any stable version works. The version is
	// pinned here so that a change is deliberate; bicep lint (use-recent-api-versions) in the
	// external workflow watches its age.
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(gomod), "armnetwork") {
		t.Fatal("go.mod now has the Network SDK: take the virtual network API version from it instead of the pinned one")
	}
	const network = "2024-05-01"
	// Likewise the user-assigned identity that only the network-contributor e2e test creates,
	// as a principal to grant to.
	if strings.Contains(string(gomod), "armmsi") {
		t.Fatal("go.mod now has the Managed Identity SDK: take the identity API version from it instead of the pinned one")
	}
	const identity = "2023-01-31"

	want := map[string]string{
		"Microsoft.ContainerService/managedClusters":                                     clusters,
		"Microsoft.Authorization/roleAssignments":                                        roles,
		"Microsoft.Network/virtualNetworks":                                              network,
		"Microsoft.Network/virtualNetworks/subnets":                                      network,
		"Microsoft.ManagedIdentity/userAssignedIdentities":                               identity,
		"kubernetes:" + kinds.NodePool.GVK.Group + "/" + kinds.NodePool.GVK.Kind:         kinds.NodePool.GVK.Version,
		"kubernetes:" + kinds.AKSNodeClass.GVK.Group + "/" + kinds.AKSNodeClass.GVK.Kind: kinds.AKSNodeClass.GVK.Version,
	}
	// The Kubernetes resource types must be versions the pinned CRDs serve.
	for _, gvk := range []schema.GroupVersionKind{kinds.NodePool.GVK, kinds.AKSNodeClass.GVK} {
		if _, err := crdvalidate.For(gvk); err != nil {
			t.Fatalf("the pinned CRDs do not serve %s: %v", gvk, err)
		}
	}

	resourceRe := regexp.MustCompile(`^'([^'@]+)@([^']+)'`)
	used := map[string]bool{}
	for _, f := range bicepFiles(t) {
		for _, d := range scan(t, f) {
			if d.keyword != "resource" {
				continue
			}
			m := resourceRe.FindStringSubmatch(strings.TrimSpace(d.rest))
			if m == nil {
				t.Errorf("%s:%d: resource %s has no '<type>@<version>'", d.file, d.line, d.name)
				continue
			}
			typ, ver := m[1], m[2]
			exp, ok := want[typ]
			switch {
			case !ok:
				t.Errorf("%s:%d: resource type %s is not one the provider's Go code uses; add it here with its source of truth", d.file, d.line, typ)
			case ver != exp:
				t.Errorf("%s:%d: %s@%s, but the provider's Go code uses %s", d.file, d.line, typ, ver, exp)
			}
			used[typ] = true
		}
	}
	for _, typ := range []string{"Microsoft.ContainerService/managedClusters", "Microsoft.Authorization/roleAssignments", "kubernetes:karpenter.sh/NodePool", "kubernetes:karpenter.azure.com/AKSNodeClass"} {
		if !used[typ] {
			t.Errorf("no Bicep file declares %s", typ)
		}
	}
	t.Logf("managedClusters %s (SDK %s), roleAssignments %s", clusters, sdkClusters, roles)
}
