targetScope = 'resourceGroup'

metadata name = 'Pools from the shared, reviewed YAML'
metadata description = 'Creates a NAP cluster with local accounts enabled (the Kubernetes extension needs them), then the AKSNodeClass and NodePools from bicep/examples/pools: the same files the review command and Terraform\'s nodepool_from_yaml read.'

@description('Optional. The location to deploy resources to.')
param resourceLocation string = resourceGroup().location

@description('Optional. A short identifier for the kind of deployment. Should be kept short to not run into resource-name length-constraints.')
param serviceShort string = 'kpnp'

@description('Optional. A token to inject into the name of each resource.')
param namePrefix string = '#_namePrefix_#'

var clusterName = '${namePrefix}${serviceShort}001'

module cluster '../../../../aks-nap-cluster/main.bicep' = {
  name: '${uniqueString(deployment().name, resourceLocation)}-test-${serviceShort}-cluster'
  params: {
    name: clusterName
    location: resourceLocation
    // The Kubernetes extension connects with the local admin kubeconfig.
    disableLocalAccounts: false
  }
}

resource aks 'Microsoft.ContainerService/managedClusters@2025-05-01' existing = {
  name: clusterName
  dependsOn: [
    cluster
  ]
}

module nodeClass '../../../../karpenter-aksnodeclass/main.bicep' = {
  name: '${uniqueString(deployment().name, resourceLocation)}-test-${serviceShort}-nodeclass'
  params: {
    aksNodeClass: loadYamlContent('../../../../../examples/pools/nodeclass-general.yaml')
    kubeConfig: aks.listClusterAdminCredential().kubeconfigs[0].value
  }
}

@batchSize(1)
module pools '../../../../karpenter-nodepool/main.bicep' = [
  for pool in [
    loadYamlContent('../../../../../examples/pools/nodepool-general.yaml')
    loadYamlContent('../../../../../examples/pools/nodepool-batch.yaml')
  ]: {
    name: '${uniqueString(deployment().name, resourceLocation)}-test-${serviceShort}-${pool.metadata.name}'
    params: {
      nodePool: pool
      kubeConfig: aks.listClusterAdminCredential().kubeconfigs[0].value
    }
    dependsOn: [
      nodeClass
    ]
  }
]

@description('Required. The NodePool manifests that were applied.')
output manifests object[] = [for i in range(0, 2): pools[i].outputs.manifest]
