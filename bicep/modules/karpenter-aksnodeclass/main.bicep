metadata name = 'Karpenter AKSNodeClass'
metadata description = 'Creates or updates a Karpenter AKSNodeClass (karpenter.azure.com/v1beta1), the Azure node settings NodePools reference, through the Bicep Kubernetes extension. The parameter type has exactly the fields of the karpenter_aksnodeclass resource of terraform-provider-karpenter, so the same reviewed YAML (loadYamlContent) feeds Terraform, Bicep and GitOps.'

// The Kubernetes extension is in preview. It reaches the API server from Azure Resource
// Manager with the kubeconfig given here, so it cannot reach private clusters, nor clusters
// whose local accounts are disabled (listClusterAdminCredential is refused and an Entra ID
// kubeconfig needs kubelogin). For those, import aksNodeClassManifest() and hand the manifest
// to GitOps instead; see README.md.
extension kubernetes with {
  kubeConfig: kubeConfig
  namespace: 'default'
}

@description('Required. The AKSNodeClass. Typically `loadYamlContent(\'pools/nodeclass-general.yaml\')`, the file the review command checks, or an object of the same shape.')
param aksNodeClass aksNodeClassType

@description('Required. The cluster\'s kubeconfig, base64-encoded, e.g. `aks.listClusterAdminCredential().kubeconfigs[0].value` (needs local accounts).')
@secure()
param kubeConfig string

// AKSNodeClasses are cluster-scoped; the extension's namespace setting does not apply to them.
resource nodeClass 'kubernetes:karpenter.azure.com/AKSNodeClass@v1beta1' = {
  metadata: aksNodeClassManifest(aksNodeClass).metadata
  spec: aksNodeClassManifest(aksNodeClass).spec
}

@description('Required. The AKSNodeClass\'s name, for the nodeClassRef of NodePools.')
output name string = aksNodeClass.metadata.name

@description('Required. The manifest that was applied, for records or a GitOps repository.')
output manifest object = aksNodeClassManifest(aksNodeClass)

// ============== //
// Functions      //
// ============== //

@export()
@description('The Kubernetes manifest of an AKSNodeClass: apiVersion, kind, metadata.name and spec, exactly what this module applies and what Terraform writes. Import it to render manifests for GitOps without the Kubernetes extension.')
func aksNodeClassManifest(aksNodeClass aksNodeClassType) object => {
  apiVersion: 'karpenter.azure.com/v1beta1'
  kind: 'AKSNodeClass'
  metadata: {
    name: aksNodeClass.metadata.name
  }
  spec: aksNodeClass.?spec ?? {}
}

// ============== //
// Types          //
// ============== //

// ---- BEGIN GENERATED TYPES: internal/bicepgen from the provider schema; run `go generate ./bicep/...`. Do not edit by hand. ----

@export()
@description('An AKSNodeClass (karpenter.azure.com/v1beta1) with exactly the fields of the karpenter_aksnodeclass resource of terraform-provider-karpenter, in the Kubernetes shape, so that a manifest loaded with loadYamlContent() fits it. Generated from the provider\'s schema; the API server applies the documented defaults and validates the CEL rules.')
type aksNodeClassType = {
  @description('Optional. The API version, `karpenter.azure.com/v1beta1`; present when the object comes from a manifest (loadYamlContent).')
  apiVersion: 'karpenter.azure.com/v1beta1'?

  @description('Optional. The kind, `AKSNodeClass`; present when the object comes from a manifest (loadYamlContent).')
  kind: 'AKSNodeClass'?

  @description('Required. Object metadata. Only the name is part of the karpenter_aksnodeclass resource; other metadata is not written. Terraform flattens this object away: its fields are top-level attributes of karpenter_aksnodeclass.')
  metadata: {
    @description('Required. Name of the AKSNodeClass; it is cluster-scoped and unique in the cluster. A new name is a new object; the Terraform provider replaces the object instead. Terraform: `name`.')
    @minLength(1)
    @maxLength(253)
    name: string
  }

  @description('Optional. spec is the top level specification for the AKS Karpenter Provider. This will contain configuration necessary to launch instances in AKS. Terraform flattens this object away: its fields are top-level attributes of karpenter_aksnodeclass.')
  spec: aksNodeClassSpecType?
}

