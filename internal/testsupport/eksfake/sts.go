package eksfake

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// AddRole lets the test's credentials assume the role arn with sts:AssumeRole at STSEndpoint,
// handing out credentials of their own (with a session token), which the fake's EKS API and
// webhook then accept.
func (f *Fake) AddRole(arn string) sdkaws.Credentials {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.roles) + 1
	c := sdkaws.Credentials{AccessKeyID: fmt.Sprintf("ASIAEKSFAKEROLE%05d", n), SecretAccessKey: fmt.Sprintf("role-secret-%d", n), SessionToken: fmt.Sprintf("role-session-token-%d", n), Source: "AssumeRole"}
	f.roles[arn] = c
	return c
}

// STSEndpoint is the URL of the fake STS (the provider's aws.endpoints.sts); it is served
// over HTTPS, so the SDK's HTTP client must trust it (HTTPClient).
func (f *Fake) STSEndpoint() string { return f.sts.URL }

// STSHostPort is the host the tokens are presigned for when STSEndpoint is the endpoint.
func (f *Fake) STSHostPort() string { return strings.TrimPrefix(f.sts.URL, "https://") }

// HTTPClient is the SDK's HTTP client, trusting the fake's HTTPS endpoints too.
func (f *Fake) HTTPClient() sdkaws.HTTPClient {
	pool := x509.NewCertPool()
	pool.AddCert(f.sts.Certificate())
	return awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
		if tr.TLSClientConfig == nil {
			tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		tr.TLSClientConfig.RootCAs = pool
	})
}

type assumeRoleResponse struct {
	XMLName xml.Name `xml:"https://sts.amazonaws.com/doc/2011-06-15/ AssumeRoleResponse"`
	Result  struct {
		Credentials struct {
			AccessKeyID     string `xml:"AccessKeyId"`
			SecretAccessKey string `xml:"SecretAccessKey"`
			SessionToken    string `xml:"SessionToken"`
			Expiration      string `xml:"Expiration"`
		} `xml:"Credentials"`
		AssumedRoleUser struct {
			AssumedRoleID string `xml:"AssumedRoleId"`
			Arn           string `xml:"Arn"`
		} `xml:"AssumedRoleUser"`
	} `xml:"AssumeRoleResult"`
	RequestID string `xml:"ResponseMetadata>RequestId"`
}

// serveSTS answers sts:AssumeRole (a SigV4-signed form POST) for the roles AddRole made.
func (f *Fake) serveSTS(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	form, _ := url.ParseQuery(string(body))
	if _, err := f.verifySigV4(r, body, "sts"); err != nil {
		stsError(w, http.StatusForbidden, "SignatureDoesNotMatch", err.Error())
		return
	}
	if form.Get("Action") != "AssumeRole" {
		stsError(w, http.StatusBadRequest, "InvalidAction", "the fake STS serves AssumeRole only, not "+form.Get("Action"))
		return
	}
	arn := form.Get("RoleArn")
	f.mu.Lock()
	c, ok := f.roles[arn]
	f.mu.Unlock()
	if !ok {
		stsError(w, http.StatusForbidden, "AccessDenied", "not authorized to perform sts:AssumeRole on resource "+arn)
		return
	}
	var out assumeRoleResponse
	out.Result.Credentials.AccessKeyID, out.Result.Credentials.SecretAccessKey, out.Result.Credentials.SessionToken = c.AccessKeyID, c.SecretAccessKey, c.SessionToken
	out.Result.Credentials.Expiration = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	out.Result.AssumedRoleUser.AssumedRoleID = "AROAEKSFAKE:" + form.Get("RoleSessionName")
	out.Result.AssumedRoleUser.Arn = strings.Replace(strings.Replace(arn, ":iam:", ":sts:", 1), ":role/", ":assumed-role/", 1) + "/" + form.Get("RoleSessionName")
	out.RequestID = "eksfake"
	w.Header().Set("Content-Type", "text/xml")
	_ = xml.NewEncoder(w).Encode(out)
}

func stsError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>eksfake</RequestId></ErrorResponse>`, code, msg)
}
