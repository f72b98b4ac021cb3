// Package crdvalidate judges Karpenter objects offline exactly as the API server would. From
// the shipped CRDs it builds the structural schema, defaulter, OpenAPI schema validator and
// CEL validator that kube-apiserver's custom resource handler builds, and runs the same
// create-time validation. It is in the domain; the plan, the review and the Bicep generator
// use it. So an object that passes here is an object the API server accepts.
package crdvalidate
