metadata name = 'Network Contributor on one subnet'
metadata description = 'Deployed by the network-contributor module in the subnet\'s resource group.'

import { assignmentName, networkContributorRoleId } from 'names.bicep'

@description('Required. The subnet\'s resource ID.')
param subnetResourceId string

@description('Required. Object (principal) ID of the cluster\'s control plane identity.')
param principalId string

@description('Required. Description stored on the role assignment.')
param assignmentDescription string

resource vnet 'Microsoft.Network/virtualNetworks@2024-05-01' existing = {
  name: split(subnetResourceId, '/')[8]

  resource subnet 'subnets' existing = {
    name: split(subnetResourceId, '/')[10]
  }
}

resource grant 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: assignmentName(subnetResourceId, principalId)
  scope: vnet::subnet
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
