metadata name = 'Karpenter NodePool'
metadata description = 'Creates or updates a Karpenter NodePool (karpenter.sh/v1) on an AKS cluster with node auto provisioning, through the Bicep Kubernetes extension. The parameter type has exactly the fields of the karpenter_nodepool resource of terraform-provider-karpenter, so the same reviewed YAML (loadYamlContent) feeds Terraform, Bicep and GitOps.'

// The Kubernetes extension is in preview. It reaches the API server from Azure Resource
// Manager with the kubeconfig given here, so it cannot reach private clusters, nor clusters
// whose local accounts are disabled (listClusterAdminCredential is refused and an Entra ID
// kubeconfig needs kubelogin). For those, import nodePoolManifest() and hand the manifest to
// GitOps instead; see README.md.
extension kubernetes with {
  kubeConfig: kubeConfig
  namespace: 'default'
}

@description('Required. The NodePool. Typically `loadYamlContent(\'pools/nodepool-general.yaml\')`, the file the review command checks, or an object of the same shape.')
param nodePool nodePoolType

@description('Required. The cluster\'s kubeconfig, base64-encoded, e.g. `aks.listClusterAdminCredential().kubeconfigs[0].value` (needs local accounts).')
@secure()
param kubeConfig string

// NodePools are cluster-scoped; the extension's namespace setting does not apply to them.
resource pool 'kubernetes:karpenter.sh/NodePool@v1' = {
  metadata: nodePoolManifest(nodePool).metadata
  spec: nodePoolManifest(nodePool).spec
}

@description('Required. The NodePool\'s name.')
output name string = nodePool.metadata.name

@description('Required. The manifest that was applied, for records or a GitOps repository.')
output manifest object = nodePoolManifest(nodePool)

// ============== //
// Functions      //
// ============== //

@export()
@description('The Kubernetes manifest of a NodePool: apiVersion, kind, metadata.name and spec, exactly what this module applies and what Terraform writes. Import it to render manifests for GitOps without the Kubernetes extension.')
func nodePoolManifest(nodePool nodePoolType) object => {
  apiVersion: 'karpenter.sh/v1'
  kind: 'NodePool'
  metadata: {
    name: nodePool.metadata.name
  }
  spec: nodePool.spec
}

// ============== //
// Types          //
// ============== //

// ---- BEGIN GENERATED TYPES: internal/bicepgen from the provider schema; run `go generate ./bicep/...`. Do not edit by hand. ----

@export()
@description('A NodePool (karpenter.sh/v1) with exactly the fields of the karpenter_nodepool resource of terraform-provider-karpenter, in the Kubernetes shape, so that a manifest loaded with loadYamlContent() fits it. Generated from the provider\'s schema; the API server applies the documented defaults and validates the CEL rules.')
type nodePoolType = {
  @description('Optional. The API version, `karpenter.sh/v1`; present when the object comes from a manifest (loadYamlContent).')
  apiVersion: 'karpenter.sh/v1'?

  @description('Optional. The kind, `NodePool`; present when the object comes from a manifest (loadYamlContent).')
  kind: 'NodePool'?

  @description('Required. Object metadata. Only the name is part of the karpenter_nodepool resource; other metadata is not written. Terraform flattens this object away: its fields are top-level attributes of karpenter_nodepool.')
  metadata: {
    @description('Required. Name of the NodePool; it is cluster-scoped and unique in the cluster. A new name is a new object; the Terraform provider replaces the object instead. Terraform: `name`.')
    @minLength(1)
    @maxLength(253)
    name: string
  }

  @description('Required. NodePoolSpec is the top level nodepool specification. Nodepools launch nodes in response to pods that are unschedulable. A single nodepool is capable of managing a diverse set of nodes. Node properties are determined from a combination of nodepool and pod scheduling constraints. Terraform flattens this object away: its fields are top-level attributes of karpenter_nodepool.')
  spec: nodePoolSpecType
}

