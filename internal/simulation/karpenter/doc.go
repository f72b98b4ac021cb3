// Package karpenter emulates Karpenter's provisioning decision on AKS and EKS.
//
// Each file emulates one upstream file, so that a new Karpenter release is diffed file by
// file. Paths are under sigs.k8s.io/karpenter/pkg/controllers/provisioning/ unless named.
//
//	file                    upstream file
//	input.go                provisioner.go (the scheduler's inputs, NewScheduler)
//	scheduler.go            scheduling/scheduler.go
//	queue.go                scheduling/queue.go
//	preferences.go          scheduling/preferences.go
//	nodeclaim.go            scheduling/nodeclaim.go
//	nodeclaimtemplate.go    scheduling/nodeclaimtemplate.go, and scheduler.go's daemon overhead
//	existingnode.go         scheduling/existingnode.go, and scheduler.go's
//	                        calculateExistingNodeClaims and addToExistingNode
//	statenode.go            ../state/statenode.go (a launched NodeClaim as a state node)
//	topology.go             scheduling/topology.go
//	domains.go              scheduling/topology.go (buildDomainGroups)
//	topologydomaingroup.go  scheduling/topologydomaingroup.go
//	topologygroup.go        scheduling/topologygroup.go
//	topologynodefilter.go   scheduling/topologynodefilter.go
//	launch.go               provisioner.go (Create), and the cloud provider's Create
//	                        (karpenter-provider-azure pkg/providers/instance, via internal/cloud)
//	shape.go, vector.go     none: per-workload and three-integer forms of scheduling.PodData
//	                        and resource lists, for speed
//	compat*.go              none: memos of nodeclaim.go's compatible and fits
//	memo.go                 none: the existing nodes' sums kept between Solves on one
//	                        cluster (state.Cluster keeps them upstream)
//	memodomains.go          none: the last round's domain index, kept while the pools and
//	                        their instance types are the same
//	ties.go, replay.go,     none: Karpenter's random tie-breaks (Go map order), counted,
//	enumerate.go,           replayed, enumerated and searched toward the cheapest and the
//	symmetry.go,            dearest outcome
//	extremes.go
//
// It answers for the pinned versions: the sigs.k8s.io/karpenter v1.14.x scheduler and the
// karpenter-provider-azure v1.14.2 launch. For a batch of pending pods it says which
// NodeClaims Karpenter creates and which pods it binds to each. For each NodeClaim it says
// which size, capacity type and zone the cloud provider launches.
//
// It follows the scheduler's own rules, step by step:
//
//   - the queue order: cpu, then memory, descending, then creation time and UID;
//   - in-flight NodeClaims before new ones, fewest pods first, with Karpenter's sort;
//   - NodePools by weight, then name;
//   - the narrowing of each NodeClaim's instance-type options as pods are added;
//   - daemon overhead per group of instance types a DaemonSet can run on;
//   - limits charged with the largest option, and minValues;
//   - topology spread, pod (anti-)affinity and the relaxation of preferences.
//
// The requirements algebra, resource arithmetic, offerings and the Azure provider's
// allocation strategy are imported from upstream, never copied. They are
// sigs.k8s.io/karpenter/pkg/scheduling, pkg/cloudprovider, pkg/utils/resources and
// karpenter-provider-azure's allocationstrategy. The scheduler's controller package is not
// imported, so it never reaches the provider binary. internal/simulation/benchcmp runs
// Karpenter's scheduler next to it on the same inputs and reports where the two differ.
package karpenter
