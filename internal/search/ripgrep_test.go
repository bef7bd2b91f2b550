package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ripgrep returns the path of rg. Without it the test is skipped, except
// in CI (CI=true), where ripgrep is installed and its absence is a
// failure.
func ripgrep(t *testing.T) string {
	t.Helper()
	rg, err := exec.LookPath("rg")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("ripgrep (rg) is not installed; CI must install it (apt-get install -y ripgrep)")
		}
		t.Skip("ripgrep (rg) is not installed; skipping the comparison with it")
	}
	return rg
}

// TestSameMatchesAsRipgrep runs the same searches with ripgrep and with
// Search over a tree full of ignore files, hidden files, binary files and
// file types, and expects identical answers.
func TestSameMatchesAsRipgrep(t *testing.T) {
	rg := ripgrep(t)
	dir := t.TempDir()
	big := strings.Repeat("filler line without the word\n", 3000) // > 64 KiB
	writeTree(t, dir, map[string]string{
		".git/HEAD":                "ref: refs/heads/main\n",
		".git/info/exclude":        "excluded.txt\n",
		".gitignore":               "*.log\nbuild/\n/top.txt\n!keep.log\ndocs/**/draft*\n",
		".ignore":                  "ignored-by-dot-ignore.go\n",
		".rgignore":                "!rescued.log\n",
		"main.go":                  "package main\n\nfunc main() {\n\tprintln(\"needle\")\n}\n",
		"util.go":                  "package main\n\n// Needle in a comment\nfunc helper() int { return 1 }\n",
		"top.txt":                  "needle at the top\n",
		"sub/top.txt":              "needle one level down\n",
		"debug.log":                "needle in a log\n",
		"keep.log":                 "needle kept\n",
		"rescued.log":              "needle rescued\n",
		"excluded.txt":             "needle excluded\n",
		"ignored-by-dot-ignore.go": "needle\n",
		"build/out.go":             "needle built\n",
		"docs/a/draft-1.md":        "needle draft\n",
		"docs/a/final.md":          "# Final\n\nneedle final\nNEEDLE shouting\n",
		".hidden/secret.go":        "needle hidden\n",
		".env":                     "NEEDLE=1\n",
		"data.bin":                 "needle\x00binary\n",
		"late.bin":                 "needle early\n" + big + "\x00 then needle late\n",
		"web/app.ts":               "const needle = 1;\n\nexport function find(x: string) {\n  return x;\n}\n",
		"web/app.test.ts":          "test('needle', () => {});\n",
		"web/style.css":            ".needle { color: red; }\n",
		"py/tool.py":               "def needle():\n    pass\n\nclass Needle:\n    pass\n",
		"Makefile":                 "needle:\n\techo needle\n",
		"crlf.txt":                 "needle\r\nline two\r\n",
		"nested/.gitignore":        "*.md\n!keep.md\n",
		"nested/x.md":              "needle\n",
		"nested/keep.md":           "needle kept md\n",
		"nested/deeper/y.md":       "needle deeper\n",
	})
	tests := []struct {
		name string
		args []string // ripgrep's flags
		pat  string
		opts MatchOptions
		sopt Options
	}{
		{"files", []string{"-l"}, "needle", MatchOptions{}, Options{}},
		{"files ignoring case", []string{"-l", "-i"}, "needle", MatchOptions{IgnoreCase: true}, Options{}},
		{"content", []string{"-n"}, "needle", MatchOptions{}, Options{Mode: Content}},
		{"content with context", []string{"-n", "-C", "1"}, `return|pass`, MatchOptions{}, Options{Mode: Content, Before: 1, After: 1}},
		{"count", []string{"-c"}, `\bneedle\b`, MatchOptions{}, Options{Mode: Count}},
		{"hidden", []string{"-l", "-i", "--hidden"}, "needle", MatchOptions{IgnoreCase: true}, Options{Walk: WalkOptions{Hidden: true}}},
		{"no ignore", []string{"-l", "--no-ignore"}, "needle", MatchOptions{}, Options{Walk: WalkOptions{NoIgnore: true}}},
		{"type", []string{"-l", "-t", "ts", "-t", "py"}, "needle", MatchOptions{IgnoreCase: true}, Options{Walk: WalkOptions{Types: []string{"ts", "py"}}}},
		{"globs", []string{"-l", "-g", "*.{ts,go}", "-g", "!*.test.ts"}, "needle", MatchOptions{}, Options{Walk: WalkOptions{Globs: []string{"*.{ts,go}", "!*.test.ts"}}}},
		{"glob beats gitignore", []string{"-l", "-g", "*.log"}, "needle", MatchOptions{}, Options{Walk: WalkOptions{Globs: []string{"*.log"}}}},
		{"anchored glob", []string{"-l", "-g", "docs/**"}, "needle", MatchOptions{}, Options{Walk: WalkOptions{Globs: []string{"docs/**"}}}},
		{"regexp", []string{"-n"}, `func \w+\(`, MatchOptions{}, Options{Mode: Content}},
		{"line anchors", []string{"-n"}, `^needle$`, MatchOptions{}, Options{Mode: Content}},
		{"multiline", []string{"-n", "-U", "--multiline-dotall"}, `class Needle:.*?pass`, MatchOptions{Multiline: true}, Options{Mode: Content}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--no-heading", "--with-filename", "--color=never", "--no-config"}, tt.args...)
			cmd := exec.Command(rg, append(args, "-e", tt.pat, ".")...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "RIPGREP_CONFIG_PATH=")
			out, err := cmd.Output()
			var ee *exec.ExitError
			if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
				t.Fatalf("rg: %v", err)
			}
			// Only the final newline goes: TrimSpace would also take the
			// CR of crlf.txt's line whenever ripgrep's parallel walk
			// happened to print it last.
			want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			want = slices.DeleteFunc(want, func(s string) bool {
				return s == "" || s == "--" || strings.Contains(s, ": WARNING: stopped searching binary file")
			})
			for i, s := range want {
				want[i] = strings.TrimPrefix(s, "./")
			}
			slices.Sort(want)

			m, err := Compile(tt.pat, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Search(context.Background(), dir, m, tt.sopt)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Files {
				rel, _ := filepath.Rel(dir, f.Path)
				switch tt.sopt.Mode {
				case FilesWithMatches:
					got = append(got, rel)
				case Count:
					got = append(got, fmt.Sprintf("%s:%d", rel, f.Count))
				case Content:
					if strings.HasSuffix(rel, "late.bin") != f.Stopped {
						t.Errorf("%s: Stopped = %v", rel, f.Stopped)
					}
					for _, l := range f.Lines {
						sep := ":"
						if l.Context {
							sep = "-"
						}
						got = append(got, fmt.Sprintf("%s%s%d%s%s", rel, sep, l.Num, sep, l.Text))
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				// Quoted, so that a difference in invisible bytes shows.
				t.Errorf("search gives\n  %q\nripgrep gives\n  %q", got, want)
			}
		})
	}
}
