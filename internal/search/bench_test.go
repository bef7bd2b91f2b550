package search

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkSearchGoroot searches the Go source tree; bench/grep compares
// the same searches with ripgrep.
func BenchmarkSearchGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	cases := []struct {
		name    string
		pattern string
		opts    MatchOptions
		mode    Mode
	}{
		{"literal/files", "ErrUnexpectedEOF", MatchOptions{}, FilesWithMatches},
		{"literal/content", "ErrUnexpectedEOF", MatchOptions{}, Content},
		{"fold/content", "content-length", MatchOptions{IgnoreCase: true}, Content},
		{"regexp/content", `func New[A-Z]\w*Reader`, MatchOptions{}, Content},
		{"alternation/content", `(Marshal|Unmarshal)JSON`, MatchOptions{}, Content},
		{"noliteral/count", `[A-Z]{3}[0-9]`, MatchOptions{}, Count},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m, err := Compile(c.pattern, c.opts)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Search(context.Background(), root, m, Options{Mode: c.mode}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWalkGoroot lists every file of the Go source tree.
func BenchmarkWalkGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	for b.Loop() {
		if _, _, err := Glob(context.Background(), root, "**/*.go", WalkOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
