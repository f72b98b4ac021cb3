package disruption

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// recreate is the ReplicaSet controller of kube-controller-manager answering evictions: an
// evicted pod is deleted, and its controller creates a new pod from the same template. The new
// pod has a new UID and is created at the eviction, so Karpenter's queue (creation time, then
// UID) puts it after every pod created before. Its name is kept: the scenario pod it stands
// for.
func (c *Cluster) recreate(evicted []*corev1.Pod, at time.Time) []*corev1.Pod {
	out := make([]*corev1.Pod, len(evicted))
	for i, p := range evicted {
		q := p.DeepCopy()
		q.Spec.NodeName = ""
		q.CreationTimestamp = metav1.NewTime(at)
		q.UID = c.replacementUID(p)
		out[i] = q
		if c.Recreated != nil {
			c.Recreated(p, q)
		}
	}
	return out
}

// replacementUID is the UID of the pod that replaces an evicted one: ReplacementUID's, or
// else the evicted pod's UID with the count of pods recreated so far.
func (c *Cluster) replacementUID(evicted *corev1.Pod) types.UID {
	c.recreated++
	if c.ReplacementUID != nil {
		if uid := c.ReplacementUID(evicted); uid != "" {
			return uid
		}
	}
	return types.UID(fmt.Sprintf("%s/%d", evicted.UID, c.recreated))
}
