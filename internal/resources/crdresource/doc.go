// Package crdresource is the Terraform resource engine for one Karpenter custom resource
// kind, driven by its CRD. The schema, plan-time validation, defaulting and reads derive from
// the shipped CRD, and writes go through server-side apply. It is a Terraform-facing helper:
// the nodepool, aksnodeclass, ec2nodeclass and nap packages configure it, and it builds on the
// domain, never on a command.
package crdresource
