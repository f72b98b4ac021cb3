metadata name = 'Rejects a scope that is neither a subnet nor a virtual network'
metadata description = 'Its parameter accepts no value at all, so deploying it fails with an error that names the parameter and shows the offending ID.'

@description('Required. An ID given to network-contributor that is not a subnet (/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>) or virtual network ID. No value is accepted.')
@maxLength(0)
param notASubnetOrVirtualNetworkResourceId string
