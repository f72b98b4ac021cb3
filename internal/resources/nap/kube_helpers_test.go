package nap_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var nodes = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}

// createNAPNode registers a node the way NAP's nodes look: labelled with their NodePool.
func createNAPNode(t *testing.T, c *testenv.Cluster, name string) {
	t.Helper()
	n := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"karpenter.sh/nodepool": "default"}},
	}}
	if _, err := c.Dynamic.Resource(nodes).Create(context.Background(), n, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create node %s: %v", name, err)
	}
}

func deleteNode(t *testing.T, c *testenv.Cluster, name string) {
	t.Helper()
	if err := c.Dynamic.Resource(nodes).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("delete node %s: %v", name, err)
	}
}

func crdClient(c *testenv.Cluster) clientset.Interface { return clientset.NewForConfigOrDie(c.Config) }

// deleteCRD deletes a CRD and waits until it is gone.
func deleteCRD(t *testing.T, c *testenv.Cluster, name string) {
	t.Helper()
	ctx := context.Background()
	cs := crdClient(c).ApiextensionsV1().CustomResourceDefinitions()
	if err := cs.Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("delete CRD %s: %v", name, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := cs.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("CRD %s not gone after 30s (last error %v)", name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// reinstallCRDs restores the CRDs for the tests that follow, whatever a test did to them.
func reinstallCRDs(t *testing.T, c *testenv.Cluster) {
	t.Helper()
	cc, err := kube.NewCRDClient(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	cc.PollInterval = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	all := crds.All()
	if err := cc.Apply(ctx, all); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, crd := range all {
		names = append(names, crd.Name)
	}
	if err := cc.WaitEstablished(ctx, names, nil); err != nil {
		t.Fatal(err)
	}
}

func crdEstablished(c *testenv.Cluster, name string) error {
	crd, err := crdClient(c).ApiextensionsV1().CustomResourceDefinitions().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	for _, cond := range crd.Status.Conditions {
		if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
			return nil
		}
	}
	return fmt.Errorf("CRD %s is not Established: %+v", name, crd.Status.Conditions)
}

// crdManagedBy checks that manager applied the CRD's spec with server-side apply.
func crdManagedBy(c *testenv.Cluster, name, manager string) error {
	crd, err := crdClient(c).ApiextensionsV1().CustomResourceDefinitions().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	for _, mf := range crd.ManagedFields {
		if mf.Manager == manager && mf.Operation == metav1.ManagedFieldsOperationApply {
			return nil
		}
	}
	return fmt.Errorf("CRD %s has no apply entry of %s in its managed fields", name, manager)
}

// setCRDBundle stamps a CRD as installed from another bundle, as an older provider version
// would have left it.
func setCRDBundle(t *testing.T, c *testenv.Cluster, name, bundle string) {
	t.Helper()
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, crds.BundleAnnotation, bundle)
	if _, err := crdClient(c).ApiextensionsV1().CustomResourceDefinitions().Patch(context.Background(), name, types.MergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: "older-provider"}); err != nil {
		t.Fatalf("stamp CRD %s: %v", name, err)
	}
}

func crdBundle(t *testing.T, c *testenv.Cluster, name string) string {
	t.Helper()
	crd, err := crdClient(c).ApiextensionsV1().CustomResourceDefinitions().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("read CRD %s: %v", name, err)
	}
	return crd.Annotations[crds.BundleAnnotation]
}
