# What would Karpenter launch for 40 web pods and 4 batch pods across two pools, and how far is
# that from the cheapest possible packing of the same pods?

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

data "karpenter_provisioning_simulation" "peak" {
  region             = "westeurope"
  mode               = "both"          # Karpenter's decision (top level) and the optimum (under optimal)
  lower_bound_method = "configuration" # the tighter bound; this input has few pod shapes
  nodepools = [
    yamlencode({
      apiVersion = "karpenter.sh/v1"
      kind       = "NodePool"
      metadata   = { name = "general" }
      spec = {
        weight = 10
        template = { spec = {
          nodeClassRef = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
          requirements = [
            { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
            # Sizes up to 32 vCPU: Karpenter charges each new NodeClaim against the limits with
            # the largest size it may become, so cpu = 200 over 192-vCPU sizes would let one
            # provisioning round open a single NodeClaim (KRP119).
            { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },
          ]
        } }
        limits = { cpu = "200" }
      }
    }),
    yamlencode({
      apiVersion = "karpenter.sh/v1"
      kind       = "NodePool"
      metadata   = { name = "batch" }
      spec = {
        template = { spec = {
          nodeClassRef = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
          requirements = [
            { key = "karpenter.azure.com/sku-family", operator = "In", values = ["F"] },
            { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["17"] },
          ]
          taints = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]
        } }
        limits = { cpu = "64" }
      }
    }),
  ]
  workloads = [
    { name = "web", count = 40, requests = { cpu = "500m", memory = "1Gi" }, zone_spread_max_skew = 1 },
    { name = "batch", count = 4, requests = { cpu = "4", memory = "8Gi" }, tolerations = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }] },
  ]
}

output "peak_cost" {
  value = format("Karpenter: %d node%s, %s %.2f/month, %d of 44 pods placed; optimum: %d node%s, %s %.2f/month, %d placed (no packing below %s %.2f/month)%s",
    local.sim.node_count, local.sim.node_count == 1 ? "" : "s", local.sim.currency, local.sim.monthly_cost, local.sim.scheduled_pods,
    local.sim.optimal.node_count, local.sim.optimal.node_count == 1 ? "" : "s", local.sim.currency, local.sim.optimal.monthly_cost, local.sim.optimal.scheduled_pods,
    local.sim.currency, local.sim.lower_bound * 730,
    # The two costs compare only when both place the same pods: Karpenter may leave pods pending
    # in a round (its limits reservation) that the optimum places.
  local.sim.scheduled_pods == local.sim.optimal.scheduled_pods ? format("; this NodePool design costs %s %.2f/month more", local.sim.currency, local.sim.design_cost * 730) : "; the costs are of different pod sets")
}

locals {
  sim = data.karpenter_provisioning_simulation.peak
}
