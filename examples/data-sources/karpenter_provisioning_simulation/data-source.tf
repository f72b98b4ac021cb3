# What would Karpenter launch for 40 web pods and 4 batch pods across two pools, and how far is
# that from the cheapest possible packing of the same pods?
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
          requirements = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] }]
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
          requirements = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["F"] }]
          taints       = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]
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
  value = format("Karpenter: %d nodes, $%.2f/month; optimum: %d nodes, $%.2f/month (lower bound $%.4f/h); this design costs $%.4f/h more",
    data.karpenter_provisioning_simulation.peak.node_count, data.karpenter_provisioning_simulation.peak.monthly_cost,
    data.karpenter_provisioning_simulation.peak.optimal.node_count, data.karpenter_provisioning_simulation.peak.optimal.monthly_cost,
  data.karpenter_provisioning_simulation.peak.lower_bound, data.karpenter_provisioning_simulation.peak.design_cost)
}
