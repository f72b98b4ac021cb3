// Package catalog is the embedded catalog of Azure VM sizes: their capabilities
// (the raw Resource SKU capabilities plus normalised facts), where they are
// offered, and their hourly list prices per region.
//
// The artefact catalog.bin.gz is produced by the generator in ./gen from inputs
// in the Azure APIs' own formats (Resource SKUs, Retail Prices, Locations) or the
// project's reference snapshot of them, and decoded lazily by Default.
//
// Unknown facts stay unknown: Tristate and OptInt distinguish "no" from "not
// known", Zones distinguishes "no zones" from "zones not known", and every price
// carries its source (Prices.OnDemandSource/SpotSource: "list YYYY-MM-DD" or
// "override…"). Quote returns a price with its source and estimates a missing
// spot price from the spot/on-demand ratio seen elsewhere, saying how.
//
// # Override file
//
// Users extend or correct the catalog with a JSON file (LoadOverride, Load):
//
//	{
//	  "mode": "merge",
//	  "skus": [
//	    {
//	      "name": "Standard_D4s_v7",
//	      "tier": "Standard",
//	      "size": "D4s_v7",
//	      "family": "standardDSv7Family",
//	      "knownToKarpenter": true,
//	      "capabilities": {"vCPUs": "4", "MemoryGB": "16", "CpuArchitectureType": "x64",
//	                       "PremiumIO": "True", "HyperVGenerations": "V1,V2"},
//	      "locations": {"eastus": {"zones": ["1", "2", "3"]}}
//	    }
//	  ],
//	  "prices": {"eastus": {"Standard_D4s_v7": {"onDemand": 0.192, "spot": 0.04, "spotSource": "negotiated"},
//	                        "Standard_D2s_v3": {"onDemand": 0.081}}},
//	  "regions": [{"name": "eastus", "displayName": "East US", "zones": ["1", "2", "3"], "zonesKnown": true}]
//	}
//
// mode is "merge" (the default) or "replace". With "replace" the file is the
// whole catalog, e.g. a fresher snapshot written by the generator's -format json.
// Prices are USD per hour; a replace-mode file may say "currency": "EUR" (an ISO
// 4217 code), and every price and cost is then shown in it (Catalog.Currency),
// never converted. A merge keeps the embedded USD prices, so "currency" other
// than USD is rejected there: one catalog, one currency.
// With "merge":
//
//   - A SKU whose name is new is added; it needs capabilities (Resource SKU
//     names and values, as an object or as the API's [{"name","value"}] list) or
//     at least vcpus and memoryGiB. Normalised facts are derived from the
//     capabilities; fields given explicitly (vcpus, memoryGiB, arch, gpuCount,
//     gpuModel, premiumIO, ... as in the SKU JSON tags) win over derived ones.
//   - A SKU whose name exists is patched: only the fields present replace the
//     embedded ones; capabilities, when present, replace the whole list and
//     re-derive the normalised facts; locations replace per region.
//   - knownToKarpenter defaults to false for new SKUs, as for any size missing
//     from the Azure provider's known_skus.yaml: Karpenter then prices them at a
//     USD 999/h penalty so they are never picked automatically. Set it to true to
//     model a provider version that knows the size.
//   - Prices set the given fields only; "spot" makes the spot price exact instead
//     of an estimate, and joins the ratios that estimate the same size elsewhere.
//     Negotiated prices are simply prices. "onDemandSource"/"spotSource" say where
//     a price comes from: "list YYYY-MM-DD" is kept as is, other text is shown as
//     "override: <text>"; without one the source is "override". A source without
//     its price is rejected.
//   - Regions replace region metadata by name.
//
// Unknown JSON fields are rejected so that typos do not silently do nothing.
package catalog
