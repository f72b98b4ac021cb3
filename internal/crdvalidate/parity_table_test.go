package crdvalidate

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// parityCase is one object of the parity table.
type parityCase struct {
	name string
	kind string // NodePool or AKSNodeClass; an AKSNodeClass case runs on every served version
	obj  map[string]any
	// old, when set, makes the case an update: old is stored, then replaced by obj.
	old map[string]any
	// want lists the causes the rejection must include; empty means the object is valid.
	want []expect
	// keepName keeps obj's metadata.name (cases about the name); otherwise each run names it.
	keepName bool
	// constraint is the schema constraint a generated case exercises.
	constraint string
}

type obj = map[string]any

// with returns a deep copy of base with the edits applied.
func with(base obj, edits ...func(obj)) obj {
	o := deepCopy(base)
	for _, e := range edits {
		e(o)
	}
	return o
}

// set sets a value at a path of map keys, creating the maps on the way.
func set(v any, path ...string) func(obj) {
	return func(o obj) {
		m := o
		for _, p := range path[:len(path)-1] {
			next, ok := m[p].(obj)
			if !ok {
				next = obj{}
				m[p] = next
			}
			m = next
		}
		m[path[len(path)-1]] = v
	}
}

// unset removes the value at a path of map keys.
func unset(path ...string) func(obj) {
	return func(o obj) {
		m := o
		for _, p := range path[:len(path)-1] {
			m, _ = m[p].(obj)
			if m == nil {
				return
			}
		}
		delete(m, path[len(path)-1])
	}
}

func withName(o obj, name string) obj { return with(o, set(name, "metadata", "name")) }

