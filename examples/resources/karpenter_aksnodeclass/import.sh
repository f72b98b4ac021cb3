# An AKSNodeClass is imported by its name, e.g. NAP's own default node class:
terraform import karpenter_aksnodeclass.default default
