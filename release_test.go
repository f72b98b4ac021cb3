package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// needTools skips outside CI, and fails under CI=true, when a tool the test drives is missing.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found under CI: %v", tool, err)
			}
			t.Skipf("%s not found: %v", tool, err)
		}
	}
}

// TestReleaseSnapshotLayout runs scripts/release.sh --snapshot (what make release-snapshot runs)
// for RELEASE_TEST_PLATFORMS (default linux/amd64; the make target builds six) with a
// throwaway GPG key, and checks the result against the Terraform Registry's documented layout:
// https://developer.hashicorp.com/terraform/registry/providers/publishing#manually-preparing-a-release
func TestReleaseSnapshotLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the provider: not in -short")
	}
	needTools(t, "git", "zip", "sha256sum", "gpg")
	platforms := os.Getenv("RELEASE_TEST_PLATFORMS")
	if platforms == "" {
		platforms = "linux/amd64"
	}
	gnupg := t.TempDir()
	fingerprint := throwawayKey(t, gnupg)
	dist := filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command("bash", "scripts/release.sh", "--snapshot")
	cmd.Env = append(os.Environ(), "DIST="+dist, "PLATFORMS="+platforms, "GNUPGHOME="+gnupg, "GPG_FINGERPRINT="+fingerprint)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}

	version := describedVersion(t)
	const name = "terraform-provider-karpenter"
	prefix := name + "_" + version
	var want []string
	for _, p := range strings.Fields(platforms) {
		os, arch, _ := strings.Cut(p, "/")
		want = append(want, prefix+"_"+os+"_"+arch+".zip")
	}
	want = append(want, prefix+"_SHA256SUMS", prefix+"_SHA256SUMS.sig", prefix+"_manifest.json")
	slices.Sort(want)
	entries, err := os.ReadDir(dist)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("dist holds\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}

	// The manifest is the repository's, and says protocol 6.
	manifest, _ := os.ReadFile(filepath.Join(dist, prefix+"_manifest.json"))
	if committed, _ := os.ReadFile("terraform-registry-manifest.json"); !bytes.Equal(manifest, committed) {
		t.Error("the manifest differs from terraform-registry-manifest.json")
	}
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil || m.Version != 1 || !slices.Equal(m.Metadata.ProtocolVersions, []string{"6.0"}) {
		t.Errorf("manifest %s: %+v, %v", manifest, m, err)
	}

	// SHA256SUMS lists every zip and the manifest with their real digests, and its signature verifies.
	sums, _ := os.ReadFile(filepath.Join(dist, prefix+"_SHA256SUMS"))
	listed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		digest, file, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q is not `digest  file`", line)
		}
		listed[file] = digest
	}
	for _, f := range want {
		if strings.Contains(f, "SHA256SUMS") {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dist, f))
		sum := sha256.Sum256(b)
		if listed[f] != hex.EncodeToString(sum[:]) {
			t.Errorf("SHA256SUMS has %q for %s, the file's digest is %x", listed[f], f, sum)
		}
		delete(listed, f)
	}
	if len(listed) > 0 {
		t.Errorf("SHA256SUMS lists files not in the release: %v", listed)
	}
	verify := exec.Command("gpg", "--batch", "--verify", filepath.Join(dist, prefix+"_SHA256SUMS.sig"), filepath.Join(dist, prefix+"_SHA256SUMS"))
	verify.Env = append(os.Environ(), "GNUPGHOME="+gnupg)
	if out, err := verify.CombinedOutput(); err != nil {
		t.Errorf("the signature does not verify: %v\n%s", err, out)
	}

	// Each zip holds exactly the binary terraform-provider-karpenter_vVERSION (.exe on Windows);
	// the one for this machine runs and reports the version.
	for _, p := range strings.Fields(platforms) {
		goos, arch, _ := strings.Cut(p, "/")
		bin := name + "_v" + version
		if goos == "windows" {
			bin += ".exe"
		}
		zr, err := zip.OpenReader(filepath.Join(dist, prefix+"_"+goos+"_"+arch+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		if len(zr.File) != 1 || zr.File[0].Name != bin {
			var names []string
			for _, f := range zr.File {
				names = append(names, f.Name)
			}
			t.Errorf("%s: zip holds %v, want [%s]", p, names, bin)
		}
		if p == "linux/amd64" && len(zr.File) == 1 && runtime.GOOS == goos && runtime.GOARCH == arch {
			exe := filepath.Join(t.TempDir(), bin)
			rc, _ := zr.File[0].Open()
			var b bytes.Buffer
			_, _ = b.ReadFrom(rc)
			rc.Close()
			if err := os.WriteFile(exe, b.Bytes(), 0o755); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(exe, "--version").CombinedOutput()
			if err != nil || !strings.Contains(string(out), version) {
				t.Errorf("%s --version: %v\n%s\nwant the version %s", bin, err, out, version)
			}
		}
		zr.Close()
	}
}

// describedVersion is the version release.sh derives: git describe without the v, or a
// snapshot version before every release when no tag is in the history.
func describedVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "describe", "--tags", "--always", "--dirty").Output()
	d := strings.TrimSpace(string(out))
	if err != nil {
		d = "unknown"
	}
	if m := regexp.MustCompile(`^v([0-9]+\.[0-9]+\.[0-9]+.*)$`).FindStringSubmatch(d); m != nil {
		return m[1]
	}
	return "0.0.0-snapshot-" + d
}

// throwawayKey creates an unprotected signing key in gnupg and returns its fingerprint.
func throwawayKey(t *testing.T, gnupg string) string {
	t.Helper()
	gen := exec.Command("gpg", "--batch", "--passphrase", "", "--quick-gen-key", "release-test <release-test@example.invalid>", "ed25519", "sign", "1d")
	gen.Env = append(os.Environ(), "GNUPGHOME="+gnupg)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("gpg key: %v\n%s", err, out)
	}
	list := exec.Command("gpg", "--batch", "--with-colons", "--list-secret-keys")
	list.Env = gen.Env
	out, err := list.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, ":"); f[0] == "fpr" && len(f) > 9 {
			return f[9]
		}
	}
	t.Fatalf("no fingerprint in\n%s", out)
	return ""
}
