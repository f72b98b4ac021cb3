package kube

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// Failure is what kind of failure a request to the API server ended in. The provider titles
// its diagnostics by it, so that a lost connection does not read as a rejected object and a
// bad token points at the credentials.
type Failure int

const (
	// Rejected: the API server answered and refused the request (invalid object, conflict,
	// not found, ...). Retrying the same request cannot help.
	Rejected Failure = iota
	// Unauthenticated: the API server did not accept the credentials (401 Unauthorized).
	Unauthenticated
	// Forbidden: the credentials are valid but RBAC does not allow the verb (403).
	Forbidden
	// Unreachable: no answer came back: connection refused, reset or lost, DNS, TLS.
	Unreachable
	// ServerError: the API server answered with a server-side failure that may pass: 429 Too
	// Many Requests, 5xx (an etcd leader change is a 500).
	ServerError
	// TimedOut: the deadline of the operation (the resource timeout) ended the request, or
	// client-go's rate limiter would have had to wait past it.
	TimedOut
	// Untrusted: the API server's TLS certificate did not verify (wrong CA, wrong host name).
	Untrusted
)

func (f Failure) String() string {
	switch f {
	case Unauthenticated:
		return "unauthenticated"
	case Forbidden:
		return "forbidden"
	case Unreachable:
		return "unreachable"
	case ServerError:
		return "server error"
	case TimedOut:
		return "timed out"
	case Untrusted:
		return "certificate not trusted"
	default:
		return "rejected"
	}
}

// Transient reports whether a request that failed this way may succeed when sent again.
func (f Failure) Transient() bool { return f == Unreachable || f == ServerError }

// Classify says what kind of failure err is. A context that ended wins over the error the
// cut-short request returned.
func Classify(ctx context.Context, err error) Failure {
	switch {
	case apierrors.IsUnauthorized(err):
		return Unauthenticated
	case apierrors.IsForbidden(err):
		return Forbidden
	case ctx.Err() != nil, errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		// client-go's rate limiter refuses to wait past the deadline before it passes, with
		// an untyped error: "client rate limiter Wait returned an error: rate: Wait(n=1)
		// would exceed context deadline".
		strings.Contains(err.Error(), "would exceed context deadline"):
		return TimedOut
	case apierrors.IsTooManyRequests(err), apierrors.IsInternalError(err), apierrors.IsServiceUnavailable(err),
		apierrors.IsServerTimeout(err), apierrors.IsTimeout(err), apierrors.IsUnexpectedServerError(err), serverStatus(err):
		return ServerError
	case untrusted(err):
		return Untrusted
	case unreachable(err):
		return Unreachable
	default:
		return Rejected
	}
}

// serverStatus reports a 5xx answer that has no more specific reason (502 from a proxy).
func serverStatus(err error) bool {
	var s apierrors.APIStatus
	return errors.As(err, &s) && s.Status().Code >= 500
}

// untrusted reports a failed verification of the server's certificate, which no retry fixes.
func untrusted(err error) bool {
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var host x509.HostnameError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &invalid) || errors.As(err, &host) || errors.As(err, &verify)
}

// unreachable reports an error of the transport: the request got no answer. (Not any
// net.Error: client-go wraps every transport error in *url.Error, which is one.)
func unreachable(err error) bool {
	var opErr *net.OpError
	var dnsErr *net.DNSError
	return utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) || utilnet.IsHTTP2ConnectionLost(err) ||
		utilnet.IsProbableEOF(err) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &opErr) || errors.As(err, &dnsErr) || strings.Contains(err.Error(), "TLS handshake timeout")
}

// RequestError is a failed request to the API server, classified, with what it was.
type RequestError struct {
	Verb     string // the RBAC verb: get, list, create, patch, delete
	Resource schema.GroupResource
	Name     string // "" for a list
	Failure  Failure
	// Attempts is how many times the request was sent; Elapsed is how long that took.
	Attempts int
	Elapsed  time.Duration
	Err      error // the last attempt's error
}

func (e *RequestError) Error() string {
	what := e.Verb + " " + e.Resource.String()
	if e.Name != "" {
		what += fmt.Sprintf(" %q", e.Name)
	}
	if e.Attempts > 1 {
		return fmt.Sprintf("%s failed (%s) after %d attempts in %s: %v", what, e.Failure, e.Attempts, e.Elapsed.Round(time.Millisecond), e.Err)
	}
	return fmt.Sprintf("%s failed (%s): %v", what, e.Failure, e.Err)
}

func (e *RequestError) Unwrap() error { return e.Err }
