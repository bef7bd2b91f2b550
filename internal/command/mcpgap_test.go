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

// FuzzAttachments: any typed prompt is scanned without failing, and only
// mentions of paths that exist give blocks.
func FuzzAttachments(f *testing.F) {
	for _, s := range []string{`see @main.go and @"a dir" (@x)`, `@"unterminated`, "@\n@@", "@$1 @$ARGUMENTS", "@."} {
		f.Add(s)
	}
	dir := f.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	f.Fuzz(func(t *testing.T, text string) {
		e := &Expander{Dir: dir}
		for _, b := range e.Attachments(text, nil) {
			if !strings.HasPrefix(b, "<file path=") && !strings.HasPrefix(b, "<folder path=") && !strings.HasPrefix(b, "[@") {
				t.Fatalf("%q gave block %q", text, b)
			}
		}
	})
}
