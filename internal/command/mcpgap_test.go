package command

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAttachmentsOfATypedPrompt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "a dir", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("hush\n"), 0o644)
	e := &Expander{Dir: dir, DenyRead: func(p string) bool { return filepath.Base(p) == "secret.txt" }}
	text := `read @main.go, @"a dir" and @missing, mail me@main.go, @secret.txt, @gap:docs://x, @main.go again and @skipped.go`
	os.WriteFile(filepath.Join(dir, "skipped.go"), []byte("x\n"), 0o644)
	got := e.Attachments(text, func(p string) bool { return p == "skipped.go" })
	want := []string{
		"<file path=\"main.go\">\npackage main\n</file>",
		"<folder path=\"a dir\">\nsub/\n</folder>",
		"[@secret.txt not included: a permission rule denies reading it]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Attachments =\n%s\nwant\n%s", strings.Join(got, "\n--\n"), strings.Join(want, "\n--\n"))
	}
}
