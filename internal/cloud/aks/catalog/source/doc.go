// Package source reads catalog inputs in the Azure APIs' own formats and assembles a
// catalog.Data. The inputs are Resource SKUs (Microsoft.Compute/skus) list responses, Retail
// Prices API item pages, Locations API lists, and the project's reference snapshot of them.
// It is tool support, outside the layers: the generator, catalogupdate and tests use it,
// nothing at runtime does.
package source
