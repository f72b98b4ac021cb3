# Nodes in subnets of your own virtual network: one AKSNodeClass per subnet, and the Network
# Contributor grants NAP needs to create node network interfaces there.
# Guide: "Custom VNet and role grants".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "cluster_id" {
  description = "Resource ID of the AKS cluster (Azure CNI, managed identity)."
  type        = string
  default     = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod"
}

variable "node_subnet_ids" {
  description = "Subnets for Karpenter nodes, by purpose (with azurerm: azurerm_subnet.<name>.id)."
  type        = map(string)
  default = {
    general = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet-aks/subnets/nodes-general"
    pci     = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet-aks/subnets/nodes-pci"
  }
}

provider "karpenter" {
  region = "westeurope"
  kubernetes = {
    aks_cluster_id = var.cluster_id
  }
}

# Grants the cluster's managed identity Network Contributor on exactly these subnets (an existing
# identical assignment is adopted, not duplicated) before NAP is switched on, and removes only the
# assignments it created when a subnet is dropped or the resource destroyed.
resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id                 = var.cluster_id
  default_node_pools         = "None" # only the pools below, each in its subnet
  network_contributor_scopes = values(var.node_subnet_ids)
}

resource "karpenter_aksnodeclass" "this" {
  for_each = var.node_subnet_ids

  name           = each.key
  image_family   = "AzureLinux"
  vnet_subnet_id = each.value
  tags           = { subnet = each.key }

  depends_on = [karpenter_aks_node_auto_provisioning.this]
}

resource "karpenter_nodepool" "general" {
  name   = "general"
  weight = 10
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.this["general"].name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] }, # the limits hold three of the largest (KRP119)
    ]
  }
  limits = { cpu = "200", memory = "800Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "5m"
  }
}

# Card-data workloads get their own subnet (and its NSG and route table): only pods that
# tolerate the taint and select the label land here.
resource "karpenter_nodepool" "pci" {
  name = "pci"
  template = {
    labels         = { "example.com/compliance" = "pci" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.this["pci"].name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["17"] }, # four of the largest per round (KRP119)
    ]
    taints = [{ key = "example.com/compliance", value = "pci", effect = "NoSchedule" }]
  }
  limits = { cpu = "64" }
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "10m"
  }
}

output "network_contributor_grants" {
  description = "The role assignment ID for each subnet (known after apply)."
  value       = karpenter_aks_node_auto_provisioning.this.role_assignment_ids
}
