package glob

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"reins/internal/tool"
)

// fixture creates files with modification times one minute apart, the
// last listed newest.
func fixture(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		content := ""
		if name == ".gitignore" {
			content = "dist/\n*.log\n"
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t *testing.T, cwd, input string) (*tool.Result, error) {
	t.Helper()
	return runWith(t, Options{}, cwd, input)
}

func runWith(t *testing.T, opts Options, cwd, input string) (*tool.Result, error) {
	t.Helper()
	g := &Tool{Options: opts}
	c := &tool.Call{ID: "toolu_1", Name: Name, Cwd: cwd}
	if err := (&tool.Schemas{}).Validate(g.InputSchema(), json.RawMessage(input)); err != nil {
		return nil, err
	}
	if err := g.Validate(context.Background(), c, json.RawMessage(input)); err != nil {
		return nil, err
	}
	return g.Call(context.Background(), c, json.RawMessage(input), nil)
}

func TestGlob(t *testing.T) {
	dir := fixture(t, ".git/HEAD", ".gitignore", "a.go", "src/b.go", "src/deep/c.go", "src/d.ts",
		"dist/e.go", "x.log", ".github/ci.yml", "docs/f.md", "src/g.tsx")
	tests := []struct {
		name, input string
		want        string
	}{
		{"double star, newest first, ignored files included", `{"pattern":"**/*.go"}`, "dist/e.go\nsrc/deep/c.go\nsrc/b.go\na.go"},
		{"base name pattern at any depth", `{"pattern":"*.go"}`, "dist/e.go\nsrc/deep/c.go\nsrc/b.go\na.go"},
		{"anchored pattern", `{"pattern":"src/*.go"}`, "src/b.go"},
		{"braces", `{"pattern":"src/**/*.{ts,tsx}"}`, "src/g.tsx\nsrc/d.ts"},
		{"path narrows the search", `{"pattern":"**/*.go","path":"src"}`, "src/deep/c.go\nsrc/b.go"},
		{"hidden and ignored files are included, VCS folders not", `{"pattern":"**/*"}`,
			"src/g.tsx\ndocs/f.md\n.github/ci.yml\nx.log\ndist/e.go\nsrc/d.ts\nsrc/deep/c.go\nsrc/b.go\na.go\n.gitignore"},
		{"placeholder path means the working folder", `{"pattern":"*.md","path":"undefined"}`, "docs/f.md"},
		{"no match", `{"pattern":"**/*.rs"}`, "No files found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := run(t, dir, tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, r.Content[0].Text); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGlobAbsolutePattern(t *testing.T) {
	dir := fixture(t, "a/b.go", "a/c/d.go", "e.go")
	other := t.TempDir()
	r, err := run(t, other, fmt.Sprintf(`{"pattern":%q}`, filepath.Join(dir, "a", "**", "*.go")))
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "a/c/d.go") + "\n" + filepath.Join(dir, "a/b.go")
	if got := r.Content[0].Text; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
}

func TestGlobTruncatesAt100(t *testing.T) {
	var names []string
	for i := range 130 {
		names = append(names, fmt.Sprintf("f%03d.txt", i))
	}
	dir := fixture(t, names...)
	r, err := run(t, dir, `{"pattern":"*.txt"}`)
	if err != nil {
		t.Fatal(err)
	}
	out := r.Data.(*Output)
	if !out.Truncated || out.NumFiles != 100 || out.Filenames[0] != "f129.txt" || out.Filenames[99] != "f030.txt" {
		t.Errorf("data = truncated %v, %d files, first %s, last %s", out.Truncated, out.NumFiles, out.Filenames[0], out.Filenames[99])
	}
	if !strings.Contains(r.Content[0].Text, "newest matches are shown") {
		t.Errorf("no truncation note in %q", r.Content[0].Text[len(r.Content[0].Text)-120:])
	}
	got, _ := json.Marshal(out)
	if !strings.HasPrefix(string(got), `{"filenames":["f129.txt",`) || !strings.Contains(string(got), `"numFiles":100,"truncated":true}`) {
		t.Errorf("json = %s", got)
	}
}

func TestGlobErrors(t *testing.T) {
	dir := fixture(t, "a.go")
	tests := []struct{ name, input, want string }{
		{"missing folder", `{"pattern":"*.go","path":"nope"}`, "does not exist"},
		{"file as folder", `{"pattern":"*.go","path":"a.go"}`, "is a file, not a folder"},
		{"invalid glob", `{"pattern":"src/[a"}`, `invalid glob "src/[a"`},
		{"unclosed brace", `{"pattern":"*.{ts,tsx"}`, "unclosed {"},
		{"empty pattern", `{"pattern":" "}`, "pattern: must not be empty"},
		{"missing pattern", `{}`, "pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, dir, tt.input)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
