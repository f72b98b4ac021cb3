import random, os, sys, textwrap, json
out = sys.argv[1]
R = random.Random(20261201)
REGIONS = ["eastus", "westeurope", "westus2", "northeurope", "eastus2", "swedencentral", "uksouth", "australiaeast"]

def y(o, ind=0):
    # minimal YAML emitter (block style) for dicts/lists/scalars
    sp = "  " * ind
    if isinstance(o, dict):
        if not o: return "{}"
        lines = []
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{sp}{k}:\n{y(v, ind+1)}")
            else:
                lines.append(f"{sp}{k}: {scalar(v)}")
        return "\n".join(lines)
    if isinstance(o, list):
        if not o: return sp + "[]"
        lines = []
        for v in o:
            if isinstance(v, dict) and v:
                body = y(v, ind+1)
                lines.append(f"{sp}- " + body.lstrip())
            elif isinstance(v, list) and v:
                lines.append(f"{sp}-\n{y(v, ind+1)}")
            else:
                lines.append(f"{sp}- {scalar(v)}")
        return "\n".join(lines)
    return sp + scalar(o)

def scalar(v):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (int, float)): return str(v)
    if isinstance(v, dict): return "{}"
    if isinstance(v, list): return "[]"
    return json.dumps(str(v))

def doc(o): return y(o) + "\n"

def req(key, op, vals=None, minv=None):
    r = {"key": key, "operator": op}
    if vals is not None: r["values"] = [str(v) for v in vals]
    if minv: r["minValues"] = minv
    return r

def nodepool(name, reqs, weight=None, limits=None, taints=None, nodeclass="default", labels=None):
    spec = {"template": {"spec": {"nodeClassRef": {"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": nodeclass}, "requirements": reqs}}}
    if labels: spec["template"]["metadata"] = {"labels": labels}
    if taints: spec["template"]["spec"]["taints"] = taints
    if weight is not None: spec["weight"] = weight
    if limits: spec["limits"] = limits
    return {"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": {"name": name}, "spec": spec}

def nodeclass(name, **kw):
    spec = {}
    spec.update(kw)
    return {"apiVersion": "karpenter.azure.com/v1beta1", "kind": "AKSNodeClass", "metadata": {"name": name}, "spec": spec}

def container(name, cpu, mem, gpu=0, limits_only=False):
    res = {"requests": {"cpu": cpu, "memory": mem}}
    if limits_only:
        res = {"limits": {"cpu": cpu, "memory": mem}}
    if gpu:
        res.setdefault("limits", {})["nvidia.com/gpu"] = gpu
    return {"name": name, "image": f"registry.example.com/{name}:1.0", "resources": res}

def podspec(app, cpu, mem, extra=None):
    s = {"containers": [container(app, cpu, mem)]}
    if extra: s.update(extra)
    return s

def template(app, spec, labels=None):
    l = {"app": app}
    if labels: l.update(labels)
    return {"metadata": {"labels": l}, "spec": spec}

def deployment(app, replicas, spec, ns=None, kind="Deployment", api="apps/v1"):
    m = {"name": app}
    if ns: m["namespace"] = ns
    return {"apiVersion": api, "kind": kind, "metadata": m, "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": app}}, "template": template(app, spec)}}

def statefulset(app, replicas, spec):
    d = deployment(app, replicas, spec, kind="StatefulSet")
    d["spec"]["serviceName"] = app
    return d

def job(app, parallelism, completions, spec):
    spec = dict(spec); spec["restartPolicy"] = "Never"
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": app}, "spec": {"parallelism": parallelism, "completions": completions, "template": template(app, spec)}}

def cronjob(app, parallelism, spec):
    spec = dict(spec); spec["restartPolicy"] = "OnFailure"
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": app}, "spec": {"schedule": "*/30 * * * *", "jobTemplate": {"spec": {"parallelism": parallelism, "template": template(app, spec)}}}}

def daemonset(app, cpu, mem, extra=None, ns="kube-system"):
    spec = podspec(app, cpu, mem, extra)
    return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": app, "namespace": ns}, "spec": {"selector": {"matchLabels": {"app": app}}, "template": template(app, spec)}}

def hpa(app, minr, maxr):
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": app}, "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": app}, "minReplicas": minr, "maxReplicas": maxr, "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]}}

