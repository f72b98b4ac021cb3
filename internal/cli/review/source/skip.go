package source

// SkipKind is why the review did not follow an input or a part of one. A later stage that
// follows the part after all (kustomize build, the workload reader) withdraws the skip by its
// kind, never by its text.
type SkipKind int

const (
	// SkipNotFollowed is any reason no later stage revisits.
	SkipNotFollowed SkipKind = iota
	// SkipRemoteResource is a kustomization's remote resource, which the review does not fetch.
	SkipRemoteResource
	// SkipJSON6902 is a JSON 6902 patch: the review's own reading applies strategic-merge
	// patches only; kustomize build applies both.
	SkipJSON6902
	// SkipUnmatchedPatch is a strategic-merge patch that matches no reviewed object; the
	// workload reader withdraws it when the patch applies to a workload.
	SkipUnmatchedPatch
)

// Skip is an entry of a kustomization that the review does not follow, and why.
type Skip struct {
	Kind   SkipKind
	Reason string
}
