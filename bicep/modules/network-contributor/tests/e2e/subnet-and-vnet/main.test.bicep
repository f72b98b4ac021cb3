targetScope = 'resourceGroup'

metadata name = 'A subnet and a virtual network'
metadata description = 'Grants a managed identity Network Contributor on one subnet and on a whole second virtual network, twice, to prove the deterministic names make the deployment idempotent.'

@description('Optional. The location to deploy resources to.')
param resourceLocation string = resourceGroup().location

@description('Optional. A short identifier for the kind of deployment. Should be kept short to not run into resource-name length-constraints.')
param serviceShort string = 'ncsub'

@description('Optional. A token to inject into the name of each resource.')
param namePrefix string = '#_namePrefix_#'

// Dependencies
resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: 'dep-${namePrefix}-msi-${serviceShort}'
  location: resourceLocation
}

resource nodes 'Microsoft.Network/virtualNetworks@2024-05-01' = {
  name: 'dep-${namePrefix}-vnet-${serviceShort}-nodes'
  location: resourceLocation
  properties: {
    addressSpace: {
      addressPrefixes: [
        '10.10.0.0/16'
      ]
    }
    subnets: [
      {
        name: 'pool-a'
        properties: {
          addressPrefix: '10.10.0.0/20'
        }
      }
    ]
  }
}

resource other 'Microsoft.Network/virtualNetworks@2024-05-01' = {
  name: 'dep-${namePrefix}-vnet-${serviceShort}-other'
  location: resourceLocation
  properties: {
    addressSpace: {
      addressPrefixes: [
        '10.20.0.0/16'
      ]
    }
  }
}

@batchSize(1)
module testDeployment '../../../main.bicep' = [
  for iteration in ['init', 'idem']: {
    name: '${uniqueString(deployment().name, resourceLocation)}-test-${serviceShort}-${iteration}'
    params: {
      principalId: identity.properties.principalId
      scopeResourceIds: [
        '${nodes.id}/subnets/pool-a'
        other.id
      ]
    }
  }
]

@description('Required. The role assignments of the last iteration, for the workflow to compare with the first.')
output roleAssignments array = testDeployment[1].outputs.roleAssignments
