// Package reftest locates the repository's reference data (reference/ at the repository root)
// for tests. It is test support, outside the layers. The data is part of the repository, so a
// missing file fails the test: a parity test must never turn into a silent no-op.
package reftest
