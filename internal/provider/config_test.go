package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
)

const validClusterID = "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod"

// connectionEnv lists the variables the provider reads; tests clear them so that the
// machine's own settings cannot satisfy or break a configuration.
var connectionEnv = []string{
	"KUBE_CONFIG_PATH", "KUBE_CTX", "KUBE_HOST", "KUBE_TOKEN",
	"ARM_SUBSCRIPTION_ID", "ARM_TENANT_ID", "ARM_CLIENT_ID", "ARM_CLIENT_SECRET", "ARM_CLIENT_CERTIFICATE_PATH",
	"ARM_CLIENT_CERTIFICATE_PASSWORD", "ARM_USE_CLI", "ARM_USE_MSI", "ARM_USE_OIDC", "ARM_OIDC_TOKEN_FILE_PATH", "ARM_ENVIRONMENT",
	"AZURE_CLIENT_ID", "AZURE_TENANT_ID", "AZURE_CLIENT_SECRET", "AZURE_FEDERATED_TOKEN_FILE",
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
}

func clearConnectionEnv(t *testing.T) {
	for _, e := range connectionEnv {
		t.Setenv(e, "")
	}
}

// value builds a value of type typ from spec: strings, bools, []string, map[string]string
// (for map attributes), nested map[string]any objects, or a tftypes.Value such as an unknown.
// Attributes not in spec are null, as Terraform sends them.
func value(t *testing.T, typ tftypes.Type, spec any) tftypes.Value {
	t.Helper()
	if v, ok := spec.(tftypes.Value); ok {
		return v
	}
	switch s := spec.(type) {
	case nil:
		return tftypes.NewValue(typ, nil)
	case string, bool:
		return tftypes.NewValue(typ, s)
	case []string:
		elems := make([]tftypes.Value, len(s))
		for i, e := range s {
			elems[i] = tftypes.NewValue(tftypes.String, e)
		}
		return tftypes.NewValue(typ, elems)
	case map[string]string:
		elems := map[string]tftypes.Value{}
		for k, e := range s {
			elems[k] = tftypes.NewValue(tftypes.String, e)
		}
		return tftypes.NewValue(typ, elems)
	case map[string]any:
		ot, ok := typ.(tftypes.Object)
		if !ok {
			t.Fatalf("spec %v for non-object type %s", s, typ)
		}
		for k := range s {
			if _, ok := ot.AttributeTypes[k]; !ok {
				t.Fatalf("no attribute %q in %s", k, typ)
			}
		}
		attrs := map[string]tftypes.Value{}
		for k, at := range ot.AttributeTypes {
			attrs[k] = value(t, at, s[k])
		}
		return tftypes.NewValue(typ, attrs)
	}
	t.Fatalf("unsupported spec %T", spec)
	return tftypes.Value{}
}

// configure runs what Terraform runs for a provider block: validation, then, if that passed,
// Configure. It returns all diagnostics.
func configure(t *testing.T, spec map[string]any, opts ...provider.Option) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("test", opts...)())()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ := schema.Provider.ValueType()
	cfg, err := tfprotov6.NewDynamicValue(typ, value(t, typ, spec))
	if err != nil {
		t.Fatal(err)
	}
	v, err := srv.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	diags := v.Diagnostics
	if hasError(diags) {
		return diags
	}
	c, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	return append(diags, c.Diagnostics...)
}

func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

func describe(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "\n  [%s] %s at %v: %s", d.Severity, d.Summary, d.Attribute, d.Detail)
	}
	return b.String()
}

func at(steps ...string) *tftypes.AttributePath {
	p := tftypes.NewAttributePath()
	for _, s := range steps {
		p = p.WithAttributeName(s)
	}
	return p
}

type wantDiag struct {
	path    *tftypes.AttributePath
	summary string
	detail  string
}

