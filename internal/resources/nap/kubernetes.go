package nap

// The Kubernetes side of the resource: the Karpenter CRDs, and the NAP nodes that keep AKS
// from switching back to Manual.

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// crds installs the CRDs when asked and waits until they are Established.
// kc are the clients of the resource's cluster (providerdata.Data.KubeOf).
func (r *Resource) crds(ctx context.Context, kc *connect.Clients, manage bool) error {
	cfg, err := kc.RESTConfig(ctx)
	if err != nil {
		return fmt.Errorf("the CRDs are checked through the provider's kubernetes connection, which is not usable: %w. "+
			"Configure the provider's kubernetes block (e.g. kubernetes = { aks_cluster_id = ... }), or set wait_for_crds = false", err)
	}
	cc, err := kube.NewCRDClient(cfg)
	if err != nil {
		return err
	}
	cc.PollInterval = kc.DeletePollInterval
	names := append([]string(nil), kube.KarpenterCRDs...)
	if manage {
		all := crds.All()
		for _, c := range all {
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations[crds.BundleAnnotation] = crds.Bundle()
		}
		if err := cc.Apply(ctx, all); err != nil {
			return err
		}
		names = names[:0]
		for _, c := range all {
			names = append(names, c.Name)
		}
	}
	return cc.WaitEstablished(ctx, names, func(msg string) { tflog.Info(ctx, msg) })
}

var (
	nodesGVR      = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	nodeClaimsGVR = kinds.NodeClaim.GVR()
)

// checkNoNAPNodes reports the nodes and NodeClaims that keep AKS from leaving Auto mode.
func (r *Resource) checkNoNAPNodes(ctx context.Context, kc *connect.Clients, cluster string, diags *diag.Diagnostics) bool {
	fail := func(detail string) bool {
		diags.AddError("Cannot switch node provisioning back to Manual", detail)
		return false
	}
	client, err := kc.Kube(ctx)
	if err != nil {
		return fail(fmt.Sprintf("AKS refuses to leave Auto mode while nodes provisioned by NAP exist, and the provider cannot look for them: %v. "+
			"Configure the provider's kubernetes connection, or set switch_back_to_manual_on_destroy = false to leave NAP enabled.", err))
	}
	nodes, err := client.List(ctx, nodesGVR, "karpenter.sh/nodepool")
	if err != nil {
		return fail("Listing the cluster's nodes failed: " + err.Error())
	}
	claims, err := client.List(ctx, nodeClaimsGVR, "")
	if apierrors.IsNotFound(err) {
		claims, err = nil, nil // no NodeClaim CRD: Karpenter never ran here
	}
	if err != nil {
		return fail("Listing the cluster's NodeClaims failed: " + err.Error())
	}
	if len(nodes) == 0 && len(claims) == 0 {
		return true
	}
	var what []string
	for _, n := range nodes {
		what = append(what, fmt.Sprintf("node %s (NodePool %s)", n.GetName(), n.GetLabels()["karpenter.sh/nodepool"]))
	}
	for _, c := range claims {
		what = append(what, "NodeClaim "+c.GetName())
	}
	sort.Strings(what)
	return fail(fmt.Sprintf("AKS refuses to set the node provisioning mode of %s to Manual while nodes provisioned by NAP exist. Still present: %s.\n\n"+
		"Delete the NodePools that own them (the karpenter_nodepool resources, and AKS's default pools by setting default_node_pools = \"None\"), "+
		"wait until Karpenter has drained and removed the nodes, then try again. Or set switch_back_to_manual_on_destroy = false to leave NAP enabled.",
		cluster, strings.Join(what, ", ")))
}

func (r *Resource) crdsEstablished(ctx context.Context, kc *connect.Clients, manage bool) (bool, error) {
	cfg, err := kc.RESTConfig(ctx)
	if err != nil {
		return false, err
	}
	cc, err := kube.NewCRDClient(cfg)
	if err != nil {
		return false, err
	}
	names := kube.KarpenterCRDs
	if manage {
		names = nil
		for _, c := range crds.All() {
			names = append(names, c.Name)
		}
	}
	m, err := cc.States(ctx, names)
	if err != nil {
		return false, err
	}
	if manage {
		// CRDs from another provider version count as not ready, so that the plan shows the
		// upgrade and the apply installs this version's.
		for name, s := range m {
			if s.Annotations[crds.BundleAnnotation] != crds.Bundle() {
				tflog.Info(ctx, "CRD is not the version this provider ships", map[string]any{"crd": name, "bundle": s.Annotations[crds.BundleAnnotation], "want": crds.Bundle()})
				return false, nil
			}
		}
	}
	return kube.AllEstablished(m), nil
}
