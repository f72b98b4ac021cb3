// Production in West Europe: private API server, local accounts disabled, so the node classes
// and pools go through GitOps (the manifests output, or the reviewed YAML files themselves).
using 'main.bicep'

param clusterName = 'aks-prod-weu'
param location = 'westeurope'
param kubernetesVersion = '1.33'
param systemPool = {
  vmSize: 'Standard_D4ds_v5'
  count: 3
  availabilityZones: ['1', '2', '3']
}
param nodeSubnetResourceId = '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-network-prod-weu/providers/Microsoft.Network/virtualNetworks/vnet-prod-weu/subnets/aks-nodes'
param adminGroupObjectIds = ['11111111-1111-1111-1111-111111111111']
param enablePrivateCluster = true
param delivery = 'gitops'
param nodeClasses = [
  loadYamlContent('../pools/nodeclass-general.yaml')
]
param nodePools = [
  loadYamlContent('../pools/nodepool-general.yaml')
  loadYamlContent('../pools/nodepool-batch.yaml')
]
param tags = {
  environment: 'prod'
}