func TestProviderConfigDiagnostics(t *testing.T) {
	dir := t.TempDir()
	malformed := filepath.Join(dir, "malformed")
	if err := os.WriteFile(malformed, []byte("apiVersion: v1\nclusters: [ this is: not yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(good, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: dev, context: {cluster: c, user: u}}, {name: prod, context: {cluster: c, user: u}}]
current-context: dev
`), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "does-not-exist")
	k := func(attrs map[string]any) map[string]any { return map[string]any{"kubernetes": attrs} }
	exec := map[string]any{"api_version": "client.authentication.k8s.io/v1beta1", "command": "kubelogin", "args": []string{"get-token"}}

	cases := []struct {
		name   string
		env    map[string]string
		config map[string]any
		want   *wantDiag
	}{
		{name: "empty configuration", config: map[string]any{}},
		{name: "aks_cluster_id alone", config: k(map[string]any{"aks_cluster_id": validClusterID})},
		{name: "aks_cluster_id with admin credentials", config: k(map[string]any{"aks_cluster_id": validClusterID, "use_admin_credentials": true})},
		{name: "readable kubeconfig and context", config: k(map[string]any{"config_path": good, "config_context": "prod"})},
		{name: "aks_cluster_id ignores KUBE_CONFIG_PATH", env: map[string]string{"KUBE_CONFIG_PATH": missing}, config: k(map[string]any{"aks_cluster_id": validClusterID})},

		{name: "aks_cluster_id with config_path", config: k(map[string]any{"aks_cluster_id": validClusterID, "config_path": good}),
			want: &wantDiag{at("kubernetes", "config_path"), "Invalid Attribute Combination", `"kubernetes.aks_cluster_id"`}},
		{name: "aks_cluster_id with host", config: k(map[string]any{"aks_cluster_id": validClusterID, "host": "https://aks.example:443"}),
			want: &wantDiag{at("kubernetes", "host"), "Invalid Attribute Combination", `"kubernetes.aks_cluster_id"`}},
		{name: "aks_cluster_id with exec", config: k(map[string]any{"aks_cluster_id": validClusterID, "exec": exec}),
			want: &wantDiag{at("kubernetes", "aks_cluster_id"), "Invalid Attribute Combination", `"kubernetes.exec"`}},
		{name: "aks_cluster_id with token", config: k(map[string]any{"aks_cluster_id": validClusterID, "token": "t"}),
			want: &wantDiag{at("kubernetes", "token"), "Invalid Attribute Combination", `"kubernetes.aks_cluster_id"`}},
		{name: "aks_cluster_id with insecure", config: k(map[string]any{"aks_cluster_id": validClusterID, "insecure": true}),
			want: &wantDiag{at("kubernetes", "insecure"), "Invalid Attribute Combination", `"kubernetes.aks_cluster_id"`}},
		// kubernetes.eks_cluster_name names the cluster; every other way of naming one is an
		// error on that setting, saying which ways are valid.
		{name: "eks_cluster_name", config: map[string]any{"kubernetes": map[string]any{"eks_cluster_name": "prod-euw1"}, "aws": map[string]any{"region": "eu-west-1"}}},
		{name: "eks_cluster_name with host", config: k(map[string]any{"eks_cluster_name": "prod-euw1", "host": "https://eks.example:443"}),
			want: &wantDiag{at("kubernetes", "host"), "Conflicting connection settings", "Connect one way: eks_cluster_name (with aws.region), aks_cluster_id, or config_path"}},
		{name: "eks_cluster_name with config_path", config: k(map[string]any{"eks_cluster_name": "prod-euw1", "config_path": good}),
			want: &wantDiag{at("kubernetes", "config_path"), "Conflicting connection settings", "kubernetes.eks_cluster_name and kubernetes.config_path both say how to reach the cluster"}},
		{name: "eks_cluster_name with aks_cluster_id", config: k(map[string]any{"eks_cluster_name": "prod-euw1", "aks_cluster_id": validClusterID}),
			want: &wantDiag{at("kubernetes", "aks_cluster_id"), "Conflicting connection settings", "Connect one way"}},
		{name: "eks_cluster_name with exec", config: k(map[string]any{"eks_cluster_name": "prod-euw1", "exec": map[string]any{"api_version": "client.authentication.k8s.io/v1beta1", "command": "aws"}}),
			want: &wantDiag{at("kubernetes", "exec"), "Conflicting connection settings", "Connect one way"}},
		{name: "eks_cluster_name that is an ARN", config: k(map[string]any{"eks_cluster_name": "arn:aws:eks:eu-west-1:123456789012:cluster/prod"}),
			want: &wantDiag{at("kubernetes", "eks_cluster_name"), "Invalid EKS cluster name", "not its ARN"}},
		{name: "KUBE_CONFIG_PATH beside eks_cluster_name", env: map[string]string{"KUBE_CONFIG_PATH": missing}, config: k(map[string]any{"eks_cluster_name": "prod-euw1"})},
		{name: "aws endpoint that is not a URL", config: map[string]any{"aws": map[string]any{"endpoints": map[string]any{"eks": "eks.eu-west-1.amazonaws.com"}}},
			want: &wantDiag{at("aws", "endpoints", "eks"), "Invalid Attribute Value Match", "must be an http(s) URL"}},
		{name: "assume_role that is not a role", config: map[string]any{"aws": map[string]any{"assume_role": map[string]any{"role_arn": "arn:aws:iam::123456789012:user/me"}}},
			want: &wantDiag{at("aws", "assume_role", "role_arn"), "Invalid Attribute Value Match", "must be an IAM role ARN"}},
		{name: "admin credentials without aks_cluster_id", config: k(map[string]any{"config_path": good, "use_admin_credentials": true}),
			want: &wantDiag{at("kubernetes", "use_admin_credentials"), "Invalid Attribute Combination", `"kubernetes.aks_cluster_id"`}},

		{name: "cluster ID that is not an ID", config: k(map[string]any{"aks_cluster_id": "aks-prod"}),
			want: &wantDiag{at("kubernetes", "aks_cluster_id"), "Invalid AKS cluster ID", `kubernetes.aks_cluster_id = "aks-prod": not an Azure resource ID`}},
		{name: "cluster ID of another resource type", config: k(map[string]any{"aks_cluster_id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm1"}),
			want: &wantDiag{at("kubernetes", "aks_cluster_id"), "Invalid AKS cluster ID", "resource type is Microsoft.Compute/virtualMachines, expected Microsoft.ContainerService/managedClusters"}},
		{name: "cluster ID of an agent pool", config: k(map[string]any{"aks_cluster_id": validClusterID + "/agentPools/system"}),
			want: &wantDiag{at("kubernetes", "aks_cluster_id"), "Invalid AKS cluster ID", "resource type is Microsoft.ContainerService/managedClusters/agentPools"}},
		{name: "cluster ID without resource group", config: k(map[string]any{"aks_cluster_id": "/subscriptions/s/providers/Microsoft.ContainerService/managedClusters/aks1"}),
			want: &wantDiag{at("kubernetes", "aks_cluster_id"), "Invalid AKS cluster ID", "names no subscription or resource group"}},

		// A kubeconfig is read on first use, not here (TestProviderReadsKubeconfigOnFirstUse).
		{name: "kubeconfig that does not exist", config: k(map[string]any{"config_path": missing})},
		{name: "KUBE_CONFIG_PATH that does not exist", env: map[string]string{"KUBE_CONFIG_PATH": missing}, config: map[string]any{}},

		// Issue 31 item 8: a region typo is one error on the attribute it comes from, with the
		// nearest region, for an Azure and an AWS region alike.
		{name: "Azure region typo", config: map[string]any{"region": "westeurop"},
			want: &wantDiag{at("region"), "Unknown region", `unknown region "westeurop": neither an Azure region nor an AWS region of the catalogs (did you mean westeurope?). The plan-time checks price and check every NodePool in this region. Set it to westeurope.`}},
		{name: "AWS region typo", config: map[string]any{"region": "us-east-l"},
			want: &wantDiag{at("region"), "Unknown region", "did you mean us-east-1"}},
		{name: "aws.region typo of the EKS cluster", config: map[string]any{"kubernetes": map[string]any{"eks_cluster_name": "prod"}, "aws": map[string]any{"region": "eu-west-l"}},
			want: &wantDiag{at("aws", "region"), "Unknown region", "did you mean eu-west-1"}},
		{name: "region without a near one", config: map[string]any{"region": "moon"},
			want: &wantDiag{at("region"), "Unknown region", "(e.g. westeurope, us-east-1). The plan-time checks price and check every NodePool in this region. A region newer than the embedded catalogs can be added with checks.catalog_path"}},
		{name: "unknown region with KRP114 suppressed", config: map[string]any{"region": "newregion", "checks": map[string]any{"suppress": []string{"KRP114"}}}},
		{name: "unknown region with the checks off", config: map[string]any{"region": "newregion", "checks": map[string]any{"enabled": false}}},
		{name: "unknown Azure environment", config: map[string]any{"azure": map[string]any{"environment": "mars"}},
			want: &wantDiag{at("azure", "environment"), "Invalid Attribute Value Match", `"mars"`}},
		{name: "unknown ARM_ENVIRONMENT", env: map[string]string{"ARM_ENVIRONMENT": "mars"}, config: map[string]any{},
			want: &wantDiag{at("azure", "environment"), "Unknown Azure environment", "ARM_ENVIRONMENT"}},
		{name: "ARM_USE_MSI that is not a boolean", env: map[string]string{"ARM_USE_MSI": "maybe"}, config: map[string]any{},
			want: &wantDiag{at("azure", "use_msi"), "Invalid environment variable", `ARM_USE_MSI="maybe"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearConnectionEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			diags := configure(t, tc.config)
			if tc.want == nil {
				if len(diags) > 0 {
					t.Fatalf("unexpected diagnostics:%s", describe(diags))
				}
				return
			}
			if len(diags) != 1 {
				t.Fatalf("want exactly one diagnostic %q, got:%s", tc.want.summary, describe(diags))
			}
			d := diags[0]
			if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != tc.want.summary || !strings.Contains(d.Detail, tc.want.detail) {
				t.Errorf("diagnostic:%s\nwant error %q containing %q", describe(diags), tc.want.summary, tc.want.detail)
			}
			if d.Attribute == nil || !d.Attribute.Equal(tc.want.path) {
				t.Errorf("diagnostic is on %v, want %v", d.Attribute, tc.want.path)
			}
		})
	}
}

