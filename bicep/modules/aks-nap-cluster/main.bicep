metadata name = 'AKS cluster with node auto provisioning'
metadata description = 'Creates or updates an AKS managed cluster in node auto provisioning (NAP, managed Karpenter) mode with the prerequisites right by construction: Azure CNI overlay with the Cilium dataplane, IPv4 only, a managed identity, Linux system pool without the cluster autoscaler, Standard load balancer, managed Entra ID integration, and Network Contributor for the cluster identity on the custom node subnets. These are the checks CheckPrerequisites in terraform-provider-karpenter makes on an existing cluster; here they cannot fail.'

// ================ //
// Parameters       //
// ================ //

@description('Required. Name of the managed cluster.')
@minLength(1)
@maxLength(63)
param name string

@description('Optional. Location of the cluster. Defaults to the resource group\'s location.')
param location string = resourceGroup().location

@description('Optional. Kubernetes version, e.g. `1.33`. Empty uses the default version AKS offers in the region.')
param kubernetesVersion string = ''

@description('Optional. DNS prefix of the API server\'s FQDN. Defaults to the cluster name.')
param dnsPrefix string = name

@description('Optional. The system node pool, which runs the cluster\'s critical add-ons; node auto provisioning creates all other nodes. Defaults: 3 nodes of Standard_D4ds_v5, 128 GB OS disk, Azure Linux, tainted CriticalAddonsOnly.')
param systemPool systemPoolType = {}

@description('Optional. Resource ID of the subnet for the system pool\'s nodes, which is also the subnet NAP nodes use unless an AKSNodeClass sets vnetSubnetID. Empty lets AKS create and manage the virtual network.')
param vnetSubnetResourceId string = ''

@description('Optional. More subnets (or virtual networks) the cluster identity gets Network Contributor on, e.g. the vnetSubnetID of every AKSNodeClass. The system pool\'s subnet is always included.')
param additionalNodeSubnetResourceIds string[] = []

@description('Optional. Grant the cluster identity Network Contributor on the custom subnets (network-contributor module). Set false only when the grant is managed elsewhere: NAP cannot create nodes in a custom subnet without it.')
param grantNetworkContributor bool = true

@description('Optional. How the nodes reach the internet. userAssignedNATGateway and userDefinedRouting need vnetSubnetResourceId with the NAT gateway or route table already attached.')
@allowed([
  'loadBalancer'
  'managedNATGateway'
  'userAssignedNATGateway'
  'userDefinedRouting'
])
param outboundType string = 'loadBalancer'

@description('Optional. Pod CIDR of the overlay network; it must not overlap the virtual network.')
param podCidr string = '10.244.0.0/16'

@description('Optional. Service CIDR; it must not overlap the virtual network or the pod CIDR.')
param serviceCidr string = '10.0.0.0/16'

@description('Optional. IP address of the cluster DNS service, inside serviceCidr.')
param dnsServiceIP string = '10.0.0.10'

@description('Optional. Object IDs of the Entra ID groups that get cluster-admin.')
param adminGroupObjectIds string[] = []

@description('Optional. Use Azure RBAC for Kubernetes authorization, instead of Kubernetes RBAC bindings.')
param enableAzureRbac bool = true

@description('Optional. Disable the local admin account, so that every access goes through Entra ID. The Bicep Kubernetes extension needs the local account (listClusterAdminCredential): with true, deliver NodePools and AKSNodeClasses through GitOps (see the karpenter-nodepool README).')
param disableLocalAccounts bool = true

@description('Optional. Make the API server private. The Bicep Kubernetes extension cannot reach a private cluster: deliver NodePools and AKSNodeClasses through GitOps.')
param enablePrivateCluster bool = false

@description('Optional. Which default NodePools AKS creates in NAP mode: `Auto` (AKS\'s `default` and `system-surge` pools) or `None` (only the pools you define).')
@allowed([
  'Auto'
  'None'
])
param defaultNodePools string = 'Auto'

@description('Optional. Resource ID of a user-assigned identity for the control plane. Empty uses a system-assigned identity. With a custom subnet, a user-assigned identity lets the Network Contributor grant exist before the cluster does.')
param userAssignedIdentityResourceId string = ''

@description('Optional. The cluster\'s SKU tier: Free (no uptime SLA), Standard or Premium.')
@allowed([
  'Free'
  'Standard'
  'Premium'
])
param skuTier string = 'Standard'

@description('Optional. Tags of the cluster.')
param tags object = {}

// ================ //
// Resources        //
// ================ //

var userAssigned = !empty(userAssignedIdentityResourceId)
var customSubnet = !empty(vnetSubnetResourceId)
var networkContributorScopes = union(customSubnet ? [vnetSubnetResourceId] : [], additionalNodeSubnetResourceIds)

