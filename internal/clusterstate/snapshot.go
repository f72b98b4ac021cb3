package clusterstate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// Snapshot is a cluster's state, trimmed to what scheduling and disruption read.
type Snapshot struct {
	Nodes      []*corev1.Node
	NodeClaims []*karpv1.NodeClaim
	// Pods are the pods not yet finished (phase neither Succeeded nor Failed): bound ones
	// have spec.nodeName, pending ones do not.
	Pods []*corev1.Pod
	PDBs []*policyv1.PodDisruptionBudget
	// NodePools and NodeClasses are the objects' bodies, as the simulation takes them.
	NodePools, NodeClasses []Object
	// Finished counts the pods left out because they ran to completion or failed.
	Finished int
	// PassedOver counts the objects of other kinds, by kind (with group).
	PassedOver map[string]int
	// Problems are the objects that could not be read, each at its line.
	Problems []manifest.Problem

	where      map[string]Source
	overflowed bool
}

// Object is a NodePool or node class body with where it was read.
type Object struct {
	Source
	Body map[string]any
}

// Source is where an object was read: a file and line, or the cluster ("" and 0).
type Source struct {
	File string
	Line int
}

// Where returns where the object of the kind (as kubectl names it: Pod, Node, NodeClaim),
// namespace and name was read.
func (s *Snapshot) Where(kind, namespace, name string) (Source, bool) {
	src, ok := s.where[key(kind, namespace, name)]
	return src, ok
}

func key(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

// Counts summarises the snapshot in one line, for reports.
func (s *Snapshot) Counts() string {
	pending := 0
	for _, p := range s.Pods {
		if p.Spec.NodeName == "" {
			pending++
		}
	}
	return fmt.Sprintf("%s, %s, %s (%d pending), %s, %s, %s", count(len(s.Nodes), "node"), count(len(s.NodeClaims), "NodeClaim"),
		count(len(s.Pods), "pod"), pending, count(len(s.PDBs), "PodDisruptionBudget"), count(len(s.NodePools), "NodePool"), count(len(s.NodeClasses), "node class"))
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

var (
	nodeGK = schema.GroupKind{Kind: "Node"}
	podGK  = schema.GroupKind{Kind: "Pod"}
	pdbGK  = schema.GroupKind{Group: "policy", Kind: "PodDisruptionBudget"}
)

// add keeps one object, given as JSON, trimmed, or each item of a List; an object of a kind
// the snapshot does not hold is counted in PassedOver.
func (s *Snapshot) add(src Source, object []byte) error {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(object, &head); err != nil {
		return fmt.Errorf("not an object: %v", err)
	}
	if strings.HasSuffix(head.Kind, "List") && head.Metadata.Name == "" {
		for _, item := range head.Items {
			if s.full(src) {
				break
			}
			if err := s.add(src, item); err != nil {
				s.problem(src, err.Error())
			}
		}
		return nil
	}
	if head.APIVersion == "" || head.Kind == "" {
		return fmt.Errorf("an item without apiVersion and kind: not an object kubectl prints")
	}
	gv, err := schema.ParseGroupVersion(head.APIVersion)
	if err != nil {
		return fmt.Errorf("apiVersion %q: %v", head.APIVersion, err)
	}
	gk := schema.GroupKind{Group: gv.Group, Kind: head.Kind}
	name := head.Metadata.Name
	if head.Metadata.Namespace != "" {
		name = head.Metadata.Namespace + "/" + name
	}
	switch {
	case gk == nodeGK:
		n, err := trimNode(object)
		if err != nil {
			return fmt.Errorf("Node %s: %v", name, err)
		}
		s.Nodes = append(s.Nodes, n)
		s.remember(src, "Node", "", n.Name)
	case gk == podGK:
		p, err := trimPod(object)
		if err != nil {
			return fmt.Errorf("Pod %s: %v", name, err)
		}
		if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			s.Finished++
			return nil
		}
		s.Pods = append(s.Pods, p)
		s.remember(src, "Pod", p.Namespace, p.Name)
	case gk == pdbGK:
		b, err := trimPDB(object)
		if err != nil {
			return fmt.Errorf("PodDisruptionBudget %s: %v", name, err)
		}
		s.PDBs = append(s.PDBs, b)
		s.remember(src, "PodDisruptionBudget", b.Namespace, b.Name)
	case gk == kinds.NodeClaim.GVK.GroupKind():
		c, err := trimNodeClaim(object)
		if err != nil {
			return fmt.Errorf("NodeClaim %s: %v", name, err)
		}
		s.NodeClaims = append(s.NodeClaims, c)
		s.remember(src, "NodeClaim", "", c.Name)
	case gk == kinds.NodePool.GVK.GroupKind():
		body, err := trimBody(object)
		if err != nil {
			return fmt.Errorf("NodePool %s: %v", name, err)
		}
		s.NodePools = append(s.NodePools, Object{Source: src, Body: body})
		s.remember(src, "NodePool", "", name)
	case isNodeClass(gk):
		body, err := trimBody(object)
		if err != nil {
			return fmt.Errorf("%s %s: %v", head.Kind, name, err)
		}
		s.NodeClasses = append(s.NodeClasses, Object{Source: src, Body: body})
		s.remember(src, head.Kind, "", name)
	default:
		if s.PassedOver == nil {
			s.PassedOver = map[string]int{}
		}
		s.PassedOver[gk.String()]++
	}
	return nil
}

func isNodeClass(gk schema.GroupKind) bool {
	k := kinds.ForGroupKind(gk)
	return k != nil && k.Role == kinds.NodeClass
}

func (s *Snapshot) remember(src Source, kind, namespace, name string) {
	if src.File == "" {
		return
	}
	if s.where == nil {
		s.where = map[string]Source{}
	}
	s.where[key(kind, namespace, name)] = src
}

func (s *Snapshot) problem(src Source, msg string) {
	s.Problems = append(s.Problems, manifest.Problem{
		Finding: findings.New(manifest.Unparseable, "", msg,
			"Snapshot the cluster again with `kubectl get nodes,nodeclaims,pods,pdb,nodepools -A -o yaml`, unedited."),
		File: src.File, Line: src.Line,
	})
}

// sort puts every list in a stable order (namespace, then name), so that a snapshot read from
// a file equals one listed from the cluster whatever order either came in.
func (s *Snapshot) sort() {
	slices.SortFunc(s.Nodes, func(a, b *corev1.Node) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(s.NodeClaims, func(a, b *karpv1.NodeClaim) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(s.Pods, func(a, b *corev1.Pod) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	slices.SortFunc(s.PDBs, func(a, b *policyv1.PodDisruptionBudget) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	byName := func(a, b Object) int { return strings.Compare(nameOf(a.Body), nameOf(b.Body)) }
	slices.SortFunc(s.NodePools, byName)
	slices.SortFunc(s.NodeClasses, byName)
}

func nameOf(body map[string]any) string {
	md, _ := body["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	if ns, _ := md["namespace"].(string); ns != "" {
		return ns + "/" + name
	}
	return name
}
