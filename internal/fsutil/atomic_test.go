package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileRefusesReadOnlyFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ro.txt")
	os.WriteFile(p, []byte("old"), 0o444)
	if err := WriteFile(p, []byte("new"), 0o644); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("err = %v, want permission denied", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("content = %q", b)
	}
}

func TestWriteFileKeepsHardLinks(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(p, []byte("old"), 0o644)
	if err := os.Link(p, q); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(q); string(b) != "new" {
		t.Errorf("the other link reads %q; the link was broken", b)
	}
}
