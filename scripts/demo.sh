#!/usr/bin/env bash
# `make demo`: builds the provider, starts a local kube-apiserver + etcd with the AKS Karpenter
# CRDs (no Azure account, no Docker), applies examples/quickstart to it, shows the result, and
# cleans everything up again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=$(mktemp -d)
cluster_pid=""
cleanup() {
  [[ -n "$cluster_pid" ]] && kill "$cluster_pid" 2>/dev/null && wait "$cluster_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "Test binaries (kube-apiserver, etcd; built once from the Go module proxy, 6-9 minutes the first time)"
bins=$(scripts/testbins.sh)
tf=$(scripts/terraform.sh)

step "Starting the local API server with the Karpenter CRDs"
go build -o "$work/localcluster" ./internal/testsupport/testenv/localcluster
KUBEBUILDER_ASSETS="$bins" "$work/localcluster" -write-kubeconfig "$work/kubeconfig" > "$work/cluster.log" 2>&1 &
cluster_pid=$!
for _ in $(seq 1 120); do
  [[ -s "$work/kubeconfig" ]] && break
  kill -0 "$cluster_pid" 2>/dev/null || { cat "$work/cluster.log"; exit 1; }
  sleep 0.5
done
head -1 "$work/cluster.log"

# Use the freshly built provider without a registry.
cat > "$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "karpenter-iac/karpenter" = "$root" }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1
cp -r examples/quickstart "$work/quickstart"
cd "$work/quickstart"
vars=(-var "kubeconfig_path=$work/kubeconfig")

step "terraform plan (offline validation and defaults, no cluster needed until apply)"
"$tf" plan -compact-warnings "${vars[@]}" -out plan.out
step "terraform apply"
"$tf" apply -compact-warnings plan.out
step "Second plan: nothing to change"
"$tf" plan -compact-warnings -detailed-exitcode "${vars[@]}" && echo "No changes, as expected."
step "State and each pool's plan-time analysis"
"$tf" state list
"$tf" output

step "The same checks for a CI or GitOps pipeline: terraform-provider-karpenter review plan.json"
"$tf" show -json plan.out > plan.json
"$root/terraform-provider-karpenter" review --color never plan.json || true

step "What Karpenter would launch for a sample workload (karpenter_provisioning_simulation)"
mkdir -p "$work/simulation"
cp "$root/examples/data-sources/karpenter_provisioning_simulation/data-source.tf" "$work/simulation/"
(cd "$work/simulation" && "$tf" apply -compact-warnings -auto-approve >/dev/null && "$tf" output)
step "terraform destroy"
"$tf" destroy -compact-warnings -auto-approve "${vars[@]}" | tail -n 3
step "Demo finished; the local API server is stopped."
