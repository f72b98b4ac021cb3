package aws

import (
	"context"
	"fmt"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// Settings are the provider's `aws` block. Credentials come from the AWS SDK's default chain
// (environment, shared config and credentials files with Profile, web identity, container and
// instance metadata), optionally exchanged for a role's with AssumeRole.
type Settings struct {
	// Region is the region of the API calls when no cluster ARN says one ("" = the chain's:
	// AWS_REGION, the profile's region).
	Region string
	// Profile is the shared config profile ("" = AWS_PROFILE or default).
	Profile string
	// RoleARN, when set, is assumed with the chain's credentials; SessionName names the session.
	RoleARN, SessionName string
	// EKSEndpoint and STSEndpoint replace the services' endpoints (private endpoints, tests).
	EKSEndpoint, STSEndpoint string
}

// Options are what tests inject: an HTTP client for the SDK's calls (nil = the SDK's).
type Options struct {
	HTTPClient sdkaws.HTTPClient
}

// Config loads the AWS configuration the settings describe. It reads files and the
// environment but makes no request: credentials are fetched on first use and cached.
func (s Settings) Config(ctx context.Context, o Options) (sdkaws.Config, error) {
	opts := []func(*config.LoadOptions) error{}
	if s.Region != "" {
		opts = append(opts, config.WithRegion(s.Region))
	}
	if s.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(s.Profile))
	}
	if o.HTTPClient != nil {
		opts = append(opts, config.WithHTTPClient(o.HTTPClient))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return sdkaws.Config{}, fmt.Errorf("loading the AWS configuration (aws block, AWS_* environment, shared config files): %w", err)
	}
	if s.RoleARN != "" {
		provider := stscreds.NewAssumeRoleProvider(s.STS(cfg), s.RoleARN, func(o *stscreds.AssumeRoleOptions) {
			if s.SessionName != "" {
				o.RoleSessionName = s.SessionName
			}
		})
		cfg.Credentials = sdkaws.NewCredentialsCache(provider)
	}
	return cfg, nil
}

// STS is an STS client of cfg, at STSEndpoint when set.
func (s Settings) STS(cfg sdkaws.Config) *sts.Client {
	return sts.NewFromConfig(cfg, func(o *sts.Options) {
		if s.STSEndpoint != "" {
			o.BaseEndpoint = sdkaws.String(s.STSEndpoint)
		}
	})
}
