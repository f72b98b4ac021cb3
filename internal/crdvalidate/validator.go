// Package crdvalidate judges Karpenter objects offline exactly as the API server would: it
// builds, from the CRDs that AKS ships, the same structural schema, defaulter, OpenAPI schema
// validator and CEL validator that kube-apiserver's custom resource handler builds, and runs
// the same create-time validation. Plan-time checks and the review command use it, so an
// object that passes here is an object the API server accepts.
package crdvalidate

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
)

// Validator validates and defaults objects of one CRD version.
type Validator struct {
	GVK        schema.GroupVersionKind
	Structural *structuralschema.Structural
	// Schema is the version's OpenAPI schema as written in the CRD (descriptions included).
	Schema   *apiextensionsv1.JSONSchemaProps
	validate func(ctx context.Context, u *unstructured.Unstructured) field.ErrorList
}

var (
	once       sync.Once
	validators map[schema.GroupVersionKind]*Validator
	initErr    error
)

// For returns the validator of a served CRD version, e.g. karpenter.sh/v1 NodePool.
func For(gvk schema.GroupVersionKind) (*Validator, error) {
	once.Do(func() { validators, initErr = build() })
	if initErr != nil {
		return nil, initErr
	}
	v, ok := validators[gvk]
	if !ok {
		return nil, fmt.Errorf("no CRD serves %s", gvk)
	}
	return v, nil
}

// MustFor is For for the kinds this provider is built around; a failure is a build defect.
func MustFor(gvk schema.GroupVersionKind) *Validator {
	v, err := For(gvk)
	if err != nil {
		panic(err)
	}
	return v
}

func build() (map[schema.GroupVersionKind]*Validator, error) {
	out := map[schema.GroupVersionKind]*Validator{}
	for _, crd := range crds.All() {
		for _, ver := range crd.Spec.Versions {
			if !ver.Served {
				continue
			}
			v, err := newValidator(crd, ver.Name)
			if err != nil {
				return nil, fmt.Errorf("CRD %s version %s: %w", crd.Name, ver.Name, err)
			}
			out[v.GVK] = v
		}
	}
	return out, nil
}

// newValidator mirrors what kube-apiserver's crdHandler.getOrCreateServingInfoFor builds.
func newValidator(crd *apiextensionsv1.CustomResourceDefinition, version string) (*Validator, error) {
	val, err := apihelpers.GetSchemaForVersion(crd, version)
	if err != nil || val == nil {
		return nil, fmt.Errorf("no schema: %v", err)
	}
	internal := &apiextensionsinternal.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil, err
	}
	structural, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	structural = structural.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(structural); err != nil {
		return nil, err
	}
	schemaValidator, _, err := apiextensionsvalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind}
	namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	celValidator := cel.NewValidator(structural, true, celconfig.PerCallLimit)
	// The same checks, in the same order, as the custom resource registry's create strategy
	// (k8s.io/apiextensions-apiserver/pkg/registry/customresource), whose package we do not
	// import because it links the etcd storage layer.
	validate := func(ctx context.Context, u *unstructured.Unstructured) field.ErrorList {
		var errs field.ErrorList
		errs = append(errs, metavalidation.ValidateObjectMetaAccessor(u, namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
		errs = append(errs, apiextensionsvalidation.ValidateCustomResource(nil, u.UnstructuredContent(), schemaValidator)...)
		errs = append(errs, schemaobjectmeta.Validate(nil, u.Object, structural, false)...)
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, structural, u.Object)...)
		if blocking(errs) {
			return append(errs, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
		}
		celErrs, _ := celValidator.Validate(ctx, nil, structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
		return append(errs, celErrs...)
	}
	return &Validator{GVK: gvk, Structural: structural, Schema: val.OpenAPIV3Schema, validate: validate}, nil
}

// blocking reports errors after which the API server skips CEL evaluation (hasBlockingErr in
// the registry's strategy): CEL would otherwise run on values of the wrong shape.
func blocking(errs field.ErrorList) bool {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// Default applies the CRD's defaults in place, as the API server does before validating.
func (v *Validator) Default(obj map[string]any) {
	structuraldefaulting.Default(obj, v.Structural)
}

// Validate runs the API server's create-time validation (type meta, object meta, OpenAPI
// schema, list-type invariants and CEL rules) on a defaulted copy of obj.
func (v *Validator) Validate(ctx context.Context, obj map[string]any) field.ErrorList {
	u := &unstructured.Unstructured{Object: deepCopy(obj)}
	u.SetAPIVersion(v.GVK.GroupVersion().String())
	u.SetKind(v.GVK.Kind)
	v.Default(u.Object)
	return v.validate(ctx, u)
}

func deepCopy(obj map[string]any) map[string]any {
	return (&unstructured.Unstructured{Object: obj}).DeepCopy().Object
}
