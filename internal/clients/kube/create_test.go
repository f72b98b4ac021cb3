package kube

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
)

// otherWriter creates name as `kubectl create` would: its own field manager, its own weight.
func otherWriter(ctx context.Context, t *testing.T, cfg *rest.Config, name string) error {
	t.Helper()
	c, err := New(rest.CopyConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	obj := pool(name)
	_ = unstructured.SetNestedField(obj.Object, int64(99), "spec", "weight")
	_, err = c.dyn.Resource(nodePools).Create(ctx, obj, metav1.CreateOptions{FieldManager: "kubectl-create"})
	return err
}

// checkOneOwner checks that exactly one of the two creates of name succeeded, and that the
// object is the winner's: the provider never reports a create of an object another client
// created, and never changes that object.
func checkOneOwner(ctx context.Context, t *testing.T, c *Client, name string, ours, theirs error) {
	t.Helper()
	live, err := c.Get(ctx, nodePools, name)
	if err != nil || live == nil {
		t.Fatalf("%s: get after the race: %v, %v", name, live, err)
	}
	weight, _, _ := unstructured.NestedInt64(live.Object, "spec", "weight")
	var exists *AlreadyExistsError
	switch {
	case ours == nil && theirs == nil:
		t.Errorf("%s: both the provider and the other writer report a create: the provider took over the other writer's object (managers %v, weight %d)",
			name, managers(live), weight)
	case ours == nil:
		if !apierrors.IsAlreadyExists(theirs) {
			t.Errorf("%s: other writer failed with %v, want AlreadyExists", name, theirs)
		}
		if want := []string{FieldManager + "/Apply"}; !slices.Equal(managers(live), want) || weight != 7 {
			t.Errorf("%s: created by the provider: managers %v, weight %d; want %v, 7", name, managers(live), weight, want)
		}
	case errors.As(ours, &exists):
		if theirs != nil {
			t.Errorf("%s: the provider saw it exist, but the other writer failed too: %v", name, theirs)
		}
		if want := []string{"kubectl-create/Update"}; !slices.Equal(managers(live), want) || weight != 99 {
			t.Errorf("%s: the other writer's object was changed: managers %v, weight %d; want %v, 99", name, managers(live), weight, want)
		}
	default:
		t.Errorf("%s: provider create failed with %v", name, ours)
	}
}

// hookFirst runs hook once per object name, right after the first request that names it
// got its answer and before the client sees it: the moment another writer gets in between
// two requests of one operation.
type hookFirst struct {
	next http.RoundTripper
	hook func(name string)
	mu   sync.Mutex
	seen map[string]bool
}

func (h *hookFirst) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.next.RoundTrip(req)
	p := req.URL.Path
	name := p[strings.LastIndex(p, "/")+1:]
	if req.Method == http.MethodPost {
		name = req.Header.Get("X-Test-Name") // the name is in the body
	}
	if !strings.HasPrefix(name, "race-") {
		return resp, err
	}
	h.mu.Lock()
	first := !h.seen[name]
	h.seen[name] = true
	h.mu.Unlock()
	if first {
		h.hook(name)
	}
	return resp, err
}

// The other writer creates the object right after the provider's first request for it: with
// a read before an apply, the apply took that object over and reported it created.
func TestCreateDoesNotAdoptAnObjectCreatedInBetween(t *testing.T) {
	_, cl := client(t)
	ctx := context.Background()
	for i := range 5 {
		name := fmt.Sprintf("race-between-%d", i)
		var theirs error
		cfg := rest.CopyConfig(cl.Config)
		hook := &hookFirst{seen: map[string]bool{}, hook: func(n string) { theirs = otherWriter(ctx, t, cl.Config, n) }}
		cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
			hook.next = rt
			return roundTripFunc(func(req *http.Request) (*http.Response, error) {
				if req.Method == http.MethodPost {
					req.Header.Set("X-Test-Name", name)
				}
				return hook.RoundTrip(req)
			})
		})
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, ours := c.Create(ctx, nodePools, pool(name))
		checkOneOwner(ctx, t, c, name, ours, theirs)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Many creates race as many `kubectl create`s of the same names, all at once, through one
// client as Terraform's -parallelism shares it: every name ends up with one owner, and the
// provider reports a create only of the objects it created.
func TestCreateRacesConcurrentWriters(t *testing.T) {
	c, cl := client(t)
	ctx := context.Background()
	const n = 30
	ours, theirs := make([]error, n), make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		name := fmt.Sprintf("race-concurrent-%d", i)
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, ours[i] = c.Create(ctx, nodePools, pool(name))
		}()
		go func() {
			defer wg.Done()
			<-start
			theirs[i] = otherWriter(ctx, t, cl.Config, name)
		}()
	}
	close(start)
	wg.Wait()
	won := 0
	for i := range n {
		checkOneOwner(ctx, t, c, fmt.Sprintf("race-concurrent-%d", i), ours[i], theirs[i])
		if ours[i] == nil {
			won++
		}
	}
	t.Logf("the provider created %d of %d names, the other writer %d", won, n, n-won)
}

// After Create, the provider's apply entry owns the fields, so that an apply without a field
// removes it, as after any other apply.
func TestCreateThenApplyRemovesField(t *testing.T) {
	c, _ := client(t)
	ctx := context.Background()
	obj := pool("create-then-apply")
	if _, err := c.Create(ctx, nodePools, obj); err != nil {
		t.Fatal(err)
	}
	unstructured.RemoveNestedField(obj.Object, "spec", "weight")
	live, err := c.Apply(ctx, nodePools, obj)
	if err != nil {
		t.Fatal(err)
	}
	if w, found, _ := unstructured.NestedFieldNoCopy(live.Object, "spec", "weight"); found {
		t.Errorf("spec.weight = %v after an apply without it, want it removed (managers %v)", w, managers(live))
	}
}
