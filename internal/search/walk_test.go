package search

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates files under dir; a name ending in "/" makes a folder.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// searchedFiles returns the files (relative, slash separated) that hold
// "needle" under dir.
func searchedFiles(t testing.TB, dir string, opts WalkOptions) []string {
	t.Helper()
	m, err := Compile("needle", MatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Search(context.Background(), dir, m, Options{Walk: opts})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Files {
		rel, _ := filepath.Rel(dir, f.Path)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func TestWalkRules(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  WalkOptions
		want  []string
	}{
		{
			name: "gitignore applies inside a repository",
			files: map[string]string{
				".git/":      "",
				".gitignore": "*.log\nbuild/\n",
				"a.go":       "needle",
				"debug.log":  "needle",
				"build/x.go": "needle",
				"sub/b.log":  "needle",
			},
			want: []string{"a.go"},
		},
		{
			name: "gitignore is disregarded outside a repository",
			files: map[string]string{
				".gitignore": "*.log\n",
				"a.go":       "needle",
				"debug.log":  "needle",
			},
			want: []string{"a.go", "debug.log"},
		},
		{
			name: "nested gitignore and negation",
			files: map[string]string{
				".git/":             "",
				".gitignore":        "*.txt\n",
				"sub/.gitignore":    "!keep.txt\n",
				"sub/keep.txt":      "needle",
				"sub/drop.txt":      "needle",
				"other/keep.txt":    "needle",
				"sub/deep/x.txt":    "needle",
				"sub/deep/y.go":     "needle",
				"sub/deep/keep.txt": "needle",
			},
			want: []string{"sub/deep/keep.txt", "sub/deep/y.go", "sub/keep.txt"},
		},
		{
			name: "anchored patterns are relative to their file",
			files: map[string]string{
				".git/":             "",
				"sub/.gitignore":    "/gen.go\nlib/*.go\n",
				"gen.go":            "needle",
				"sub/gen.go":        "needle",
				"sub/x/gen.go":      "needle",
				"sub/lib/a.go":      "needle",
				"sub/lib/deep/b.go": "needle",
			},
			want: []string{"gen.go", "sub/lib/deep/b.go", "sub/x/gen.go"},
		},
		{
			name: "double star patterns",
			files: map[string]string{
				".git/":        "",
				".gitignore":   "**/tmp/**\nlogs/**/*.out\n",
				"tmp/a.go":     "needle",
				"x/tmp/b.go":   "needle",
				"logs/a/b.out": "needle",
				"logs/c.out":   "needle",
				"logs/c.go":    "needle",
			},
			want: []string{"logs/c.go"},
		},
		{
			name: "ignore beats gitignore, rgignore beats ignore",
			files: map[string]string{
				".git/":      "",
				".gitignore": "a.go\nb.go\nc.go\n",
				".ignore":    "!a.go\n!b.go\n",
				".rgignore":  "b.go\n",
				"a.go":       "needle",
				"b.go":       "needle",
				"c.go":       "needle",
			},
			want: []string{"a.go"},
		},
		{
			name: ".ignore applies without a repository",
			files: map[string]string{
				".ignore":     "vendor/\n",
				"a.go":        "needle",
				"vendor/b.go": "needle",
			},
			want: []string{"a.go"},
		},
		{
			name: "git info exclude",
			files: map[string]string{
				".git/info/exclude": "secret.go\n",
				"secret.go":         "needle",
				"a.go":              "needle",
			},
			want: []string{"a.go"},
		},
		{
			name: "no-ignore searches ignored files",
			files: map[string]string{
				".git/":      "",
				".gitignore": "*.log\n",
				"debug.log":  "needle",
			},
			opts: WalkOptions{NoIgnore: true},
			want: []string{"debug.log"},
		},
		{
			name: "hidden files and folders are skipped",
			files: map[string]string{
				".env":         "needle",
				".config/a.go": "needle",
				"a.go":         "needle",
			},
			want: []string{"a.go"},
		},
		{
			name: "hidden files are searched when asked, VCS folders never",
			files: map[string]string{
				".env":         "needle",
				".config/a.go": "needle",
				".git/config":  "needle",
				".hg/x":        "needle",
				".svn/x":       "needle",
			},
			opts: WalkOptions{Hidden: true},
			want: []string{".config/a.go", ".env"},
		},
		{
			name: "binary files are skipped",
			files: map[string]string{
				"a.bin": "needle\x00\x01",
				"a.txt": "needle",
			},
			want: []string{"a.txt"},
		},
		{
			name: "file types",
			files: map[string]string{
				"a.go":     "needle",
				"b.py":     "needle",
				"c.pyi":    "needle",
				"Makefile": "needle",
				"d.txt":    "needle",
			},
			opts: WalkOptions{Types: []string{"py", "make"}},
			want: []string{"Makefile", "b.py", "c.pyi"},
		},
		{
			name: "a glob without a slash matches base names at any depth",
			files: map[string]string{
				"a.go":    "needle",
				"x/b.go":  "needle",
				"x/c.txt": "needle",
			},
			opts: WalkOptions{Globs: []string{"*.go"}},
			want: []string{"a.go", "x/b.go"},
		},
		{
			name: "a glob with a slash is anchored",
			files: map[string]string{
				"a.go":     "needle",
				"x/b.go":   "needle",
				"y/x/c.go": "needle",
			},
			opts: WalkOptions{Globs: []string{"x/*.go"}},
			want: []string{"x/b.go"},
		},
		{
			name: "negated glob excludes, braces alternate",
			files: map[string]string{
				"a.ts":      "needle",
				"a.tsx":     "needle",
				"a.test.ts": "needle",
				"a.js":      "needle",
			},
			opts: WalkOptions{Globs: []string{"*.{ts,tsx}", "!*.test.ts"}},
			want: []string{"a.ts", "a.tsx"},
		},
		{
			name: "a selecting glob overrides gitignore and the hidden rule",
			files: map[string]string{
				".git/":      "",
				".gitignore": "*.log\n",
				"x.log":      "needle",
				".y.log":     "needle",
				"z.go":       "needle",
			},
			opts: WalkOptions{Globs: []string{"*.log"}},
			want: []string{".y.log", "x.log"},
		},
		{
			name: "a negated glob prunes a folder",
			files: map[string]string{
				"a.go":          "needle",
				"vendor/b.go":   "needle",
				"x/vendor/c.go": "needle",
			},
			opts: WalkOptions{Globs: []string{"!vendor"}},
			want: []string{"a.go"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.files)
			got := searchedFiles(t, dir, tt.opts)
			if !slices.Equal(got, tt.want) {
				t.Errorf("searched %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWalkHonoursIgnoreFilesAboveTheRoot(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".git/":        "",
		".gitignore":   "sub/gen/\n*.tmp\n",
		"sub/a.go":     "needle",
		"sub/b.tmp":    "needle",
		"sub/gen/c.go": "needle",
	})
	got := searchedFiles(t, filepath.Join(dir, "sub"), WalkOptions{})
	if want := []string{"a.go"}; !slices.Equal(got, want) {
		t.Errorf("searched %q, want %q", got, want)
	}
}

func TestWalkDoesNotFollowSymlinks(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"real/a.go": "needle", "b.go": "needle"})
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "b.go"), filepath.Join(dir, "c.go")); err != nil {
		t.Fatal(err)
	}
	got := searchedFiles(t, dir, WalkOptions{})
	if want := []string{"b.go", "real/a.go"}; !slices.Equal(got, want) {
		t.Errorf("searched %q, want %q", got, want)
	}
}

