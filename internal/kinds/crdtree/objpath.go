package crdtree

// SetPath sets the value at path in a Kubernetes object, creating the objects on the way.
func SetPath(m map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

// GetPath returns the value at path in a Kubernetes object, or nil.
func GetPath(m map[string]any, path []string) any {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}
