metadata name = 'Naming and scope rules of the network-contributor module'
metadata description = 'Shared by main.bicep and the per-scope modules so that every file computes the same assignment names and accepts the same scopes.'

@export()
@description('The built-in Network Contributor role definition, the same GUID as NetworkContributorRoleID in the provider.')
var networkContributorRoleId = '4d97b98b-1d4f-4787-a291-c67834d212e7'

// guid() is a UUIDv5 of its arguments, so a repeated or retried deployment finds its own
// assignment instead of failing with RoleAssignmentExists. Resource and principal IDs are
// case-insensitive in Azure, so both are lowercased: the same grant given with IDs in another
// case keeps its name. User-defined functions cannot read variables, so the role GUID is
// repeated here; a Go test checks that both spellings agree.
@export()
@description('The deterministic name of the Network Contributor assignment of principalId at scope.')
func assignmentName(scope string, principalId string) string => guid(toLower(scope), toLower(principalId), '4d97b98b-1d4f-4787-a291-c67834d212e7')

// A virtual network ID has 9 segments when split at '/' (the first one empty):
// /subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>,
// and a subnet ID 11 (…/subnets/<subnet>). The literal segments are compared without case, as
// Azure does. Every index is guarded by a length check in an enclosing conditional, which ARM
// evaluates lazily.
@export()
@description('Whether id is a subnet ID (\'subnet\'), a virtual network ID (\'virtualNetwork\') or neither (\'invalid\').')
func scopeKind(id string) string => length(split(id, '/')) != 9 && length(split(id, '/')) != 11 ? 'invalid' : (split(id, '/')[0] == '' && toLower(split(id, '/')[1]) == 'subscriptions' && !empty(split(id, '/')[2]) && toLower(split(id, '/')[3]) == 'resourcegroups' && !empty(split(id, '/')[4]) && toLower(split(id, '/')[5]) == 'providers' && toLower(split(id, '/')[6]) == 'microsoft.network' && toLower(split(id, '/')[7]) == 'virtualnetworks' && !empty(split(id, '/')[8]) ? (length(split(id, '/')) == 9 ? 'virtualNetwork' : (toLower(split(id, '/')[9]) == 'subnets' && !empty(split(id, '/')[10]) ? 'subnet' : 'invalid')) : 'invalid')
