package kube

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// front is a TLS proxy before the local API server that fails the first requests to
// Karpenter objects in a chosen way, as a load balancer, an API server restart or an etcd
// leader election does, and forwards the rest as the cluster admin.
type front struct {
	*httptest.Server
	failures atomic.Int32  // requests still to fail
	requests atomic.Int32  // requests to Karpenter objects seen
	release  chan struct{} // closed when the test ends: stalled requests return
}

// failWith answers a request that is to fail.
type failWith func(w http.ResponseWriter, r *http.Request)

func newFront(t *testing.T, cl *testenv.Cluster, failures int32, fail failWith) (*front, *rest.Config) {
	t.Helper()
	admin, err := rest.TransportFor(cl.Config)
	if err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(cl.Config.Host)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = admin
	f := &front{release: make(chan struct{})}
	f.failures.Store(failures)
	f.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/apis/karpenter.sh/") {
			f.requests.Add(1)
			if f.failures.Add(-1) >= 0 {
				select {
				case <-f.release:
				default:
					fail(w, r.WithContext(contextUntil(r.Context(), f.release)))
				}
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { close(f.release); f.Close() })
	cfg := &rest.Config{Host: f.URL, TLSClientConfig: rest.TLSClientConfig{Insecure: true}}
	return f, cfg
}

// contextUntil is ctx, also done when release is closed.
func contextUntil(ctx context.Context, release <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-release:
		case <-ctx.Done():
		}
		cancel()
	}()
	return ctx
}

// dropConnection ends the connection without an answer, as a lost connection does.
func dropConnection(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

// etcdLeaderChanged is what the API server answers while etcd elects a leader.
func etcdLeaderChanged(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: leader changed","reason":"InternalError","code":500}`))
}

func tooManyRequests(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "1")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too many requests","reason":"TooManyRequests","code":429}`))
}

