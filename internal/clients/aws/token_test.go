package aws

import (
	"context"
	"testing"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/middleware"
)

// A token is reused while EKS still accepts it and signed again before its 15 minutes end.
func TestTokenSourceRefreshesBeforeExpiry(t *testing.T) {
	signings := 0
	count := middleware.InitializeMiddlewareFunc("count", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		signings++
		return next.HandleInitialize(ctx, in)
	})
	client := sts.New(sts.Options{
		Region:      "eu-west-1",
		Credentials: sdkaws.NewCredentialsCache(staticCreds{}),
		APIOptions:  []func(*middleware.Stack) error{func(s *middleware.Stack) error { return s.Initialize.Add(count, middleware.After) }},
	})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	src := &tokenSource{client: client, name: "eks-a", now: func() time.Time { return now }}
	for _, step := range []struct {
		after time.Duration
		want  int
	}{{0, 1}, {time.Minute, 1}, {12 * time.Minute, 1}, {time.Minute, 2}, {10 * time.Minute, 2}, {4 * time.Minute, 3}} {
		now = now.Add(step.after)
		if _, err := src.get(context.Background()); err != nil {
			t.Fatal(err)
		}
		if signings != step.want {
			t.Errorf("after +%s: %d signings, want %d", step.after, signings, step.want)
		}
	}
}

type staticCreds struct{}

func (staticCreds) Retrieve(context.Context) (sdkaws.Credentials, error) {
	return sdkaws.Credentials{AccessKeyID: "AKIDTEST", SecretAccessKey: "secret"}, nil
}
