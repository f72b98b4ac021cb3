package eksfake

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	authnv1 "k8s.io/api/authentication/v1"
)

// Group is the Kubernetes group the webhook puts an authenticated identity in; the clusters
// bind it to cluster-admin (an EKS access entry's policy, in RBAC terms).
const Group = "eks-fake:admins"

// UserOf is the Kubernetes user name of the identity with the access key akid.
func UserOf(akid string) string { return "arn:aws:iam::" + Account + ":user/" + strings.ToLower(akid) }

// serveTokenReview answers the API server of the cluster in the path (/<name>): the token
// is accepted only when VerifyToken accepts it for that cluster.
func (f *Fake) serveTokenReview(w http.ResponseWriter, r *http.Request) {
	name := strings.Trim(r.URL.Path, "/")
	var review authnv1.TokenReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	c, ok := f.clusters[name]
	f.mu.Unlock()
	review.Status = authnv1.TokenReviewStatus{}
	switch akid, err := f.verify(review.Spec.Token, name, f.stsHost(c.Region)); {
	case !ok:
		review.Status.Error = "no cluster " + name
	case err != nil:
		review.Status.Error = err.Error()
		f.record(name, err)
	default:
		review.Status.Authenticated = true
		review.Status.User = authnv1.UserInfo{Username: UserOf(akid), Groups: []string{Group}}
		f.record(name, nil)
		f.mu.Lock()
		if f.acceptedKeys[name] == nil {
			f.acceptedKeys[name] = map[string]bool{}
		}
		f.acceptedKeys[name][akid] = true
		f.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(review)
}

func (f *Fake) record(name string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.rejected[name] = append(f.rejected[name], err.Error())
		return
	}
	f.accepted[name]++
}

// Accepted is how many tokens the webhook accepted for the cluster; Rejected says why it
// rejected the others.
func (f *Fake) Accepted(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.accepted[name]
}

// Rejected lists why tokens for the cluster were rejected.
func (f *Fake) Rejected(name string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.rejected[name]...)
}

// verify is VerifyToken with whichever of the fake's credentials signed the token.
func (f *Fake) verify(token, cluster, stsHost string) (string, error) {
	akid, err := VerifyToken(token, cluster, stsHost, f.Credentials, time.Now())
	if err == nil {
		return akid, nil
	}
	f.mu.Lock()
	roles := make([]sdkaws.Credentials, 0, len(f.roles))
	for _, c := range f.roles {
		roles = append(roles, c)
	}
	f.mu.Unlock()
	for _, c := range roles {
		if a, rerr := VerifyToken(token, cluster, stsHost, c, time.Now()); rerr == nil {
			return a, nil
		} else if !strings.Contains(rerr.Error(), "not the test's") {
			err = rerr
		}
	}
	return "", err
}

// AcceptedKeys are the access keys of the tokens the webhook accepted for the cluster.
func (f *Fake) AcceptedKeys(name string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for k := range f.acceptedKeys[name] {
		out = append(out, k)
	}
	return out
}
