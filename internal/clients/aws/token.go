package aws

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/sts"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// The token format of aws-iam-authenticator, which EKS's API servers accept: the prefix and
// the base64url (unpadded) presigned GetCallerIdentity URL, signed with the header that binds
// it to one cluster.
const (
	TokenPrefix     = "k8s-aws-v1."
	ClusterIDHeader = "x-k8s-aws-id"
	// TokenValidity is how long EKS accepts a token after its signing time.
	TokenValidity = 15 * time.Minute
	// tokenReuse is how long a token is sent before a new one is signed: `aws eks get-token`
	// says a token expires 14 minutes after signing, which leaves a minute for clock skew and
	// requests in flight.
	tokenReuse = 14 * time.Minute
)

// Token signs a token for the cluster named name with the STS client's credentials.
func Token(ctx context.Context, client *sts.Client, name string) (string, error) {
	req, err := sts.NewPresignClient(client).PresignGetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}, func(po *sts.PresignOptions) {
		po.ClientOptions = append(po.ClientOptions, func(o *sts.Options) {
			o.APIOptions = append(o.APIOptions,
				smithyhttp.SetHeaderValue(ClusterIDHeader, name),
				// Hoisted into the query by the presigner, as aws-iam-authenticator sets it.
				smithyhttp.SetHeaderValue("X-Amz-Expires", "60"))
		})
	})
	if err != nil {
		return "", fmt.Errorf("signing an EKS token (presigned sts:GetCallerIdentity) for cluster %s: %w", name, err)
	}
	return TokenPrefix + base64.RawURLEncoding.EncodeToString([]byte(req.URL)), nil
}

// TokenTransport adds an EKS token for the cluster name to each request, signing a new one
// before the old one expires.
func TokenTransport(client *sts.Client, name string) func(http.RoundTripper) http.RoundTripper {
	src := &tokenSource{client: client, name: name, now: time.Now}
	return func(next http.RoundTripper) http.RoundTripper { return &tokenTransport{next: next, src: src} }
}

type tokenSource struct {
	client *sts.Client
	name   string
	now    func() time.Time

	mu     sync.Mutex
	token  string
	signed time.Time
}

func (s *tokenSource) get(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := s.now(); s.token == "" || now.Sub(s.signed) >= tokenReuse {
		tok, err := Token(ctx, s.client, s.name)
		if err != nil {
			return "", err
		}
		s.token, s.signed = tok, now
	}
	return s.token, nil
}

type tokenTransport struct {
	next http.RoundTripper
	src  *tokenSource
}

func (t *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := t.src.get(req.Context())
	if err != nil {
		return nil, err
	}
	// A RoundTripper must not modify the caller's request.
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+tok)
	return t.next.RoundTrip(req)
}
