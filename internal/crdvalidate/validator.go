package crdvalidate

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
)

// Validator validates and defaults objects of one CRD version.
type Validator struct {
	GVK        schema.GroupVersionKind
	Structural *structuralschema.Structural
	// Schema is the version's OpenAPI schema as written in the CRD (descriptions included).
	Schema *apiextensionsv1.JSONSchemaProps

	namespaced      bool
	schemaValidator apiextensionsvalidation.SchemaValidator
	cel             *cel.Validator
	// status is set when the version has the status subresource: the main resource then
	// ignores status on create and keeps the stored status on update.
	status bool
	// scale is the version's scale subresource, whose replicas paths the API server checks.
	scale *apiextensionsinternal.CustomResourceSubresourceScale
}

// validatorSet is the validators of a list of CRDs, built on first use.
type validatorSet struct {
	crds       func() []*apiextensionsv1.CustomResourceDefinition
	once       sync.Once
	validators map[schema.GroupVersionKind]*Validator
	err        error
}

func (s *validatorSet) get() (map[schema.GroupVersionKind]*Validator, error) {
	s.once.Do(func() { s.validators, s.err = build(s.crds()) })
	return s.validators, s.err
}

// The AKS CRDs, then EKS's, which are built only when a kind of theirs is asked for: the
// EC2NodeClass CRD's CEL rules take longer to compile than all of the others together, a
// cost an AKS-only plan need not pay.
var sets = []*validatorSet{{crds: crds.All}, {crds: crds.EKS}}

// For returns the validator of a served CRD version, e.g. karpenter.sh/v1 NodePool.
func For(gvk schema.GroupVersionKind) (*Validator, error) {
	for _, s := range sets {
		validators, err := s.get()
		if err != nil {
			return nil, err
		}
		if v, ok := validators[gvk]; ok {
			return v, nil
		}
	}
	return nil, fmt.Errorf("no CRD serves %s", gvk)
}

// MustFor is For for the kinds this provider is built around; a failure is a build defect.
func MustFor(gvk schema.GroupVersionKind) *Validator {
	v, err := For(gvk)
	if err != nil {
		panic(err)
	}
	return v
}

