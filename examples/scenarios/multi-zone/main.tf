# Zone-redundant capacity: a pool that may launch in all three availability zones, so that
# Karpenter can follow pods' topology spread constraints and survive a zone outage, and a pool
# pinned to one zone on purpose. Guide: "Multi-zone pools".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "region" {
  description = "The cluster's region; AKS names its zones <region>-1, -2 and -3."
  type        = string
  default     = "westeurope"
}

provider "karpenter" {
  region = var.region # zone checks (KRP111) need the region
}

locals {
  zones = [for z in [1, 2, 3] : "${var.region}-${z}"]
}

resource "karpenter_aksnodeclass" "general" {
  name         = "general"
  image_family = "AzureLinux"
}

# Spread: Karpenter launches nodes in the zones pending pods need. Pods spread themselves with
#   topologySpreadConstraints: [{ topologyKey: topology.kubernetes.io/zone, maxSkew: 1, ... }]
resource "karpenter_nodepool" "zonal" {
  name   = "zonal"
  weight = 10
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = [
      { key = "topology.kubernetes.io/zone", operator = "In", values = local.zones },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["49"] }, # a NodeClaim per zone in one round (KRP119)
    ]
  }
  limits = { cpu = "300", memory = "1200Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "5m"
  }
}

# Pinned: a database whose zonal Premium SSD v2 disks live in zone 1 must run there. The
# single-zone warning is expected, so the pool silences it (it stays in analysis.findings); so
# is KRP119: its 64 vCPU hold one E64 node, and a database's few large pods can wait a round.
resource "karpenter_nodepool" "db_zone1" {
  name = "db-zone1"
  template = {
    labels         = { workload = "db" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = [
      { key = "topology.kubernetes.io/zone", operator = "In", values = [local.zones[0]] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["E"] },
    ]
    taints = [{ key = "workload", value = "db", effect = "NoSchedule" }]
  }
  limits = { cpu = "64" }
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "30m"
  }
  checks = {
    suppress = ["KRP111", "KRP119"]
  }
}

output "db_zone1_findings" {
  description = "Suppressed findings are still recorded."
  value       = [for f in karpenter_nodepool.db_zone1.analysis.findings : "${f.code} (${f.severity}): ${f.message}"]
}
