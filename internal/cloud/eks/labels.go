package eks

import awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"

// Label and resource names of the AWS provider, re-exported so that callers
// of this package need not import it (upstream declares them as variables).
var (
	LabelCapacityReservationID            = awsv1.LabelCapacityReservationID
	LabelCapacityReservationType          = awsv1.LabelCapacityReservationType
	LabelCapacityReservationInterruptible = awsv1.LabelCapacityReservationInterruptible
	LabelInstanceHypervisor               = awsv1.LabelInstanceHypervisor
	LabelInstanceEncryptionInTransit      = awsv1.LabelInstanceEncryptionInTransitSupported
	LabelInstanceCategory                 = awsv1.LabelInstanceCategory
	LabelInstanceCapabilityFlex           = awsv1.LabelInstanceCapabilityFlex
	LabelInstanceFamily                   = awsv1.LabelInstanceFamily
	LabelInstanceGeneration               = awsv1.LabelInstanceGeneration
	LabelInstanceLocalNVME                = awsv1.LabelInstanceLocalNVME
	LabelInstanceSize                     = awsv1.LabelInstanceSize
	LabelInstanceCPU                      = awsv1.LabelInstanceCPU
	LabelInstanceCPUManufacturer          = awsv1.LabelInstanceCPUManufacturer
	LabelInstanceCPUSustainedClockSpeed   = awsv1.LabelInstanceCPUSustainedClockSpeedMhz
	LabelInstanceMemory                   = awsv1.LabelInstanceMemory
	LabelInstanceEBSBandwidth             = awsv1.LabelInstanceEBSBandwidth
	LabelInstanceNetworkBandwidth         = awsv1.LabelInstanceNetworkBandwidth
	LabelInstanceGPUName                  = awsv1.LabelInstanceGPUName
	LabelInstanceGPUManufacturer          = awsv1.LabelInstanceGPUManufacturer
	LabelInstanceGPUCount                 = awsv1.LabelInstanceGPUCount
	LabelInstanceGPUMemory                = awsv1.LabelInstanceGPUMemory
	LabelInstanceAcceleratorName          = awsv1.LabelInstanceAcceleratorName
	LabelInstanceAcceleratorManufacturer  = awsv1.LabelInstanceAcceleratorManufacturer
	LabelInstanceAcceleratorCount         = awsv1.LabelInstanceAcceleratorCount
	LabelInstanceTenancy                  = awsv1.LabelInstanceTenancy
	LabelTopologyZoneID                   = awsv1.LabelTopologyZoneID

	ResourceNVIDIAGPU          = awsv1.ResourceNVIDIAGPU
	ResourceAMDGPU             = awsv1.ResourceAMDGPU
	ResourceAWSNeuron          = awsv1.ResourceAWSNeuron
	ResourceAWSNeuronCore      = awsv1.ResourceAWSNeuronCore
	ResourceHabanaGaudi        = awsv1.ResourceHabanaGaudi
	ResourceAWSPodENI          = awsv1.ResourceAWSPodENI
	ResourceEFA                = awsv1.ResourceEFA
	ResourcePrivateIPv4Address = awsv1.ResourcePrivateIPv4Address
)
