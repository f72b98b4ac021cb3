# An EC2NodeClass is imported by its name, e.g. the getting-started default class that
# kubectl_manifest or Helm created:
terraform import karpenter_ec2nodeclass.default default
