package simulation

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/nodeclaim/disruption"
)

// NodeClassDrift is the reason both cloud providers give when a node class's hash changed.
const NodeClassDrift cloudprovider.DriftReason = "NodeClassDrift"

// DriftedNode is a running NodeClaim that Karpenter marks Drifted once the NodePools and node
// classes of a change are applied.
type DriftedNode struct {
	NodeClaim, Node, NodePool        string
	InstanceType, Zone, CapacityType string
	Reason                           cloudprovider.DriftReason
}

// DriftResult is what a change does to the running NodeClaims' Drifted condition.
type DriftResult struct {
	Drifted []DriftedNode
	// Checked counts the NodeClaims judged: those of the pools the change holds.
	Checked int
	// Assumptions say what could not be judged offline.
	Assumptions []string

	// pools are the change's NodePools as judged (defaulted, with their hashes).
	pools map[string]*karpv1.NodePool
}

// Drift judges each NodeClaim of the snapshot against its NodePool and node class as the
// change (in) holds them, as Karpenter's Drift controller and its cloud provider would once the
// change is applied. Node classes the change does not hold are taken as the cluster has them.
func Drift(ctx context.Context, s *analysis.Analyzer, snap *clusterstate.Snapshot, in Input) (*DriftResult, error) {
	pools := map[string]*karpv1.NodePool{}
	res := &DriftResult{pools: pools}
	for _, body := range in.NodePools {
		p, skip, err := defaultedPool(ctx, body)
		if err != nil {
			return nil, err
		}
		if skip != "" {
			res.Assumptions = append(res.Assumptions, skip+"; its nodes are not judged for drift")
			continue
		}
		pools[p.Name] = disruption.WithHash(p.NodePool)
	}
	changed := classesByRef(s.Clouds(), in.NodeClasses)
	live := map[nodeClassKey]map[string]any{}
	for _, o := range snap.NodeClasses {
		live[keyOf(nodeClassKind(s.Clouds(), o.Body), nameOf(o.Body))] = o.Body
	}
	typesOf := map[nodeClassKey][]*cloudprovider.InstanceType{}
	for _, claim := range snap.NodeClaims {
		pool, ok := pools[claim.Labels[karpv1.NodePoolLabelKey]]
		if !ok {
			continue
		}
		res.Checked++
		ref := claim.Spec.NodeClassRef
		var key nodeClassKey
		if ref != nil {
			key = keyOf(schema.GroupKind{Group: ref.Group, Kind: ref.Kind}, ref.Name)
		}
		nodeClassDrift := func() cloudprovider.DriftReason {
			r, why := nodeClassDrifted(s.Clouds(), claim, changed[key], live[key])
			if why != "" && !slices.Contains(res.Assumptions, why) {
				res.Assumptions = append(res.Assumptions, why)
			}
			return r
		}
		its, ok := typesOf[key]
		if !ok {
			its = claimInstanceTypes(s, in.Region, changed[key], live[key], claim)
			typesOf[key] = its // a node class is decoded once, not once per NodeClaim
		}
		reason := disruption.Drifted(pool, claim, its, nodeClassDrift)
		if reason == "" {
			continue
		}
		res.Drifted = append(res.Drifted, DriftedNode{
			NodeClaim: claim.Name, Node: claim.Status.NodeName, NodePool: pool.Name, Reason: reason,
			InstanceType: claim.Labels[corev1.LabelInstanceTypeStable], Zone: claim.Labels[corev1.LabelTopologyZone],
			CapacityType: claim.Labels[karpv1.CapacityTypeLabelKey],
		})
	}
	res.Assumptions = append(res.Assumptions, "drift by node image, Kubernetes version, kubelet identity, AMI, subnets and security groups needs the cloud's live state and is not judged")
	return res, nil
}

