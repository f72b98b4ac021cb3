package cloud

import (
	"fmt"
	"strings"
)

// Registry is the clouds a solver serves. The first registered serves NodePools that name no
// node-class group, as Karpenter's own defaulting has none to offer.
type Registry struct {
	clouds  []Cloud
	byGroup map[string]Cloud
	byName  map[string]Cloud
}

// NewRegistry registers clouds; two clouds claiming one node-class group or one name is a
// programming error.
func NewRegistry(clouds ...Cloud) *Registry {
	r := &Registry{byGroup: map[string]Cloud{}, byName: map[string]Cloud{}}
	for _, c := range clouds {
		if _, dup := r.byName[c.Name()]; dup {
			panic(fmt.Sprintf("cloud %q registered twice", c.Name()))
		}
		r.byName[c.Name()] = c
		for _, gk := range c.NodeClassKinds() {
			g := strings.ToLower(gk.Group)
			if other, dup := r.byGroup[g]; dup && other != c {
				panic(fmt.Sprintf("node-class group %q claimed by %s and %s", gk.Group, other.Name(), c.Name()))
			}
			r.byGroup[g] = c
		}
		r.clouds = append(r.clouds, c)
	}
	return r
}

// All returns the registered clouds in registration order.
func (r *Registry) All() []Cloud { return r.clouds }

// Default is the first registered cloud.
func (r *Registry) Default() Cloud { return r.clouds[0] }

// ForGroup returns the cloud owning the node-class group, and whether one does.
func (r *Registry) ForGroup(group string) (Cloud, bool) {
	c, ok := r.byGroup[strings.ToLower(group)]
	return c, ok
}

// Named returns the cloud of that Name.
func (r *Registry) Named(name string) (Cloud, bool) {
	c, ok := r.byName[name]
	return c, ok
}

// Serving returns the cloud that serves a NodePool whose nodeClassRef names group: the
// group's owner, else the default cloud (a pool without a group, or with a group no registered
// cloud owns, is analysed as the default cloud's, as before the seam existed).
func (r *Registry) Serving(group string) Cloud {
	if c, ok := r.ForGroup(group); ok {
		return c
	}
	return r.Default()
}

// Owns reports whether the group/kind is a node-class kind some registered cloud owns.
func (r *Registry) Owns(group, kind string) bool {
	c, ok := r.ForGroup(group)
	if !ok {
		return false
	}
	for _, gk := range c.NodeClassKinds() {
		if strings.EqualFold(gk.Group, group) && gk.Kind == kind {
			return true
		}
	}
	return false
}