// stall never answers, as an API server that hangs does.
func stall(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

func newClient(t *testing.T, cfg *rest.Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Retry = Retry{First: 50 * time.Millisecond, Max: 200 * time.Millisecond, Budget: 10 * time.Second, Refused: 10 * time.Second}
	return c
}

// Transient failures are retried within the deadline: creates, applies, reads and deletes
// all get through the failures that pass.
func TestRetriesTransientFailures(t *testing.T) {
	cl := testenv.Get(t)
	for _, tc := range []struct {
		name     string
		failures int32
		fail     failWith
	}{
		{"connection-lost", 3, dropConnection},
		{"etcd-leader-changed", 3, etcdLeaderChanged},
		// Retry-After: 1 s each. client-go itself retries an answer with Retry-After, so
		// these never reach Client's own retries.
		{"too-many-requests", 1, tooManyRequests},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, cfg := newFront(t, cl, tc.failures, tc.fail)
			c := newClient(t, cfg)
			var retries atomic.Int32
			c.OnRetry = func(context.Context, *RequestError, time.Duration) { retries.Add(1) }
			defer func() {
				if retries.Load() == 0 && tc.name != "too-many-requests" {
					t.Error("OnRetry was never called")
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			name := "retry-" + tc.name
			if _, err := c.Create(ctx, nodePools, pool(name)); err != nil {
				t.Fatalf("create through %d failures: %v", tc.failures, err)
			}
			f.failures.Store(tc.failures)
			if _, err := c.Apply(ctx, nodePools, pool(name)); err != nil {
				t.Fatalf("apply through failures: %v", err)
			}
			f.failures.Store(tc.failures)
			if obj, err := c.Get(ctx, nodePools, name); err != nil || obj == nil {
				t.Fatalf("get through failures: %v, %v", obj, err)
			}
			f.failures.Store(tc.failures)
			if err := c.Delete(ctx, nodePools, name, nil); err != nil {
				t.Fatalf("delete through failures: %v", err)
			}
		})
	}
}

// A create whose answer is lost after the API server created the object is retried, and the
// retry recognises the object as its own rather than reporting that it already exists.
func TestCreateRetryAfterLostAnswer(t *testing.T) {
	cl := testenv.Get(t)
	admin, err := rest.TransportFor(cl.Config)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(cl.Config.Host)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = admin
	var lost atomic.Bool
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && !lost.Swap(true) {
			// Forward the create, then drop the connection instead of answering.
			rec := httptest.NewRecorder()
			proxy.ServeHTTP(rec, r)
			dropConnection(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := newClient(t, &rest.Config{Host: srv.URL, TLSClientConfig: rest.TLSClientConfig{Insecure: true}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	live, err := c.Create(ctx, nodePools, pool("retry-lost-answer"))
	if err != nil {
		t.Fatalf("create with a lost answer: %v", err)
	}
	if got := managers(live); len(got) != 1 || got[0] != FieldManager+"/Apply" {
		t.Errorf("managers = %v, want only %s/Apply", got, FieldManager)
	}
}

func failureOf(t *testing.T, err error) *RequestError {
	t.Helper()
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a *RequestError", err, err)
	}
	return re
}

// Each way a request can fail is told apart, with the verb and resource that failed.
func TestFailuresAreClassified(t *testing.T) {
	cl := testenv.Get(t)
	ctx := context.Background()

	t.Run("bad-token", func(t *testing.T) {
		cfg := rest.AnonymousClientConfig(cl.Config)
		cfg.BearerToken = "not-a-token-of-this-cluster"
		_, err := newClient(t, cfg).Get(ctx, nodePools, "x")
		if re := failureOf(t, err); re.Failure != Unauthenticated || re.Verb != "get" {
			t.Errorf("got %v (%s), want unauthenticated get", err, re.Failure)
		}
	})

	t.Run("forbidden", func(t *testing.T) {
		kc, err := cl.AddUser(testenv.User{Name: "reader", Groups: []string{"readers"}})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := clientcmd.RESTConfigFromKubeConfig(kc)
		if err != nil {
			t.Fatal(err)
		}
		cs := kubernetes.NewForConfigOrDie(cl.Config)
		role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "nodepool-reader"},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{"karpenter.sh"}, Resources: []string{"nodepools"}, Verbs: []string{"get", "list", "create"}}}}
		binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "nodepool-reader"},
			RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
			Subjects: []rbacv1.Subject{{Kind: "Group", APIGroup: "rbac.authorization.k8s.io", Name: "readers"}}}
		if _, err := cs.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		c := newClient(t, cfg)
		// get, list and create are allowed; the apply after the create needs patch.
		deadline := time.Now().Add(10 * time.Second)
		for {
			_, err = c.Create(ctx, nodePools, pool("forbidden-patch"))
			if re := failureOf(t, err); re.Failure == Forbidden && re.Verb == "create" && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond) // the RBAC cache has not seen the binding yet
				continue
			}
			break
		}
		re := failureOf(t, err)
		if re.Failure != Forbidden || re.Verb != "patch" || re.Resource.String() != "nodepools.karpenter.sh" {
			t.Errorf("got %v (%s %s %s), want forbidden patch nodepools.karpenter.sh", err, re.Failure, re.Verb, re.Resource)
		}
		_, err = c.Apply(ctx, nodePools, pool("forbidden-apply"))
		if re := failureOf(t, err); re.Failure != Forbidden || re.Verb != "patch" {
			t.Errorf("apply: got %v, want forbidden patch", err)
		}
	})

	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		_ = l.Close() // nothing listens there any more
		c := newClient(t, &rest.Config{Host: "https://" + addr, TLSClientConfig: rest.TLSClientConfig{Insecure: true}})
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, err = c.Create(ctx, nodePools, pool("unreachable"))
		re := failureOf(t, err)
		if re.Failure != Unreachable || re.Verb != "create" || re.Attempts < 2 {
			t.Errorf("got %v (%s, %d attempts), want unreachable create after retries", err, re.Failure, re.Attempts)
		}
		// A refused connection is retried for Retry.Refused, not the whole (longer) timeout.
		c.Retry.Refused = 500 * time.Millisecond
		long, cancel2 := context.WithTimeout(context.Background(), time.Minute)
		defer cancel2()
		begin := time.Now()
		_, err = c.Get(long, nodePools, "unreachable")
		if re := failureOf(t, err); re.Failure != Unreachable || time.Since(begin) > 5*time.Second {
			t.Errorf("got %v after %s, want unreachable within about Retry.Refused", err, time.Since(begin))
		}
	})

	t.Run("stalled", func(t *testing.T) {
		_, cfg := newFront(t, cl, 1000, stall)
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, err := newClient(t, cfg).Create(ctx, nodePools, pool("stalled"))
		if re := failureOf(t, err); re.Failure != TimedOut || re.Verb != "create" {
			t.Errorf("got %v (%s), want timed out create", err, re.Failure)
		}
	})

	t.Run("rate-limiter", func(t *testing.T) {
		cfg := rest.CopyConfig(cl.Config)
		cfg.QPS, cfg.Burst = 0.5, 1
		c := newClient(t, cfg)
		ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		defer cancel()
		_, _ = c.Get(ctx, nodePools, "x") // takes the one token
		_, err := c.Get(ctx, nodePools, "x")
		if re := failureOf(t, err); re.Failure != TimedOut {
			t.Errorf("got %v (%s), want timed out", err, re.Failure)
		}
	})

	t.Run("invalid", func(t *testing.T) {
		obj := pool("invalid")
		obj.Object["spec"].(map[string]any)["weight"] = int64(1000)
		_, err := newClient(t, cl.Config).Create(ctx, nodePools, obj)
		if re := failureOf(t, err); re.Failure != Rejected || re.Attempts != 1 {
			t.Errorf("got %v (%s, %d attempts), want rejected at once", err, re.Failure, re.Attempts)
		}
	})
}