@export()
@description('The spec of an AKSNodeClass (karpenter.azure.com/v1beta1), as the karpenter_aksnodeclass resource of terraform-provider-karpenter defines it.')
type aksNodeClassSpecType = {
  @description('Optional. artifactStreaming configures artifact streaming for provisioned nodes. Artifact streaming allows container images to be streamed on demand to nodes rather than fully downloaded before starting. Terraform: `artifact_streaming`.')
  artifactStreaming: {
    @description('Optional. enabled controls the artifact streaming mode. Artifact streaming speeds up the cold-start of containers on a node through on-demand image loading. To use this feature, container images must also enable artifact streaming on ACR. If not specified, defaults to false. Terraform: `artifact_streaming.enabled`.')
    enabled: bool?
  }?

  @description('Optional. fipsMode controls FIPS compliance for the provisioned nodes. Terraform: `fips_mode`.')
  fipsMode: ('FIPS' | 'Disabled')?

  @description('Optional. gpu contains configuration for GPU-enabled nodes. Terraform: `gpu`.')
  gpu: {
    @description('Optional. mode controls GPU driver management on GPU-enabled nodes. When set to Driver (or not specified), GPU drivers are installed by AKS and only GPU SKUs with managed driver installation support are considered for scheduling. Currently, only NVIDIA GPUs support managed driver installation. When set to None, GPU driver installation is skipped — use this when managing GPU drivers via a GPU Operator or other external mechanism. All GPU SKUs are available for scheduling in this mode. This field is ignored for non-GPU VM sizes. Defaults to `Driver` as the API server does. Terraform: `gpu.mode`.')
    mode: ('Driver' | 'None')?
  }?

  @description('Optional. imageFamily is the image family that instances use. Defaults to `Ubuntu` as the API server does. Terraform: `image_family`.')
  imageFamily: ('Ubuntu' | 'Ubuntu2204' | 'Ubuntu2404' | 'AzureLinux')?

  @description('Optional. kubelet defines args to be used when configuring kubelet on provisioned nodes. They are a subset of the upstream types, recognizing not all options may be supported. Wherever possible, the types and names should reflect the upstream kubelet types. Terraform: `kubelet`.')
  kubelet: {
    @description('Optional. allowedUnsafeSysctls is a comma separated whitelist of unsafe sysctls or sysctl patterns (ending in `*`). Unsafe sysctl groups are `kernel.shm*`, `kernel.msg*`, `kernel.sem`, `fs.mqueue.*`, and `net.*`. For example: "`kernel.msg*,net.ipv4.route.min_pmtu`". Terraform: `kubelet.allowed_unsafe_sysctls`.')
    allowedUnsafeSysctls: string[]?

    @description('Optional. containerLogMaxFiles specifies the maximum number of container log files that can be present for a container. Defaults to `5` as the API server does. Terraform: `kubelet.container_log_max_files`.')
    @minValue(2)
    containerLogMaxFiles: int?

    @description('Optional. containerLogMaxSize is a quantity defining the maximum size of the container log file before it is rotated. For example: "5Mi" or "256Ki". AKS CustomKubeletConfig has containerLogMaxSizeMB (with units), defaults to 50. Defaults to `50Mi` as the API server does. The API server checks its format. Terraform: `kubelet.container_log_max_size`.')
    containerLogMaxSize: string?

    @description('Optional. cpuCFSQuota enables CPU CFS quota enforcement for containers that specify CPU limits. Note: AKS CustomKubeletConfig uses cpuCfsQuota (camelCase). Defaults to `true` as the API server does. Terraform: `kubelet.cpu_cfs_quota`.')
    cpuCFSQuota: bool?

    @description('Optional. cpuCFSQuotaPeriod sets the CPU CFS quota period value, `cpu.cfs_period_us`. The value must be between 1 ms and 1 second, inclusive. Defaults to `100ms` as the API server does. Terraform: `kubelet.cpu_cfs_quota_period`.')
    cpuCFSQuotaPeriod: string?

    @description('Optional. cpuManagerPolicy is the name of the policy to use. Defaults to `none` as the API server does. Terraform: `kubelet.cpu_manager_policy`.')
    cpuManagerPolicy: ('none' | 'static')?

    @description('Optional. failSwapOn tells the kubelet to fail to start if swap is enabled on the node. Must be set to false to allow linuxOSConfig.swapFileSize to take effect. Terraform: `kubelet.fail_swap_on`.')
    failSwapOn: bool?

    @description('Optional. imageGCHighThresholdPercent is the percent of disk usage after which image garbage collection is always run. The percent is calculated by dividing this field value by 100, so this field must be between 0 and 100, inclusive. When specified, the value must be greater than ImageGCLowThresholdPercent. Note: AKS CustomKubeletConfig does not have "Percent" in the field name. Terraform: `kubelet.image_gc_high_threshold_percent`.')
    @minValue(0)
    @maxValue(100)
    imageGCHighThresholdPercent: int?

    @description('Optional. imageGCLowThresholdPercent is the percent of disk usage before which image garbage collection is never run. Lowest disk usage to garbage collect to. The percent is calculated by dividing this field value by 100, so the field value must be between 0 and 100, inclusive. When specified, the value must be less than imageGCHighThresholdPercent Note: AKS CustomKubeletConfig does not have "Percent" in the field name. Terraform: `kubelet.image_gc_low_threshold_percent`.')
    @minValue(0)
    @maxValue(100)
    imageGCLowThresholdPercent: int?

    @description('Optional. podPidsLimit is the maximum number of PIDs in any pod. AKS CustomKubeletConfig uses PodMaxPids, int32 (!) Default: -1. Terraform: `kubelet.pod_pids_limit`.')
    podPidsLimit: int?

    @description('Optional. topologyManagerPolicy is the name of the topology manager policy to use. Valid values include: - `restricted`: kubelet only allows pods with optimal NUMA node alignment for requested resources; - `best-effort`: kubelet will favor pods with NUMA alignment of CPU and device resources; - `none`: kubelet has no knowledge of NUMA alignment of a pod\'s CPU and device resources. - `single-numa-node`: kubelet only allows pods with a single NUMA alignment of CPU and device resources. Defaults to `none` as the API server does. Terraform: `kubelet.topology_manager_policy`.')
    topologyManagerPolicy: ('restricted' | 'best-effort' | 'none' | 'single-numa-node')?
  }?

  @description('Optional. linuxOSConfig specifies OS settings for Linux agent nodes. These map to the AKS Custom Linux OS Configuration feature. For more information, see: https://learn.microsoft.com/en-us/azure/aks/custom-node-configuration. Terraform: `linux_os_config`.')
  linuxOSConfig: {
    @description('Optional. swapFileSize specifies the size of a swap file that will be created on each node. For example: "1500Mi" or "2Gi". The value will be rounded to the nearest megabyte due to system limitations. The API server checks its format. Terraform: `linux_os_config.swap_file_size`.')
    swapFileSize: string?

    @description('Optional. sysctls specifies sysctl settings for Linux agent nodes. Terraform: `linux_os_config.sysctls`.')
    sysctls: {
      @description('Optional. fsAioMaxNr specifies the maximum number of AIO (Asynchronous I/O) requests. Maps to fs.aio-max-nr. Terraform: `linux_os_config.sysctls.fs_aio_max_nr`.')
      @minValue(65536)
      @maxValue(6553500)
      fsAioMaxNr: int?

      @description('Optional. fsFileMax specifies the maximum number of file handles the kernel will allocate. Maps to fs.file-max. Terraform: `linux_os_config.sysctls.fs_file_max`.')
      @minValue(8192)
      @maxValue(12000500)
      fsFileMax: int?

      @description('Optional. fsInotifyMaxUserWatches specifies the maximum number of inotify watches per user. Maps to fs.inotify.max_user_watches. Terraform: `linux_os_config.sysctls.fs_inotify_max_user_watches`.')
      @minValue(781250)
      @maxValue(2097152)
      fsInotifyMaxUserWatches: int?

      @description('Optional. fsNrOpen specifies the maximum number of file handles that can be allocated. Maps to fs.nr_open. Terraform: `linux_os_config.sysctls.fs_nr_open`.')
      @minValue(8192)
      @maxValue(20000500)
      fsNrOpen: int?

      @description('Optional. kernelThreadsMax specifies the maximum number of threads that can be created. Maps to kernel.threads-max. Terraform: `linux_os_config.sysctls.kernel_threads_max`.')
      @minValue(20)
      @maxValue(513785)
      kernelThreadsMax: int?

      @description('Optional. netCoreNetdevMaxBacklog specifies the maximum number of packets queued on the INPUT side. Maps to net.core.netdev_max_backlog. Terraform: `linux_os_config.sysctls.net_core_netdev_max_backlog`.')
      @minValue(1000)
      @maxValue(3240000)
      netCoreNetdevMaxBacklog: int?

      @description('Optional. netCoreOptmemMax specifies the maximum ancillary buffer size (option memory buffer) allowed per socket. Maps to net.core.optmem_max. Terraform: `linux_os_config.sysctls.net_core_optmem_max`.')
      @minValue(20480)
      @maxValue(4194304)
      netCoreOptmemMax: int?

      @description('Optional. netCoreRmemDefault specifies the default receive socket buffer size in bytes. Maps to net.core.rmem_default. Terraform: `linux_os_config.sysctls.net_core_rmem_default`.')
      @minValue(212992)
      @maxValue(134217728)
      netCoreRmemDefault: int?

      @description('Optional. netCoreRmemMax specifies the maximum receive socket buffer size in bytes. Maps to net.core.rmem_max. Terraform: `linux_os_config.sysctls.net_core_rmem_max`.')
      @minValue(212992)
      @maxValue(134217728)
      netCoreRmemMax: int?

      @description('Optional. netCoreSomaxconn specifies the maximum number of connection requests that can be queued for any given listening socket. Maps to net.core.somaxconn. Terraform: `linux_os_config.sysctls.net_core_somaxconn`.')
      @minValue(4096)
      @maxValue(3240000)
      netCoreSomaxconn: int?

      @description('Optional. netCoreWmemDefault specifies the default send socket buffer size in bytes. Maps to net.core.wmem_default. Terraform: `linux_os_config.sysctls.net_core_wmem_default`.')
      @minValue(212992)
      @maxValue(134217728)
      netCoreWmemDefault: int?

      @description('Optional. netCoreWmemMax specifies the maximum send socket buffer size in bytes. Maps to net.core.wmem_max. Terraform: `linux_os_config.sysctls.net_core_wmem_max`.')
      @minValue(212992)
      @maxValue(134217728)
      netCoreWmemMax: int?

      @description('Optional. netIPv4IPLocalPortRange specifies the local port range that is used by TCP and UDP traffic. Must be in the format "first last", where first is in the range 1024-60999 and last is in the range 32768-65535. Maps to net.ipv4.ip_local_port_range. The API server checks its format. Terraform: `linux_os_config.sysctls.net_ipv4_ip_local_port_range`.')
      netIPv4IPLocalPortRange: string?

      @description('Optional. netIPv4NeighDefaultGcThresh1 specifies the minimum number of entries that may be in the ARP cache. Maps to net.ipv4.neigh.default.gc_thresh1. Terraform: `linux_os_config.sysctls.net_ipv4_neigh_default_gc_thresh1`.')
      @minValue(128)
      @maxValue(80000)
      netIPv4NeighDefaultGcThresh1: int?

      @description('Optional. netIPv4NeighDefaultGcThresh2 specifies the soft maximum number of entries that may be in the ARP cache. Maps to net.ipv4.neigh.default.gc_thresh2. Terraform: `linux_os_config.sysctls.net_ipv4_neigh_default_gc_thresh2`.')
      @minValue(512)
      @maxValue(90000)
      netIPv4NeighDefaultGcThresh2: int?

      @description('Optional. netIPv4NeighDefaultGcThresh3 specifies the hard maximum number of entries in the ARP cache. Maps to net.ipv4.neigh.default.gc_thresh3. Terraform: `linux_os_config.sysctls.net_ipv4_neigh_default_gc_thresh3`.')
      @minValue(1024)
      @maxValue(100000)
      netIPv4NeighDefaultGcThresh3: int?

      @description('Optional. netIPv4TCPFinTimeout specifies the length of time an orphaned connection will remain in the FIN_WAIT_2 state before being aborted. Maps to net.ipv4.tcp_fin_timeout. Terraform: `linux_os_config.sysctls.net_ipv4_tcp_fin_timeout`.')
      @minValue(5)
      @maxValue(120)
      netIPv4TCPFinTimeout: int?

      @description('Optional. netIPv4TCPKeepaliveIntvl specifies the frequency of the probes sent out. Measured in seconds. Maps to net.ipv4.tcp_keepalive_intvl. Terraform: `linux_os_config.sysctls.net_ipv4_tcp_keepalive_intvl`.')
      @minValue(10)
      @maxValue(90)
      netIPv4TCPKeepaliveIntvl: int?

      @description('Optional. netIPv4TCPKeepaliveProbes specifies the number of keepalive probes TCP sends out until it decides a connection is broken. Maps to net.ipv4.tcp_keepalive_probes. Terraform: `linux_os_config.sysctls.net_ipv4_tcp_keepalive_probes`.')
      @minValue(1)
      @maxValue(15)
      netIPv4TCPKeepaliveProbes: int?

      @description('Optional. netIPv4TCPKeepaliveTime specifies the rate at which TCP sends keepalive probes. Measured in seconds. Maps to net.ipv4.tcp_keepalive_time. Terraform: `linux_os_config.sysctls.net_ipv4_tcp_keepalive_time`.')
      @minValue(30)
      @maxValue(432000)
      netIPv4TCPKeepaliveTime: int?

      @description('Optional. netIPv4TCPMaxSynBacklog specifies the maximum number of queued connection requests that have still not received an acknowledgment from the connecting client. If this number is exceeded, the kernel will begin dropping requests. Maps to net.ipv4.tcp_max_syn_backlog. Terraform: `linux_os_config.sysctls.net_ipv4_tcp_max_syn_backlog`.')
      @minValue(128)
      @maxValue(3240000)
      netIPv4TCPMaxSynBacklog: int?

      @description('Optional. netIPv4TCPMaxTwBuckets specifies the maximum number of sockets in TIME_WAIT state. Maps to net.ipv4.tcp_max_tw_buckets. Terraform: `linux_os_config.sysctls.net_ipv4_tcp_max_tw_buckets`.')
      @minValue(8000)
      @maxValue(1440000)
      netIPv4TCPMaxTwBuckets: int?

      @description('Optional. netIPv4TCPTwReuse enables/disables reuse of TIME_WAIT sockets for new connections. Maps to net.ipv4.tcp_tw_reuse. Terraform: `linux_os_config.sysctls.net_ipv4_tcp_tw_reuse`.')
      netIPv4TCPTwReuse: bool?

      @description('Optional. netNetfilterNfConntrackBuckets specifies the size of the hash table used by nf_conntrack module. Maps to net.netfilter.nf_conntrack_buckets. Terraform: `linux_os_config.sysctls.net_netfilter_nf_conntrack_buckets`.')
      @minValue(65536)
      @maxValue(524288)
      netNetfilterNfConntrackBuckets: int?

      @description('Optional. netNetfilterNfConntrackMax specifies the maximum number of connections tracked by the nf_conntrack module. Maps to net.netfilter.nf_conntrack_max. Terraform: `linux_os_config.sysctls.net_netfilter_nf_conntrack_max`.')
      @minValue(131072)
      @maxValue(2097152)
      netNetfilterNfConntrackMax: int?

      @description('Optional. vmMaxMapCount specifies the maximum number of memory map areas a process may have. Maps to vm.max_map_count. Terraform: `linux_os_config.sysctls.vm_max_map_count`.')
      @minValue(65530)
      @maxValue(262144)
      vmMaxMapCount: int?

      @description('Optional. vmSwappiness specifies the kernel\'s tendency to swap memory pages. Higher values increase aggressiveness, lower values decrease it. Maps to vm.swappiness. Terraform: `linux_os_config.sysctls.vm_swappiness`.')
      @minValue(0)
      @maxValue(100)
      vmSwappiness: int?

      @description('Optional. vmVfsCachePressure specifies the tendency of the kernel to reclaim the memory which is used for caching of directory and inode objects. Maps to vm.vfs_cache_pressure. Terraform: `linux_os_config.sysctls.vm_vfs_cache_pressure`.')
      @minValue(0)
      @maxValue(100)
      vmVfsCachePressure: int?
    }?

    @description('Optional. transparentHugePageDefrag sets the kernel\'s transparent_hugepage/defrag behavior. Maps to /sys/kernel/mm/transparent_hugepage/defrag. Terraform: `linux_os_config.transparent_huge_page_defrag`.')
    transparentHugePageDefrag: ('always' | 'defer' | 'defer+madvise' | 'madvise' | 'never')?

    @description('Optional. transparentHugePageEnabled sets the kernel\'s transparent_hugepage/enabled behavior. Maps to /sys/kernel/mm/transparent_hugepage/enabled. Terraform: `linux_os_config.transparent_huge_page_enabled`.')
    transparentHugePageEnabled: ('always' | 'madvise' | 'never')?
  }?

  @description('Optional. localDNS configures the per-node local DNS, with VnetDNS and KubeDNS overrides. LocalDNS helps improve performance and reliability of DNS resolution in an AKS cluster. For more details see aka.ms/aks/localdns. Terraform: `local_dns`.')
  localDNS: {
    @description('Required. kubeDNSOverrides apply to DNS traffic from pods with dnsPolicy:ClusterFirst (referred to as KubeDNS traffic). Terraform: `local_dns.kube_dns_overrides`.')
    @maxLength(100)
    kubeDNSOverrides: {
      @description('Required. Cache max TTL. See [cache plugin](https://coredns.io/plugins/cache) for more information. The API server checks its format. Terraform: `local_dns.kube_dns_overrides[*].cache_duration`.')
      cacheDuration: string

      @description('Required. forwardDestination is the destination server for DNS queries to be forwarded from localDNS. Terraform: `local_dns.kube_dns_overrides[*].forward_destination`.')
      forwardDestination: ('ClusterCoreDNS' | 'VnetDNS')

      @description('Required. forwardPolicy is the forward policy for selecting upstream DNS server. See [forward plugin](https://coredns.io/plugins/forward) for more information. Terraform: `local_dns.kube_dns_overrides[*].forward_policy`.')
      forwardPolicy: ('Sequential' | 'RoundRobin' | 'Random')

      @description('Required. maxConcurrent is the maximum number of concurrent queries. See [forward plugin](https://coredns.io/plugins/forward) for more information. Terraform: `local_dns.kube_dns_overrides[*].max_concurrent`.')
      @minValue(0)
      maxConcurrent: int

      @description('Required. protocol enforces TCP or prefers UDP protocol for connections from localDNS to upstream DNS server. Terraform: `local_dns.kube_dns_overrides[*].protocol`.')
      protocol: ('PreferUDP' | 'ForceTCP')

      @description('Required. queryLogging is the log level for DNS queries in localDNS. Terraform: `local_dns.kube_dns_overrides[*].query_logging`.')
      queryLogging: ('Error' | 'Log')

      @description('Required. serveStale is the policy for serving stale data. See [cache plugin](https://coredns.io/plugins/cache) for more information. Terraform: `local_dns.kube_dns_overrides[*].serve_stale`.')
      serveStale: ('Verify' | 'Immediate' | 'Disable')

      @description('Required. Serve stale duration. See [cache plugin](https://coredns.io/plugins/cache) for more information. The API server checks its format. Terraform: `local_dns.kube_dns_overrides[*].serve_stale_duration`.')
      serveStaleDuration: string

      @description('Required. zone is the DNS zone this override applies to (e.g., ".", "cluster.local"). The API server checks its format. Terraform: `local_dns.kube_dns_overrides[*].zone`.')
      @minLength(1)
      @maxLength(254)
      zone: string
    }[]

    @description('Required. mode of enablement for localDNS. Terraform: `local_dns.mode`.')
    mode: ('Preferred' | 'Required' | 'Disabled')

    @description('Required. vnetDNSOverrides apply to DNS traffic from pods with dnsPolicy:default or kubelet (referred to as VnetDNS traffic). Terraform: `local_dns.vnet_dns_overrides`.')
    @maxLength(100)
    vnetDNSOverrides: {
      @description('Required. Cache max TTL. See [cache plugin](https://coredns.io/plugins/cache) for more information. The API server checks its format. Terraform: `local_dns.vnet_dns_overrides[*].cache_duration`.')
      cacheDuration: string

      @description('Required. forwardDestination is the destination server for DNS queries to be forwarded from localDNS. Terraform: `local_dns.vnet_dns_overrides[*].forward_destination`.')
      forwardDestination: ('ClusterCoreDNS' | 'VnetDNS')

      @description('Required. forwardPolicy is the forward policy for selecting upstream DNS server. See [forward plugin](https://coredns.io/plugins/forward) for more information. Terraform: `local_dns.vnet_dns_overrides[*].forward_policy`.')
      forwardPolicy: ('Sequential' | 'RoundRobin' | 'Random')

      @description('Required. maxConcurrent is the maximum number of concurrent queries. See [forward plugin](https://coredns.io/plugins/forward) for more information. Terraform: `local_dns.vnet_dns_overrides[*].max_concurrent`.')
      @minValue(0)
      maxConcurrent: int

      @description('Required. protocol enforces TCP or prefers UDP protocol for connections from localDNS to upstream DNS server. Terraform: `local_dns.vnet_dns_overrides[*].protocol`.')
      protocol: ('PreferUDP' | 'ForceTCP')

      @description('Required. queryLogging is the log level for DNS queries in localDNS. Terraform: `local_dns.vnet_dns_overrides[*].query_logging`.')
      queryLogging: ('Error' | 'Log')

      @description('Required. serveStale is the policy for serving stale data. See [cache plugin](https://coredns.io/plugins/cache) for more information. Terraform: `local_dns.vnet_dns_overrides[*].serve_stale`.')
      serveStale: ('Verify' | 'Immediate' | 'Disable')

      @description('Required. Serve stale duration. See [cache plugin](https://coredns.io/plugins/cache) for more information. The API server checks its format. Terraform: `local_dns.vnet_dns_overrides[*].serve_stale_duration`.')
      serveStaleDuration: string

      @description('Required. zone is the DNS zone this override applies to (e.g., ".", "cluster.local"). The API server checks its format. Terraform: `local_dns.vnet_dns_overrides[*].zone`.')
      @minLength(1)
      @maxLength(254)
      zone: string
    }[]
  }?

  @description('Optional. maxPods is an override for the maximum number of pods that can run on a worker node instance. See minimum + maximum pods per node documentation: https://learn.microsoft.com/en-us/azure/aks/concepts-network-ip-address-planning#maximum-pods-per-node Default behavior if this is not specified depends on the network plugin: - If Network Plugin is Azure with "" (v1 or NodeSubnet), the default is 30. - If Network Plugin is Azure with "overlay", the default is 250. - If Network Plugin is None, the default is 250. - Otherwise, the default is 110 (the usual Kubernetes default). Terraform: `max_pods`.')
  @minValue(10)
  @maxValue(250)
  maxPods: int?

  @description('Optional. osDiskSizeGB is the size of the OS disk in GB. Defaults to `128` as the API server does. Terraform: `os_disk_size_gb`.')
  @minValue(30)
  @maxValue(2048)
  osDiskSizeGB: int?

  @description('Optional. security is a collection of security related karpenter fields. Terraform: `security`.')
  security: {
    @description('Optional. encryptionAtHost specifies whether host-level encryption is enabled for provisioned nodes. For more information, see: https://learn.microsoft.com/en-us/azure/aks/enable-host-encryption https://learn.microsoft.com/en-us/azure/virtual-machines/disk-encryption#encryption-at-host---end-to-end-encryption-for-your-vm-data. Terraform: `security.encryption_at_host`.')
    encryptionAtHost: bool?
  }?

  @description('Optional. tags to be applied on Azure resources like instances. Terraform: `tags`.')
  tags: {
    *: string
  }?

  @description('Optional. vnetSubnetID is the subnet used by nics provisioned with this nodeclass. If not specified, we will use the default --vnet-subnet-id specified in karpenter\'s options config. The API server checks its format. Terraform: `vnet_subnet_id`.')
  vnetSubnetID: string?
}

// ---- END GENERATED TYPES ----
