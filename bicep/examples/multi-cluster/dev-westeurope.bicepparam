// Development: public API server with local accounts, so the Kubernetes extension applies the
// node class and a smaller copy of the general pool directly.
using 'main.bicep'

var general = loadYamlContent('../pools/nodepool-general.yaml')

param clusterName = 'aks-dev-weu'
param location = 'westeurope'
param systemPool = {
  vmSize: 'Standard_D2ds_v5'
  count: 1
}
param delivery = 'kubernetesExtension'
param nodeClasses = [
  loadYamlContent('../pools/nodeclass-general.yaml')
]
param nodePools = [
  union(general, {
    spec: union(general.spec, {
      limits: {
        cpu: '32'
        memory: '128Gi'
      }
    })
  })
]
param tags = {
  environment: 'dev'
}
