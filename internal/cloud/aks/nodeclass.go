package aks

import (
	"github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"github.com/Azure/karpenter-provider-azure/pkg/consts"
	"github.com/Azure/karpenter-provider-azure/pkg/utils"
	"github.com/samber/lo"
)

// NodeClass holds the AKSNodeClass settings that shape instance types. The zero
// value is the AKSNodeClass the API server produces from an empty spec.
type NodeClass struct {
	ImageFamily  string // Ubuntu (default), Ubuntu2204, Ubuntu2404, AzureLinux
	OSDiskSizeGB int32  // default 128
	MaxPods      int32  // 0 = the network plugin's default
	FIPSMode     string // "FIPS" enables; "" or "Disabled" does not
	GPUMode      string // "Driver" (default) or "None"

	EncryptionAtHost bool
	// ArtifactStreaming is true only when explicitly enabled; it excludes arm64.
	ArtifactStreaming bool
	// LocalDNS is the resolved LocalDNS state (upstream reads it from status):
	// when enabled, sizes below 4 vCPUs are excluded.
	LocalDNS bool

	// Trusted launch (security.trustedLaunch) arrived in the Azure provider after
	// v1.14.2; when either is set, sizes that cannot trusted-launch are excluded.
	VTPM       bool
	SecureBoot bool
}

const (
	defaultImageFamily  = v1beta1.UbuntuImageFamily
	defaultOSDiskSizeGB = 128
)

func (n NodeClass) withDefaults() NodeClass {
	if n.ImageFamily == "" {
		n.ImageFamily = defaultImageFamily
	}
	if n.OSDiskSizeGB == 0 {
		n.OSDiskSizeGB = defaultOSDiskSizeGB
	}
	if n.GPUMode == "" {
		n.GPUMode = string(v1beta1.GPUModeDriver)
	}
	return n
}

func (n NodeClass) trustedLaunch() bool { return n.VTPM || n.SecureBoot }

func (n NodeClass) fips() bool { return n.FIPSMode == string(v1beta1.FIPSModeFIPS) }

// FromAKSNodeClass reads the settings from an upstream v1.14.2 AKSNodeClass.
// LocalDNS mode Required counts as enabled; Preferred depends on live cluster
// state that an offline reader cannot see, so it counts as not enabled unless
// the status already says Enabled.
func FromAKSNodeClass(nc *v1beta1.AKSNodeClass) NodeClass {
	out := NodeClass{
		ImageFamily:       lo.FromPtr(nc.Spec.ImageFamily),
		OSDiskSizeGB:      lo.FromPtr(nc.Spec.OSDiskSizeGB),
		MaxPods:           lo.FromPtr(nc.Spec.MaxPods),
		FIPSMode:          string(lo.FromPtr(nc.Spec.FIPSMode)),
		GPUMode:           string(nc.GetGPUMode()),
		EncryptionAtHost:  nc.GetEncryptionAtHost(),
		ArtifactStreaming: nc.IsArtifactStreamingExplicitlyEnabled(),
		LocalDNS:          nc.IsLocalDNSEnabled(),
	}
	if nc.Spec.LocalDNS != nil && nc.Spec.LocalDNS.Mode == v1beta1.LocalDNSModeRequired {
		out.LocalDNS = true
	}
	return out
}

// Network plugin settings of the cluster, as the Azure provider's options name them.
const (
	NetworkPluginAzure   = consts.NetworkPluginAzure
	NetworkPluginNone    = consts.NetworkPluginNone
	NetworkPluginKubenet = "kubenet"

	NetworkPluginModeOverlay = consts.NetworkPluginModeOverlay
	// NetworkPluginModeNodeSubnet is Azure CNI with pod IPs from the node subnet,
	// which upstream spells as an empty mode.
	NetworkPluginModeNodeSubnet = "nodesubnet"
)

// Cluster holds the cluster-wide Karpenter options that shape instance types.
// The zero value is the Azure provider's defaults (Azure CNI overlay, 7.5 % VM
// memory overhead).
type Cluster struct {
	NetworkPlugin     string
	NetworkPluginMode string
	// NodeResourceGroup is the cluster's MC_ resource group; it becomes the
	// kubernetes.azure.com/cluster label value.
	NodeResourceGroup string
	// VMMemoryOverheadPercent is a fraction (0.075 = 7.5 %); zero means the default.
	VMMemoryOverheadPercent float64
}

const defaultVMMemoryOverhead = 0.075

func (c Cluster) withDefaults() Cluster {
	if c.NetworkPlugin == "" {
		c.NetworkPlugin = NetworkPluginAzure
	}
	if c.NetworkPluginMode == "" {
		c.NetworkPluginMode = NetworkPluginModeOverlay
	}
	if c.VMMemoryOverheadPercent == 0 {
		c.VMMemoryOverheadPercent = defaultVMMemoryOverhead
	}
	return c
}

// MaxPods returns the pods capacity for the node class on this cluster, using
// upstream's defaulting (250 for overlay or no plugin, 30 for node subnet, 110 otherwise).
func MaxPods(nc NodeClass, cl Cluster) int32 {
	cl = cl.withDefaults()
	mode := cl.NetworkPluginMode
	if mode == NetworkPluginModeNodeSubnet {
		mode = consts.NetworkPluginModeNone
	}
	upstream := &v1beta1.AKSNodeClass{}
	if nc.MaxPods != 0 {
		upstream.Spec.MaxPods = lo.ToPtr(nc.MaxPods)
	}
	return utils.GetMaxPods(upstream, cl.NetworkPlugin, mode)
}
