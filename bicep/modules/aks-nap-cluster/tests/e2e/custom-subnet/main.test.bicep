targetScope = 'resourceGroup'

metadata name = 'Custom subnet, zones, Entra ID admins'
metadata description = 'A NAP cluster in a custom subnet: the module grants the cluster identity Network Contributor on the subnet, which NAP needs to create node NICs there.'

@description('Optional. The location to deploy resources to.')
param resourceLocation string = resourceGroup().location

@description('Optional. A short identifier for the kind of deployment. Should be kept short to not run into resource-name length-constraints.')
param serviceShort string = 'napsub'

@description('Optional. A token to inject into the name of each resource.')
param namePrefix string = '#_namePrefix_#'

@description('Optional. Object IDs of Entra ID groups that get cluster-admin.')
param adminGroupObjectIds string[] = []

// Dependencies
resource vnet 'Microsoft.Network/virtualNetworks@2024-05-01' = {
  name: 'dep-${namePrefix}-vnet-${serviceShort}'
  location: resourceLocation
  properties: {
    addressSpace: {
      addressPrefixes: [
        '10.224.0.0/12'
      ]
    }
    subnets: [
      {
        name: 'nodes'
        properties: {
          addressPrefix: '10.224.0.0/16'
        }
      }
    ]
  }
}

@batchSize(1)
module testDeployment '../../../main.bicep' = [
  for iteration in ['init', 'idem']: {
    name: '${uniqueString(deployment().name, resourceLocation)}-test-${serviceShort}-${iteration}'
    params: {
      name: '${namePrefix}${serviceShort}001'
      location: resourceLocation
      kubernetesVersion: '1.33'
      systemPool: {
        vmSize: 'Standard_D4ds_v5'
        count: 3
        availabilityZones: ['1', '2', '3']
      }
      vnetSubnetResourceId: '${vnet.id}/subnets/nodes'
      outboundType: 'loadBalancer'
      adminGroupObjectIds: adminGroupObjectIds
      disableLocalAccounts: true
      tags: {
        purpose: 'e2e'
      }
    }
  }
]
