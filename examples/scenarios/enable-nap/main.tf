# Enable AKS Node Auto Provisioning (NAP) on an existing cluster and add a pool of your own next
# to the `default` and `system-surge` pools NAP creates. Guide: "Enabling NAP on an existing cluster".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "cluster_id" {
  description = "Resource ID of the existing AKS cluster, e.g. data.azurerm_kubernetes_cluster.main.id."
  type        = string
  default     = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod"
}

variable "region" {
  description = "The cluster's Azure region: the plan-time checks use its VM sizes and prices."
  type        = string
  default     = "westeurope"
}

provider "karpenter" {
  region = var.region
  kubernetes = {
    # Endpoint and CA through the Azure API, Entra ID token from the azure credentials
    # (ARM_* variables or `az login`); no kubeconfig, no kubelogin.
    aks_cluster_id = var.cluster_id
  }
}

# Checks NAP's prerequisites against the live cluster, switches it to mode Auto (an AKS cluster
# update of 5-20 minutes), and waits until the Karpenter CRDs are Established.
resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id         = var.cluster_id
  mode               = "Auto"
  default_node_pools = "Auto" # keep NAP's `default` and `system-surge` pools

  timeouts = {
    create = "45m"
  }
}

resource "karpenter_aksnodeclass" "general" {
  name            = "general"
  image_family    = "AzureLinux"
  os_disk_size_gb = 128

  depends_on = [karpenter_aks_node_auto_provisioning.this]
}

# Preferred over NAP's `default` pool (weight 0) for every pod both can take.
resource "karpenter_nodepool" "general" {
  name   = "general"
  weight = 50
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
    ]
  }
  limits = { cpu = "200", memory = "800Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "5m"
    budgets              = [{ nodes = "10%" }]
  }

  depends_on = [karpenter_aks_node_auto_provisioning.this]
}

output "node_provisioning" {
  description = "What AKS reports after the apply."
  value = {
    mode               = karpenter_aks_node_auto_provisioning.this.effective_mode
    kubernetes_version = karpenter_aks_node_auto_provisioning.this.kubernetes_version
    crds_established   = karpenter_aks_node_auto_provisioning.this.crds_established
  }
}

output "general_pool" {
  description = "What the plan-time checks found for the pool."
  value = {
    admissible_sizes = karpenter_nodepool.general.analysis.admissible_skus
    cheapest         = karpenter_nodepool.general.analysis.cheapest_sku
    monthly_at_limit = karpenter_nodepool.general.analysis.monthly_cost_at_limits
  }
}
