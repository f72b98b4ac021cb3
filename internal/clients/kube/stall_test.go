package kube

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// stallingProxy passes TCP through to the API server (TLS end to end), and stops passing
// bytes while it is stalled, as an API server or load balancer that hangs does: the client's
// HTTP/2 health check then gives up on the connection ("http2: client connection lost").
type stallingProxy struct {
	l            net.Listener
	target       string
	stalledUntil atomic.Int64 // unix nanoseconds
	stalled      map[net.Conn]bool
	mu           sync.Mutex
}

func newStallingProxy(t *testing.T, target string) *stallingProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallingProxy{l: l, target: target, stalled: map[net.Conn]bool{}}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

// stall freezes the connections open now, for d; connections opened later pass.
func (p *stallingProxy) stall(d time.Duration) { p.stalledUntil.Store(time.Now().Add(d).UnixNano()) }

func (p *stallingProxy) serve(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	opened := time.Now().UnixNano()
	pipe := func(dst, src net.Conn) {
		defer func() { _ = dst.Close(); _ = src.Close() }()
		buf := make([]byte, 32*1024)
		for {
			n, err := src.Read(buf)
			// A connection that was open when the stall began passes nothing until it ends;
			// by then the client has given up on it.
			for until := p.stalledUntil.Load(); opened < until && time.Now().UnixNano() < until; {
				time.Sleep(10 * time.Millisecond)
			}
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	go pipe(up, c)
	pipe(c, up)
}

// A stall of the API server long enough for client-go's HTTP/2 health check to drop the
// connection (30 s + 15 s in production, 1 s + 1 s here) fails the requests in flight with
// "http2: client connection lost"; they are retried on a new connection and all succeed.
// Without the retries, all 20 creates failed with "http2: client connection lost".
func TestCreatesSurviveAStalledConnection(t *testing.T) {
	cl := testenv.Get(t)
	t.Setenv("HTTP2_READ_IDLE_TIMEOUT_SECONDS", "1")
	t.Setenv("HTTP2_PING_TIMEOUT_SECONDS", "1")
	target, err := url.Parse(cl.Config.Host)
	if err != nil {
		t.Fatal(err)
	}
	p := newStallingProxy(t, target.Host)
	cfg := rest.CopyConfig(cl.Config)
	cfg.Host = "https://" + p.l.Addr().String()
	// Not client-go's cached transport, which another test built with the default health check.
	cfg.Proxy = func(*http.Request) (*url.URL, error) { return nil, nil }
	c := newClient(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := c.Get(ctx, nodePools, "stall-warmup"); err != nil { // opens the connection
		t.Fatal(err)
	}
	p.stall(4 * time.Second)
	const n = 20
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _, errs[i] = c.Create(ctx, nodePools, pool(fmt.Sprintf("stall-%d", i))) })
	}
	wg.Wait()
	lost := 0
	for i, err := range errs {
		if err != nil {
			t.Errorf("create %d: %v", i, err)
			if strings.Contains(err.Error(), "connection lost") {
				lost++
			}
		}
	}
	if lost > 0 {
		t.Logf("%d creates failed with a lost connection", lost)
	}
}
