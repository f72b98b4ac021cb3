// Package validators holds the Terraform attribute validators that several parts of the
// provider share: an AKS cluster resource ID and an EKS cluster ARN. It is a Terraform-facing
// helper. It parses with the domain clients (internal/clients), so an attribute accepts what
// the connection accepts.
package validators
