metadata name = 'Network Contributor for an AKS cluster identity'
metadata description = 'Grants the cluster\'s control plane identity Network Contributor on the subnets or virtual networks its nodes use, so that node auto provisioning can create node NICs there. One role assignment per given scope, at exactly that scope (a subnet grant is the narrowest), under a deterministic name, as terraform-provider-karpenter does for karpenter_aks_node_auto_provisioning.'

import { assignmentName, networkContributorRoleId, scopeKind } from 'modules/names.bicep'

@description('Required. Object (principal) ID of the cluster\'s control plane identity: the `controlPlanePrincipalId` output of aks-nap-cluster, `identity.principalId` of a system-assigned cluster, or the principal ID of its user-assigned identity.')
param principalId string

@description('Required. Resource IDs of the subnets (narrowest, preferred) or virtual networks the cluster\'s nodes use: the system pool\'s subnet and every AKSNodeClass `vnetSubnetID`. They may be in other resource groups and subscriptions. Anything that is not a subnet or virtual network ID fails the deployment.')
@minLength(1)
param scopeResourceIds string[]

@description('Optional. Description stored on each role assignment.')
param assignmentDescription string = 'Network Contributor for AKS node auto provisioning (Bicep module network-contributor)'

// Subnets and virtual networks are told apart by the shape of their IDs, exactly as
// ParseNetworkScope in the provider does; each goes to the module that grants at that scope
// type, deployed in the scope's own subscription and resource group.
var subnetIds = filter(scopeResourceIds, id => scopeKind(id) == 'subnet')
var vnetIds = filter(scopeResourceIds, id => scopeKind(id) == 'virtualNetwork')
var invalidIds = filter(scopeResourceIds, id => scopeKind(id) == 'invalid')

// An ID of any other kind fails the deployment before anything is granted: both loops take
// their IDs through fail(), which ARM evaluates when it expands the loops, before it deploys
// any of their modules (fail() needs Bicep 0.33 or later).
var rejected = 'network-contributor: neither a subnet nor a virtual network resource ID: ${join(map(invalidIds, id => format('"{0}"', id)), ', ')}'
var grantedSubnetIds = empty(invalidIds) ? subnetIds : fail(rejected)
var grantedVnetIds = empty(invalidIds) ? vnetIds : fail(rejected)

module onSubnet 'modules/subnet-assignment.bicep' = [
  for id in grantedSubnetIds: {
    name: take('nc-subnet-${uniqueString(toLower(id), principalId)}', 64)
    scope: resourceGroup(split(id, '/')[2], split(id, '/')[4])
    params: {
      subnetResourceId: id
      principalId: principalId
      assignmentDescription: assignmentDescription
    }
  }
]

module onVnet 'modules/vnet-assignment.bicep' = [
  for id in grantedVnetIds: {
    name: take('nc-vnet-${uniqueString(toLower(id), principalId)}', 64)
    scope: resourceGroup(split(id, '/')[2], split(id, '/')[4])
    params: {
      virtualNetworkResourceId: id
      principalId: principalId
      assignmentDescription: assignmentDescription
    }
  }
]

@description('Required. The role assignments, in the order of `scopeResourceIds`: scope, deterministic name and resource ID.')
output roleAssignments roleAssignmentType[] = [
  for id in scopeResourceIds: {
    scope: id
    name: assignmentName(id, principalId)
    resourceId: '${id}/providers/Microsoft.Authorization/roleAssignments/${assignmentName(id, principalId)}'
  }
]

@description('Required. The role definition granted: Network Contributor.')
output roleDefinitionId string = networkContributorRoleId

@export()
@description('One Network Contributor role assignment.')
type roleAssignmentType = {
  @description('Required. The subnet or virtual network the role is granted on.')
  scope: string

  @description('Required. The role assignment\'s deterministic name.')
  name: string

  @description('Required. The role assignment\'s resource ID.')
  resourceId: string
}
