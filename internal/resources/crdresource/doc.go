// Package crdresource is the Terraform resource engine for one Karpenter custom resource
// kind, driven by its CRD. The schema, plan-time validation, defaulting and reads derive from
// the shipped CRD, and writes go through server-side apply. It is a Terraform-facing helper:
// the nodepool, aksnodeclass and ec2nodeclass packages configure it, the functions read its
// Kinds, and nap reports findings through it. It builds on the domain, never on a command.
package crdresource
