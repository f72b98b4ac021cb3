#!/usr/bin/env bash
# Builds the real kube-apiserver, etcd and kube-controller-manager that the test suite runs, from
# the Go module proxy (tools/testbins), and prints the directory that holds them. The controller
# manager runs only the disruption controller, the oracle of PodDisruptionBudget status
# (internal/workload's parity test). Nothing is downloaded as a prebuilt binary. The result is
# cached under a key made of the tools module's go.mod/go.sum and the Go version, so only the
# first run on a machine pays the 8-11 minute build (kube-controller-manager adds about two
# minutes to the 6-9 of the other two: 106 s measured with their packages already compiled).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/tools/testbins"
k8s_version=$(cd "$tools" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
key=$( (cat "$tools/go.mod" "$tools/go.sum"; go env GOVERSION GOOS GOARCH) | sha256sum | cut -c1-16)
cache="${TESTBINS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-karpenter/testbins}"
dir="$cache/$key"

if [[ -x "$dir/kube-apiserver" && -x "$dir/etcd" && -x "$dir/kube-controller-manager" ]]; then
  echo "$dir"
  exit 0
fi

echo "testbins: building kube-apiserver and kube-controller-manager $k8s_version and etcd from the Go module proxy into $dir" >&2
echo "testbins: this takes 8-11 minutes on 2 cores the first time, seconds afterwards" >&2
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ldflags="-s -w"
for kv in "gitVersion=$k8s_version" "gitMajor=$(echo "${k8s_version#v}" | cut -d. -f1)" "gitMinor=$(echo "$k8s_version" | cut -d. -f2)"; do
  ldflags="$ldflags -X k8s.io/component-base/version.$kv"
done
start=$SECONDS
(
  cd "$tools"
  # Report progress while the long build runs, so a first run does not look hung.
  # The sleep must not hold stderr open, or a pipe reading this script waits for it.
  ( while sleep 60 >/dev/null 2>&1; do echo "testbins: still building ($((SECONDS - start))s)" >&2; done ) &
  ticker=$!
  trap 'kill $ticker 2>/dev/null' EXIT
  go build -trimpath -ldflags "$ldflags" -o "$tmp/etcd" go.etcd.io/etcd/server/v3
  go build -trimpath -ldflags "$ldflags" -o "$tmp/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
  go build -trimpath -ldflags "$ldflags" -o "$tmp/kube-controller-manager" k8s.io/kubernetes/cmd/kube-controller-manager
)
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "testbins: built in $((SECONDS - start))s" >&2
echo "$dir"
