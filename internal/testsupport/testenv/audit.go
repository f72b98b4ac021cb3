package testenv

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
)

// auditPolicy records requests to the Karpenter API groups only, once each when the response
// is complete, so the log stays small and every line is about the objects under test.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived", "ResponseStarted"]
rules:
- level: Metadata
  resources:
  - group: karpenter.sh
  - group: karpenter.azure.com
  - group: karpenter.k8s.aws
- level: None
`

// AuditEvent is one request to a Karpenter object, as the API server recorded it.
type AuditEvent struct {
	User      string
	Groups    []string
	Verb      string
	APIGroup  string
	Resource  string
	Name      string
	UserAgent string
	Code      int
}

// AuditEvents returns the requests to Karpenter objects recorded so far, oldest first. The
// cluster must have been started with Options.Audit.
func (c *Cluster) AuditEvents() ([]AuditEvent, error) {
	if !c.opts.Audit {
		return nil, errors.New("testenv: the cluster was started without Options.Audit")
	}
	f, err := os.Open(c.auditLogPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	var events []AuditEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e struct {
			Verb string `json:"verb"`
			User struct {
				Username string   `json:"username"`
				Groups   []string `json:"groups"`
			} `json:"user"`
			UserAgent string `json:"userAgent"`
			ObjectRef *struct {
				APIGroup string `json:"apiGroup"`
				Resource string `json:"resource"`
				Name     string `json:"name"`
			} `json:"objectRef"`
			ResponseStatus *struct {
				Code int `json:"code"`
			} `json:"responseStatus"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// A line being written while we read is incomplete; it is read next time.
			continue
		}
		ev := AuditEvent{User: e.User.Username, Groups: e.User.Groups, Verb: e.Verb, UserAgent: e.UserAgent}
		if e.ObjectRef != nil {
			ev.APIGroup, ev.Resource, ev.Name = e.ObjectRef.APIGroup, e.ObjectRef.Resource, e.ObjectRef.Name
		}
		if e.ResponseStatus != nil {
			ev.Code = e.ResponseStatus.Code
		}
		events = append(events, ev)
	}
	return events, sc.Err()
}

func (c *Cluster) auditLogPath() string { return filepath.Join(c.dir, "audit.log") }