func TestExplicitFileIsAlwaysSearched(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".git/":       "",
		".gitignore":  ".hidden.log\n",
		".hidden.log": "needle\n",
		"blob.bin":    "x\x00needle\n",
	})
	m, _ := Compile("needle", MatchOptions{})
	for _, name := range []string{".hidden.log", "blob.bin"} {
		res, err := Search(context.Background(), filepath.Join(dir, name), m, Options{Mode: Content})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 || res.Files[0].Count != 1 {
			t.Fatalf("%s: files = %+v, want one match", name, res.Files)
		}
		if bin := res.Files[0].Binary; bin != (name == "blob.bin") {
			t.Errorf("%s: Binary = %v", name, bin)
		}
	}
}

func TestSearchOfMissingPathFails(t *testing.T) {
	m, _ := Compile("x", MatchOptions{})
	_, err := Search(context.Background(), filepath.Join(t.TempDir(), "nope"), m, Options{})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("err = %v, want a does-not-exist error", err)
	}
}

func TestSearchRejectsBadWalkOptions(t *testing.T) {
	m, _ := Compile("x", MatchOptions{})
	dir := t.TempDir()
	for _, opts := range []WalkOptions{{Types: []string{"klingon"}}, {Globs: []string{"[abc"}}, {Globs: []string{"{a,b"}}} {
		if _, err := Search(context.Background(), dir, m, Options{Walk: opts}); err == nil {
			t.Errorf("%+v: no error", opts)
		}
	}
}

func TestSearchStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("d", string(rune('a'+i%26)), strings.Repeat("f", i%7+1)+".go")] = "needle"
	}
	writeTree(t, dir, files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, _ := Compile("needle", MatchOptions{})
	if _, err := Search(ctx, dir, m, Options{}); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
