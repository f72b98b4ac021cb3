#!/usr/bin/env bash
# Measures `terraform plan` of a fleet: CLUSTERS clusters (default 50) × POOLS NodePools (default
# 5), one provider block, one node class per cluster and one for_each over clusters × pools,
# each resource naming its cluster (and its region, cycling over five) in the cluster attribute.
# Planned with the plan-time checks enabled and disabled, alternately, RUNS times (default 3);
# prints the median wall time and the peak resident memory of terraform and the provider (the
# larger of the two, as /usr/bin/time reports for a process and the children it waited for),
# the median CPU time (user + system, terraform and the provider together) and both ratios.
# Offline: no cluster and no Azure API is contacted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clusters=${CLUSTERS:-50}
pools=${POOLS:-5}
runs=${RUNS:-3}
tf=$("$root/scripts/terraform.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bin/terraform-provider-karpenter" "$root"
cat > "$work/terraformrc" <<RC
provider_installation {
  dev_overrides { "karpenter-iac/karpenter" = "$work/bin" }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1
regions=(westeurope northeurope eastus westus2 swedencentral)
families=(D E F)
for mode in on off; do
  dir="$work/$mode"; mkdir -p "$dir"
  enabled=$([[ $mode == on ]] && echo true || echo false)
  {
    echo 'terraform {'; echo '  required_providers {'; echo '    karpenter = { source = "karpenter-iac/karpenter" }'; echo '  }'; echo '}'
    echo "provider \"karpenter\" {"; echo "  checks = { enabled = $enabled }"; echo "}"
    echo 'locals {'; echo '  clusters = {'
    for c in $(seq 1 "$clusters"); do
      echo "    c$c = { id = \"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-$c/providers/Microsoft.ContainerService/managedClusters/aks-$c\", region = \"${regions[$((c % ${#regions[@]}))]}\" }"
    done
    echo '  }'; echo '  pools = {'
    for p in $(seq 1 "$pools"); do
      echo "    p$p = { family = \"${families[$((p % ${#families[@]}))]}\", cpu = $((p % 24 + 9)), weight = $p }"
    done
    echo '  }'
    echo '  fleet = { for x in setproduct(keys(local.clusters), keys(local.pools)) : "${x[0]}/${x[1]}" => { cluster = x[0], pool = x[1] } }'
    echo '}'
    cat <<'HCL'
resource "karpenter_aksnodeclass" "nc" {
  for_each     = local.clusters
  name         = "standard"
  image_family = "AzureLinux"
  cluster      = { aks_cluster_id = each.value.id, region = each.value.region, name = each.key }
}

resource "karpenter_nodepool" "p" {
  for_each = local.fleet
  name     = each.value.pool
  cluster  = { aks_cluster_id = local.clusters[each.value.cluster].id, region = local.clusters[each.value.cluster].region, name = each.value.cluster }
  weight   = local.pools[each.value.pool].weight
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc[each.value.cluster].name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = [local.pools[each.value.pool].family] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = [tostring(local.pools[each.value.pool].cpu)] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
    ]
  }
  limits     = { cpu = "200" }
  disruption = { consolidate_after = "1m" }
}
HCL
  } > "$dir/main.tf"
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A times mems cpus
for r in $(seq 1 "$runs"); do
  for mode in on off; do
    (cd "$work/$mode" && /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$tf" plan -refresh=false -input=false -no-color >"$work/out" 2>&1) ||
      { echo "plan failed ($mode)"; tail -30 "$work/out"; exit 1; }
    read -r secs kb user sys < "$work/time"
    times[$mode]+="$secs "; mems[$mode]+="$kb "; cpus[$mode]+="$(echo "$user + $sys" | bc) "
  done
done
grep -q "Plan: $((clusters * pools + clusters)) to add" "$work/out" || { echo "unexpected plan:"; grep Plan: "$work/out"; exit 1; }
m() { echo "$1" | tr ' ' '\n' | grep . | median; }
on=$(m "${times[on]}"); off=$(m "${times[off]}"); con=$(m "${cpus[on]}"); coff=$(m "${cpus[off]}")
printf 'terraform plan of %d clusters x %d NodePools (+%d node classes), median of %d runs: checks on %.2fs (peak RSS %d MiB), checks off %.2fs (peak RSS %d MiB), ratio %.2f\n' \
  "$clusters" "$pools" "$clusters" "$runs" "$on" "$(( $(m "${mems[on]}") / 1024 ))" "$off" "$(( $(m "${mems[off]}") / 1024 ))" "$(echo "$on / $off" | bc -l)"
printf 'CPU time (terraform and provider, user + system), median: checks on %.2fs, checks off %.2fs, ratio %.2f; load average %s\n' \
  "$con" "$coff" "$(echo "$con / $coff" | bc -l)" "$(cut -d' ' -f1-3 /proc/loadavg)"