def zone_spread(app, skew=1, when="DoNotSchedule"):
    return {"maxSkew": skew, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": when, "labelSelector": {"matchLabels": {"app": app}}}

def host_spread(app, skew=1, when="DoNotSchedule"):
    return {"maxSkew": skew, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": when, "labelSelector": {"matchLabels": {"app": app}}}

def anti(app, required=True, key="kubernetes.io/hostname"):
    term = {"topologyKey": key, "labelSelector": {"matchLabels": {"app": app}}}
    if required:
        return {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}
    return {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": term}]}}

CPU = ["100m", "250m", "500m", "750m", "1", "1500m", "2", "3", "4", "6", "8"]
MEM = ["128Mi", "256Mi", "512Mi", "1Gi", "2Gi", "3Gi", "4Gi", "6Gi", "8Gi", "12Gi", "16Gi", "32Gi"]

def rand_res():
    c = R.choice(CPU)
    i = CPU.index(c)
    m = MEM[min(len(MEM)-1, max(0, i + R.randint(-1, 3)))]
    return c, m

POOL_SHAPES = [
    ("general", lambda: [req("kubernetes.io/arch", "In", ["amd64"]), req("karpenter.sh/capacity-type", "In", ["on-demand"]), req("karpenter.azure.com/sku-family", "In", ["D"])]),
    ("flex", lambda: [req("karpenter.sh/capacity-type", "In", ["spot", "on-demand"]), req("karpenter.azure.com/sku-cpu", "Lt", [R.choice([17, 33, 65])])]),
    ("spot", lambda: [req("karpenter.sh/capacity-type", "In", ["spot"]), req("kubernetes.io/arch", "In", ["amd64"]), req("karpenter.azure.com/sku-family", "In", ["D", "E", "F"])]),
    ("arm", lambda: [req("kubernetes.io/arch", "In", ["arm64"]), req("karpenter.sh/capacity-type", "In", ["on-demand"])]),
    ("memory", lambda: [req("karpenter.azure.com/sku-family", "In", ["E"]), req("karpenter.azure.com/sku-cpu", "Gt", [3]), req("karpenter.azure.com/sku-cpu", "Lt", [49])]),
    ("nap-default", lambda: [req("kubernetes.io/arch", "In", ["amd64"]), req("kubernetes.io/os", "In", ["linux"]), req("karpenter.sh/capacity-type", "In", ["on-demand"]), req("karpenter.azure.com/sku-family", "In", ["D"])]),
    ("diverse", lambda: [req("karpenter.azure.com/sku-family", "In", ["D", "E"]), req("node.kubernetes.io/instance-type", "Exists", None, R.choice([3, 5, 10])), req("karpenter.sh/capacity-type", "In", ["on-demand"])]),
    ("burst", lambda: [req("karpenter.azure.com/sku-family", "In", ["B", "D"]), req("karpenter.azure.com/sku-cpu", "Lt", [9])]),
]

def gpu_pool():
    return nodepool("gpu", [req("karpenter.azure.com/sku-gpu-manufacturer", "In", ["nvidia"]), req("karpenter.sh/capacity-type", "In", ["on-demand"])],
                    taints=[{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}])

def workloads_for(pools, budget, zone_p=0.35):
    objs, extra_docs = [], []
    names = set()
    n = 0
    k = 0
    tainted = [p for p in pools if p["spec"]["template"]["spec"].get("taints")]
    archs = set()
    for p in pools:
        for r in p["spec"]["template"]["spec"]["requirements"]:
            if r["key"] == "kubernetes.io/arch": archs.update(r.get("values", []))
    while n < budget:
        k += 1
        app = R.choice(["web", "api", "checkout", "search", "cart", "auth", "ingest", "worker", "render", "report", "etl", "cache", "queue", "db", "metrics", "frontend", "payments", "notify"]) + f"-{k}"
        kind = R.choices(["Deployment", "StatefulSet", "Job", "CronJob", "ReplicaSet", "Pod"], [50, 15, 12, 8, 5, 3])[0]
        reps = R.choice([1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 60])
        reps = max(1, min(reps, budget - n))
        if kind == "Pod": reps = 1
        c, m = rand_res()
        spec = podspec(app, c, m)
        if R.random() < 0.25:
            spec["initContainers"] = [container("init-" + app, R.choice(["1", "2", "4"]), R.choice(["1Gi", "2Gi", "4Gi"]))]
        if R.random() < 0.15:
            spec["containers"].append(container("sidecar", R.choice(["50m", "100m", "200m"]), R.choice(["64Mi", "128Mi"])))
        if R.random() < 0.1:
            spec["containers"][0] = container(app, c, m, limits_only=True)
        tsc = []
        r = R.random()
        if r < zone_p: tsc.append(zone_spread(app, R.choice([1, 1, 2]), R.choice(["DoNotSchedule", "DoNotSchedule", "ScheduleAnyway"])))
        if R.random() < 0.25: tsc.append(host_spread(app, R.choice([1, 2, 3]), R.choice(["DoNotSchedule", "ScheduleAnyway"])))
        if tsc: spec["topologySpreadConstraints"] = tsc
        if kind == "StatefulSet" and R.random() < 0.6:
            spec["affinity"] = anti(app, True)
        elif R.random() < 0.12:
            spec["affinity"] = anti(app, R.random() < 0.5, R.choice(["kubernetes.io/hostname", "kubernetes.io/hostname", "topology.kubernetes.io/zone"]))
        if "arm64" in archs and R.random() < 0.2:
            spec["nodeSelector"] = {"kubernetes.io/arch": "arm64"}
        elif R.random() < 0.1:
            aff = spec.setdefault("affinity", {})
            aff["nodeAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 50, "preference": {"matchExpressions": [req("karpenter.azure.com/sku-family", "In", ["E"])]}}]}
        for tp in tainted:
            t = tp["spec"]["template"]["spec"]["taints"][0]
            if t["key"] == "nvidia.com/gpu": continue
            if R.random() < 0.3:
                spec["tolerations"] = [{"key": t["key"], "operator": "Equal", "value": t.get("value", ""), "effect": t["effect"]}]
                if R.random() < 0.5:
                    spec["nodeSelector"] = {"team": t.get("value", "")}
        if kind == "Deployment":
            d = deployment(app, reps, spec)
            if R.random() < 0.15:
                maxr = reps + R.choice([2, 4, 8])
                extra_docs.append(hpa(app, max(1, reps // 2), maxr))
                reps = maxr
            objs.append(d)
        elif kind == "ReplicaSet":
            objs.append(deployment(app, reps, spec, kind="ReplicaSet"))
        elif kind == "StatefulSet":
            objs.append(statefulset(app, reps, spec))
        elif kind == "Job":
            objs.append(job(app, reps, reps * 2, spec))
        elif kind == "CronJob":
            objs.append(cronjob(app, reps, spec))
        else:
            objs.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": app, "labels": {"app": app}}, "spec": spec})
        n += reps
    return objs, extra_docs

def gpu_workload():
    spec = {"containers": [container("trainer", "4", "16Gi", gpu=1)], "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]}
    return job("train", R.choice([1, 2, 4]), 4, spec)

def write(dirname, files, region, hpa_max=False):
    d = os.path.join(out, dirname)
    os.makedirs(d, exist_ok=True)
    for name, docs in files.items():
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            if isinstance(docs, str):
                f.write(docs)
            else:
                f.write("---\n".join(doc(o) for o in docs))
    cfg = f"region: {region}\n"
    if hpa_max: cfg += "hpaMaxReplicas: true\n"
    with open(os.path.join(d, "scenario.yaml"), "w") as f:
        f.write(cfg)

def pools_for(i):
    npools = R.choice([1, 1, 2, 2, 3, 4])
    shapes = R.sample(POOL_SHAPES, npools)
    pools = []
    for j, (name, reqs) in enumerate(shapes):
        weight = R.choice([None, 10, 50, 100]) if npools > 1 else None
        limits = {"cpu": str(R.choice([64, 128, 256, 1000]))} if R.random() < 0.3 else None
        taints = None
        if j > 0 and R.random() < 0.3:
            taints = [{"key": "dedicated", "value": name, "effect": "NoSchedule"}]
        labels = {"team": name} if taints else None
        pools.append(nodepool(name, reqs(), weight, limits, taints, labels=labels))
    if R.random() < 0.15:
        pools.append(gpu_pool())
    return pools

def daemons():
    ds = []
    if R.random() < 0.8:
        ds.append(daemonset("node-exporter", "100m", "128Mi", {"tolerations": [{"operator": "Exists"}]}))
    if R.random() < 0.5:
        ds.append(daemonset("log-agent", "200m", "256Mi"))
    if R.random() < 0.3:
        ds.append(daemonset("csi-node", "50m", "64Mi", {"nodeSelector": {"kubernetes.io/arch": "amd64"}, "tolerations": [{"operator": "Exists"}]}))
    return ds

sizes = [12, 18, 25, 30, 40, 50, 60, 75, 90, 110, 130, 150, 180, 220, 260, 300, 400, 500, 700]
idx = 0
def next_name(shape):
    global idx
    idx += 1
    return f"u{idx:02d}-{shape}"

# 1) plain directories: manifests split by concern
for i in range(22):
    region = REGIONS[i % len(REGIONS)]
    pools = pools_for(i)
    budget = R.choice(sizes)
    objs, extra = workloads_for(pools, budget)
    if any(p["metadata"]["name"] == "gpu" for p in pools): objs.append(gpu_workload())
    files = {"nodepools.yaml": pools, "workloads.yaml": objs + extra}
    ds = daemons()
    if ds: files["daemonsets.yaml"] = ds
    if R.random() < 0.3:
        files["nodeclass.yaml"] = [nodeclass("default", imageFamily=R.choice(["Ubuntu2204", "AzureLinux"]), osDiskSizeGB=R.choice([64, 128]))]
    if R.random() < 0.2:
        # pod overhead through a RuntimeClass
        rc = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "kata"}, "handler": "kata", "overhead": {"podFixed": {"cpu": "250m", "memory": "160Mi"}}}
        for o in objs:
            t = o["spec"].get("template") or o["spec"].get("jobTemplate", {}).get("spec", {}).get("template")
            if t and R.random() < 0.5: t["spec"]["runtimeClassName"] = "kata"
        files["runtimeclass.yaml"] = [rc]
    write(next_name("dir"), files, region, hpa_max=bool(extra) and R.random() < 0.7)

# 2) Helm output: one stream with "# Source:" comments, as `helm template` prints it
for i in range(5):
    region = REGIONS[(i * 3 + 1) % len(REGIONS)]
    pools = pools_for(100 + i)
    objs, extra = workloads_for(pools, R.choice(sizes))
    parts = []
    for o in pools + objs + extra + daemons():
        parts.append(f"# Source: platform/templates/{o['kind'].lower()}-{o['metadata']['name']}.yaml\n" + doc(o))
    write(next_name("helm"), {"rendered.yaml": "---\n" + "---\n".join(parts)}, region)

# 3) Kustomize overlays: a base and an overlay that patches replicas and adds a pool
for i in range(5):
    region = REGIONS[(i * 5 + 2) % len(REGIONS)]
    pools = pools_for(200 + i)
    objs, extra = workloads_for(pools, R.choice(sizes[:12]))
    deps = [o for o in objs if o["kind"] == "Deployment"]
    base = {"base/pools.yaml": pools, "base/apps.yaml": objs + extra}
    ds = daemons()
    if ds: base["base/daemonsets.yaml"] = ds
    res = sorted(os.path.basename(k) for k in base)
    base["base/kustomization.yaml"] = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n" + "".join(f"  - {r}\n" for r in res)
    patches = ""
    for o in deps[:2]:
        patches += f"  - target: {{kind: Deployment, name: {o['metadata']['name']}}}\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: {o['spec']['replicas'] * 2}\n"
    kz = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: shop\nresources:\n  - base\n"
    if patches: kz += "patches:\n" + patches
    base["kustomization.yaml"] = kz
    write(next_name("kustomize"), base, region)
# 4) zone-heavy: most workloads spread over zones, in regions whose zones differ (eastus,
# westus2: sizes missing or regional-only in some zones), where Karpenter's random zone picks
# change what it launches
for i in range(8):
    region = ["eastus", "eastus", "westus2", "eastus", "westus2", "eastus", "eastus", "westus2"][i]
    pools = pools_for(300 + i)
    objs, extra = workloads_for(pools, R.choice(sizes[:14]), zone_p=0.85)
    files = {"nodepools.yaml": pools, "workloads.yaml": objs + extra}
    ds = daemons()
    if ds: files["daemonsets.yaml"] = ds
    write(next_name("zones"), files, region)
print("wrote", idx)
