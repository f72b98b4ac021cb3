// Package armfake is a small, stateful Azure for tests: one AKS managed cluster and a
// tenant's role assignments, served by the Azure SDK's own fake servers
// (armcontainerservice/v6/fake, armauthorization/v2/fake) behind one transport. It is test
// support, outside the layers; the provider receives it through azure.Options. It adds only
// what the SDK fakes cannot express. properties.nodeProvisioningProfile is newer than the v6
// model, so the transport reads it from the raw PUT body and writes it (and any Extra
// property) into GET responses. The SDK's ErrorResponder marks every error non-retriable, so
// Faults answers a throttled (429 with Retry-After) or failing (5xx) attempt as an HTTP
// response, which the SDK's retry policy handles as it would Azure's.
package armfake
