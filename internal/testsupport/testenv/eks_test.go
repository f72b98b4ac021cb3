package testenv

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var ec2NodeClasses = schema.GroupVersionResource{Group: "karpenter.k8s.aws", Version: "v1", Resource: "ec2nodeclasses"}

// The default cluster serves only the CRDs AKS ships; Options.EKS adds the EC2NodeClass CRD,
// whose own rules then judge what is written (startup time logged: go test -v -run TestEKS).
func TestEKSOptionInstallsEC2NodeClass(t *testing.T) {
	c := Get(t)
	ctx := context.Background()
	if _, err := c.Dynamic.Resource(ec2NodeClasses).List(ctx, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the default cluster serves EC2NodeClasses (list: %v): the AKS tests must see only the CRDs AKS ships", err)
	}
	start := time.Now()
	eks, err := StartWith(Options{EKS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eks.Stop()
	t.Logf("cluster with the EC2NodeClass CRD started in %v", time.Since(start).Round(time.Millisecond))
	if _, err := eks.Dynamic.Resource(ec2NodeClasses).List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatalf("list EC2NodeClasses: %v", err)
	}
}
