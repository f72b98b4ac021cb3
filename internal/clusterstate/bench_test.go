package clusterstate

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// writeSnapshot writes a kubectl -o yaml List of nodes and pods (each pod as kubectl prints a
// Deployment's pod, with an environment, a volume and status) and returns its size.
func writeSnapshot(w io.Writer, nodes, pods int) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	n := int64(0)
	p := func(format string, a ...any) {
		k, _ := fmt.Fprintf(bw, format, a...)
		n += int64(k)
	}
	p("apiVersion: v1\nitems:\n")
	for i := range nodes {
		p(`- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      karpenter.sh/nodepool-hash: "4012513481623584108"
    creationTimestamp: "2026-11-30T09:12:44Z"
    labels:
      karpenter.sh/capacity-type: on-demand
      karpenter.sh/nodepool: general
      kubernetes.io/hostname: aks-general-%[1]d
      node.kubernetes.io/instance-type: Standard_D16s_v5
      topology.kubernetes.io/zone: westeurope-%[2]d
    name: aks-general-%[1]d
  spec:
    providerID: azure:///subscriptions/x/resourceGroups/mc/providers/Microsoft.Compute/virtualMachines/aks-general-%[1]d
  status:
    allocatable:
      cpu: 15820m
      memory: 57944136Ki
      pods: "110"
    capacity:
      cpu: "16"
      memory: 65843272Ki
      pods: "110"
    conditions:
    - lastTransitionTime: "2026-11-30T09:13:20Z"
      message: kubelet is posting ready status
      reason: KubeletReady
      status: "True"
      type: Ready
    images:
    - names:
      - mcr.microsoft.com/oss/kubernetes/pause:3.6
      sizeBytes: 299514
`, i, i%3+1)
	}
	for i := range pods {
		p(`- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-30T09:20:01Z"
    generateName: web-7d9f8c6b5-
    labels:
      app: web-%[3]d
      pod-template-hash: 7d9f8c6b5
    name: web-7d9f8c6b5-%[1]d
    namespace: team-%[4]d
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: ReplicaSet
      name: web-7d9f8c6b5
      uid: 7c9e0000-0000-4000-8000-%012[1]d
    uid: 7c9e0000-0000-4000-9000-%012[1]d
  spec:
    containers:
    - env:
      - name: DATABASE_URL
        value: postgres://web@db:5432/web
      - name: API_KEY
        valueFrom:
          secretKeyRef:
            key: key
            name: api
      image: registry.example/web:1.2.3
      imagePullPolicy: IfNotPresent
      name: web
      ports:
      - containerPort: 8080
        protocol: TCP
      resources:
        limits:
          memory: 1Gi
        requests:
          cpu: 250m
          memory: 512Mi
      volumeMounts:
      - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
        name: kube-api-access
        readOnly: true
    dnsPolicy: ClusterFirst
    nodeName: aks-general-%[2]d
    restartPolicy: Always
    schedulerName: default-scheduler
    terminationGracePeriodSeconds: 30
    tolerations:
    - effect: NoExecute
      key: node.kubernetes.io/not-ready
      operator: Exists
      tolerationSeconds: 300
    topologySpreadConstraints:
    - labelSelector:
        matchLabels:
          app: web-%[3]d
      maxSkew: 1
      topologyKey: topology.kubernetes.io/zone
      whenUnsatisfiable: ScheduleAnyway
    volumes:
    - name: kube-api-access
      projected:
        defaultMode: 420
        sources:
        - serviceAccountToken:
            expirationSeconds: 3607
            path: token
  status:
    conditions:
    - lastTransitionTime: "2026-11-30T09:20:01Z"
      status: "True"
      type: PodScheduled
    phase: Running
    podIP: 10.244.1.7
`, i, i%max(nodes, 1), i%500, i%40)
	}
	p("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return n, bw.Flush()
}

// peakHeap samples the live heap until stop is closed, keeping the largest value seen.
func peakHeap(stop <-chan struct{}, peak *atomic.Uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// BenchmarkReadSnapshot reads kubectl output of large clusters from a file, reporting the
// peak live heap next to the file's size: memory follows the objects kept, not the text.
func BenchmarkReadSnapshot(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{500, 10_000}, {10_000, 200_000}} {
		b.Run(fmt.Sprintf("nodes=%d/pods=%d", size.nodes, size.pods), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "snapshot.yaml")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			bytes, err := writeSnapshot(f, size.nodes, size.pods)
			if err != nil || f.Close() != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				runtime.GC()
				var peak atomic.Uint64
				stop := make(chan struct{})
				done := make(chan struct{})
				go func() { peakHeap(stop, &peak); close(done) }()
				s, err := ReadFiles([]string{path})
				close(stop)
				<-done
				if err != nil || len(s.Problems) > 0 || len(s.Pods) != size.pods || len(s.Nodes) != size.nodes {
					b.Fatalf("read %s: %v %v", s.Counts(), err, s.Problems)
				}
				b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
				b.ReportMetric(float64(bytes)/(1<<20), "file-MiB")
				runtime.KeepAlive(s)
			}
		})
	}
}