func build(list []*apiextensionsv1.CustomResourceDefinition) (map[schema.GroupVersionKind]*Validator, error) {
	out := map[schema.GroupVersionKind]*Validator{}
	for _, crd := range list {
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
	v := &Validator{
		GVK:             schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind},
		Structural:      structural,
		Schema:          val.OpenAPIV3Schema,
		namespaced:      crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		schemaValidator: schemaValidator,
		cel:             cel.NewValidator(structural, true, celconfig.PerCallLimit),
	}
	sub, err := apihelpers.GetSubresourcesForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	if sub != nil {
		v.status = sub.Status != nil
		if sub.Scale != nil {
			v.scale = &apiextensionsinternal.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(sub.Scale, v.scale, nil); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// The checks below are those of the custom resource registry's strategy and validator
// (k8s.io/apiextensions-apiserver/pkg/registry/customresource) and of the generic registry's
// BeforeCreate/BeforeUpdate (k8s.io/apiserver/pkg/registry/rest), in the same order. Those
// packages are not imported because they link the etcd storage layer.

// validateCreate is customResourceStrategy.Validate followed by BeforeCreate's common
// object meta check, which the API server runs only once the strategy found nothing.
func (v *Validator) validateCreate(ctx context.Context, u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, metavalidation.ValidateObjectMetaAccessor(u, v.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, apiextensionsvalidation.ValidateCustomResource(nil, u.UnstructuredContent(), v.schemaValidator)...)
	errs = append(errs, numericFormats(v.Structural, u.Object, "", nil)...)
	errs = append(errs, v.validateScale(u)...)
	errs = append(errs, schemaobjectmeta.Validate(nil, u.Object, v.Structural, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, v.Structural, u.Object)...)
	if blocking(errs) {
		errs = append(errs, notChecked())
	} else {
		celErrs, _ := v.cel.Validate(ctx, nil, v.Structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
		errs = append(errs, celErrs...)
	}
	if len(errs) > 0 {
		return errs
	}
	return metavalidation.ValidateObjectMetaAccessor(u, v.namespaced, path.ValidatePathSegmentName, field.NewPath("metadata"))
}

// validateUpdate is BeforeUpdate's common object meta checks followed by
// customResourceStrategy.ValidateUpdate, with validation ratcheting (GA and always on since
// Kubernetes 1.33): errors in parts of the object that the update leaves unchanged are
// ignored, and transition rules (oldSelf) are evaluated.
func (v *Validator) validateUpdate(ctx context.Context, u, old *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, metavalidation.ValidateObjectMetaAccessor(u, v.namespaced, path.ValidatePathSegmentName, field.NewPath("metadata"))...)
	errs = append(errs, metavalidation.ValidateObjectMetaAccessorUpdate(u, old, field.NewPath("metadata"))...)

	// customResourceValidator.ValidateUpdate checks the object meta update once more, so the
	// API server reports such an error twice; so do we.
	correlated := common.NewCorrelatedObject(u.Object, old.Object, &model.Structural{Structural: v.Structural})
	errs = append(errs, metavalidation.ValidateObjectMetaAccessorUpdate(u, old, field.NewPath("metadata"))...)
	errs = append(errs, apiextensionsvalidation.ValidateCustomResourceUpdate(nil, u.UnstructuredContent(), old.UnstructuredContent(), v.schemaValidator, apiextensionsvalidation.WithRatcheting(correlated))...)
	errs = append(errs, numericFormats(v.Structural, u.Object, "", correlated)...)
	errs = append(errs, v.validateScale(u)...)
	errs = append(errs, schemaobjectmeta.Validate(nil, u.Object, v.Structural, false)...)
	if oldErrs := structurallisttype.ValidateListSetsAndMaps(nil, v.Structural, old.Object); len(oldErrs) == 0 {
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, v.Structural, u.Object)...)
	}
	if blocking(errs) {
		return append(errs, notChecked())
	}
	celErrs, _ := v.cel.Validate(ctx, nil, v.Structural, u.Object, old.Object, celconfig.RuntimeCELCostBudget, cel.WithRatcheting(correlated))
	return append(errs, celErrs...)
}

// validateScale is customResourceValidator.ValidateScaleSpec and ValidateScaleStatus: the
// replicas the scale subresource exposes must fit an int32 (autoscaling/v1 Scale), a limit
// the OpenAPI schema of the field may not state itself.
func (v *Validator) validateScale(u *unstructured.Unstructured) field.ErrorList {
	if v.scale == nil {
		return nil
	}
	var errs field.ErrorList
	check := func(p string) {
		replicas, _, err := unstructured.NestedInt64(u.Object, strings.Split(strings.TrimPrefix(p, "."), ".")...)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(field.NewPath(p), replicas, err.Error()))
		case replicas < 0:
			errs = append(errs, field.Invalid(field.NewPath(p), replicas, "should be a non-negative integer"))
		case replicas > math.MaxInt32:
			errs = append(errs, field.Invalid(field.NewPath(p), replicas, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
		}
	}
	check(v.scale.SpecReplicasPath)
	check(v.scale.StatusReplicasPath)
	if v.scale.LabelSelectorPath != nil {
		p := *v.scale.LabelSelectorPath
		if sel, _, err := unstructured.NestedString(u.Object, strings.Split(strings.TrimPrefix(p, "."), ".")...); err != nil {
			errs = append(errs, field.Invalid(field.NewPath(p), sel, err.Error()))
		}
	}
	return errs
}

// numericFormats checks that integers of format int32 (and numbers of format float) fit
// their type, as the OpenAPI validation of Kubernetes 1.36 and later does. Its kube-openapi
// keeps the numeric formats that older releases stripped, and its number validator enforces
// their range. The apiextensions-apiserver and kube-openapi this module builds with predate
// that, so the check is made here, with the API server's error. That error is a
// field.Invalid without a field path, whose message names the path. It is
// kubeOpenAPIResultToFieldErrors' fallback for errors that are not openapi Validation errors.
// An older API server accepts such a value, but Karpenter, whose Go field is an int32,
// cannot read it back.
//
// With corr (an update), values equal to the old ones are skipped: validation ratcheting.
func numericFormats(s *structuralschema.Structural, v any, at string, corr *common.CorrelatedObject) field.ErrorList {
	if s == nil || v == nil || (corr != nil && corr.CachedDeepEqual()) {
		return nil
	}
	child := func(key string) *common.CorrelatedObject {
		if corr == nil {
			return nil
		}
		return corr.Key(key)
	}
	var errs field.ErrorList
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := s.Properties[k]; ok {
				// kube-openapi names root properties without a leading dot, map keys with one.
				errs = append(errs, numericFormats(&p, x[k], strings.TrimPrefix(at+"."+k, "."), child(k))...)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
				errs = append(errs, numericFormats(s.AdditionalProperties.Structural, x[k], at+"."+k, child(k))...)
			}
		}
	case []any:
		for i, e := range x {
			var c *common.CorrelatedObject
			if corr != nil {
				c = corr.Index(i)
			}
			errs = append(errs, numericFormats(s.Items, e, fmt.Sprintf("%s[%d]", at, i), c)...)
		}
	case int64, float64:
		var rep string
		if i, ok := x.(int64); ok {
			rep = strconv.FormatInt(i, 10)
		} else {
			rep = strconv.FormatFloat(x.(float64), 'f', -1, 64)
		}
		var format string
		if s.ValueValidation != nil {
			format = s.ValueValidation.Format
		}
		var err error
		switch {
		case s.Type == "integer" && format == "int32":
			_, err = strconv.ParseInt(rep, 10, 32)
		case s.Type == "number" && format == "float":
			_, err = strconv.ParseFloat(rep, 32)
		}
		if err != nil {
			errs = append(errs, field.Invalid(nil, "", fmt.Sprintf("Checked value must be of type %s with format %s in %s", s.Type, format, at)))
		}
	}
	return errs
}

