// Package archtest holds the tests that keep the package layering DESIGN.md describes: which
// packages may not reach which others through their imports. It has no code of its own.
package archtest
