package fsutil

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestExpandHomeReplacesOnlyALeadingTilde(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	tests := []struct{ in, want string }{
		{"~", home},
		{"~/notes/a.txt", filepath.Join(home, "notes/a.txt")},
		{"~user/a.txt", "~user/a.txt"},
		{"a/~/b", "a/~/b"},
		{"/abs/~", "/abs/~"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ExpandHome(tt.in); got != tt.want {
			t.Errorf("ExpandHome(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRequireAbsSuggestsTheHomeFolderForTilde(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	err := RequireAbs("file_path", "~/a.txt", "/work")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(home, "a.txt")) || strings.Contains(err.Error(), "/work/~") {
		t.Errorf("RequireAbs(~/a.txt) = %v", err)
	}
	err = RequireAbs("file_path", "src/a.go", "/work")
	if err == nil || !strings.Contains(err.Error(), "/work/src/a.go") {
		t.Errorf("RequireAbs(src/a.go) = %v", err)
	}
}
