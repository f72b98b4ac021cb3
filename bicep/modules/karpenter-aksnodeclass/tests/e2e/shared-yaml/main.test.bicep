targetScope = 'resourceGroup'

metadata name = 'Node class from the shared, reviewed YAML'
metadata description = 'Creates a NAP cluster with local accounts enabled (the Kubernetes extension needs them), then the AKSNodeClass from bicep/examples/pools: the same file the review command and Terraform\'s aksnodeclass_from_yaml read.'

@description('Optional. The location to deploy resources to.')
param resourceLocation string = resourceGroup().location

@description('Optional. A short identifier for the kind of deployment. Should be kept short to not run into resource-name length-constraints.')
param serviceShort string = 'kpnc'

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

@description('Required. The AKSNodeClass manifest that was applied.')
output manifest object = nodeClass.outputs.manifest