func notChecked() *field.Error {
	return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
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

// StatusSubresource reports whether the version has the status subresource: writes to the
// main resource then never set or change the status.
func (v *Validator) StatusSubresource() bool { return v.status }

// Default applies the CRD's defaults in place, as the API server does before validating.
func (v *Validator) Default(obj map[string]any) {
	structuraldefaulting.Default(obj, v.Structural)
}

// Validate runs the API server's create-time validation (type meta, object meta, OpenAPI
// schema, scale subresource, list-type invariants and CEL rules) on a defaulted copy of obj.
// As on create, status is ignored when the version has the status subresource.
func (v *Validator) Validate(ctx context.Context, obj map[string]any) field.ErrorList {
	u := v.prepare(obj)
	if v.status {
		delete(u.Object, "status")
	}
	return v.validateCreate(ctx, u)
}

// ValidateUpdate runs the API server's update-time validation of replacing old (the object as
// stored, e.g. as read from the cluster) by obj: as Validate, plus the transition rules
// (oldSelf) and validation ratcheting. As for a patch or server-side apply, obj's
// resourceVersion and uid come from old where obj leaves them unset. creationTimestamp and
// generation always come from old, since the API server ignores them in an update. So does
// status when the version has the status subresource.
func (v *Validator) ValidateUpdate(ctx context.Context, obj, old map[string]any) field.ErrorList {
	u, o := v.prepare(obj), v.prepare(old)
	if u.GetResourceVersion() == "" {
		u.SetResourceVersion(o.GetResourceVersion())
	}
	u.SetGeneration(o.GetGeneration())
	if u.GetUID() == "" {
		u.SetUID(o.GetUID())
	}
	if ts := o.GetCreationTimestamp(); !ts.IsZero() {
		u.SetCreationTimestamp(ts)
	}
	if v.status {
		if st, ok := o.Object["status"]; ok {
			u.Object["status"] = st
		} else {
			delete(u.Object, "status")
		}
	}
	return v.validateUpdate(ctx, u, o)
}

// prepare returns a defaulted copy of obj with the validator's apiVersion and kind.
func (v *Validator) prepare(obj map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: deepCopy(obj)}
	u.SetAPIVersion(v.GVK.GroupVersion().String())
	u.SetKind(v.GVK.Kind)
	v.Default(u.Object)
	return u
}

func deepCopy(obj map[string]any) map[string]any {
	return (&unstructured.Unstructured{Object: obj}).DeepCopy().Object
}

// Messages renders errors for people: the API server's closing "some validation rules were
// not checked" adds nothing when other errors already say what is wrong.
func Messages(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		if e.Field == "<nil>" && len(errs) > 1 {
			continue
		}
		out = append(out, e.Error())
	}
	return out
}
