// Production in North Europe: the same reviewed pools; the node class puts NAP nodes in a
// dedicated subnet, which the cluster identity is granted Network Contributor on as well.
using 'main.bicep'

var nodeClass = loadYamlContent('../pools/nodeclass-general.yaml')

param clusterName = 'aks-prod-neu'
param location = 'northeurope'
param kubernetesVersion = '1.33'
param systemPool = {
  count: 3
  availabilityZones: ['1', '2', '3']
}
param nodeSubnetResourceId = '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-network-prod-neu/providers/Microsoft.Network/virtualNetworks/vnet-prod-neu/subnets/aks-system'
param adminGroupObjectIds = ['11111111-1111-1111-1111-111111111111']
param enablePrivateCluster = true
param delivery = 'gitops'
param nodeClasses = [
  union(nodeClass, {
    spec: union(nodeClass.spec, {
      vnetSubnetID: '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-network-prod-neu/providers/Microsoft.Network/virtualNetworks/vnet-prod-neu/subnets/aks-nap'
    })
  })
]
param nodePools = [
  loadYamlContent('../pools/nodepool-general.yaml')
  loadYamlContent('../pools/nodepool-batch.yaml')
]
param tags = {
  environment: 'prod'
}