// The API version is the one the provider uses for managed cluster writes
// (NodeProvisioningAPIVersion in internal/clients/azure): the Go SDK's own 2025-02-01 has no
// nodeProvisioningProfile. A Go test keeps the two equal.
resource cluster 'Microsoft.ContainerService/managedClusters@2025-05-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: 'Base'
    tier: skuTier
  }
  identity: userAssigned ? {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${userAssignedIdentityResourceId}': {}
    }
  } : {
    type: 'SystemAssigned'
  }
  properties: {
    kubernetesVersion: empty(kubernetesVersion) ? null : kubernetesVersion
    dnsPrefix: dnsPrefix
    enableRBAC: true
    disableLocalAccounts: disableLocalAccounts
    aadProfile: {
      managed: true
      enableAzureRBAC: enableAzureRbac
      adminGroupObjectIDs: adminGroupObjectIds
      tenantID: tenant().tenantId
    }
    apiServerAccessProfile: {
      enablePrivateCluster: enablePrivateCluster
    }
    // NAP: AKS runs Karpenter and creates every node beyond the system pool.
    nodeProvisioningProfile: {
      mode: 'Auto'
      defaultNodePools: defaultNodePools
    }
    networkProfile: {
      // Azure CNI is required and overlay recommended; Cilium is the recommended dataplane and
      // the only network policy engine NAP supports besides Azure's (never Calico).
      networkPlugin: 'azure'
      networkPluginMode: 'overlay'
      networkDataplane: 'cilium'
      networkPolicy: 'cilium'
      // NAP does not support IPv6 (dual-stack or IPv6-only).
      ipFamilies: [
        'IPv4'
      ]
      // Required by NAP on a custom virtual network, and the AKS default anyway.
      loadBalancerSku: 'standard'
      outboundType: outboundType
      podCidr: podCidr
      serviceCidr: serviceCidr
      dnsServiceIP: dnsServiceIP
    }
    agentPoolProfiles: [
      {
        name: systemPool.?name ?? 'system'
        mode: 'System'
        type: 'VirtualMachineScaleSets'
        // NAP provisions Linux nodes only and is refused on clusters with Windows pools.
        osType: 'Linux'
        osSKU: 'AzureLinux'
        vmSize: systemPool.?vmSize ?? 'Standard_D4ds_v5'
        count: systemPool.?count ?? 3
        osDiskSizeGB: systemPool.?osDiskSizeGB ?? 128
        availabilityZones: systemPool.?availabilityZones
        // NAP and the cluster autoscaler must never both scale the cluster.
        enableAutoScaling: false
        vnetSubnetID: customSubnet ? vnetSubnetResourceId : null
        nodeTaints: (systemPool.?criticalAddonsOnly ?? true) ? ['CriticalAddonsOnly=true:NoSchedule'] : []
      }
    ]
  }
}

// The control plane identity is the one NAP acts as in the node subnets (ClusterPrincipal in
// the provider): the system-assigned principal, or the user-assigned identity's.
var controlPlanePrincipalId = userAssigned ? cluster.identity.userAssignedIdentities[userAssignedIdentityResourceId].principalId : cluster.identity.principalId

module networkContributor '../network-contributor/main.bicep' = if (grantNetworkContributor && !empty(networkContributorScopes)) {
  name: take('${name}-network-contributor', 64)
  params: {
    principalId: controlPlanePrincipalId
    scopeResourceIds: networkContributorScopes
  }
}

// ================ //
// Outputs          //
// ================ //

@description('Required. The cluster\'s resource ID, for the provider\'s aks_cluster_id and for role assignments.')
output resourceId string = cluster.id

@description('Required. The cluster\'s name.')
output name string = cluster.name

@description('Required. The resource group the cluster is in.')
output resourceGroupName string = resourceGroup().name

@description('Required. The cluster\'s location.')
output location string = cluster.location

@description('Required. Object ID of the control plane identity, which needs Network Contributor on node subnets.')
output controlPlanePrincipalId string = controlPlanePrincipalId

@description('Required. Object ID of the kubelet identity, e.g. for AcrPull.')
output kubeletIdentityObjectId string = cluster.properties.identityProfile.kubeletidentity.objectId

@description('Required. The resource group AKS manages the nodes in.')
output nodeResourceGroup string = cluster.properties.nodeResourceGroup

@description('Required. The subnets and virtual networks the cluster identity was granted Network Contributor on (empty when none or when grantNetworkContributor is false).')
output networkContributorScopes string[] = grantNetworkContributor ? networkContributorScopes : []

// ================ //
// Types            //
// ================ //

@export()
@description('The system node pool. Node auto provisioning creates every other node, so the only choices are its size.')
type systemPoolType = {
  @description('Optional. Name of the pool. Defaults to `system`.')
  @minLength(1)
  @maxLength(12)
  name: string?

  @description('Optional. VM size. Defaults to `Standard_D4ds_v5`.')
  vmSize: string?

  @description('Optional. Number of nodes; fixed, as the cluster autoscaler must stay off. Defaults to `3`.')
  @minValue(1)
  @maxValue(1000)
  count: int?

  @description('Optional. OS disk size in GB. Defaults to `128`.')
  @minValue(30)
  @maxValue(2048)
  osDiskSizeGB: int?

  @description('Optional. Availability zones, e.g. `[\'1\', \'2\', \'3\']`. Defaults to none (regional).')
  availabilityZones: string[]?

  @description('Optional. Taint the pool CriticalAddonsOnly=true:NoSchedule so that workloads go to NAP nodes. Defaults to `true`.')
  criticalAddonsOnly: bool?
}
