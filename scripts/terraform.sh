#!/usr/bin/env bash
# Prints the path of a Terraform-compatible binary for acceptance tests: `terraform` from the
# PATH when there is one, otherwise OpenTofu built from the Go module proxy (tools/tofu) and
# cached like the test binaries. `terraform.sh tofu` prints OpenTofu's path in any case (built
# once and cached): make test runs the OpenTofu-only tests with it (TF_ACC_TOFU_PATH).
set -euo pipefail
if [[ "${1:-}" != tofu ]]; then
  if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" && -x "$TF_ACC_TERRAFORM_PATH" ]]; then
    echo "$TF_ACC_TERRAFORM_PATH"; exit 0
  fi
  if command -v terraform >/dev/null 2>&1; then
    command -v terraform; exit 0
  fi
elif [[ -n "${TF_ACC_TOFU_PATH:-}" && -x "$TF_ACC_TOFU_PATH" ]]; then
  echo "$TF_ACC_TOFU_PATH"; exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/tools/tofu"
key=$( (cat "$tools/go.mod" "$tools/go.sum"; go env GOVERSION GOOS GOARCH) | sha256sum | cut -c1-16)
dir="${TESTBINS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-karpenter/testbins}/tofu-$key"
if [[ ! -x "$dir/tofu" ]]; then
  echo "terraform.sh: building OpenTofu from the Go module proxy (a few minutes, once)" >&2
  mkdir -p "$dir"
  (cd "$tools" && go build -trimpath -ldflags "-s -w" -o "$dir/tofu.tmp" github.com/opentofu/opentofu/cmd/tofu)
  mv "$dir/tofu.tmp" "$dir/tofu"
fi
echo "$dir/tofu"
