// Package fakecloud is a test-only second cloud behind the seam (internal/cloud). Tests of
// the analysis and the simulation use it to show that a pool of another cloud is served by
// that cloud's instance types, labels, regions and launch choice only. It is written against
// the seam alone, like a real cloud: it imports no other cloud, no analysis and no
// simulation. No production code imports it.
package fakecloud
