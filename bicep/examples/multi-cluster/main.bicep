metadata name = 'One NAP cluster with its node classes and pools'
metadata description = 'Deployed once per cluster, each with its own .bicepparam file: the cluster in NAP mode, Network Contributor on every node subnet (the system pool\'s and each AKSNodeClass vnetSubnetID), and the AKSNodeClasses and NodePools, delivered through the Kubernetes extension or rendered for GitOps.'

import { aksNodeClassType, aksNodeClassManifest } from '../../modules/karpenter-aksnodeclass/main.bicep'
import { nodePoolType, nodePoolManifest } from '../../modules/karpenter-nodepool/main.bicep'
import { systemPoolType } from '../../modules/aks-nap-cluster/main.bicep'

@description('Required. Name of the cluster.')
param clusterName string

@description('Optional. Location of the cluster.')
param location string = resourceGroup().location

@description('Optional. Kubernetes version; empty uses the AKS default.')
param kubernetesVersion string = ''

@description('Optional. The system pool.')
param systemPool systemPoolType = {}

@description('Optional. Subnet of the system pool and, unless a node class names another, of NAP nodes. Empty lets AKS manage the virtual network.')
param nodeSubnetResourceId string = ''

@description('Optional. Entra ID groups that get cluster-admin.')
param adminGroupObjectIds string[] = []

@description('Optional. Make the API server private; requires delivery gitops.')
param enablePrivateCluster bool = false

@description('Optional. How NodePools and AKSNodeClasses reach the cluster: kubernetesExtension (needs a public API server and local accounts) or gitops (the manifests are outputs; local accounts stay disabled).')
@allowed([
  'kubernetesExtension'
  'gitops'
])
param delivery string = 'gitops'

@description('Optional. The AKSNodeClasses, typically loadYamlContent() of reviewed files.')
param nodeClasses aksNodeClassType[] = []

@description('Optional. The NodePools, typically loadYamlContent() of reviewed files.')
param nodePools nodePoolType[] = []

@description('Optional. Tags of the cluster.')
param tags object = {}

var useExtension = delivery == 'kubernetesExtension'

// NAP creates nodes in every subnet a node class names, with the cluster identity: each one
// needs the same Network Contributor grant as the system pool's subnet.
var nodeClassSubnets = map(filter(nodeClasses, nc => !empty(nc.?spec.?vnetSubnetID ?? '')), nc => nc.?spec.?vnetSubnetID ?? '')

module cluster '../../modules/aks-nap-cluster/main.bicep' = {
  name: take('${clusterName}-cluster', 64)
  params: {
    name: clusterName
    location: location
    kubernetesVersion: kubernetesVersion
    systemPool: systemPool
    vnetSubnetResourceId: nodeSubnetResourceId
    additionalNodeSubnetResourceIds: nodeClassSubnets
    adminGroupObjectIds: adminGroupObjectIds
    disableLocalAccounts: !useExtension
    enablePrivateCluster: enablePrivateCluster
    tags: tags
  }
}

resource aks 'Microsoft.ContainerService/managedClusters@2025-05-01' existing = {
  name: clusterName
  dependsOn: [
    cluster
  ]
}

// Through the Kubernetes extension, the node classes and pools are applied once the cluster's
// deployment has succeeded, but ARM does not wait for NAP to install its CRDs on a new cluster:
// the first apply may fail with "no matches for kind". Create a new cluster with delivery gitops
// (or no node classes and pools) first, then deploy again with kubernetesExtension.
module classes '../../modules/karpenter-aksnodeclass/main.bicep' = [
  for nc in (useExtension ? nodeClasses : []): {
    name: take('${clusterName}-nodeclass-${nc.metadata.name}', 64)
    params: {
      aksNodeClass: nc
      kubeConfig: aks.listClusterAdminCredential().kubeconfigs[0].value
    }
  }
]

module pools '../../modules/karpenter-nodepool/main.bicep' = [
  for pool in (useExtension ? nodePools : []): {
    name: take('${clusterName}-nodepool-${pool.metadata.name}', 64)
    params: {
      nodePool: pool
      kubeConfig: aks.listClusterAdminCredential().kubeconfigs[0].value
    }
    // A NodePool's nodeClassRef must resolve when Karpenter first reconciles it.
    dependsOn: [
      classes
    ]
  }
]

@description('Required. The cluster\'s resource ID (the Terraform provider\'s aks_cluster_id).')
output clusterResourceId string = cluster.outputs.resourceId

@description('Required. The node classes\' and pools\' manifests in apply order, for a GitOps repository when delivery is gitops (and for the record otherwise).')
output manifests object[] = concat(map(nodeClasses, nc => aksNodeClassManifest(nc)), map(nodePools, p => nodePoolManifest(p)))
