package eksfake

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
)

// emptyPayloadHash is the SHA-256 of no body, which a presigned GET signs.
const emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// VerifyToken checks that token is an EKS token for cluster, as aws-iam-authenticator's
// server does before it forwards the URL to STS. The token has the k8s-aws-v1. prefix. It is
// a presigned GetCallerIdentity URL of the STS host stsHost, signed no more than 15 minutes
// ago. The cluster ID header is among its signed headers, and X-Amz-Expires is at most 900
// seconds. As STS would, it also checks that the signature is the one creds make for that URL
// with the header set to cluster. It returns the access key ID.
func VerifyToken(token, cluster, stsHost string, creds sdkaws.Credentials, now time.Time) (string, error) {
	enc, ok := strings.CutPrefix(token, awsclient.TokenPrefix)
	if !ok {
		return "", fmt.Errorf("token has no %s prefix", awsclient.TokenPrefix)
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return "", fmt.Errorf("token is not unpadded base64url: %w", err)
	}
	u, err := url.Parse(string(raw))
	if err != nil {
		return "", fmt.Errorf("token is not a URL: %w", err)
	}
	q := u.Query()
	switch {
	case u.Scheme != "https" || u.Host != stsHost || (u.Path != "/" && u.Path != ""):
		return "", fmt.Errorf("URL %s://%s%s is not the STS endpoint https://%s/", u.Scheme, u.Host, u.Path, stsHost)
	case q.Get("Action") != "GetCallerIdentity" || q.Get("Version") != "2011-06-15":
		return "", fmt.Errorf("URL is not a GetCallerIdentity call: Action=%q Version=%q", q.Get("Action"), q.Get("Version"))
	case q.Get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256":
		return "", fmt.Errorf("X-Amz-Algorithm=%q", q.Get("X-Amz-Algorithm"))
	case !slices.Contains(strings.Split(q.Get("X-Amz-SignedHeaders"), ";"), awsclient.ClusterIDHeader):
		return "", fmt.Errorf("%s is not a signed header (X-Amz-SignedHeaders=%q)", awsclient.ClusterIDHeader, q.Get("X-Amz-SignedHeaders"))
	}
	// AKID/yyyymmdd/region/sts/aws4_request
	scope := strings.Split(q.Get("X-Amz-Credential"), "/")
	if len(scope) != 5 || scope[3] != "sts" || scope[4] != "aws4_request" {
		return "", fmt.Errorf("X-Amz-Credential=%q is not an STS credential scope", q.Get("X-Amz-Credential"))
	}
	if scope[0] != creds.AccessKeyID {
		return "", fmt.Errorf("signed by access key %s, not the test's", scope[0])
	}
	// Checked for shape only, as aws-iam-authenticator does: the validity runs from X-Amz-Date.
	if n, err := strconv.Atoi(q.Get("X-Amz-Expires")); err != nil || n < 0 || n > 900 {
		return "", fmt.Errorf("X-Amz-Expires=%q is not a number of seconds in [0, 900]", q.Get("X-Amz-Expires"))
	}
	signed, err := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
	if err != nil {
		return "", fmt.Errorf("X-Amz-Date=%q: %w", q.Get("X-Amz-Date"), err)
	}
	if age := now.Sub(signed); age > awsclient.TokenValidity || age < -time.Minute {
		return "", fmt.Errorf("token signed at %s is %s old: expired (valid %s)", signed, age, awsclient.TokenValidity)
	}
	// Sign the same request again and compare: what STS does with the URL and the header.
	got := q.Get("X-Amz-Signature")
	for _, k := range []string{"X-Amz-Signature", "X-Amz-Credential", "X-Amz-Date", "X-Amz-SignedHeaders", "X-Amz-Algorithm"} {
		q.Del(k)
	}
	plain := *u
	plain.RawQuery = q.Encode()
	req, err := http.NewRequest(http.MethodGet, plain.String(), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set(awsclient.ClusterIDHeader, cluster)
	again, _, err := v4.NewSigner().PresignHTTP(context.Background(), creds, req, emptyPayloadHash, "sts", scope[2], signed)
	if err != nil {
		return "", err
	}
	au, err := url.Parse(again)
	if err != nil {
		return "", err
	}
	if want := au.Query().Get("X-Amz-Signature"); !hmac.Equal([]byte(got), []byte(want)) {
		return "", errors.New("signature does not match: signed for another cluster, URL or key")
	}
	return scope[0], nil
}
