// Package disruption emulates Karpenter's disruption controller (sigs.k8s.io/karpenter
// v1.14.x pkg/controllers/disruption) and the NodeClaim controllers that make its candidates,
// on a simulated clock.
//
// Each file emulates one upstream file. Paths are under pkg/controllers/disruption/ unless
// named.
//
//	file                        upstream file: functions followed
//	controller.go               controller.go: NewMethods (the order), Reconcile, disrupt
//	types.go                    types.go: Candidate, NewCandidate, Command, Decision,
//	                            EstimatedSavings, ScoreResult; ../state/statenode.go:
//	                            ValidateNodeDisruptable, Nominate, nominationWindow
//	helpers.go                  helpers.go: SimulateScheduling, GetCandidatesWithTotals,
//	                            BuildNodePoolMap, BuildDisruptionBudgetMapping, mapCandidates;
//	                            ../state/statenode.go: ValidatePodsDisruptable
//	pdb.go                      ../../utils/pdb/pdb.go: NewLimits, CanEvictPods, isEvictable,
//	                            IsCurrentlyReschedulable (a PDB's status computed as
//	                            kube-controller-manager's disruption controller computes it)
//	emptiness.go                emptiness.go: ShouldDisrupt, ComputeCommands
//	staticdrift.go              staticdrift.go: ShouldDisrupt, ComputeCommands
//	drift.go                    drift.go: ShouldDisrupt, ComputeCommands
//	consolidation.go            consolidation.go: ShouldDisrupt, sortCandidates,
//	                            computeConsolidation, computeSpotToSpotConsolidation;
//	                            ../provisioning/scheduling/nodeclaim.go:
//	                            RemoveInstanceTypeOptionsByPriceAndMinValues
//	multinodeconsolidation.go   multinodeconsolidation.go: ComputeCommands,
//	                            firstNConsolidationOption, filterOutSameInstanceType
//	singlenodeconsolidation.go  singlenodeconsolidation.go: ComputeCommands, SortCandidates,
//	                            shuffleCandidates
//	balanced.go                 balanced.go: computeNodePoolTotals, ScoreMove,
//	                            EvaluateBalancedMove, balancedEvaluator
//	validation.go               validation.go: EmptinessValidator, ConsolidationValidator
//	                            (validateCandidates, validateCommand), instanceTypesAreSubset
//	queue.go                    queue.go: StartCommand, Reconcile (replacements initialized,
//	                            then the candidates deleted); ../node/termination: the drain
//	lifecycle.go                ../nodeclaim/lifecycle/initialization.go,
//	                            ../nodeclaim/disruption/consolidation.go,
//	                            ../nodeclaim/disruption/drift.go (via nodeclaim/disruption),
//	                            ../nodeclaim/expiration/controller.go,
//	                            ../nodeclaim/podevents/controller.go
//	replicaset.go               none: kube-controller-manager's ReplicaSet controller
//	                            recreating an evicted pod (a new UID, created at the eviction)
//	run.go                      none: the operator running these controllers and the
//	                            provisioner, on a simulated clock, to a steady state
//	ties.go                     none: the orders upstream leaves to Go's map order and
//	                            unstable sorts, as choices a tie-breaker resolves
//
// Budgets (NodePool.MustGetAllowedDisruptions), the NodePool hash, eviction costs
// (utils/disruption), pod predicates (utils/pod), offerings' prices and the requirements
// algebra are Karpenter's own functions, imported and called on the simulated clock. The
// scheduling simulation is the scheduler emulation (package karpenter), and a replacement's
// launch is its pool's cloud launch choice (cloud.Launcher), AKS or EKS.
//
// What is not emulated, and assumed instead:
//   - time a NodeClaim takes to initialize (Options.LaunchToInitialized, default 90s);
//   - an evicted pod is recreated as a new pending pod, its controller taken to be a
//     ReplicaSet (the emulation's pods carry no owner): a pod without one would not come
//     back upstream; the new pod keeps the evicted one's name, and its UID is drawn from the
//     evicted one's where the API server draws at random (Cluster.ReplacementUID sets it);
//   - recreated pods are bound again at once, where Karpenter's scheduler would place them
//     (the kube-scheduler's scoring is not emulated), and are ready once bound;
//   - a drain evicts at once every pod whose PDB allows a disruption, where the eviction API
//     takes one disruption from the PDB per eviction and refuses the next (429, retried by
//     the terminator) until the PDB's status is computed again: with evicted pods ready once
//     bound, the retries are taken to end the same way;
//   - where upstream breaks a tie by Go map order or an unstable sort (candidates of equal
//     savings ratio or drift time, the pools of single-node consolidation, the candidates a
//     budget admits in static drift and emptiness's validation), the node order decides by
//     default; each such choice is counted (Cluster.Ties, RunResult.Ties) and resolved by the
//     cluster's Input.TieBreaks when set, so that other outcomes can be enumerated (ties.go);
//   - the wall-clock timeouts of multi-node (1 min) and single-node (3 min) consolidation,
//     and the IsConsolidated shortcut, do not apply: the emulation is deterministic;
//   - the Drifted check for an instance type no longer offered (made an hour after
//     creation upstream) is not made.
package disruption
