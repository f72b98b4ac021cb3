// Package eks derives Karpenter instance types for EKS (the AWS provider's
// cloudprovider.InstanceType: requirements, capacity, overhead, offerings) from
// the embedded EC2 catalog and an EC2NodeClass's settings, offline.
//
// The derivation is aws/karpenter-provider-aws v1.14.1's own
// instancetype.NewInstanceType, called on the DescribeInstanceTypes record
// rebuilt from the catalog's facts (info.go), with the AMI family's feature
// flags and default block devices from its amifamily package. What this
// package adds is what the offline catalog cannot know or knows better
// (instancetypes.go): no zones, regional offerings priced from the catalog,
// and pod-ENI counts from the catalog's newer VPC limits. It is checked
// against the labels and resources upstream's docs generator printed for every
// instance type (TestParityWithUpstreamDocs) and against NewInstanceType
// called with upstream's own EC2NodeClass types for several node classes
// (TestDerivationMatchesUpstreamCode).
//
// What the offline data cannot give is stated, not guessed: the catalog has no
// zones (instance types carry no topology.kubernetes.io/zone requirement and
// offerings are regional) and no supported usage classes (every type is
// offered on-demand and spot; an offering is available only where a price is
// found, as upstream requires a price, with upstream's own fallbacks: see
// catalog.OfferingPrice).
//
// Importing the AWS provider runs its API package's init, which extends
// Karpenter's global label and resource sets (karpv1.WellKnownLabels,
// RestrictedLabelDomains, WellKnownResources, cloudprovider.ReservationIDLabel):
// a binary that links this package and the Azure provider sees both clouds'
// labels as well known (TestImportExtendsKarpentersGlobals). The seam's
// well-known labels of each cloud (Cloud.WellKnownLabels) are therefore the core
// labels plus that cloud's provider's only, as in its own Karpenter binary.
// Upstream reads cloudprovider.ReservationIDLabel only for offerings of capacity
// type reserved, which AKS never has; the AKS analysis and prediction are the same
// byte for byte under an AKS-only build's globals
// (simulation.TestAKSUnaffectedByAWSGlobals).
//
// Cloud (cloud.go, launch.go) is this package behind the seam: EC2NodeClass
// decoding, the catalog's regions (no zones: RegionCaveats says so), prices with
// their provenance, and the AWS provider's launch filters and capacity-type
// choice (cheapest offering; price-capacity-optimized spot is out of reach).
package eks