@export()
@description('The spec of a NodePool (karpenter.sh/v1), as the karpenter_nodepool resource of terraform-provider-karpenter defines it.')
type nodePoolSpecType = {
  @description('Optional. Disruption contains the parameters that relate to Karpenter\'s disruption logic. Defaults to `{"consolidateAfter":"0s"}` as the API server does. Terraform: `disruption`.')
  disruption: {
    @description('Optional. Budgets is a list of Budgets. If there are multiple active budgets, Karpenter uses the most restrictive value. If left undefined, this will default to one budget with a value to 10%. Defaults to `[{"nodes":"10%"}]` as the API server does. Terraform: `disruption.budgets`.')
    @maxLength(50)
    budgets: {
      @description('Optional. Duration determines how long a Budget is active since each Schedule hit. Only minutes and hours are accepted, as cron does not work in seconds. If omitted, the budget is always active. This is required if Schedule is set. This regex has an optional 0s at the end since the duration.String() always adds a 0s at the end. The API server checks its format. Terraform: `disruption.budgets[*].duration`.')
      duration: string?

      @description('Optional. Nodes dictates the maximum number of NodeClaims owned by this NodePool that can be terminating at once. This is calculated by counting nodes that have a deletion timestamp set, or are actively being deleted by Karpenter. This field is required when specifying a budget. This cannot be of type intstr.IntOrString since kubebuilder doesn\'t support pattern checking for int nodes for IntOrString nodes. Ref: https://github.com/kubernetes-sigs/controller-tools/blob/55efe4be40394a288216dab63156b0a64fb82929/pkg/crd/markers/validation.go#L379-L388. Defaults to `10%` as the API server does. The API server checks its format. Terraform: `disruption.budgets[*].nodes`.')
      nodes: string?

      @description('Optional. reasons is a list of disruption methods that this budget applies to. If Reasons is not set, this budget applies to all methods. Otherwise, this will apply to each reason defined. allowed reasons are Underutilized, Empty, and Drifted. Terraform: `disruption.budgets[*].reasons`.')
      @maxLength(50)
      reasons: ('Underutilized' | 'Empty' | 'Drifted')[]?

      @description('Optional. Schedule specifies when a budget begins being active, following the upstream cronjob syntax. If omitted, the budget is always active. Timezones are not supported. This field is required if Duration is set. The API server checks its format. Terraform: `disruption.budgets[*].schedule`.')
      schedule: string?
    }[]?

    @description('Required. ConsolidateAfter is the duration the controller will wait before attempting to terminate nodes that are underutilized. Refer to ConsolidationPolicy for how underutilization is considered. When replicas is set, ConsolidateAfter is simply ignored. The API server checks its format. Terraform: `disruption.consolidate_after`.')
    consolidateAfter: string

    @description('Optional. ConsolidationPolicy describes which nodes Karpenter can disrupt through its consolidation algorithm. This policy defaults to "WhenEmptyOrUnderutilized" if not specified. Valid values: "WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced". When replicas is set, ConsolidationPolicy is simply ignored. Defaults to `WhenEmptyOrUnderutilized` as the API server does. Terraform: `disruption.consolidation_policy`.')
    consolidationPolicy: ('WhenEmpty' | 'WhenEmptyOrUnderutilized' | 'Balanced')?
  }?

  @description('Optional. Limits define a set of bounds for provisioning capacity. Limits other than limits.nodes is not supported when replicas is set. Values are integers or strings (quantities such as `100` or `800Gi`). Terraform: `limits`.')
  limits: {
    #disable-next-line no-explicit-any
    *: any
  }?

  @description('Optional. Replicas is the desired number of nodes for the NodePool. When specified, the NodePool will maintain this fixed number of replicas rather than scaling based on pod demand. When replicas is set: - The following fields are ignored: * disruption.consolidationPolicy * disruption.consolidateAfter - Only limits.nodes is supported; other resource limits (e.g., CPU, memory) must not be specified. - Weight is not supported. Note: This field is alpha. Cannot be set or unset after creation, only changed (the Terraform provider replaces the object instead). Terraform: `replicas`.')
  @minValue(0)
  replicas: int?

  @description('Required. Template contains the template of possibilities for the provisioning logic to launch a NodeClaim with. NodeClaims launched from this NodePool will often be further constrained than the template specifies. Terraform: `template`.')
  template: {
    @description('Optional. Terraform flattens this object away: its fields are attributes of `template`.')
    metadata: {
      @description('Optional. annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations. Terraform: `template.annotations`.')
      annotations: {
        *: string
      }?

      @description('Optional. labels is a map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels. Terraform: `template.labels`.')
      labels: {
        *: string
      }?
    }?

    @description('Required. NodeClaimTemplateSpec describes the desired state of the NodeClaim in the Nodepool NodeClaimTemplateSpec is used in the NodePool\'s NodeClaimTemplate, with the resource requests omitted since users are not able to set resource requests in the NodePool. Terraform flattens this object away: its fields are attributes of `template`.')
    spec: {
      @description('Optional. ExpireAfter is the duration the controller will wait before terminating a node, measured from when the node is created. This is useful to implement features like eventually consistent node upgrade, memory leak protection, and disruption testing. Defaults to `720h` as the API server does. The API server checks its format. Terraform: `template.expire_after`.')
      expireAfter: string?

      @description('Required. NodeClassRef is a reference to an object that defines provider specific configuration. Terraform: `template.node_class_ref`.')
      nodeClassRef: {
        @description('Required. API version of the referent. Immutable: the API server rejects a change (the Terraform provider replaces the object instead). The API server checks its format. Terraform: `template.node_class_ref.group`.')
        group: string

        @description('Required. Kind of the referent; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds". Immutable: the API server rejects a change (the Terraform provider replaces the object instead). Terraform: `template.node_class_ref.kind`.')
        kind: string

        @description('Required. Name of the referent; More info: http://kubernetes.io/docs/user-guide/identifiers#names. Terraform: `template.node_class_ref.name`.')
        name: string
      }

      @description('Required. Requirements are layered with GetLabels and applied to every node. Terraform: `template.requirements`.')
      @maxLength(100)
      requirements: {
        @description('Required. The label key that the selector applies to. The API server checks its format. Terraform: `template.requirements[*].key`.')
        @maxLength(316)
        key: string

        @description('Optional. This field is ALPHA and can be dropped or replaced at any time MinValues is the minimum number of unique values required to define the flexibility of the specific requirement. Terraform: `template.requirements[*].min_values`.')
        @minValue(1)
        @maxValue(50)
        minValues: int?

        @description('Required. Represents a key\'s relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, Lt, Gte, and Lte. Terraform: `template.requirements[*].operator`.')
        operator: ('Gte' | 'Lte' | 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt')

        @description('Optional. An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt, Lt, Gte, or Lte, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch. The API server checks its format. Terraform: `template.requirements[*].values`.')
        values: string[]?
      }[]

      @description('Optional. startupTaints are taints that are applied to nodes upon startup which are expected to be removed automatically within a short period of time, typically by a DaemonSet that tolerates the taint. These are commonly used by daemonsets to allow initialization and enforce startup ordering. StartupTaints are ignored for provisioning purposes in that pods are not required to tolerate a StartupTaint in order to have nodes provisioned for them. Terraform: `template.startup_taints`.')
      startupTaints: {
        @description('Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute. Terraform: `template.startup_taints[*].effect`.')
        effect: ('NoSchedule' | 'PreferNoSchedule' | 'NoExecute')

        @description('Required. The taint key to be applied to a node. The API server checks its format. Terraform: `template.startup_taints[*].key`.')
        @minLength(1)
        key: string

        @description('Optional. TimeAdded represents the time at which the taint was added. Terraform: `template.startup_taints[*].time_added`.')
        timeAdded: string?

        @description('Optional. The taint value corresponding to the taint key. The API server checks its format. Terraform: `template.startup_taints[*].value`.')
        value: string?
      }[]?

      @description('Optional. taints will be applied to the NodeClaim\'s node. Terraform: `template.taints`.')
      taints: {
        @description('Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute. Terraform: `template.taints[*].effect`.')
        effect: ('NoSchedule' | 'PreferNoSchedule' | 'NoExecute')

        @description('Required. The taint key to be applied to a node. The API server checks its format. Terraform: `template.taints[*].key`.')
        @minLength(1)
        key: string

        @description('Optional. TimeAdded represents the time at which the taint was added. Terraform: `template.taints[*].time_added`.')
        timeAdded: string?

        @description('Optional. The taint value corresponding to the taint key. The API server checks its format. Terraform: `template.taints[*].value`.')
        value: string?
      }[]?

      @description('Optional. TerminationGracePeriod is the maximum duration the controller will wait before forcefully deleting the pods on a node, measured from when deletion is first initiated. Warning: this feature takes precedence over a Pod\'s terminationGracePeriodSeconds value, and bypasses any blocked PDBs or the karpenter.sh/do-not-disrupt annotation. This field is intended to be used by cluster administrators to enforce that nodes can be cycled within a given time period. When set, drifted nodes will begin draining even if there are pods blocking eviction. Draining will respect PDBs and the do-not-disrupt annotation until the TGP is reached. Karpenter will preemptively delete pods so their terminationGracePeriodSeconds align with the node\'s terminationGracePeriod. If a pod would be terminated without being granted its full terminationGracePeriodSeconds prior to the node timeout, that pod will be deleted at T = node timeout - pod terminationGracePeriodSeconds. The feature can also be used to allow maximum time limits for long-running jobs which can delay node termination with preStop hooks. If left undefined, the controller will wait indefinitely for pods to be drained. The API server checks its format. Terraform: `template.termination_grace_period`.')
      terminationGracePeriod: string?
    }
  }

  @description('Optional. Weight is the priority given to the nodepool during scheduling. A higher numerical weight indicates that this nodepool will be ordered ahead of other nodepools with lower weights. A nodepool with no weight will be treated as if it is a nodepool with a weight of 0. Weight is not supported when replicas is set. Terraform: `weight`.')
  @minValue(1)
  @maxValue(100)
  weight: int?
}

// ---- END GENERATED TYPES ----
