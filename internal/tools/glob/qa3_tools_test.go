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
