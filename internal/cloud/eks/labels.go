package eks

import corev1 "k8s.io/api/core/v1"

// Label and resource names of the AWS provider (pkg/apis/v1/labels.go), spelt
// out because that module is not imported (see doc.go).
const (
	group = "karpenter.k8s.aws"

	LabelCapacityReservationID            = group + "/capacity-reservation-id"
	LabelCapacityReservationType          = group + "/capacity-reservation-type"
	LabelCapacityReservationInterruptible = group + "/capacity-reservation-interruptible"
	LabelInstanceHypervisor               = group + "/instance-hypervisor"
	LabelInstanceEncryptionInTransit      = group + "/instance-encryption-in-transit-supported"
	LabelInstanceCategory                 = group + "/instance-category"
	LabelInstanceCapabilityFlex           = group + "/instance-capability-flex"
	LabelInstanceFamily                   = group + "/instance-family"
	LabelInstanceGeneration               = group + "/instance-generation"
	LabelInstanceLocalNVME                = group + "/instance-local-nvme"
	LabelInstanceSize                     = group + "/instance-size"
	LabelInstanceCPU                      = group + "/instance-cpu"
	LabelInstanceCPUManufacturer          = group + "/instance-cpu-manufacturer"
	LabelInstanceCPUSustainedClockSpeed   = group + "/instance-cpu-sustained-clock-speed-mhz"
	LabelInstanceMemory                   = group + "/instance-memory"
	LabelInstanceEBSBandwidth             = group + "/instance-ebs-bandwidth"
	LabelInstanceNetworkBandwidth         = group + "/instance-network-bandwidth"
	LabelInstanceGPUName                  = group + "/instance-gpu-name"
	LabelInstanceGPUManufacturer          = group + "/instance-gpu-manufacturer"
	LabelInstanceGPUCount                 = group + "/instance-gpu-count"
	LabelInstanceGPUMemory                = group + "/instance-gpu-memory"
	LabelInstanceAcceleratorName          = group + "/instance-accelerator-name"
	LabelInstanceAcceleratorManufacturer  = group + "/instance-accelerator-manufacturer"
	LabelInstanceAcceleratorCount         = group + "/instance-accelerator-count"
	LabelInstanceTenancy                  = group + "/instance-tenancy"
	LabelTopologyZoneID                   = "topology.k8s.aws/zone-id"

	ResourceNVIDIAGPU     corev1.ResourceName = "nvidia.com/gpu"
	ResourceAMDGPU        corev1.ResourceName = "amd.com/gpu"
	ResourceAWSNeuron     corev1.ResourceName = "aws.amazon.com/neuron"
	ResourceAWSNeuronCore corev1.ResourceName = "aws.amazon.com/neuroncore"
	ResourceHabanaGaudi   corev1.ResourceName = "habana.ai/gaudi"
	ResourceAWSPodENI     corev1.ResourceName = "vpc.amazonaws.com/pod-eni"
	ResourceEFA           corev1.ResourceName = "vpc.amazonaws.com/efa"
	// ResourcePrivateIPv4Address is the Windows nodes' IP capacity.
	ResourcePrivateIPv4Address corev1.ResourceName = "vpc.amazonaws.com/PrivateIPv4Address"
)
