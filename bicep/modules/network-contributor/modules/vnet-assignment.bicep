metadata name = 'Network Contributor on one virtual network'
metadata description = 'Deployed by the network-contributor module in the virtual network\'s resource group.'

import { assignmentName, networkContributorRoleId } from 'names.bicep'

@description('Required. The virtual network\'s resource ID.')
param virtualNetworkResourceId string

@description('Required. Object (principal) ID of the cluster\'s control plane identity.')
param principalId string

@description('Required. Description stored on the role assignment.')
param assignmentDescription string

resource vnet 'Microsoft.Network/virtualNetworks@2024-05-01' existing = {
  name: split(virtualNetworkResourceId, '/')[8]
}

resource grant 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: assignmentName(virtualNetworkResourceId, principalId)
  scope: vnet
  properties: {
    principalId: principalId
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', networkContributorRoleId)
    // Declaring the type lets Azure accept a freshly created identity before Entra ID
    // replication has caught up, instead of failing with PrincipalNotFound.
    principalType: 'ServicePrincipal'
    description: assignmentDescription
  }
}

@description('Required. The role assignment\'s resource ID.')
output resourceId string = grant.id
