#!/usr/bin/env bash
# Measures what the plan-time provisioning checks add to `terraform plan`: the same
# configuration of 50 NodePools (one AKSNodeClass) is planned with checks enabled and disabled,
# alternately, and the medians of the wall and CPU times and their ratios are printed.
# Offline: no cluster is contacted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pools=${POOLS:-50}
runs=${RUNS:-5}
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
families=(D E F)
for mode in on off; do
  dir="$work/$mode"; mkdir -p "$dir"
  enabled=$([[ $mode == on ]] && echo true || echo false)
  {
    echo 'terraform {'; echo '  required_providers {'; echo '    karpenter = { source = "karpenter-iac/karpenter" }'; echo '  }'; echo '}'
    echo "provider \"karpenter\" {"; echo "  region = \"westeurope\""; echo "  checks = { enabled = $enabled }"; echo "}"
    echo 'resource "karpenter_aksnodeclass" "nc" {'; echo '  name = "default"'; echo '  image_family = "AzureLinux"'; echo '}'
    for i in $(seq 1 "$pools"); do
      f=${families[$((i % ${#families[@]}))]}
      cat <<HCL
resource "karpenter_nodepool" "p$i" {
  name   = "pool-$i"
  weight = $((i % 100 + 1))
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc.name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["$f"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["$((i % 24 + 9))"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
    ]
  }
  limits     = { cpu = "$((i * 10 + 100))" }
  disruption = { consolidate_after = "1m" }
}
HCL
    done
  } > "$dir/main.tf"
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Wall time, and the CPU time (user + system) of terraform and every process it waited for,
# the provider included: on a shared machine the CPU time is what other load inflates least.
declare -A times cpus
for r in $(seq 1 "$runs"); do
  for mode in on off; do
    (cd "$work/$mode" && /usr/bin/time -f '%e %U %S' -o "$work/time" "$tf" plan -refresh=false -input=false -no-color >"$work/out" 2>&1) ||
      { echo "plan failed ($mode)"; tail -30 "$work/out"; exit 1; }
    read -r secs user sys < "$work/time"
    times[$mode]+="$secs "; cpus[$mode]+="$(echo "$user + $sys" | bc) "
  done
done
m() { echo "$1" | tr ' ' '\n' | grep . | median; }
on=$(m "${times[on]}"); off=$(m "${times[off]}")
con=$(m "${cpus[on]}"); coff=$(m "${cpus[off]}")
printf 'terraform plan of %d NodePools, median of %d runs: checks on %.2fs, checks off %.2fs, added %.2fs, ratio %.2f\n' \
  "$pools" "$runs" "$on" "$off" "$(echo "$on - $off" | bc)" "$(echo "$on / $off" | bc -l)"
printf 'CPU time (terraform and provider, user + system), median: checks on %.2fs, checks off %.2fs, ratio %.2f; load average %s\n' \
  "$con" "$coff" "$(echo "$con / $coff" | bc -l)" "$(cut -d' ' -f1-3 /proc/loadavg)"
