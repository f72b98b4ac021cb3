# A NodePool is imported by its name, e.g. NAP's own default pool:
terraform import karpenter_nodepool.default default
