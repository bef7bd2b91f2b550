package glob

import (
	"testing"
)

// Models often start a pattern with "./" (or climb with "../"); the
// pattern means the same as without it, not "no files".
func TestPatternsStartingWithDotSlashAreRelativeToThePath(t *testing.T) {
	dir := fixture(t, "src/a.go", "src/deep/b.go", "lib/c.go", "top.go")
	for _, tt := range []struct{ cwd, pattern, want string }{
		{dir, "./src/*.go", "src/a.go"},
		{dir, "./src/**/*.go", "src/deep/b.go\nsrc/a.go"}, // newest first
		{dir + "/src", "../lib/*.go", dir + "/lib/c.go"},
	} {
		r, err := run(t, tt.cwd, `{"pattern":"`+tt.pattern+`"}`)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		if got := r.Content[0].Text; got != tt.want {
			t.Errorf("%s in %s = %q, want %q", tt.pattern, tt.cwd, got, tt.want)
		}
	}
}

// With ignore files honoured (CLAUDE_CODE_GLOB_NO_IGNORE=false), a
// pattern that names an ignored folder ("dist/*.go", a dependency under
// node_modules) finds its files, as ripgrep searches a folder given to it;
// ignore rules still apply inside a folder that is named, and a pattern
// naming no folder still leaves ignored files out.
func TestPatternNamingAnIgnoredFolderFindsItsFiles(t *testing.T) {
	// fixture's .gitignore holds "dist/" and "*.log"
	dir := fixture(t, ".git/HEAD", ".gitignore", "dist/e.go", "dist/sub/f.go", "dist/x.log", "a.go")
	for _, tt := range []struct{ pattern, want string }{
		{"dist/*.go", "dist/e.go"},
		{"dist/**/*.go", "dist/sub/f.go\ndist/e.go"},
		{"dist/*", "dist/e.go"}, // x.log stays ignored
		{"**/*.go", "a.go"},
		{"nope/*.go", "No files found"},
	} {
		r, err := runWith(t, Options{RespectIgnore: true}, dir, `{"pattern":"`+tt.pattern+`"}`)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		if got := r.Content[0].Text; got != tt.want {
			t.Errorf("%s = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}
