package findings

// EC2NodeClass checks that need no AWS account (internal/cloud/eks/nodeclasscheck): what the
// selector terms make Karpenter's AWS provider select, and the AMI of a production-looking
// class. Only what the EC2NodeClass CRD's own rules let through is reported here; what its
// OpenAPI or CEL rules reject (role together with instanceProfile, an empty term, an alias
// with other fields) is the API server's rejection (KRP001). Kept in their own list so that
// other groups can grow without touching it.
const (
	LatestAMIInProduction     Code = "KRP120"
	SelectorSelectsEverything Code = "KRP121"
	SelectorMatchesNothing    Code = "KRP122"
	SelectorFieldIgnored      Code = "KRP123"
)

// ec2NodeClassNote says where the EC2NodeClass checks run.
const ec2NodeClassNote = "On the `karpenter_ec2nodeclass` attribute concerned at plan time (silenced with the provider's " +
	"`checks.suppress`), and by the review on EC2NodeClass manifests."

var ec2NodeClassRules = []Rule{
	{
		Code: LatestAMIInProduction, Name: "LatestAMIInProduction", Severity: Warning,
		Title: "A production-looking EC2NodeClass selects its AMI by an alias with version latest.",
		Help: "With `alias: al2023@latest` (or `al2@latest`, `bottlerocket@latest`) every new EKS-optimized AMI release drifts " +
			"every node launched from the class, and Karpenter replaces them all with an AMI nobody tested, at the pace of " +
			"the NodePools' disruption budgets. The EC2NodeClass CRD's own description of `alias` says latest is not " +
			"recommended for production, and the EKS best practices for Karpenter say to pin the AMI and promote new versions " +
			"through lower environments first. Pin the version (`al2023@v20240625`, `bottlerocket@v1.10.0`) and raise it " +
			"deliberately. A node class is production-looking when one of the words `prod`, `production` or `prd` appears, " +
			"as a whole word (split at anything but letters and digits, case-insensitive), in its name, in a label's key or " +
			"value, or in a value of `spec.tags` (the tags Karpenter puts on the instances, such as `Environment = production`). " +
			"Windows aliases are not reported: the CRD admits only latest for them.",
		Reported: Reporting{Plan: true, Review: true, Resource: "karpenter_ec2nodeclass", Note: ec2NodeClassNote + " Only the node " +
			"class itself is looked at, not the NodePools that reference it, so that the plan of the class and the review agree; " +
			"suppress the code where a production class deliberately tracks latest."},
	},
	{
		Code: SelectorSelectsEverything, Name: "SelectorSelectsEverything", Severity: Error,
		Title: "An EC2NodeClass selector term has empty tags and nothing else that selects: it selects everything.",
		Help: "The CRD requires each subnet, security group and AMI selector term to set one of its fields, but counts " +
			"`tags: {}` as set. Karpenter's AWS provider turns a term's tags into EC2 filters, so an empty map is no filter: the " +
			"term selects every subnet (or security group) of the region in every VPC of the account, and for AMIs every image the " +
			"account may launch (public AMIs of any owner when no `owner` is set), of which Karpenter launches the newest that " +
			"fits. Give the term the tags that mark the resources (`karpenter.sh/discovery = <cluster name>` in the getting-started " +
			"guide) or an `id`.",
		Reported: Reporting{Plan: true, Review: true, Resource: "karpenter_ec2nodeclass", Note: ec2NodeClassNote},
	},
	{
		Code: SelectorMatchesNothing, Name: "SelectorMatchesNothing", Severity: Warning, Alternatives: []Severity{Error},
		Title: "An EC2NodeClass selector term names an ID that no EC2 resource can have.",
		Help: "EC2 resource IDs are a prefix (`subnet-`, `sg-`, `ami-`) and 8 or 17 lowercase hexadecimal digits. The CRD's " +
			"patterns (`subnet-[0-9a-z]+`, ...) are not anchored and admit other letters and text around them, so a mistyped or " +
			"truncated ID passes the API server but selects nothing. A warning when another term of the list may still select " +
			"something; an error when no term of the list selects anything, since the EC2NodeClass then never becomes Ready and " +
			"no node launches from it. Copy the ID from `aws ec2 describe-subnets` (`describe-security-groups`, `describe-images`).",
		Reported: Reporting{Plan: true, Review: true, Resource: "karpenter_ec2nodeclass", Note: ec2NodeClassNote},
	},
	{
		Code: SelectorFieldIgnored, Name: "SelectorFieldIgnored", Severity: Warning,
		Title: "An EC2NodeClass selector term sets a field that Karpenter ignores.",
		Help: "Karpenter's AWS provider selects by a term's `id` alone (then, for security groups, by `name` alone; for " +
			"AMIs, by `ssmParameter` alone), ignoring the term's other fields, so the term selects more than it says. The CRD " +
			"rejects `id` with `tags` in a subnet term, and `id` or `name` with other fields in a security group term, only when " +
			"every term of the list has the combination (its rules use `all()`), and it has no rule for `ssmParameter` with " +
			"`name`, `owner` or `tags`, or `id` with `ssmParameter`, in an AMI term. Remove the ignored field, or move it into a term " +
			"of its own (terms are ORed).",
		Reported: Reporting{Plan: true, Review: true, Resource: "karpenter_ec2nodeclass", Note: ec2NodeClassNote},
	},
}
