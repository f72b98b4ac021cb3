package crdresource

import (
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// operation is what a resource was doing when a request failed, for the diagnostic.
type operation struct {
	verb    string        // create, update, read, delete
	timeout time.Duration // 0: no resource timeout applies (read)
}

// reportFailure adds the diagnostic of a failed request, titled by what kind of failure it
// was: only an answer of the API server that refuses the object reads as "rejected"; a bad
// credential, a missing RBAC verb, an unreachable server and the resource timeout each say so
// and what to do.
func (r *Resource) reportFailure(diags *diag.Diagnostics, op operation, name string, err error) {
	kind := r.kind.GVK.Kind
	var re *kube.RequestError
	if !errors.As(err, &re) {
		diags.AddError(fmt.Sprintf("Cannot %s %s %q", op.verb, kind, name), err.Error())
		return
	}
	retried := ""
	if re.Attempts > 1 {
		retried = fmt.Sprintf(" The request was sent %d times over %s: failures that may pass (a lost connection, 429, 5xx) are retried until the resource timeout.",
			re.Attempts, re.Elapsed.Round(time.Millisecond))
	}
	switch re.Failure {
	case kube.Unauthenticated:
		diags.AddError("Kubernetes API server did not accept the credentials",
			fmt.Sprintf("%v\n\nThe API server answered 401 Unauthorized: the credential is missing, expired, or not one of this cluster's. "+
				"Check the provider's kubernetes block: token (KUBE_TOKEN), client_certificate and client_key, the exec plugin, or the user of the "+
				"kubeconfig context (config_path, config_context); with aks_cluster_id, that the azure credentials can get an Entra ID token for the cluster.", err))
	case kube.Forbidden:
		diags.AddError(fmt.Sprintf("Not authorized to %s %s", re.Verb, re.Resource),
			fmt.Sprintf("%v\n\nThe credentials were accepted, but RBAC does not allow the verb %q on %s, which %s a %s needs. "+
				"Grant it to the identity the provider uses: the guide \"Least-privilege RBAC\" has a ClusterRole with exactly the verbs each resource needs.",
				err, re.Verb, re.Resource, map[string]string{"read": "reading", "create": "creating", "update": "updating", "delete": "deleting"}[op.verb], kind))
	case kube.Unreachable:
		diags.AddError("Kubernetes API server unreachable",
			fmt.Sprintf("%v\n\nNo answer came back from the API server (connection refused, reset or lost).%s Check the server address "+
				"(host, or the kubeconfig's cluster), the network path to it and whether the API server is up, then run terraform again.", err, retried))
	case kube.ServerError:
		diags.AddError("Kubernetes API server error",
			fmt.Sprintf("%v\n\nThe API server failed the request on its side (overloaded, or its etcd unavailable).%s Run terraform again once it has recovered.", err, retried))
	case kube.TimedOut:
		title := fmt.Sprintf("Timed out trying to %s %s %q", op.verb, kind, name)
		fix := "The request was cut short by the deadline."
		if op.timeout > 0 {
			title = fmt.Sprintf("Timed out after %s trying to %s %s %q", op.timeout, op.verb, kind, name)
			fix = fmt.Sprintf("timeouts.%s (%s) ended the request before the API server answered: the server is slow or stalled, or the client's "+
				"rate limit (kubernetes.qps, kubernetes.burst) would have made it wait past the deadline. Raise timeouts.%s or the rate limit, or find out "+
				"why the API server is slow.", op.verb, op.timeout, op.verb)
		}
		diags.AddError(title, fmt.Sprintf("%v\n\n%s%s", err, fix, retried))
	case kube.Untrusted:
		diags.AddError("Kubernetes API server certificate not trusted",
			fmt.Sprintf("%v\n\nThe API server's TLS certificate did not verify. Set cluster_ca_certificate (or the kubeconfig's certificate-authority-data) "+
				"to the cluster's CA, and check that host is the name the certificate is for.", err))
	default:
		diags.AddError("Kubernetes rejected the "+kind, err.Error())
	}
}
