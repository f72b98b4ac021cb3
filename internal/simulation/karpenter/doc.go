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
//	enumerate.go,           replayed and enumerated
//	symmetry.go
//
// It answers, for the pinned versions (sigs.k8s.io/karpenter v1.14.x scheduler,
// karpenter-provider-azure v1.14.2 launch), which NodeClaims Karpenter creates for a batch of
// pending pods, which pods it binds to each, and which size, capacity type and zone the cloud
// provider launches for each.
//
// It follows the scheduler's own rules, step by step: the queue order (cpu, then memory,
// descending, then creation time and UID), in-flight NodeClaims tried before new ones in
// the order Karpenter sorts them (fewest pods first, with the same sort), NodePools by weight
// then name, the per-NodeClaim narrowing of instance-type options as pods are added, daemon
// overhead per group of instance types a DaemonSet can run on, limits charged with the largest
// option, minValues, topology spread, pod (anti-)affinity and the relaxation of preferences.
// Requirements algebra, resource arithmetic, offerings and the Azure provider's allocation
// strategy are imported from upstream (sigs.k8s.io/karpenter/pkg/scheduling,
// pkg/cloudprovider, pkg/utils/resources, karpenter-provider-azure's allocationstrategy),
// never copied; the scheduler's controller package is not imported, so that it never reaches
// the provider binary. internal/simulation/benchcmp runs Karpenter's scheduler next to it on the
// same inputs and reports where the two differ.
package karpenter
