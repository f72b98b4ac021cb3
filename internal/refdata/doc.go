// Package refdata reads and writes the repository's reference data (reference/ at the
// repository root). A file is named by its logical name (vm_skus.json) and may be stored
// gzip-compressed beside it (vm_skus.json.gz): readers need not know which. It is a domain leaf
// with no imports of this module; the catalogs, their tools and their tests read through it.
package refdata
