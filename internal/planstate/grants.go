package planstate

// GrantState says what the NAP resources planned so far grant.
type GrantState int

const (
	// GrantsNotPlanned: no NAP resource was planned before the reader in this walk (there may
	// be none in the configuration, or Terraform plans it later): nothing to compare with.
	GrantsNotPlanned GrantState = iota
	// GrantsUnknown: a NAP resource planned so far has scopes known only after apply.
	GrantsUnknown
	// GrantsPlanned: Scopes are every scope the NAP resources planned so far grant.
	GrantsPlanned
)

// Grants are the Network Contributor scopes of the NAP resources planned so far.
type Grants struct {
	State GrantState
	// Scopes are the scopes known so far; complete only when State is GrantsPlanned.
	Scopes []string
}

// Known says that Scopes are all the scopes the planned NAP resources grant.
func (g Grants) Known() bool { return g.State == GrantsPlanned }
