package eks

// podENIVintage lists the types whose pod-ENI capacity differs from upstream's
// docs page, with the count the catalog derives. The docs were last generated
// on 2026-07-11 (v1.14.0) with the VPC limits table of that time, in which
// these types were absent (v1.14.1's table, generated 2026-05-18, has none of
// them) or, for i4i.large, not trunking-compatible; vpc_limits.json is main's
// table of 2026-08-06, which lists them as trunking-compatible with these
// branch-interface counts. Karpenter v1.14.1 itself would advertise no pod-ENI
// for them; the catalog follows the newer table.
var podENIVintage = map[string]string{
	"c8gb.metal-24xl": "98", "c8gb.metal-48xl": "98", "c8gn.metal-24xl": "98", "c8gn.metal-48xl": "98",
	"c8ib.metal-48xl": "98", "c8ib.metal-96xl": "98",
	"c9g.medium": "4", "c9g.large": "9", "c9g.xlarge": "18", "c9g.2xlarge": "38", "c9g.4xlarge": "54",
	"c9g.8xlarge": "52", "c9g.12xlarge": "50", "c9g.16xlarge": "106", "c9g.24xlarge": "98", "c9g.48xlarge": "98",
	"c9g.metal-48xl": "98",
	"c9gd.medium":    "4", "c9gd.large": "9", "c9gd.xlarge": "18", "c9gd.2xlarge": "38", "c9gd.4xlarge": "54",
	"c9gd.8xlarge": "52", "c9gd.12xlarge": "50", "c9gd.16xlarge": "106", "c9gd.24xlarge": "98", "c9gd.48xlarge": "98",
	"c9gd.metal-48xl": "98",
	"hpc7g.4xlarge":   "118", "hpc7g.8xlarge": "118", "hpc7g.16xlarge": "118",
	"i4i.large":       "9",
	"m8gb.metal-24xl": "98", "m8gb.metal-48xl": "98", "m8gn.metal-24xl": "98", "m8gn.metal-48xl": "98",
	"m8ib.metal-48xl": "98", "m8ib.metal-96xl": "98", "m8idb.metal-48xl": "98", "m8idb.metal-96xl": "98",
	"m8idn.metal-48xl": "98", "m8idn.metal-96xl": "98", "m8in.metal-48xl": "98", "m8in.metal-96xl": "98",
	"r8gb.metal-24xl": "98", "r8gb.metal-48xl": "98", "r8gn.metal-24xl": "98", "r8gn.metal-48xl": "98",
	"r8ib.metal-48xl": "98", "r8ib.metal-96xl": "98", "r8idb.metal-48xl": "98", "r8idb.metal-96xl": "98",
	"r8idn.metal-48xl": "98", "r8idn.metal-96xl": "98", "r8in.metal-48xl": "98", "r8in.metal-96xl": "98",
}