// config_path = "~/.kube/config" is how most configurations spell it.
// configuredData configures the provider and returns its data, failing on any diagnostic.
func configuredData(t *testing.T, spec map[string]any) *providerdata.Data {
	t.Helper()
	var data *providerdata.Data
	if diags := configure(t, spec, provider.WithConfigured(func(d *providerdata.Data) { data = d })); len(diags) > 0 {
		t.Fatalf("Configure reported:%s", describe(diags))
	}
	if data == nil {
		t.Fatal("Configure did not hand over provider data")
	}
	return data
}

// A kubeconfig that cannot be used fails the first use of the cluster, not Configure, with a
// message naming the file, where its path came from and what is wrong (issue 13 item 14).
func TestProviderReadsKubeconfigOnFirstUse(t *testing.T) {
	dir := t.TempDir()
	malformed := filepath.Join(dir, "malformed")
	if err := os.WriteFile(malformed, []byte("apiVersion: v1\nclusters: [ this is: not yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(good, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: dev, context: {cluster: c, user: u}}, {name: prod, context: {cluster: c, user: u}}]
current-context: dev
`), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "does-not-exist")
	k := func(attrs map[string]any) map[string]any { return map[string]any{"kubernetes": attrs} }
	cases := []struct {
		name   string
		env    map[string]string
		config map[string]any
		want   []string
	}{
		{"does not exist", nil, k(map[string]any{"config_path": missing}),
			[]string{"kubeconfig file " + missing + " (from kubernetes.config_path) cannot be read", "no such file or directory", "Point kubernetes.config_path at a readable kubeconfig"}},
		{"is a directory", nil, k(map[string]any{"config_path": dir}), []string{dir + " (from kubernetes.config_path) cannot be read", "is a directory"}},
		{"is not a kubeconfig", nil, k(map[string]any{"config_path": malformed}), []string{"The file " + malformed + " (from kubernetes.config_path) is not a kubeconfig"}},
		{"context that does not exist", nil, k(map[string]any{"config_path": good, "config_context": "staging"}), []string{`has no context "staging"`, "it has: dev, prod"}},
		{"KUBE_CONFIG_PATH that does not exist", map[string]string{"KUBE_CONFIG_PATH": missing}, map[string]any{},
			[]string{missing + " (from KUBE_CONFIG_PATH) cannot be read", "Point KUBE_CONFIG_PATH at"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearConnectionEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			data := configuredData(t, tc.config)
			_, err := data.Clients.Kube(context.Background())
			if err == nil {
				t.Fatal("first use connected")
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(w)) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestProviderConfigExpandsHomeInConfigPath(t *testing.T) {
	clearConnectionEnv(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(home, ".kube"), 0o700); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(home, ".kube", "config")
	data := configuredData(t, map[string]any{"kubernetes": map[string]any{"config_path": "~/.kube/config"}})
	if _, err := data.Clients.Kube(context.Background()); err == nil || !strings.Contains(err.Error(), want+" (from kubernetes.config_path) cannot be read") {
		t.Fatalf("missing ~/.kube/config: got %v, want an error naming %s", err, want)
	}
	if err := os.WriteFile(want, []byte("apiVersion: v1\nkind: Config\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data = configuredData(t, map[string]any{"kubernetes": map[string]any{"config_path": "~/.kube/config"}})
	if _, err := data.Clients.Kube(context.Background()); err != nil && strings.Contains(err.Error(), "cannot be read") {
		t.Fatalf("~/.kube/config not found under HOME: %v", err)
	}
}

// Values known only after apply (a cluster created in the same run) must not fail the plan,
// and until they are known the provider connects nowhere, not even to the cluster that the
// environment's kubeconfig names.
func TestProviderConfigAcceptsUnknownValues(t *testing.T) {
	unknown := func(typ tftypes.Type) tftypes.Value { return tftypes.NewValue(typ, tftypes.UnknownValue) }
	srv, _ := providerserver.NewProtocol6WithError(provider.New("test")())()
	schema, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ := schema.Provider.ValueType().(tftypes.Object)
	kubeType := typ.AttributeTypes["kubernetes"].(tftypes.Object)
	execType := kubeType.AttributeTypes["exec"].(tftypes.Object)
	cases := []struct {
		name string
		spec map[string]any
		// unknown is what the connection error names.
		unknown string
	}{
		{"whole kubernetes block", map[string]any{"kubernetes": unknown(kubeType)}, "kubernetes"},
		{"aks_cluster_id", map[string]any{"kubernetes": map[string]any{"aks_cluster_id": unknown(tftypes.String)}}, "kubernetes.aks_cluster_id"},
		{"azure block with aks_cluster_id", map[string]any{"kubernetes": map[string]any{"aks_cluster_id": validClusterID}, "azure": unknown(typ.AttributeTypes["azure"])}, "azure"},
		{"azure client secret with aks_cluster_id", map[string]any{"kubernetes": map[string]any{"aks_cluster_id": validClusterID},
			"azure": map[string]any{"tenant_id": "t", "client_id": "c", "client_secret": unknown(tftypes.String)}}, "azure.client_secret"},
		{"config_path", map[string]any{"kubernetes": map[string]any{"config_path": unknown(tftypes.String)}}, "kubernetes.config_path"},
		{"eks_cluster_name", map[string]any{"kubernetes": map[string]any{"eks_cluster_name": unknown(tftypes.String)}}, "kubernetes.eks_cluster_name"},
		{"aws role with eks_cluster_name", map[string]any{"kubernetes": map[string]any{"eks_cluster_name": "prod"},
			"aws": map[string]any{"assume_role": map[string]any{"role_arn": unknown(tftypes.String)}}}, "aws.assume_role.role_arn"},
		{"exec argument", map[string]any{"kubernetes": map[string]any{"host": "https://aks.example:443", "exec": map[string]any{
			"api_version": "client.authentication.k8s.io/v1beta1", "command": "kubelogin",
			"args": tftypes.NewValue(execType.AttributeTypes["args"], []tftypes.Value{tftypes.NewValue(tftypes.String, "get-token"), unknown(tftypes.String)}),
		}}}, "kubernetes.exec.args"},
		{"exec env", map[string]any{"kubernetes": map[string]any{"host": "https://aks.example:443", "exec": map[string]any{
			"api_version": "client.authentication.k8s.io/v1beta1", "command": "kubelogin", "env": unknown(execType.AttributeTypes["env"]),
		}}}, "kubernetes.exec.env"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearConnectionEnv(t)
			// A kubeconfig in the environment that would be used if the unknown settings
			// were taken as unset.
			envKubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
			if err := os.WriteFile(envKubeconfig, []byte("apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("KUBE_CONFIG_PATH", envKubeconfig)
			var data *providerdata.Data
			if diags := configure(t, tc.spec, provider.WithConfigured(func(d *providerdata.Data) { data = d })); len(diags) > 0 {
				t.Fatalf("diagnostics:%s", describe(diags))
			}
			if data == nil {
				t.Fatal("provider not configured")
			}
			_, err := data.Clients.Kube(context.Background())
			if err == nil || !strings.Contains(err.Error(), "settings "+tc.unknown+" are known only after apply") {
				t.Fatalf("connecting with unknown settings: %v, want an error naming %s", err, tc.unknown)
			}
		})
	}
}

// The provider's EKS cluster is in aws.region, so its pools are priced there when region is
// unset; an explicit region wins, and nothing changes for other connections.
func TestProviderRegionDefaultsToEKSRegion(t *testing.T) {
	clearConnectionEnv(t)
	for _, tc := range []struct {
		spec map[string]any
		want string
	}{
		{map[string]any{"kubernetes": map[string]any{"eks_cluster_name": "prod"}, "aws": map[string]any{"region": "eu-west-1"}}, "eu-west-1"},
		{map[string]any{"region": "us-east-1", "kubernetes": map[string]any{"eks_cluster_name": "prod"}, "aws": map[string]any{"region": "eu-west-1"}}, "us-east-1"},
		{map[string]any{"kubernetes": map[string]any{"aks_cluster_id": validClusterID}, "aws": map[string]any{"region": "eu-west-1"}}, ""},
		// As people write it, as the catalogs name it.
		{map[string]any{"region": "West Europe"}, "westeurope"},
	} {
		var data *providerdata.Data
		if diags := configure(t, tc.spec, provider.WithConfigured(func(d *providerdata.Data) { data = d })); len(diags) > 0 {
			t.Fatalf("diagnostics:%s", describe(diags))
		}
		if data.Region != tc.want {
			t.Errorf("%v: region %q, want %q", tc.spec, data.Region, tc.want)
		}
	}
}
