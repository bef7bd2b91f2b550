//go:build linux

package fsutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A file mounted on its own (docker -v ./config.yml:/app/config.yml, a
// Kubernetes subPath, a devcontainer's mounted dotfile) cannot be renamed
// over: the rename fails with "device or resource busy", so Edit and
// Write failed on it. It is written through instead.
func TestQA10WriteFileWritesThroughABindMountedFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "host-config.yml")
	target := filepath.Join(dir, "app", "config.yml")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{src, target} {
		if err := os.WriteFile(p, []byte("port: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("mount", "--bind", src, target).CombinedOutput(); err != nil {
		t.Skipf("bind mounts are not allowed here (%v: %s)", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", target).Run() })
	if err := WriteFile(target, []byte("port: 2\n"), 0o644); err != nil {
		t.Fatalf("write the mounted file: %v", err)
	}
	if b, _ := os.ReadFile(src); string(b) != "port: 2\n" {
		t.Errorf("the mounted file's source holds %q, want the new content", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "app", ".config.yml.reins-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
