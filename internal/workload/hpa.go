package workload

import (
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// scaleKey is the object an HPA scales.
type scaleKey struct{ namespace, kind, name string }

type scaler struct {
	min, max int32  // min: spec.minReplicas, 1 when unset (the API server's default)
	label    string // HorizontalPodAutoscaler/web
}

// hpas indexes the HorizontalPodAutoscalers by their target. autoscaling/v1 and v2 share the
// fields read here (scaleTargetRef, maxReplicas), so both decode into v2.
func hpas(docs []Document, s *Set) map[scaleKey]scaler {
	out := map[scaleKey]scaler{}
	for _, d := range docs {
		apiVersion, _ := d.Body["apiVersion"].(string)
		kind, _ := d.Body["kind"].(string)
		if kind != "HorizontalPodAutoscaler" || (apiVersion != "autoscaling/v1" && apiVersion != "autoscaling/v2") {
			continue
		}
		var h autoscalingv2.HorizontalPodAutoscaler
		if err := decode(d.Body, &h); err != nil {
			s.decodeError(d, kind, err)
			continue
		}
		if h.Spec.MaxReplicas < 1 {
			s.malformed(d, kind, "spec.maxReplicas", fmt.Sprintf("spec.maxReplicas is %d; the API server requires at least 1", h.Spec.MaxReplicas),
				"Set spec.maxReplicas to 1 or more.")
			continue
		}
		ns := h.Namespace
		if ns == "" {
			ns = metav1.NamespaceDefault
		}
		lo := int32(1)
		if h.Spec.MinReplicas != nil {
			lo = *h.Spec.MinReplicas
		}
		out[scaleKey{ns, h.Spec.ScaleTargetRef.Kind, h.Spec.ScaleTargetRef.Name}] = scaler{min: lo, max: h.Spec.MaxReplicas, label: "HorizontalPodAutoscaler/" + h.Name}
	}
	return out
}
