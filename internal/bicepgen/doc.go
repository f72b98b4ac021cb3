// Package bicepgen generates the Bicep user-defined types of the karpenter-nodepool and
// karpenter-aksnodeclass modules from the NodePool and AKSNodeClass CRD trees (internal/kinds).
// So a Bicep team and a Terraform team write the same fields, allowed values, bounds and
// defaults. It sits beside the provider, on the domain, and reaches nothing above it. The
// types keep the Kubernetes shape (camelCase, metadata/spec nesting), so a parameter takes a
// manifest straight from loadYamlContent(). Every property names its Terraform attribute. The
// text lives between markers in each module's main.bicep (Update); a test regenerates it and
// fails on any difference.
package bicepgen
