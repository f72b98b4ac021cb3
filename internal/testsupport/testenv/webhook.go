package testenv

import (
	"encoding/base64"
	"fmt"
)

// webhookKubeconfig is the kubeconfig the API server reads to reach a token webhook: the
// webhook is the "cluster", the API server its client.
func webhookKubeconfig(w *Webhook) []byte {
	return []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: webhook
  cluster:
    server: %q
    certificate-authority-data: %s
users:
- name: apiserver
contexts:
- name: webhook
  context: {cluster: webhook, user: apiserver}
current-context: webhook
`, w.URL, base64.StdEncoding.EncodeToString(w.CA)))
}
