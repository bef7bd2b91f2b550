package write

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/tool"
	"reins/internal/tools/edit"
)

// asUserEnv marks the copy of the test binary that runs as an ordinary
// user.
const asUserEnv = "REINS_TEST_AS_USER"

// asOrdinaryUser makes a test run as a user whom folder permissions bind:
// run as root, it runs the test again in a copy of the test binary under
// setpriv as nobody, reports that run's result and returns false (the
// caller returns); run as anyone else it returns true.
func asOrdinaryUser(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return true
	}
	if os.Getenv(asUserEnv) != "" {
		t.Fatal("still root under setpriv")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("running as root and setpriv is missing: %v", err)
		}
		t.Skip("running as root without setpriv: folder permissions cannot be tested")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary lives in a folder only root may enter: copy it to
	// one nobody can run it from.
	dir, err := os.MkdirTemp("", "reins-as-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test.bin")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
		bin, "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), asUserEnv+"=1", "TMPDIR=/tmp", "HOME=/tmp")
	cmd.Dir = "/"
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Errorf("as nobody: %v\n%s", err, out)
	}
	return false
}

// In a folder the user may not write to, Edit and Write still change a
// file the user may write (in place, as no file can be made beside it),
// while creating a new file there fails with an error that says the
// folder is read-only, and leaves nothing behind.
func TestQA11WriteAndEditInAReadOnlyFolder(t *testing.T) {
	if !asOrdinaryUser(t) {
		return
	}
	dir, files, w := setup(t)
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(ro, "notes.txt")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	markRead(t, files, p)

	if _, err := write(t, w, p, "uno\ndos\n"); err != nil {
		t.Fatalf("Write over a writable file in a read-only folder: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "uno\ndos\n" {
		t.Fatalf("after Write the file holds %q", got)
	}
	e := edit.New(files)
	raw, _ := json.Marshal(map[string]any{"file_path": p, "old_string": "dos", "new_string": "tres"})
	c := &tool.Call{Cwd: dir}
	if err := e.Validate(context.Background(), c, raw); err != nil {
		t.Fatalf("Edit in a read-only folder: %v", err)
	}
	if _, err := e.Call(context.Background(), c, raw, nil); err != nil {
		t.Fatalf("Edit in a read-only folder: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "uno\ntres\n" {
		t.Fatalf("after Edit the file holds %q", got)
	}

	_, err := write(t, w, filepath.Join(ro, "new.txt"), "x\n")
	if err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "folder "+ro+" is read-only") {
		t.Errorf("Write of a new file in a read-only folder: %v, want permission denied naming the read-only folder", err)
	}
	if strings.Contains(err.Error(), ".reins-") {
		t.Errorf("the error names a temporary file: %v", err)
	}
	_, err = write(t, w, filepath.Join(ro, "sub", "new.txt"), "x\n")
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("Write into a new folder under a read-only folder: %v, want permission denied", err)
	}
	left, _ := os.ReadDir(ro)
	if len(left) != 1 {
		t.Errorf("the read-only folder holds %d entries, want only notes.txt: %v", len(left), left)
	}

	// A read-only file is refused and kept as it was.
	if err := os.Chmod(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(ro, "locked.txt")
	if err := os.WriteFile(locked, []byte("keep\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	markRead(t, files, locked)
	_, err = write(t, w, locked, "changed\n")
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("Write over a read-only file: %v, want an error saying it is read-only", err)
	}
	if got, _ := os.ReadFile(locked); string(got) != "keep\n" {
		t.Errorf("the read-only file now holds %q", got)
	}
}
