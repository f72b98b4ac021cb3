package kube

import (
	"context"
	"errors"
	"net"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Retry bounds how transient failures (Failure.Transient: a lost connection, 429, 5xx such as
// an etcd leader change) are retried. The context's deadline, which is the resource timeout,
// ends the retries; a context without one (a refresh) retries for Budget.
type Retry struct {
	// First is the wait after the first failure; it doubles up to Max, with 20 % jitter.
	// A Retry-After from the server waits longer when it asks to.
	First, Max time.Duration
	// Budget is how long to retry when the context has no deadline.
	Budget time.Duration
	// Refused bounds the retries of a refused connection or an unknown host, from the first
	// attempt: an API server that restarts refuses connections for seconds, but a wrong
	// address would otherwise hold an apply for its whole timeout.
	Refused time.Duration
}

// DefaultRetry outlasts an API server restart or a 45 s stall that ends in "http2: client
// connection lost" (client-go's health check: 30 s read idle + 15 s ping), as a managed
// control plane's upgrade or failover may cause.
var DefaultRetry = Retry{First: 250 * time.Millisecond, Max: 5 * time.Second, Budget: 2 * time.Minute, Refused: 30 * time.Second}

// do sends a request with fn until it succeeds, fails in a way no retry can fix, or the time
// for retries is up, and returns the last failure classified as a *RequestError. fn is told
// the attempt number (from 1), so that a non-idempotent request can recognise its own earlier
// attempt's effect.
func (c *Client) do(ctx context.Context, verb string, gvr schema.GroupVersionResource, name string, fn func(ctx context.Context, attempt int) error) error {
	start := time.Now()
	until := start.Add(c.Retry.Budget)
	if d, ok := ctx.Deadline(); ok {
		until = d
	}
	delay := c.Retry.First
	for attempt := 1; ; attempt++ {
		err := fn(ctx, attempt)
		if err == nil {
			return nil
		}
		fail := &RequestError{Verb: verb, Resource: gvr.GroupResource(), Name: name, Failure: Classify(ctx, err),
			Attempts: attempt, Elapsed: time.Since(start), Err: err}
		if !fail.Failure.Transient() {
			return fail
		}
		if refused(err) && c.Retry.Refused > 0 && start.Add(c.Retry.Refused).Before(until) {
			until = start.Add(c.Retry.Refused)
		}
		pause := wait.Jitter(delay, 0.2)
		if s, ok := apierrors.SuggestsClientDelay(err); ok && time.Duration(s)*time.Second > pause {
			pause = time.Duration(s) * time.Second
		}
		if time.Now().Add(pause).After(until) {
			return fail
		}
		if c.OnRetry != nil {
			c.OnRetry(ctx, fail, pause)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fail
		case <-t.C:
		}
		delay = min(2*delay, c.Retry.Max)
	}
}

// refused reports a failure to reach any server at the address: nothing listens, or the
// name does not resolve.
func refused(err error) bool {
	var dnsErr *net.DNSError
	return utilnet.IsConnectionRefused(err) || errors.As(err, &dnsErr)
}
