package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// @ completion leaves out what .gitignore ignores (respectGitignore, on
// by default), keeping hidden files and the folders that hold listed
// files; with the setting off it lists the ignored files too.
func TestQA8FileCompletionRespectsGitignore(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".git/HEAD", ".gitignore", ".env", "src/main.go", "dist/bundle.js", "debug.log", "node_modules/x/index.js"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "x"
		if f == ".gitignore" {
			body = "dist/\n*.log\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kept := listFiles(context.Background(), root, false)().(filesMsg).files
	for _, want := range []string{".env", ".gitignore", "src/", "src/main.go"} {
		if !slices.Contains(kept, want) {
			t.Errorf("respecting .gitignore: %q missing from %q", want, kept)
		}
	}
	for _, gone := range []string{"dist/", "dist/bundle.js", "debug.log", ".git/HEAD", "node_modules/x/index.js"} {
		if slices.Contains(kept, gone) {
			t.Errorf("respecting .gitignore: %q listed in %q", gone, kept)
		}
	}
	all := listFiles(context.Background(), root, true)().(filesMsg).files
	for _, want := range []string{"dist/bundle.js", "debug.log", "src/main.go"} {
		if !slices.Contains(all, want) {
			t.Errorf("ignoring .gitignore: %q missing from %q", want, all)
		}
	}
}
