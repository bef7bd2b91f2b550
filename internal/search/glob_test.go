package search

import (
	"context"
	"errors"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestGlobMatching(t *testing.T) {
	tests := []struct {
		glob  string
		path  string
		isDir bool
		want  bool
	}{
		{"*.go", "a.go", false, true},
		{"*.go", "x/y/a.go", false, true},
		{"*.go", "a.go/b", false, false},
		{"a.go", "x/a.go", false, true},
		{"/a.go", "x/a.go", false, false},
		{"/a.go", "a.go", false, true},
		{"x/*.go", "x/a.go", false, true},
		{"x/*.go", "x/y/a.go", false, false},
		{"x/*.go", "y/x/a.go", false, false},
		{"**/x/*.go", "y/x/a.go", false, true},
		{"**/x/*.go", "x/a.go", false, true},
		{"x/**", "x/a/b/c", false, true},
		{"x/**/c", "x/c", false, true},
		{"x/**/c", "x/a/b/c", false, true},
		{"x/**/c", "y/x/c", false, false},
		{"**/*.go", "a.go", false, true},
		{"**/*.go", "d/e/a.go", false, true},
		{"build/", "build", true, true},
		{"build/", "build", false, false},
		{"a?c", "abc", false, true},
		{"a?c", "a/c", false, false},
		{"[a-c]x", "bx", false, true},
		{"[!a-c]x", "dx", false, true},
		{"[!a-c]x", "bx", false, false},
		{"[]]x", "]x", false, true},
		{"*.{ts,tsx}", "a.tsx", false, true},
		{"*.{ts,tsx}", "a.js", false, false},
		{"a\\*b", "a*b", false, true},
		{"a\\*b", "axb", false, false},
		{"foo*", "foobar", false, true},
		{"*é", "café", false, true},
		{"[é]", "é", false, true},
		{"a**b", "axxb", false, true},
		{"a**b", "a/b", false, false},
	}
	for _, tt := range tests {
		g, ok, err := parseGlob(tt.glob)
		if err != nil || !ok {
			t.Fatalf("parseGlob(%q) = %v, %v", tt.glob, ok, err)
		}
		if got := g.match(tt.path, path.Base(tt.path), tt.isDir); got != tt.want {
			t.Errorf("%q matches %q (dir %v) = %v, want %v", tt.glob, tt.path, tt.isDir, got, tt.want)
		}
	}
}

func TestIgnoreFileSyntax(t *testing.T) {
	rs := parseRules([]byte("# comment\n\n*.log\n!keep.log\n\\#literal\n\\!bang\ntrailing   \nescaped\\ \r\n[bad\n"))
	tests := []struct {
		name string
		want verdict
	}{
		{"x.log", ignored},
		{"keep.log", whitelisted},
		{"#literal", ignored},
		{"!bang", ignored},
		{"trailing", ignored},
		{"escaped ", ignored},
		{"# comment", noVerdict},
		{"[bad", noVerdict},
		{"other", noVerdict},
	}
	for _, tt := range tests {
		if got := rs.match(tt.name, tt.name, false); got != tt.want {
			t.Errorf("%q: verdict %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestGlobErrors(t *testing.T) {
	for _, g := range []string{"[abc", "{a,b", "a\\", "[z-a]"} {
		_, _, err := parseGlob(g)
		var ge *GlobError
		if !errors.As(err, &ge) || ge.Glob != g {
			t.Errorf("parseGlob(%q) err = %v, want a *GlobError naming it", g, err)
		}
	}
}

func TestSplitGlobs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"*.go", []string{"*.go"}},
		{"*.js,*.ts", []string{"*.js", "*.ts"}},
		{"*.js *.ts", []string{"*.js", "*.ts"}},
		{"*.{ts,tsx} !*.d.ts", []string{"*.{ts,tsx}", "!*.d.ts"}},
		{" , ", nil},
	}
	for _, tt := range tests {
		if got := SplitGlobs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitGlobs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGlobListsFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".git/":          "",
		".gitignore":     "dist/\n*.log\n",
		"a.go":           "",
		"src/b.go":       "",
		"src/deep/c.go":  "",
		"src/d.ts":       "",
		"dist/e.go":      "",
		".github/f.yml":  "",
		"x.log":          "",
		"other/src/g.go": "",
	})
	tests := []struct {
		pattern string
		opts    WalkOptions
		want    []string
	}{
		{"**/*.go", WalkOptions{}, []string{"a.go", "other/src/g.go", "src/b.go", "src/deep/c.go"}},
		{"*.go", WalkOptions{}, []string{"a.go", "other/src/g.go", "src/b.go", "src/deep/c.go"}},
		{"src/**/*.go", WalkOptions{}, []string{"src/b.go", "src/deep/c.go"}},
		{"src/*", WalkOptions{}, []string{"src/b.go", "src/d.ts"}},
		{"**/*.yml", WalkOptions{Hidden: true}, []string{".github/f.yml"}},
		{"**/*.yml", WalkOptions{}, nil},
		{"nope/**", WalkOptions{}, nil},
		{"dist/*.go", WalkOptions{}, nil},
		{"*.log", WalkOptions{}, nil},
	}
	for _, tt := range tests {
		files, _, err := Glob(context.Background(), dir, tt.pattern, tt.opts)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		var got []string
		for _, f := range files {
			got = append(got, strings.TrimPrefix(f.Path, dir+"/"))
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Glob(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
	if _, _, err := Glob(context.Background(), dir, "src/[x", WalkOptions{}); err == nil {
		t.Error("an invalid glob gave no error")
	}
}

// FuzzGlobFastPathsAgreeWithRegexp checks that the shortcuts parseGlob
// takes for simple patterns decide like the general translation.
func FuzzGlobFastPathsAgreeWithRegexp(f *testing.F) {
	for _, s := range []string{"*.go", "foo*", "a.go", "x/*.go", "**/a", "a/**", "[a-c]?", "*.{ts,tsx}", "\\!x", "!y/", "#c"} {
		f.Add(s, "x/a.go")
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		g, ok, err := parseGlob(pattern)
		if err != nil || !ok {
			return
		}
		name := path.Base(p)
		got := g.match(p, name, true)
		body := g.lit
		switch g.kind {
		case globSuffix:
			body = "*" + escapeGlob(g.lit)
		case globPrefix:
			body = escapeGlob(g.lit) + "*"
		case globLiteral:
			body = escapeGlob(g.lit)
		default:
			return
		}
		expr, err := globRegexp(body)
		if err != nil {
			t.Fatalf("%q: fast path taken but translation fails: %v", pattern, err)
		}
		target := name
		if g.anchored {
			target = p
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return // invalid UTF-8: only the literal paths can match it
		}
		if want := re.MatchString(target); got != want {
			t.Fatalf("%q on %q: fast path says %v, regexp %q says %v", pattern, p, got, expr, want)
		}
	})
}

func escapeGlob(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(globMeta+",}", s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// FuzzWalkOptions feeds arbitrary glob and type arguments to the option
// parsing: it must answer with a filter or an error, never panic.
func FuzzWalkOptions(f *testing.F) {
	f.Add("*.{ts,tsx} !*.d.ts", "go")
	f.Add("[", "klingon")
	f.Add("{a,{b,c}}", "py,make")
	f.Fuzz(func(t *testing.T, globs, types string) {
		var tl []string
		if types != "" {
			tl = strings.Split(types, ",")
		}
		flt, err := newFilter(WalkOptions{Globs: SplitGlobs(globs), Types: tl})
		if err == nil && flt == nil {
			t.Fatal("no filter and no error")
		}
		if err == nil {
			flt.skip(nil, "/d", "x/y.go", "y.go", false)
			flt.skip(nil, "/d", "x", "x", true)
		}
	})
}
