package aws

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// Cluster names an EKS cluster: by ARN (a fleet's `cluster.eks_cluster_arn`), whose region
// and account are then checked, or by name in the configuration's region (the provider's
// `kubernetes.eks_cluster_name`).
type Cluster struct {
	Name string
	// Region overrides the configuration's region ("" = the configuration's).
	Region string
	// ARN, when set, is the ARN the cluster DescribeCluster returns must have: credentials
	// of another account would otherwise reach that account's cluster of the same name.
	ARN string
}

// ClusterOf is the cluster an ARN names.
func ClusterOf(a ClusterARN) Cluster { return Cluster{Name: a.Name, Region: a.Region, ARN: a.String()} }

// EKSConnection reads an EKS cluster's endpoint and CA with DescribeCluster and authenticates
// each request with a token signed with cfg's credentials, as `aws eks get-token` does, so
// neither the AWS CLI nor aws-iam-authenticator is needed.
func EKSConnection(ctx context.Context, cfg sdkaws.Config, s Settings, c Cluster) (kube.Connection, error) {
	if c.Region != "" {
		cfg = cfg.Copy()
		cfg.Region = c.Region
	}
	if cfg.Region == "" {
		return kube.Connection{}, errors.New("no AWS region: set aws.region, AWS_REGION or the profile's region, or name the cluster by eks_cluster_arn")
	}
	client := eks.NewFromConfig(cfg, func(o *eks.Options) {
		if s.EKSEndpoint != "" {
			o.BaseEndpoint = sdkaws.String(s.EKSEndpoint)
		}
	})
	out, err := client.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: sdkaws.String(c.Name)})
	if err != nil {
		return kube.Connection{}, fmt.Errorf("describing EKS cluster %s in %s: %w", c.Name, cfg.Region, err)
	}
	cl := out.Cluster
	if cl == nil {
		return kube.Connection{}, fmt.Errorf("EKS returned no cluster for %s in %s", c.Name, cfg.Region)
	}
	if c.ARN != "" && sdkaws.ToString(cl.Arn) != c.ARN {
		return kube.Connection{}, fmt.Errorf("EKS cluster %s in %s is %s, not %s: the AWS credentials are of another account; "+
			"set aws.assume_role.role_arn to a role of the cluster's account, or a profile of it", c.Name, cfg.Region, sdkaws.ToString(cl.Arn), c.ARN)
	}
	if sdkaws.ToString(cl.Endpoint) == "" {
		return kube.Connection{}, fmt.Errorf("EKS cluster %s in %s has no API server endpoint yet (status %s)", c.Name, cfg.Region, statusOf(cl.Status))
	}
	var ca []byte
	if cl.CertificateAuthority != nil && sdkaws.ToString(cl.CertificateAuthority.Data) != "" {
		ca, err = base64.StdEncoding.DecodeString(sdkaws.ToString(cl.CertificateAuthority.Data))
		if err != nil {
			return kube.Connection{}, fmt.Errorf("EKS cluster %s in %s returned a certificate authority that is not base64: %w", c.Name, cfg.Region, err)
		}
	}
	if len(ca) == 0 {
		// Without it the client would trust the system roots, which never sign an EKS endpoint.
		return kube.Connection{}, fmt.Errorf("EKS cluster %s in %s returned no certificate authority (status %s)", c.Name, cfg.Region, statusOf(cl.Status))
	}
	return kube.Connection{
		Host:                 sdkaws.ToString(cl.Endpoint),
		ClusterCACertificate: ca,
		WrapTransport:        TokenTransport(s.STS(cfg), c.Name),
	}, nil
}

func statusOf(s ekstypes.ClusterStatus) string {
	if s == "" {
		return "unknown"
	}
	return string(s)
}
