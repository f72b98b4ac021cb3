package crdresource

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/client-go/rest"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// A listing the API server refuses is a warning naming the permission, never an error.
func TestListForImpactRefusedIsAWarning(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,` +
			`"message":"nodeclaims.karpenter.sh is forbidden: User \"ci\" cannot list resource \"nodeclaims\""}`))
	}))
	defer srv.Close()
	client, err := kube.New(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	pc := &PlanContext{Diags: &diags}
	if _, ok := pc.ListForImpact(context.Background(), client, NodeClaimsGVR, "karpenter.sh/nodepool=general"); ok {
		t.Fatal("a refused listing reported success")
	}
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("diagnostics %v: want one warning, no error", diags)
	}
	detail := diags.Warnings()[0].Detail()
	if !strings.Contains(detail, "get and list on nodeclaims.karpenter.sh") || !strings.Contains(detail, "checks.cluster_impact = false") {
		t.Errorf("warning %q: want the permission and the switch named", detail)
	}
}
