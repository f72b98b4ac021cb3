# Imported by the AKS cluster's resource ID. Role assignments that already exist for the
# configured network_contributor_scopes are adopted on the next apply, not duplicated.
terraform import karpenter_aks_node_auto_provisioning.this /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod
