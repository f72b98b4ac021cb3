#!/usr/bin/env bash
# Builds the Terraform Registry's release layout into dist/ (what .goreleaser.yml produces in the
# release workflow, without goreleaser):
#   terraform-provider-karpenter_VERSION_OS_ARCH.zip  holding terraform-provider-karpenter_vVERSION[.exe]
#   terraform-provider-karpenter_VERSION_SHA256SUMS   sha256 of every zip and of the manifest
#   terraform-provider-karpenter_VERSION_SHA256SUMS.sig  detached binary GPG signature of the sums
#   terraform-provider-karpenter_VERSION_manifest.json   terraform-registry-manifest.json
# VERSION is `git describe --tags` without the leading v. A release (the default) needs a clean
# tree at a vX.Y.Z tag and GPG_FINGERPRINT; --snapshot builds any commit and skips signing,
# saying so, when GPG_FINGERPRINT is unset.
# Environment: PLATFORMS (default: linux, darwin, windows x amd64, arm64), DIST (default dist),
# GPG_FINGERPRINT (the key gpg signs with; GNUPGHOME as gpg reads it).
set -euo pipefail
cd "$(dirname "$0")/.."

snapshot=false
case "${1:-}" in
  --snapshot) snapshot=true ;;
  "") ;;
  *) echo "usage: scripts/release.sh [--snapshot]" >&2; exit 2 ;;
esac

name=terraform-provider-karpenter
dist=${DIST:-dist}
platforms=${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}

described=$(git describe --tags --always --dirty 2>/dev/null || echo unknown)
if [[ $described =~ ^v([0-9]+\.[0-9]+\.[0-9]+.*)$ ]]; then
  version=${BASH_REMATCH[1]}
else
  # No tag in the history: a semantic version that sorts before every release.
  version=0.0.0-snapshot-$described
fi
if ! $snapshot; then
  if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || [[ $version =~ -[0-9]+-g[0-9a-f]+ ]] || [[ $version == *dirty* ]]; then
    echo "release: HEAD is $described, not a clean checkout of a vX.Y.Z tag (use --snapshot for a local build)" >&2
    exit 1
  fi
  if [[ -z ${GPG_FINGERPRINT:-} ]]; then
    echo "release: GPG_FINGERPRINT is unset; the registry requires a signed SHA256SUMS" >&2
    exit 1
  fi
fi

rm -rf "$dist" && mkdir -p "$dist/build"
# Every file in the archives carries the commit's time, so a rebuild of a commit gives the same zips.
stamp=$(git log -1 --format=%cd --date=format:%Y%m%d%H%M.%S 2>/dev/null || date +%Y%m%d%H%M.%S)
for p in $platforms; do
  os=${p%/*} arch=${p#*/}
  ext=""; [[ $os == windows ]] && ext=.exe
  dir="$dist/build/${os}_${arch}"
  mkdir -p "$dir"
  bin="${name}_v${version}${ext}"
  echo "release: building $os/$arch"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$dir/$bin" .
  touch -t "$stamp" "$dir/$bin"
  zip="${name}_${version}_${os}_${arch}.zip"
  (cd "$dir" && zip -q -X "../../$zip" "$bin")
done
rm -rf "$dist/build"

cp terraform-registry-manifest.json "$dist/${name}_${version}_manifest.json"
sums="${name}_${version}_SHA256SUMS"
(cd "$dist" && sha256sum -- *.zip "${name}_${version}_manifest.json" > "$sums")
if [[ -n ${GPG_FINGERPRINT:-} ]]; then
  gpg --batch --yes --local-user "$GPG_FINGERPRINT" --output "$dist/$sums.sig" --detach-sign "$dist/$sums"
else
  echo "release: snapshot: $sums is NOT signed (set GPG_FINGERPRINT to sign; the registry rejects an unsigned release)"
fi
echo "release: $version -> $dist/"
ls -1 "$dist"