// classesByRef reads node-class bodies with the API server's defaults, by nodeClassRef.
func classesByRef(clouds *cloud.Registry, bodies []map[string]any) map[nodeClassKey]map[string]any {
	out := map[nodeClassKey]map[string]any{}
	for _, body := range bodies {
		obj := deepCopy(body)
		gk := nodeClassKind(clouds, obj)
		if k := kinds.ForGroupKind(gk); k != nil {
			if v, err := crdvalidate.For(k.GVK); err == nil {
				v.Default(obj)
			}
		}
		out[keyOf(gk, nameOf(obj))] = obj
	}
	return out
}

// nodeClassDrifted is the cloud provider's static node-class drift (areStaticFieldsDrifted of
// either provider). A NodeClaim already drifted from the live class stays so; otherwise a
// changed class drifts it when its hash differs from the live class's, computed the same way.
// Without the live class, the changed class's hash is compared with the NodeClaim's. It also
// returns what it had to assume, "" for nothing.
func nodeClassDrifted(clouds *cloud.Registry, claim *karpv1.NodeClaim, changed, live map[string]any) (cloudprovider.DriftReason, string) {
	ref := claim.Spec.NodeClassRef
	if ref == nil {
		return "", "" // a NodeClaim names its node class; one that does not has no class to drift from
	}
	c, ok := clouds.ForGroup(ref.Group)
	if !ok {
		return "", ""
	}
	d, drifts := c.(cloud.Drifter)
	if !drifts || (changed == nil && live == nil) {
		return "", ""
	}
	unreadable := func(err error) (cloudprovider.DriftReason, string) {
		return "", fmt.Sprintf("%s/%s: %v; its NodeClaims are not judged for node-class drift", ref.Kind, ref.Name, err)
	}
	var next cloud.NodeClassHash
	if changed != nil {
		var err error
		if next, err = d.NodeClassHash(changed); err != nil {
			return unreadable(err)
		}
	}
	if live != nil {
		now, err := d.NodeClassHash(live)
		if err != nil {
			return unreadable(err)
		}
		if staticDrift(claim, annotated(live, now)) || (changed != nil && next.Hash != now.Hash) {
			return NodeClassDrift, ""
		}
		return "", ""
	}
	why := ""
	if !next.Complete {
		why = fmt.Sprintf("%s/%s is not in the cluster state: its hash is compared with its NodeClaims' without what the cluster adds to it", ref.Kind, ref.Name)
	}
	if staticDrift(claim, next) {
		return NodeClassDrift, why
	}
	return "", why
}

// annotated is the hash the provider's controller wrote on a live node class, under the keys
// of h.
func annotated(obj map[string]any, h cloud.NodeClassHash) cloud.NodeClassHash {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	hash, _ := ann[h.Key].(string)
	version, _ := ann[h.VersionKey].(string)
	return cloud.NodeClassHash{Key: h.Key, VersionKey: h.VersionKey, Hash: hash, Version: version}
}

// staticDrift is the providers' rule: both hashes and both versions present, the versions
// equal and the hashes not.
func staticDrift(claim *karpv1.NodeClaim, h cloud.NodeClassHash) bool {
	hash, ok1 := claim.Annotations[h.Key]
	version, ok2 := claim.Annotations[h.VersionKey]
	if !ok1 || !ok2 || h.Hash == "" || h.Version == "" || version != h.Version {
		return false
	}
	return hash != h.Hash
}

// claimInstanceTypes are the instance types Karpenter's cloud provider lists for the
// NodeClaim's node class, for the check that its type is still offered (made an hour after a
// NodeClaim's creation, so for every NodeClaim once the change has settled); nil, not
// checked, without a region the cloud serves.
func claimInstanceTypes(s *analysis.Analyzer, region string, changed, live map[string]any, claim *karpv1.NodeClaim) []*cloudprovider.InstanceType {
	ref := claim.Spec.NodeClassRef
	if ref == nil {
		return nil
	}
	c, ok := s.Clouds().ForGroup(ref.Group)
	if !ok || region == "" || !c.HasRegion(region) {
		return nil
	}
	body := changed
	if body == nil {
		body = live
	}
	nc := c.DefaultNodeClass()
	if body != nil {
		if decoded, err := c.DecodeNodeClass(body); err == nil {
			nc = decoded
		}
	}
	return s.RegionTypes(region, nc).CloudProvider()
}
