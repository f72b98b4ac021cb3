package findings

// Differences between clusters meant to be identical: the clusters of a group in the review's
// .karpenter-review.yaml (internal/cli/review/fleet/fleet_diff.go). Notes: a difference may be
// intended, and only the group says it is not.
const (
	FleetObjectMissing      Code = "KRP320"
	FleetLimitsDiffer       Code = "KRP321"
	FleetRequirementsDiffer Code = "KRP322"
	FleetPoolSettingsDiffer Code = "KRP323"
	FleetNodeClassDiffers   Code = "KRP324"
)

// fleetNote says where the codes are reported and how clusters are compared; the guide
// "Reviewing a fleet" (templates/guides/review-fleet.md.tmpl) has the details.
const fleetNote = "Only the review command, between the clusters of a `groups:` entry of `.karpenter-review.yaml` that " +
	"the reviewed paths hold objects for. Objects are compared by kind and name, on their `spec` with the API server's " +
	"defaults applied (not their metadata); the value most members share is the reference, and each other member gets " +
	"the note on its own object. Zone and region requirements of clusters in different regions are not compared. What " +
	"is and is not compared: [Reviewing a fleet](review-fleet.md)."

var fleetRules = []Rule{
	{
		Code: FleetObjectMissing, Name: "FleetObjectMissing", Severity: Note,
		Title: "A NodePool or node class is in some clusters of a group meant to be identical but not in the others.",
		Help: "The clusters of a group in `.karpenter-review.yaml` are meant to hold the same NodePools and node classes. " +
			"A pool present in all but some of them schedules pods there that the others leave pending (or send to another " +
			"pool, at another price). The note is on the object in the first cluster that has it, and names the clusters " +
			"that lack it; it counts for (and is suppressed per cluster in) the clusters that lack it. Add the object to " +
			"those clusters, or take the cluster out of the group if it is meant to differ.",
		Reported: Reporting{Review: true, Note: fleetNote + " A node class a lacking cluster lists under " +
			"`externalNodeClasses`, or the `default` class AKS Node Auto Provisioning creates (unless the cluster is " +
			"self-hosted), counts as present."},
	},
	{
		Code: FleetLimitsDiffer, Name: "FleetLimitsDiffer", Severity: Note,
		Title: "A NodePool's limits differ between clusters of a group meant to be identical.",
		Help: "`spec.limits` caps what Karpenter provisions for the pool; with other limits, one cluster of the group stops " +
			"launching nodes (and leaves pods pending) where the others do not. The message gives both values. Align the " +
			"limits, or suppress KRP321 for the cluster whose size is meant to differ.",
		Reported: Reporting{Review: true, Note: fleetNote},
	},
	{
		Code: FleetRequirementsDiffer, Name: "FleetRequirementsDiffer", Severity: Note,
		Title: "A NodePool's requirements differ between clusters of a group meant to be identical.",
		Help: "`spec.template.spec.requirements` decide which sizes, capacity types and zones Karpenter may launch; a " +
			"difference means other nodes, prices and scheduling in one cluster. The message names the keys that differ, " +
			"with both values. Align them, or take the cluster out of the group.",
		Reported: Reporting{Review: true, Note: fleetNote + " Requirements are compared per key (operator, values as a set, minValues)."},
	},
	{
		Code: FleetPoolSettingsDiffer, Name: "FleetPoolSettingsDiffer", Severity: Note,
		Title: "A NodePool's other settings (weight, disruption, taints, expiry, node class reference) differ between clusters of a group meant to be identical.",
		Help: "Everything else in the pool's `spec`: `weight` decides which pool Karpenter tries first, `disruption` when " +
			"it consolidates and how many nodes at once, taints which pods may land, `expireAfter` and " +
			"`terminationGracePeriod` the node lifecycle. The message names the fields that differ, with both values. " +
			"Align them, or take the cluster out of the group.",
		Reported: Reporting{Review: true, Note: fleetNote},
	},
	{
		Code: FleetNodeClassDiffers, Name: "FleetNodeClassDiffers", Severity: Note,
		Title: "A node class differs between clusters of a group meant to be identical.",
		Help: "The node class decides the image, OS disk, kubelet settings and pod density of every node of the pools that " +
			"reference it; a difference makes the same pool launch different nodes in one cluster. The message names the " +
			"fields that differ. Align them, or take the cluster out of the group.",
		Reported: Reporting{Review: true, Note: fleetNote + " Fields that identify the cluster's own network and identity " +
			"are not compared: an AKSNodeClass's `vnetSubnetID`; an EC2NodeClass's `subnetSelectorTerms`, " +
			"`securityGroupSelectorTerms`, `role` and `instanceProfile` (its `amiSelectorTerms` count as regional)."},
	},
}
