package cloud

// NodeClassHash is the hash a cloud provider's node-class hash controller writes on a node
// class, with the annotation keys it writes it under. Each NodeClaim carries the same two
// annotations from its launch; the provider marks it drifted (NodeClassDrift) when they
// differ from the node class's under one hash version.
type NodeClassHash struct {
	Key, VersionKey string
	Hash, Version   string
	// Complete is false when the controller also hashes something of the cluster's, so that
	// this hash equals the live one only by chance.
	Complete bool
}

// Drifter is a cloud whose provider marks NodeClaims drifted when their node class changes.
type Drifter interface {
	// NodeClassHash computes the hash of a node-class object (its unstructured content,
	// defaults applied) as the provider's hash controller computes it. What the controller
	// adds from the cluster it runs in (the EKS cluster's CA bundle) is taken as empty
	// (Complete false): compare such hashes with each other, not with a live annotation.
	NodeClassHash(obj map[string]any) (NodeClassHash, error)
}
