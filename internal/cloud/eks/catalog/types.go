package catalog

// InstanceType holds the facts of one EC2 instance type that Karpenter's AWS
// provider reads from DescribeInstanceTypes and its generated VPC limits. Nil
// pointers mean that EC2 reports no such value for the type (for example no EBS
// bandwidth when EBS optimisation is not on by default), never a guess.
type InstanceType struct {
	Name string `json:"n"`
	// VCPU is VCpuInfo.DefaultVCpus; MemoryMiB is MemoryInfo.SizeInMiB.
	VCPU      int64 `json:"c"`
	MemoryMiB int64 `json:"m"`
	// Arch is the Kubernetes architecture (amd64, arm64).
	Arch            string `json:"a"`
	CPUManufacturer string `json:"cm"`
	// ClockMHz is the sustained clock speed rounded to MHz, as upstream labels it.
	ClockMHz             *int64 `json:"ck,omitempty"`
	EBSBandwidthMbps     *int64 `json:"eb,omitempty"`
	NetworkBandwidthMbps *int64 `json:"nb,omitempty"`
	// Hypervisor is "nitro", "xen" or "" (bare metal).
	Hypervisor          string `json:"h"`
	EncryptionInTransit bool   `json:"et,omitempty"`
	// LocalNVMeGB is InstanceStorageInfo.TotalSizeInGB for NVMe instance storage.
	LocalNVMeGB *int64 `json:"nv,omitempty"`
	// GPU and Accelerator are set when EC2 reports exactly one kind of device,
	// the only case upstream labels.
	GPU         *Device `json:"g,omitempty"`
	Accelerator *Device `json:"x,omitempty"`
	// Device totals, the extended resources of the node.
	NVIDIAGPUs    int64 `json:"gn,omitempty"`
	AMDGPUs       int64 `json:"ga,omitempty"`
	HabanaGaudis  int64 `json:"gh,omitempty"`
	NeuronDevices int64 `json:"nd,omitempty"`
	NeuronCores   int64 `json:"nc,omitempty"`
	EFAs          int64 `json:"efa,omitempty"`
	// ENI is the type's VPC limits; nil when the generated table lacks the type.
	ENI *ENILimits `json:"eni,omitempty"`
	// ENILimitedPods stands in for ENI when the VPC limits lack the type: the
	// ENI-limited pod density that upstream printed for it (its docs page), so
	// that pods and kube-reserved memory can still be derived. Reserved ENIs and
	// EFA-only interfaces cannot be taken off such a number.
	ENILimitedPods *int64 `json:"ep,omitempty"`
}

// Device is one kind of GPU or accelerator, named as upstream labels it
// (lower-case, spaces as dashes).
type Device struct {
	Name         string `json:"n"`
	Manufacturer string `json:"m"`
	Count        int64  `json:"c"`
	MemoryMiB    *int64 `json:"mem,omitempty"`
}

// ENILimits are the VPC limits of an instance type, named after upstream's
// generated table.
type ENILimits struct {
	// Interfaces is MaximumNetworkInterfaces of the default network card: the
	// VPC CNI attaches ENIs there only.
	Interfaces       int64 `json:"i"`
	IPv4PerInterface int64 `json:"ip"`
	Trunking         bool  `json:"t,omitempty"`
	BranchInterfaces int64 `json:"b,omitempty"`
}