func strs(s ...string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func objs(o ...obj) []any {
	out := make([]any, len(o))
	for i, x := range o {
		out[i] = x
	}
	return out
}

// ---- NodePool ----

func req(key, op string, values ...string) obj {
	r := obj{"key": key, "operator": op}
	if values != nil {
		r["values"] = strs(values...)
	}
	return r
}

func reqMin(r obj, minValues int64) obj { r["minValues"] = minValues; return r }

func requirements(r ...obj) func(obj) {
	return set(objs(r...), "spec", "template", "spec", "requirements")
}

func label(k, v string) func(obj) { return set(v, "spec", "template", "metadata", "labels", k) }

// npBase is the smallest valid NodePool.
func npBase() obj {
	return obj{
		"metadata": obj{"name": "parity"},
		"spec": obj{"template": obj{"spec": obj{
			"nodeClassRef": obj{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
			"requirements": objs(req("kubernetes.io/arch", "In", "amd64")),
		}}},
	}
}

// npFull is a valid dynamic NodePool with every field of the spec set.
func npFull() obj {
	return with(npBase(),
		set(int64(50), "spec", "weight"),
		set(obj{"cpu": "100", "memory": "400Gi", "nvidia.com/gpu": "8"}, "spec", "limits"),
		set(obj{
			"consolidationPolicy": "WhenEmpty",
			"consolidateAfter":    "5m",
			"budgets": objs(obj{
				"nodes": "10%", "reasons": strs("Drifted", "Underutilized"),
				"schedule": "0 9 * * mon-fri", "duration": "8h",
			}),
		}, "spec", "disruption"),
		set(obj{"team": "platform", "karpenter.azure.com/sku-family": "D"}, "spec", "template", "metadata", "labels"),
		set(obj{"example.com/owner": "platform team"}, "spec", "template", "metadata", "annotations"),
		requirements(reqMin(req("karpenter.azure.com/sku-family", "In", "D", "E"), 2), req("karpenter.sh/capacity-type", "In", "spot", "on-demand")),
		set(objs(obj{"key": "dedicated", "value": "batch", "effect": "NoSchedule", "timeAdded": "2025-01-01T00:00:00Z"}), "spec", "template", "spec", "taints"),
		set(objs(obj{"key": "example.com/startup", "value": "pending", "effect": "NoExecute", "timeAdded": "2025-01-01T00:00:00Z"}), "spec", "template", "spec", "startupTaints"),
		set("720h", "spec", "template", "spec", "expireAfter"),
		set("48h", "spec", "template", "spec", "terminationGracePeriod"),
	)
}

// npStatic is a valid static NodePool: a fixed number of replicas, only limits.nodes.
func npStatic() obj {
	return with(npBase(), set(int64(3), "spec", "replicas"), set(obj{"nodes": "10"}, "spec", "limits"))
}

func nodePoolCases() []parityCase {
	np := func(name string, o obj, want ...expect) parityCase {
		return parityCase{name: name, kind: "NodePool", obj: o, want: want}
	}
	const (
		spec      = "spec"
		labels    = "spec.template.metadata.labels"
		reqs      = "spec.template.spec.requirements"
		req0key   = "spec.template.spec.requirements[0].key"
		ref       = "spec.template.spec.nodeClassRef"
		budgets   = "spec.disruption.budgets"
		invalid   = field.ErrorTypeInvalid
		required  = field.ErrorTypeRequired
		typeError = field.ErrorTypeTypeInvalid
	)
	cel := func(f, msg string) expect { return expect{field: f, typ: invalid, msg: msg} }
	restrictedLabel := func(key, msg string) parityCase {
		return np("label "+key+" is restricted", with(npBase(), label(key, "x")), cel(labels, msg))
	}
	restrictedKey := func(key, msg string) parityCase {
		return np("requirement key "+key+" is restricted", with(npBase(), requirements(req(key, "In", "x"))), cel(req0key, msg))
	}
	update := func(name string, old, o obj, want ...expect) parityCase {
		return parityCase{name: "update: " + name, kind: "NodePool", old: old, obj: o, want: want}
	}
	return []parityCase{
		// Valid.
		np("minimal pool, disruption defaulted", npBase()),
		np("every field set", npFull()),
		np("static pool with replicas and limits.nodes", npStatic()),
		np("static pool with zero replicas", with(npStatic(), set(int64(0), "spec", "replicas"))),
		np("labels of the allowed keys in restricted domains", with(npBase(),
			label("karpenter.sh/capacity-type", "spot"), label("karpenter.azure.com/sku-cpu", "8"),
			label("kubernetes.azure.com/scalesetpriority", "spot"), label("team", ""))),
		np("requirement keys allowed in restricted domains and every operator", with(npBase(), requirements(
			req("karpenter.sh/capacity-type", "In", "spot"),
			req("karpenter.azure.com/sku-cpu", "Gt", "4"),
			req("karpenter.azure.com/sku-memory", "Lt", "65536"),
			req("karpenter.azure.com/sku-gpu-count", "Gte", "0"),
			req("karpenter.azure.com/sku-version", "Lte", "5"),
			req("kubernetes.azure.com/mode", "NotIn", "system"),
			req("karpenter.azure.com/sku-gpu-name", "Exists"),
			req("node.kubernetes.io/instance-type", "DoesNotExist"),
		))),
		np("minValues equal to the number of values", with(npBase(), requirements(reqMin(req("karpenter.azure.com/sku-family", "In", "D", "E", "F"), 3)))),
		np("minValues on NotIn is not counted", with(npBase(), requirements(reqMin(req("karpenter.azure.com/sku-family", "NotIn", "B"), 5)))),
		np("consolidateAfter and expireAfter Never", with(npBase(), set(obj{"consolidateAfter": "Never"}, "spec", "disruption"), set("Never", "spec", "template", "spec", "expireAfter"))),
		np("budgets of 0 nodes, 100% and a macro schedule", with(npBase(), set(obj{"consolidateAfter": "1m", "budgets": objs(
			obj{"nodes": "0", "schedule": "@daily", "duration": "10m"}, obj{"nodes": "100%"})}, "spec", "disruption"))),
		np("limits as integers", with(npBase(), set(obj{"cpu": int64(100), "memory": "1Ti"}, "spec", "limits"))),
		np("requirement values are not pattern- or length-checked (the CRD puts both on the array)", with(npBase(),
			requirements(req("example.com/free-form", "In", "has space!", strings.Repeat("v", 70))))),
		np("unknown fields are pruned, not rejected", with(npBase(), set("surprise", "spec", "unknownField"))),
		np("status is ignored on create (status subresource)", with(npBase(), set(obj{"nodes": "many"}, "status"))),
		update("weight and limits change", npFull(), with(npFull(), set(int64(60), "spec", "weight"), set(obj{"cpu": "200"}, "spec", "limits"))),
		update("nodeClassRef.name changes", npBase(), with(npBase(), set("other", "spec", "template", "spec", "nodeClassRef", "name"))),
		update("static pool scales", npStatic(), with(npStatic(), set(int64(7), "spec", "replicas"))),

		// CEL rules of spec.
		update("static pool becomes dynamic", npStatic(), with(npStatic(), unset("spec", "replicas")),
			cel(spec, "Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes")),
		update("dynamic pool becomes static", npBase(), with(npBase(), set(int64(2), "spec", "replicas")),
			cel(spec, "Cannot transition NodePool between static")),
		np("static pool with a cpu limit", with(npStatic(), set(obj{"cpu": "10"}, "spec", "limits")), cel(spec, "only 'limits.nodes' is supported on static NodePools")),
		np("static pool with limits.nodes and memory", with(npStatic(), set(obj{"nodes": "3", "memory": "1Gi"}, "spec", "limits")), cel(spec, "only 'limits.nodes'")),
		np("static pool with a weight", with(npStatic(), set(int64(10), "spec", "weight")), cel(spec, "'weight' is not supported on static NodePools")),
		// CEL rule of budgets.
		np("budget schedule without duration", with(npBase(), set(obj{"consolidateAfter": "1m", "budgets": objs(obj{"nodes": "1", "schedule": "@daily"})}, "spec", "disruption")),
			cel(budgets, "'schedule' must be set with 'duration'")),
		np("budget duration without schedule", with(npBase(), set(obj{"consolidateAfter": "1m", "budgets": objs(obj{"nodes": "1", "duration": "1h"})}, "spec", "disruption")),
			cel(budgets, "'schedule' must be set with 'duration'")),
		// CEL rules of template labels.
		restrictedLabel("karpenter.sh/custom", `label domain "karpenter.sh" is restricted`),
		restrictedLabel("team.karpenter.sh/custom", `label domain "karpenter.sh" is restricted`),
		restrictedLabel("karpenter.sh/nodepool", `label "karpenter.sh/nodepool" is restricted`),
		restrictedLabel("kubernetes.io/hostname", `label "kubernetes.io/hostname" is restricted`),
		restrictedLabel("karpenter.azure.com/custom", `label domain "karpenter.azure.com" is restricted`),
		restrictedLabel("kubernetes.azure.com/custom", `label domain "kubernetes.azure.com" is restricted`),
		restrictedLabel("agentpool", `label "agentpool" is restricted`),
		restrictedLabel("storageprofile", `label "storageprofile" is restricted`),
		restrictedLabel("storagetier", `label "storagetier" is restricted`),
		restrictedLabel("accelerator", `label "accelerator" is restricted`),
		// CEL rules of nodeClassRef (immutability is a transition rule, judged on update).
		update("nodeClassRef.group changes", npBase(), with(npBase(), set("example.com", "spec", "template", "spec", "nodeClassRef", "group")),
			cel(ref, "nodeClassRef.group is immutable")),
		update("nodeClassRef.kind changes", npBase(), with(npBase(), set("OtherNodeClass", "spec", "template", "spec", "nodeClassRef", "kind")),
			cel(ref, "nodeClassRef.kind is immutable")),
		np("nodeClassRef.group empty", with(npBase(), set("", "spec", "template", "spec", "nodeClassRef", "group")), cel(ref+".group", "group may not be empty")),
		np("nodeClassRef.kind empty", with(npBase(), set("", "spec", "template", "spec", "nodeClassRef", "kind")), cel(ref+".kind", "kind may not be empty")),
		np("nodeClassRef.name empty", with(npBase(), set("", "spec", "template", "spec", "nodeClassRef", "name")), cel(ref+".name", "name may not be empty")),
		// CEL rules of requirements.
		np("In with an empty values list", with(npBase(), requirements(req("kubernetes.io/arch", "In", []string{}...))),
			cel(reqs, "requirements with operator 'In' must have a value defined")),
		np("In without values", with(npBase(), requirements(req("kubernetes.io/arch", "In"))), expect{field: reqs}),
		np("Gt with two values", with(npBase(), requirements(req("karpenter.azure.com/sku-cpu", "Gt", "2", "4"))),
			cel(reqs, "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value")),
		np("Lt with a negative value", with(npBase(), requirements(req("karpenter.azure.com/sku-cpu", "Lt", "-1"))),
			cel(reqs, "must have a single positive integer value")),
		np("Gte without values", with(npBase(), requirements(req("karpenter.azure.com/sku-cpu", "Gte"))), expect{field: reqs}),
		np("Lte with a value that is not a number", with(npBase(), requirements(req("karpenter.azure.com/sku-cpu", "Lte", "eight"))), expect{field: reqs}),
		np("minValues above the number of values", with(npBase(), requirements(reqMin(req("karpenter.azure.com/sku-family", "In", "D", "E"), 3))),
			cel(reqs, "requirements with 'minValues' must have at least that many values specified in the 'values' field")),
		// CEL rules of requirement keys.
		restrictedKey("karpenter.sh/custom", `label domain "karpenter.sh" is restricted`),
		restrictedKey("karpenter.sh/nodepool", `label "karpenter.sh/nodepool" is restricted`),
		restrictedKey("kubernetes.io/hostname", `label "kubernetes.io/hostname" is restricted`),
		restrictedKey("karpenter.azure.com/custom", `label domain "karpenter.azure.com" is restricted`),
		restrictedKey("kubernetes.azure.com/custom", `label domain "kubernetes.azure.com" is restricted`),
		restrictedKey("agentpool", `label "agentpool" is restricted`),
		restrictedKey("storageprofile", `label "storageprofile" is restricted`),
		restrictedKey("storagetier", `label "storagetier" is restricted`),
		restrictedKey("accelerator", `label "accelerator" is restricted`),
		// Beyond the CEL rules and the generated constraint cases.
		np("no spec", obj{"metadata": obj{"name": "parity"}}, expect{field: "spec", typ: required}),
		{name: "name is not a DNS subdomain", kind: "NodePool", obj: withName(npBase(), "Bad_Name"), keepName: true,
			want: []expect{{field: "metadata.name", typ: invalid}}},
		{name: "name longer than 253 characters", kind: "NodePool", obj: withName(npBase(), strings.Repeat("n", 254)), keepName: true,
			want: []expect{{field: "metadata.name", typ: invalid}}},
		np("invalid object label", with(npBase(), set(obj{"bad key!": "x"}, "metadata", "labels")), expect{field: "metadata.labels", typ: invalid}),
		np("replicas beyond int32 (scale subresource)", with(npStatic(), set(int64(2147483648), "spec", "replicas")),
			expect{field: ".spec.replicas", typ: invalid, msg: "should be less than or equal to 2147483647"}),
		np("negative replicas (schema and scale subresource)", with(npStatic(), set(int64(-1), "spec", "replicas")),
			expect{field: ".spec.replicas", typ: invalid, msg: "should be a non-negative integer"}, expect{field: "spec.replicas", typ: invalid}),
		np("weight as a string", with(npBase(), set("ten", "spec", "weight")), expect{field: "spec.weight", typ: typeError}),
		np("requirements not a list", with(npBase(), set("kubernetes.io/arch", "spec", "template", "spec", "requirements")),
			expect{field: reqs, typ: typeError}),
		np("disruption without consolidateAfter", with(npBase(), set(obj{"consolidationPolicy": "WhenEmpty"}, "spec", "disruption")),
			expect{field: "spec.disruption.consolidateAfter", typ: required}),
		np("several errors at once, CEL skipped after a blocking one", with(npBase(), label("karpenter.sh/custom", "x"), set("Always", "spec", "disruption", "consolidationPolicy"),
			set("1m", "spec", "disruption", "consolidateAfter")),
			expect{field: "spec.disruption.consolidationPolicy", typ: field.ErrorTypeNotSupported}, expect{field: "<nil>", typ: invalid, msg: "some validation rules were not checked"}),
		update("restricted label added", npBase(), with(npBase(), label("kubernetes.io/hostname", "x")), cel(labels, `label "kubernetes.io/hostname" is restricted`)),
	}
}

// ---- AKSNodeClass ----

const subnetID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-nodes/providers/Microsoft.Network/virtualNetworks/vnet-nodes/subnets/nodes"

func dnsOverride(zone, destination string) obj {
	return obj{
		"zone": zone, "forwardDestination": destination, "forwardPolicy": "Sequential", "maxConcurrent": int64(1000),
		"protocol": "PreferUDP", "queryLogging": "Error", "serveStale": "Immediate",
		"cacheDuration": "3600s", "serveStaleDuration": "1h",
	}
}

func localDNS() obj {
	return obj{
		"mode":             "Required",
		"kubeDNSOverrides": objs(dnsOverride(".", "ClusterCoreDNS"), dnsOverride("cluster.local", "ClusterCoreDNS")),
		"vnetDNSOverrides": objs(dnsOverride(".", "VnetDNS"), dnsOverride("cluster.local", "ClusterCoreDNS")),
	}
}

// ncBase is the smallest valid AKSNodeClass.
func ncBase() obj { return obj{"metadata": obj{"name": "parity"}, "spec": obj{}} }

// ncFull is a valid AKSNodeClass with every field of the spec set.
func ncFull() obj {
	return with(ncBase(), set(obj{
		"imageFamily":       "AzureLinux",
		"fipsMode":          "FIPS",
		"osDiskSizeGB":      int64(128),
		"maxPods":           int64(110),
		"vnetSubnetID":      subnetID,
		"tags":              obj{"team": "platform", "cost-center": "1234"},
		"security":          obj{"encryptionAtHost": true},
		"artifactStreaming": obj{"enabled": true},
		"gpu":               obj{"mode": "None"},
		"kubelet": obj{
			"allowedUnsafeSysctls":        strs("kernel.msg*", "net.ipv4.route.min_pmtu"),
			"containerLogMaxFiles":        int64(10),
			"containerLogMaxSize":         "100Mi",
			"cpuCFSQuota":                 true,
			"cpuCFSQuotaPeriod":           "50ms",
			"cpuManagerPolicy":            "static",
			"failSwapOn":                  false,
			"imageGCHighThresholdPercent": int64(85),
			"imageGCLowThresholdPercent":  int64(75),
			"podPidsLimit":                int64(4096),
			"topologyManagerPolicy":       "best-effort",
		},
		"linuxOSConfig": obj{
			"swapFileSize":               "2Gi",
			"transparentHugePageEnabled": "madvise",
			"transparentHugePageDefrag":  "defer+madvise",
			"sysctls": obj{
				"fsAioMaxNr":                     int64(65536),
				"fsFileMax":                      int64(709620),
				"fsInotifyMaxUserWatches":        int64(1048576),
				"fsNrOpen":                       int64(1048576),
				"kernelThreadsMax":               int64(55601),
				"netCoreNetdevMaxBacklog":        int64(1000),
				"netCoreOptmemMax":               int64(20480),
				"netCoreRmemDefault":             int64(212992),
				"netCoreRmemMax":                 int64(212992),
				"netCoreSomaxconn":               int64(16384),
				"netCoreWmemDefault":             int64(212992),
				"netCoreWmemMax":                 int64(262144),
				"netIPv4IPLocalPortRange":        "32768 60999",
				"netIPv4NeighDefaultGcThresh1":   int64(4096),
				"netIPv4NeighDefaultGcThresh2":   int64(8192),
				"netIPv4NeighDefaultGcThresh3":   int64(16384),
				"netIPv4TCPFinTimeout":           int64(60),
				"netIPv4TCPKeepaliveIntvl":       int64(75),
				"netIPv4TCPKeepaliveProbes":      int64(9),
				"netIPv4TCPKeepaliveTime":        int64(7200),
				"netIPv4TCPMaxSynBacklog":        int64(16384),
				"netIPv4TCPMaxTwBuckets":         int64(32768),
				"netIPv4TCPTwReuse":              true,
				"netNetfilterNfConntrackBuckets": int64(65536),
				"netNetfilterNfConntrackMax":     int64(131072),
				"vmMaxMapCount":                  int64(65530),
				"vmSwappiness":                   int64(60),
				"vmVfsCachePressure":             int64(100),
			},
		},
		"localDNS": localDNS(),
	}, "spec"))
}

func sysctl(name string, v any) func(obj) {
	return set(v, "spec", "linuxOSConfig", "sysctls", name)
}

func dnsList(which string, o ...obj) func(obj) { return set(objs(o...), "spec", "localDNS", which) }

func withKV(o obj, kv ...any) obj {
	o = deepCopy(o)
	for i := 0; i < len(kv); i += 2 {
		o[kv[i].(string)] = kv[i+1]
	}
	return o
}

func aksNodeClassCases() []parityCase {
	nc := func(name string, o obj, want ...expect) parityCase {
		return parityCase{name: name, kind: "AKSNodeClass", obj: o, want: want}
	}
	const (
		invalid = field.ErrorTypeInvalid
		sysctls = "spec.linuxOSConfig.sysctls"
		kubeDNS = "spec.localDNS.kubeDNSOverrides"
		vnetDNS = "spec.localDNS.vnetDNSOverrides"
	)
	cel := func(f, msg string) expect { return expect{field: f, typ: invalid, msg: msg} }
	spec := func(v any, path ...string) func(obj) { return set(v, append([]string{"spec"}, path...)...) }
	portRange := func(r string) func(obj) { return sysctl("netIPv4IPLocalPortRange", r) }
	return []parityCase{
		// Valid.
		nc("empty spec, defaults applied", ncBase()),
		nc("no spec at all", obj{"metadata": obj{"name": "parity"}}),
		nc("every field set", ncFull()),
		nc("FIPS without image family: the default Ubuntu allows it", with(ncBase(), spec("FIPS", "fipsMode"))),
		nc("FIPS with Ubuntu", with(ncBase(), spec("FIPS", "fipsMode"), spec("Ubuntu", "imageFamily"))),
		nc("FIPS disabled with Ubuntu2404", with(ncBase(), spec("Disabled", "fipsMode"), spec("Ubuntu2404", "imageFamily"))),
		nc("swap file with failSwapOn false", with(ncBase(), spec(obj{"swapFileSize": "1500Mi"}, "linuxOSConfig"), spec(obj{"failSwapOn": false}, "kubelet"))),
		nc("image GC high above low", with(ncBase(), spec(obj{"imageGCHighThresholdPercent": int64(1), "imageGCLowThresholdPercent": int64(0)}, "kubelet"))),
		nc("only one image GC threshold", with(ncBase(), spec(obj{"imageGCLowThresholdPercent": int64(100)}, "kubelet"))),
		nc("local port range at its bounds", with(ncBase(), portRange("1024 65535"))),
		nc("local port range of one port", with(ncBase(), portRange("60999 60999"))),
		nc("sysctl pairs at equality", with(ncBase(), sysctl("netCoreWmemDefault", int64(300000)), sysctl("netCoreWmemMax", int64(300000)),
			sysctl("netIPv4NeighDefaultGcThresh1", int64(1024)), sysctl("netIPv4NeighDefaultGcThresh2", int64(1024)), sysctl("netIPv4NeighDefaultGcThresh3", int64(1024)))),
		nc("tag key of 512 characters and value of 256", with(ncBase(), spec(obj{strings.Repeat("k", 512): strings.Repeat("v", 256)}, "tags"))),
		nc("tag keys with allowed punctuation and values with forbidden key characters", with(ncBase(), spec(obj{"a-b_c.d/e:f+g=h@i": `<>%&?\`}, "tags"))),
		nc("vnetSubnetID matched case-insensitively", with(ncBase(), spec(strings.ToLower(subnetID), "vnetSubnetID"))),
		nc("local DNS with external zones forwarded to VnetDNS", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("vnetDNSOverrides", dnsOverride(".", "VnetDNS"), dnsOverride("cluster.local", "ClusterCoreDNS"), dnsOverride("example.com", "VnetDNS")))),
		nc("unknown fields are pruned, not rejected", with(ncBase(), spec("surprise", "unknownField"))),
		// Both served versions have the status subresource, so status is dropped on create.
		nc("status is ignored on create (status subresource)", with(ncBase(), set(obj{"conditions": objs(obj{"type": "Ready", "status": "Maybe"})}, "status"))),
		{name: "update: tags and disk size change", kind: "AKSNodeClass", old: ncFull(),
			obj: with(ncFull(), spec(obj{"team": "data"}, "tags"), spec(int64(256), "osDiskSizeGB"))},

		// CEL rules of spec.
		nc("FIPS with Ubuntu2204", with(ncBase(), spec("FIPS", "fipsMode"), spec("Ubuntu2204", "imageFamily")),
			cel("spec", "FIPS is not yet supported for Ubuntu2204 or Ubuntu2404")),
		nc("FIPS with Ubuntu2404", with(ncBase(), spec("FIPS", "fipsMode"), spec("Ubuntu2404", "imageFamily")),
			cel("spec", "FIPS is not yet supported for Ubuntu2204 or Ubuntu2404")),
		nc("swap file without kubelet settings", with(ncBase(), spec(obj{"swapFileSize": "2Gi"}, "linuxOSConfig")),
			cel("spec", "kubelet.failSwapOn must be set to false when linuxOSConfig.swapFileSize is specified")),
		nc("swap file with failSwapOn true", with(ncBase(), spec(obj{"swapFileSize": "2Gi"}, "linuxOSConfig"), spec(obj{"failSwapOn": true}, "kubelet")),
			cel("spec", "kubelet.failSwapOn must be set to false")),
		// CEL rule of kubelet.
		nc("image GC high equal to low", with(ncBase(), spec(obj{"imageGCHighThresholdPercent": int64(80), "imageGCLowThresholdPercent": int64(80)}, "kubelet")),
			cel("spec.kubelet", "imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent")),
		nc("image GC high below low", with(ncBase(), spec(obj{"imageGCHighThresholdPercent": int64(50), "imageGCLowThresholdPercent": int64(90)}, "kubelet")),
			cel("spec.kubelet", "imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent")),
		// CEL rules of sysctls.
		nc("rmem default above max", with(ncBase(), sysctl("netCoreRmemDefault", int64(300000)), sysctl("netCoreRmemMax", int64(212992))),
			cel(sysctls, "netCoreRmemDefault must be <= netCoreRmemMax")),
		nc("wmem default above max", with(ncBase(), sysctl("netCoreWmemDefault", int64(300000)), sysctl("netCoreWmemMax", int64(212992))),
			cel(sysctls, "netCoreWmemDefault must be <= netCoreWmemMax")),
		nc("neighbour GC thresh1 above thresh2", with(ncBase(), sysctl("netIPv4NeighDefaultGcThresh1", int64(8192)), sysctl("netIPv4NeighDefaultGcThresh2", int64(4096))),
			cel(sysctls, "netIPv4NeighDefaultGcThresh1 must be <= netIPv4NeighDefaultGcThresh2")),
		nc("neighbour GC thresh2 above thresh3", with(ncBase(), sysctl("netIPv4NeighDefaultGcThresh2", int64(8192)), sysctl("netIPv4NeighDefaultGcThresh3", int64(4096))),
			cel(sysctls, "netIPv4NeighDefaultGcThresh2 must be <= netIPv4NeighDefaultGcThresh3")),
		nc("local port range starting below 1024", with(ncBase(), portRange("1000 40000")),
			cel(sysctls, "netIPv4IPLocalPortRange first port must be in [1024, 60999]")),
		nc("local port range starting above 60999", with(ncBase(), portRange("61000 65000")),
			cel(sysctls, "netIPv4IPLocalPortRange first port must be in [1024, 60999]")),
		nc("local port range ending below 32768", with(ncBase(), portRange("2000 3000")),
			cel(sysctls, "netIPv4IPLocalPortRange last port must be in [32768, 65535]")),
		nc("local port range ending above 65535", with(ncBase(), portRange("2000 70000")),
			cel(sysctls, "netIPv4IPLocalPortRange last port must be in [32768, 65535]")),
		nc("local port range reversed", with(ncBase(), portRange("60000 40000")),
			cel(sysctls, "netIPv4IPLocalPortRange first port must be <= last port")),
		nc("local port range of words (pattern, then CEL on the same value)", with(ncBase(), portRange("low high")),
			expect{field: sysctls + ".netIPv4IPLocalPortRange", typ: invalid, msg: "should match"}),
		// CEL rules of local DNS.
		nc("kubeDNSOverrides without cluster.local", with(ncBase(), spec(localDNS(), "localDNS"), dnsList("kubeDNSOverrides", dnsOverride(".", "ClusterCoreDNS"))),
			cel(kubeDNS, "must contain required zones '.' and 'cluster.local'")),
		nc("kubeDNSOverrides forwarding cluster.local to VnetDNS", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("kubeDNSOverrides", dnsOverride(".", "ClusterCoreDNS"), dnsOverride("cluster.local", "VnetDNS"))),
			cel(kubeDNS+"[1]", "'cluster.local' cannot be forwarded to VnetDNS")),
		nc("kubeDNSOverrides serving stale Verify over ForceTCP", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("kubeDNSOverrides", withKV(dnsOverride(".", "ClusterCoreDNS"), "serveStale", "Verify", "protocol", "ForceTCP"), dnsOverride("cluster.local", "ClusterCoreDNS"))),
			cel(kubeDNS+"[0]", "serveStale Verify cannot be used with protocol ForceTCP")),
		nc("vnetDNSOverrides without the root zone", with(ncBase(), spec(localDNS(), "localDNS"), dnsList("vnetDNSOverrides", dnsOverride("cluster.local", "ClusterCoreDNS"))),
			cel(vnetDNS, "must contain required zones '.' and 'cluster.local'")),
		nc("vnetDNSOverrides forwarding the root zone to ClusterCoreDNS", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("vnetDNSOverrides", dnsOverride(".", "ClusterCoreDNS"), dnsOverride("cluster.local", "ClusterCoreDNS"))),
			cel(vnetDNS, "root zone '.' cannot be forwarded to ClusterCoreDNS from vnetDNSOverrides")),
		nc("vnetDNSOverrides forwarding an external domain to ClusterCoreDNS", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("vnetDNSOverrides", dnsOverride(".", "VnetDNS"), dnsOverride("cluster.local", "ClusterCoreDNS"), dnsOverride("example.com", "ClusterCoreDNS"))),
			cel(vnetDNS, "external domains cannot be forwarded to ClusterCoreDNS from vnetDNSOverrides")),
		nc("vnetDNSOverrides forwarding cluster.local to VnetDNS", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("vnetDNSOverrides", dnsOverride(".", "VnetDNS"), dnsOverride("cluster.local", "VnetDNS"))),
			cel(vnetDNS+"[1]", "'cluster.local' cannot be forwarded to VnetDNS")),
		nc("vnetDNSOverrides serving stale Verify over ForceTCP", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("vnetDNSOverrides", withKV(dnsOverride(".", "VnetDNS"), "serveStale", "Verify", "protocol", "ForceTCP"), dnsOverride("cluster.local", "ClusterCoreDNS"))),
			cel(vnetDNS+"[0]", "serveStale Verify cannot be used with protocol ForceTCP")),
		// CEL rules of tags.
		nc("tag key of 513 characters", with(ncBase(), spec(obj{strings.Repeat("k", 513): "v"}, "tags")),
			cel("spec.tags", "tags keys must be less than 512 characters")),
		nc("tag key with '<'", with(ncBase(), spec(obj{"team<": "v"}, "tags")), cel("spec.tags", "tags keys must not contain '<', '>', '%', '&', or '?'")),
		nc("tag key with '%' and '?'", with(ncBase(), spec(obj{"50%": "v", "why?": "v"}, "tags")), cel("spec.tags", "tags keys must not contain '<', '>', '%', '&', or '?'")),
		nc(`tag key with '\'`, with(ncBase(), spec(obj{`domain\user`: "v"}, "tags")), cel("spec.tags", `tags keys must not contain '\'`)),
		nc("tag value of 257 characters", with(ncBase(), spec(obj{"team": strings.Repeat("v", 257)}, "tags")),
			cel("spec.tags", "tags values must be less than 256 characters")),
		// Beyond the CEL rules and the generated constraint cases.
		// Kubernetes 1.36 enforces the int32 format of integer fields; the API server reports
		// it without a field path, naming the path in the message.
		nc("containerLogMaxFiles beyond int32", with(ncBase(), spec(obj{"containerLogMaxFiles": int64(2147483648)}, "kubelet")),
			expect{field: "<nil>", typ: invalid, msg: "Checked value must be of type integer with format int32 in spec.kubelet.containerLogMaxFiles"}),
		nc("local DNS maxConcurrent beyond int32", with(ncBase(), spec(localDNS(), "localDNS"),
			dnsList("kubeDNSOverrides", withKV(dnsOverride(".", "ClusterCoreDNS"), "maxConcurrent", int64(2147483648)), dnsOverride("cluster.local", "ClusterCoreDNS"))),
			expect{field: "<nil>", typ: invalid, msg: "format int32 in " + kubeDNS + "[0].maxConcurrent"}),
		nc("osDiskSizeGB beyond int32 and its maximum", with(ncBase(), spec(int64(-2147483649), "osDiskSizeGB")),
			expect{field: "spec.osDiskSizeGB", typ: invalid, msg: "should be greater than or equal to 30"},
			expect{field: "<nil>", typ: invalid, msg: "format int32 in spec.osDiskSizeGB"}),
		nc("int32 at its bounds is accepted", with(ncBase(), spec(obj{"containerLogMaxFiles": int64(2147483647)}, "kubelet"))),
		nc("podPidsLimit at int64 scale is accepted", with(ncBase(), spec(obj{"podPidsLimit": int64(1) << 40}, "kubelet"))),
		nc("osDiskSizeGB as a string", with(ncBase(), spec("big", "osDiskSizeGB")), expect{field: "spec.osDiskSizeGB", typ: field.ErrorTypeTypeInvalid}),
		nc("tag value not a string", with(ncBase(), spec(obj{"team": int64(1)}, "tags")), expect{field: "spec.tags.team", typ: field.ErrorTypeTypeInvalid}),
		{name: "name is not a DNS subdomain", kind: "AKSNodeClass", obj: withName(ncBase(), "Default_Class"), keepName: true,
			want: []expect{{field: "metadata.name", typ: invalid}}},
		{name: "update: forbidden tag key added", kind: "AKSNodeClass", old: ncFull(), obj: with(ncFull(), spec(obj{"a&b": "x"}, "tags")),
			want: []expect{cel("spec.tags", "tags keys must not contain")}},
		{name: "update: FIPS switched on for Ubuntu2204", kind: "AKSNodeClass", old: with(ncBase(), spec("Ubuntu2204", "imageFamily")),
			obj: with(ncBase(), spec("Ubuntu2204", "imageFamily"), spec("FIPS", "fipsMode")), want: []expect{cel("spec", "FIPS is not yet supported")}},
	}
}

// ---- Cases generated from the schema constraints ----

// constraintKinds lists the constraints of a schema that apply to values of its type; a
// pattern or length on an array, as the NodePool CRD puts on requirement values, is inert.
func constraintKinds(s *apiextensionsv1.JSONSchemaProps) []string {
	str := s.Type == "string" || s.XIntOrString
	var out []string
	if len(s.Enum) > 0 {
		out = append(out, "enum")
	}
	if s.Pattern != "" && str {
		out = append(out, "pattern")
	}
	if s.Format == "date-time" && s.Type == "string" {
		out = append(out, "format")
	}
	if s.MinLength != nil && *s.MinLength > 0 && str {
		out = append(out, "minLength")
	}
	if s.MaxLength != nil && str {
		out = append(out, "maxLength")
	}
	if s.Minimum != nil && (s.Type == "integer" || s.Type == "number") {
		out = append(out, "minimum")
	}
	if s.Maximum != nil && (s.Type == "integer" || s.Type == "number") {
		out = append(out, "maximum")
	}
	if s.MaxItems != nil && s.Type == "array" {
		out = append(out, "maxItems")
	}
	if s.MaxProperties != nil && s.Type == "object" {
		out = append(out, "maxProperties")
	}
	if s.Type == "array" && (s.XListType != nil && (*s.XListType == "map" || *s.XListType == "set")) {
		out = append(out, "listType="+*s.XListType)
	}
	for _, r := range s.Required {
		out = append(out, "required:"+r)
	}
	return out
}

func specSchema(kind string) *apiextensionsv1.JSONSchemaProps {
	s := MustFor(servedVersions(kind)[0]).Schema.Properties["spec"]
	return &s
}

// schemaConstraints lists every constraint of kind's spec schema, keyed as the generated
// cases are.
func schemaConstraints(kind string) []string {
	var out []string
	walkSchema(specSchema(kind), "spec", func(s *apiextensionsv1.JSONSchemaProps, at string) {
		for _, k := range constraintKinds(s) {
			out = append(out, at+" "+k)
		}
	})
	return out
}

// generatedCases breaks, one at a time, every constraint of the spec schema that a value of
// the given valid objects reaches. It writes an enum value outside the enum, a string that
// fails the pattern, a number just outside its range, and one item or property too many. It
// drops a required field, and duplicates an item of a map- or set-typed list.
func generatedCases(kind string, bases ...obj) []parityCase {
	seen := map[string]bool{}
	var out []parityCase
	for _, base := range bases {
		var walk func(s *apiextensionsv1.JSONSchemaProps, val any, at []any, key, fieldPath string)
		walk = func(s *apiextensionsv1.JSONSchemaProps, val any, at []any, key, fieldPath string) {
			if val == nil {
				return
			}
			for _, ck := range constraintKinds(s) {
				c := key + " " + ck
				if seen[c] {
					continue
				}
				o, want, ok := breakConstraint(base, s, val, at, fieldPath, ck)
				if !ok {
					continue
				}
				seen[c] = true
				out = append(out, parityCase{name: "schema: " + c, kind: kind, obj: o, want: want, constraint: c})
			}
			switch v := val.(type) {
			case map[string]any:
				names := make([]string, 0, len(v))
				for k := range v {
					names = append(names, k)
				}
				sort.Strings(names)
				for _, k := range names {
					if p, ok := s.Properties[k]; ok {
						walk(&p, v[k], append(at[:len(at):len(at)], k), key+"."+k, fieldPath+"."+k)
					} else if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
						walk(s.AdditionalProperties.Schema, v[k], append(at[:len(at):len(at)], k), key+"[*]", fieldPath+"."+k)
					}
				}
			case []any:
				if len(v) > 0 && s.Items != nil && s.Items.Schema != nil {
					walk(s.Items.Schema, v[0], append(at[:len(at):len(at)], 0), key+"[*]", fieldPath+"[0]")
				}
			}
		}
		spec := specSchema(kind)
		walk(spec, base["spec"], []any{"spec"}, "spec", "spec")
	}
	return out
}

// badStrings are tried in turn as the value that fails a pattern.
var badStrings = []string{"not valid!", "-", "x y", "%", "a/b"}

func breakConstraint(base obj, s *apiextensionsv1.JSONSchemaProps, val any, at []any, fieldPath, ck string) (obj, []expect, bool) {
	o := deepCopy(base)
	put := func(v any) { setAt(o, at, v) }
	switch {
	case ck == "enum":
		put("NotAnAllowedValue")
		return o, []expect{{field: fieldPath, typ: field.ErrorTypeNotSupported}}, true
	case ck == "pattern":
		re := regexp.MustCompile(s.Pattern)
		for _, b := range badStrings {
			if !re.MatchString(b) {
				put(b)
				return o, []expect{{field: fieldPath, typ: field.ErrorTypeInvalid, msg: "should match"}}, true
			}
		}
		return nil, nil, false
	case ck == "format":
		put("yesterday")
		return o, []expect{{field: fieldPath, msg: "date-time"}}, true
	case ck == "minLength":
		put(strings.Repeat("a", int(*s.MinLength)-1))
		return o, []expect{{field: fieldPath, typ: field.ErrorTypeInvalid, msg: "should be at least"}}, true
	case ck == "maxLength":
		put(strings.Repeat("a", int(*s.MaxLength)+1))
		return o, []expect{{field: fieldPath, typ: field.ErrorTypeTooLong}}, true
	case ck == "minimum":
		put(int64(*s.Minimum) - 1)
		return o, []expect{{field: fieldPath, typ: field.ErrorTypeInvalid, msg: "should be greater than or equal to"}}, true
	case ck == "maximum":
		put(int64(*s.Maximum) + 1)
		return o, []expect{{field: fieldPath, typ: field.ErrorTypeInvalid, msg: "should be less than or equal to"}}, true
	case ck == "maxItems":
		items, _ := val.([]any)
		if len(items) == 0 {
			return nil, nil, false
		}
		grown := make([]any, 0, *s.MaxItems+1)
		for i := 0; int64(len(grown)) <= *s.MaxItems; i++ {
			grown = append(grown, uniqueItem(s, items[i%len(items)], i))
		}
		put(grown)
		return o, []expect{{field: fieldPath, typ: field.ErrorTypeTooMany}}, true
	case ck == "maxProperties":
		m, _ := val.(map[string]any)
		grown := deepCopy(m)
		for i := 0; int64(len(grown)) <= *s.MaxProperties; i++ {
			grown[fmt.Sprintf("key-%d", i)] = "v"
		}
		put(grown)
		return o, []expect{{field: fieldPath, typ: field.ErrorTypeTooMany}}, true
	case strings.HasPrefix(ck, "listType="):
		items, _ := val.([]any)
		if len(items) == 0 {
			return nil, nil, false
		}
		put(append(append([]any{}, items...), items[0]))
		return o, []expect{{field: fmt.Sprintf("%s[%d]", fieldPath, len(items)), typ: field.ErrorTypeDuplicate}}, true
	case strings.HasPrefix(ck, "required:"):
		name := strings.TrimPrefix(ck, "required:")
		m, _ := val.(map[string]any)
		if _, ok := m[name]; !ok {
			return nil, nil, false
		}
		setAt(o, append(at[:len(at):len(at)], name), nil)
		if p := s.Properties[name]; p.Default != nil {
			// A required field with a default is filled in before validation: accepted.
			return o, nil, true
		}
		return o, []expect{{field: fieldPath + "." + name, typ: field.ErrorTypeRequired}}, true
	}
	return nil, nil, false
}

// uniqueItem is the i-th item of a grown list: a copy of item, with distinct keys where the
// list is map-typed, so that only the length is wrong.
func uniqueItem(s *apiextensionsv1.JSONSchemaProps, item any, i int) any {
	m, ok := item.(map[string]any)
	if !ok || s.XListType == nil || *s.XListType != "map" {
		return item
	}
	m = deepCopy(m)
	for _, k := range s.XListMapKeys {
		m[k] = fmt.Sprintf("z%d.example.com", i)
	}
	return m
}

// setAt sets (or with nil, deletes) the value at a path of map keys and list indexes.
func setAt(root any, at []any, v any) {
	cur := root
	for i, step := range at {
		last := i == len(at)-1
		switch c := cur.(type) {
		case map[string]any:
			k := step.(string)
			if last {
				if v == nil {
					delete(c, k)
				} else {
					c[k] = v
				}
				return
			}
			cur = c[k]
		case []any:
			idx := step.(int)
			if last {
				c[idx] = v
				return
			}
			cur = c[idx]
		}
	}
}

// parityTable is the whole table: the hand-written cases, then the generated ones.
func parityTable() []parityCase {
	var t []parityCase
	t = append(t, nodePoolCases()...)
	t = append(t, aksNodeClassCases()...)
	t = append(t, generatedCases("NodePool", npFull(), npStatic())...)
	t = append(t, generatedCases("AKSNodeClass", ncFull())...)
	return t
}
