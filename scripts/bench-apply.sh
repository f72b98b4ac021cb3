#!/usr/bin/env bash
# Measures terraform apply, refresh and destroy of many NodePools against the local API server
# (kube-apiserver + etcd with the AKS Karpenter CRDs, no Karpenter controller, so deletion has
# no finalizers to wait for) with the real terraform binary and the provider built from this
# tree. POOLS (default 200) NodePools and one AKSNodeClass; PARALLELISM (default 50) is
# terraform's -parallelism; QPS/BURST set kubernetes.qps/burst (unset: the provider's defaults;
# QPS=5 BURST=10 is client-go's own default, what the provider used before it set one).
# CHECKS=false turns the plan-time checks off, to see their share. Prints one line: the
# wall-clock seconds of each phase.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pools=${POOLS:-200}
parallelism=${PARALLELISM:-50}
work=$(mktemp -d)
cluster_pid=""
cleanup() {
  [[ -n "$cluster_pid" ]] && kill "$cluster_pid" 2>/dev/null && wait "$cluster_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
bins=$("$root/scripts/testbins.sh")
tf=$("$root/scripts/terraform.sh")
go build -o "$work/bin/terraform-provider-karpenter" "$root"
go build -o "$work/localcluster" "$root/internal/testsupport/testenv/localcluster"
# A private copy of the binaries: `make test` elsewhere on the machine ends with
# pkill -f "$bins/", which would stop this control plane in the middle of a run.
mkdir -p "$work/testbins" && cp "$bins/kube-apiserver" "$bins/etcd" "$work/testbins/"
KUBEBUILDER_ASSETS="$work/testbins" "$work/localcluster" -write-kubeconfig "$work/kubeconfig" > "$work/cluster.log" 2>&1 &
cluster_pid=$!
for _ in $(seq 1 120); do
  [[ -s "$work/kubeconfig" ]] && break
  kill -0 "$cluster_pid" 2>/dev/null || { cat "$work/cluster.log"; exit 1; }
  sleep 0.5
done
cat > "$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "karpenter-iac/karpenter" = "$work/bin" }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1
limits=""
[[ -n "${QPS:-}" ]] && limits+="    qps = ${QPS}"$'\n'
[[ -n "${BURST:-}" ]] && limits+="    burst = ${BURST}"$'\n'
dir="$work/config"; mkdir -p "$dir"
{
  echo 'terraform {'; echo '  required_providers {'; echo '    karpenter = { source = "karpenter-iac/karpenter" }'; echo '  }'; echo '}'
  echo 'provider "karpenter" {'
  echo '  region = "westeurope"'
  [[ "${CHECKS:-true}" == false ]] && echo '  checks = { enabled = false }'
  echo '  kubernetes = {'
  echo "    config_path = \"$work/kubeconfig\""
  printf '%s' "$limits"
  echo '  }'
  echo '}'
  echo 'resource "karpenter_aksnodeclass" "nc" {'; echo '  name = "default"'; echo '}'
  for i in $(seq 1 "$pools"); do
    cat <<HCL
resource "karpenter_nodepool" "p$i" {
  name   = "pool-$i"
  weight = $((i % 100 + 1))
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc.name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
    ]
  }
  limits = { cpu = "$((i * 10 + 100))" }
}
HCL
  done
} > "$dir/main.tf"
cd "$dir"
run() { # phase, command...
  local phase=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" > "$work/$phase.log" 2>&1 || { echo "$phase failed:"; tail -30 "$work/$phase.log"; exit 1; }
  end=$(date +%s.%N)
  times+="$phase $(printf '%.1f' "$(echo "$end - $start" | bc)")s  "
}
times=""
"$tf" init -input=false > /dev/null 2>&1 || true
run apply "$tf" apply -auto-approve -input=false -parallelism="$parallelism" -compact-warnings
run refresh "$tf" apply -refresh-only -auto-approve -input=false -parallelism="$parallelism" -compact-warnings
run destroy "$tf" destroy -auto-approve -input=false -parallelism="$parallelism" -compact-warnings
echo "$pools NodePools + 1 AKSNodeClass, -parallelism=$parallelism, qps=${QPS:-default} burst=${BURST:-default}, checks ${CHECKS:-true}: $times"
