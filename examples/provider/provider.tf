terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

# Connect through the Azure API: endpoint and CA from the cluster resource, Entra ID token
# from the azure credentials (no kubelogin binary needed).
provider "karpenter" {
  region = "westeurope"
  kubernetes = {
    aks_cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod"
  }
  azure = {
    use_oidc = true # e.g. GitHub Actions with workload identity federation
  }
}

# Or a kubeconfig file and context.
provider "karpenter" {
  alias  = "kubeconfig"
  region = "westeurope"
  kubernetes = {
    config_path    = "~/.kube/config"
    config_context = "aks-prod"
  }
}
