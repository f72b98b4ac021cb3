package connect

import (
	"context"
	"errors"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// A plan-time read that fails is not tried again by the same provider instance: an unreachable
// cluster costs one attempt per walk. A failure of Kube stays retried, as the writes need.
func TestPlanTimeReadKeepsItsFailure(t *testing.T) {
	connects := 0
	unreachable := errors.New("dial tcp: connection refused")
	d := New(func(context.Context) (kube.Connection, error) {
		connects++
		return kube.Connection{}, unreachable
	})
	reads := 0
	read := func(context.Context, *kube.Client) error { reads++; return nil }
	for range 3 {
		if err := d.PlanTimeRead(context.Background(), read); !errors.Is(err, unreachable) {
			t.Fatalf("PlanTimeRead = %v, want the connection's error", err)
		}
	}
	if connects != 1 || reads != 0 {
		t.Errorf("%d connects and %d reads for three plan-time reads, want 1 and 0", connects, reads)
	}
	if _, err := d.Kube(context.Background()); err == nil || connects != 2 {
		t.Errorf("Kube after a failed plan-time read: %v after %d connects, want a new attempt", err, connects)
	}

	// A read that fails is kept too; one that succeeds is not.
	ok := New(func(context.Context) (kube.Connection, error) {
		return kube.Connection{Host: "https://127.0.0.1:1"}, nil
	})
	for i, want := range []error{nil, nil} {
		if err := ok.PlanTimeRead(context.Background(), read); err != want {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	forbidden := errors.New("forbidden")
	_ = ok.PlanTimeRead(context.Background(), func(context.Context, *kube.Client) error { return forbidden })
	if err := ok.PlanTimeRead(context.Background(), read); !errors.Is(err, forbidden) || reads != 2 {
		t.Errorf("after a failed read: %v with %d reads, want the kept failure and 2 reads", err, reads)
	}
}

// A plan connected only by a plan-time read stays offline for the checks that need a connected
// plan (Connected); a resource's own request makes it connected, on the same client.
func TestPlanTimeReadLeavesThePlanOffline(t *testing.T) {
	connects := 0
	d := New(func(context.Context) (kube.Connection, error) {
		connects++
		return kube.Connection{Host: "https://127.0.0.1:1"}, nil
	})
	var read *kube.Client
	if err := d.PlanTimeRead(context.Background(), func(_ context.Context, c *kube.Client) error { read = c; return nil }); err != nil {
		t.Fatal(err)
	}
	if d.Connected() != nil {
		t.Error("Connected after a plan-time read alone, want nil")
	}
	c, err := d.Kube(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d.Connected() != c || c != read || connects != 1 {
		t.Errorf("after Kube: Connected %p, Kube %p, plan-time read %p, %d connects; want one client, one connect", d.Connected(), c, read, connects)
	}
}
