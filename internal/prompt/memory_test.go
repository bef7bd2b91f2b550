package prompt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates files under root; a value starting with "->" makes a
// symbolic link to the rest of the value.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixture is a machine with managed, user, project, local and extra
// memory, imports (one cycle), rules with and without paths, a nested
// folder and a link to a file already loaded.
func fixture(t *testing.T) (root string, o MemoryOptions) {
	root = t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	writeTree(t, root, map[string]string{
		"etc/reins/CLAUDE.md":                "Managed: never upload code.",
		"home/.claude/CLAUDE.md":             "User: prefer tabs.\nSee @~/notes/personal.md for more.",
		"home/notes/personal.md":             "Personal notes.",
		"home/.claude/rules/style.md":        "User rule: short names.",
		"home/.claude/rules/go.md":           "---\npaths: \"**/*.go\"\n---\nGo rule: wrap errors.",
		"home/.reins/AGENTS.md":              "Reins agents file.",
		"work/CLAUDE.md":                     "Work-wide guidance.",
		"work/repo/CLAUDE.md":                "Repo main.\n@docs/a.md\nNot `@docs/not.md` here,\n```\n@docs/not.md\n```\nand @missing/file.md is gone. Mail me at a@b.com.",
		"work/repo/docs/a.md":                "Doc A, which imports @b.md.",
		"work/repo/docs/b.md":                "Doc B, which imports @a.md back.",
		"work/repo/docs/not.md":              "MUST NOT LOAD",
		"work/repo/AGENTS.md":                "Repo agents.",
		"work/repo/.claude/CLAUDE.md":        "->../CLAUDE.md",
		"work/repo/.claude/rules/t.md":       "Testing rule: table tests.",
		"work/repo/.claude/rules/web/tsx.md": "---\npaths:\n  - \"web/**/*.tsx\"\n---\nTSX rule.",
		"work/repo/CLAUDE.local.md":          "Local: my sandbox URL.",
		"work/repo/sub/CLAUDE.md":            "Sub-folder rule.",
		"work/repo/sub/deeper/x.go":          "package x",
		"extra/CLAUDE.md":                    "Extra folder.",
	})
	o = MemoryOptions{
		Cwd:          filepath.Join(root, "work", "repo"),
		Home:         filepath.Join(root, "home"),
		ManagedDirs:  []string{filepath.Join(root, "etc", "claude-code"), filepath.Join(root, "etc", "reins")},
		AddDirs:      []string{filepath.Join(root, "extra")},
		AddDirMemory: true,
		TopDir:       root,
	}
	return root, o
}

func relPaths(root string, files []File) []string {
	var out []string
	for _, f := range files {
		rel, _ := filepath.Rel(root, f.Path)
		out = append(out, string(f.Kind)+" "+filepath.ToSlash(rel))
	}
	return out
}

func TestLoadMemoryOrderAndDedup(t *testing.T) {
	root, o := fixture(t)
	m := LoadMemory(o)
	got := relPaths(root, m.Files())
	want := []string{
		"managed etc/reins/CLAUDE.md",
		"user home/.claude/CLAUDE.md",
		"user home/notes/personal.md",
		"user home/.claude/rules/style.md",
		"user home/.reins/AGENTS.md",
		"project work/CLAUDE.md",
		"project work/repo/CLAUDE.md",
		"project work/repo/docs/a.md",
		"project work/repo/docs/b.md",
		"project work/repo/AGENTS.md",
		"project work/repo/.claude/rules/t.md",
		"local work/repo/CLAUDE.local.md",
		"additional extra/CLAUDE.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range m.Files() {
		if strings.Contains(f.Content, "MUST NOT LOAD") || strings.Contains(f.Content, "TSX rule") || strings.Contains(f.Content, "Go rule") {
			t.Errorf("%s loaded but should not be", f.Path)
		}
	}
	warns := strings.Join(m.Warnings(), "\n")
	for _, w := range []string{"import cycle", "@missing/file.md not found"} {
		if !strings.Contains(warns, w) {
			t.Errorf("warnings lack %q:\n%s", w, warns)
		}
	}
	if strings.Contains(warns, "b.com") {
		t.Errorf("an e-mail address was taken for an import:\n%s", warns)
	}
}

func TestUserContextGolden(t *testing.T) {
	root, o := fixture(t)
	got := LoadMemory(o).UserContext("2026-11-29")
	golden(t, "usercontext.golden", strings.ReplaceAll(got, root, "$ROOT"))
}

func TestUserContextWithoutMemory(t *testing.T) {
	if got := UserContext(nil, ""); got != "" {
		t.Errorf("no files, no date: %q", got)
	}
	got := UserContext([]File{{Path: "/x", Kind: KindUser, Content: "  "}}, "2026-01-01")
	if strings.Contains(got, "/x") || !strings.Contains(got, "Today's date is 2026-01-01.") || !strings.HasPrefix(got, "<system-reminder>\n") {
		t.Errorf("date-only context = %q", got)
	}
}

func TestTouchLoadsNestedMemoryAndMatchingRulesOnce(t *testing.T) {
	root, o := fixture(t)
	m := LoadMemory(o)
	goFile := filepath.Join(o.Cwd, "sub", "deeper", "x.go")
	got := m.Touch(goFile)
	for _, want := range []string{"Sub-folder rule.", "Go rule: wrap errors.", "x.go", "files matching **/*.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("first touch lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "TSX rule") || strings.Contains(got, "Repo main") {
		t.Errorf("first touch loaded too much:\n%s", got)
	}
	if again := m.Touch(filepath.Join(o.Cwd, "sub", "other.go")); again != "" {
		t.Errorf("second touch in the same folder returned %q; want nothing new", again)
	}
	tsx := m.Touch(filepath.Join(o.Cwd, "web", "app", "page.tsx"))
	if !strings.Contains(tsx, "TSX rule.") {
		t.Errorf("touching a .tsx file did not apply the tsx rule:\n%s", tsx)
	}
	if out := m.Touch(filepath.Join(root, "elsewhere", "y.go")); out != "" {
		t.Errorf("a file outside the working folder loaded %q", out)
	}
	if out := m.Touch("sub/deeper/x.go"); out != "" {
		t.Errorf("a relative path already seen loaded %q", out)
	}
	// After compaction the nested files come back on the next touch.
	m.ForgetNested()
	if again := m.Touch(goFile); again != got {
		t.Errorf("after ForgetNested the touch returned\n%s\nwant\n%s", again, got)
	}
}

func TestTouchIsSafeConcurrently(t *testing.T) {
	_, o := fixture(t)
	m := LoadMemory(o)
	results := make(chan string, 8)
	for range 8 {
		go func() { results <- m.Touch(filepath.Join(o.Cwd, "sub", "deeper", "x.go")) }()
	}
	loaded := 0
	for range 8 {
		if r := <-results; strings.Contains(r, "Sub-folder rule.") {
			loaded++
		}
	}
	if loaded != 1 {
		t.Errorf("nested memory returned %d times; want once", loaded)
	}
}

func TestImportDepthLimit(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 8 {
		files["p/d"+string(rune('0'+i))+".md"] = "level " + string(rune('0'+i)) + " @d" + string(rune('1'+i)) + ".md"
	}
	files["p/CLAUDE.md"] = "root @d0.md"
	writeTree(t, root, files)
	m := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "p"), Home: filepath.Join(root, "h"), ManagedDirs: []string{}, TopDir: root})
	var levels []string
	for _, f := range m.Files() {
		levels = append(levels, filepath.Base(f.Path))
	}
	// CLAUDE.md is depth 0; d0..d4 are depths 1..5; d5 would be 6.
	want := []string{"CLAUDE.md", "d0.md", "d1.md", "d2.md", "d3.md", "d4.md"}
	if !slices.Equal(levels, want) {
		t.Errorf("loaded %v; want %v", levels, want)
	}
	if !strings.Contains(strings.Join(m.Warnings(), "\n"), "deeper than 5 levels") {
		t.Errorf("no depth warning: %v", m.Warnings())
	}
}

func TestImportResolution(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"h/x.md":               "home file",
		"p/CLAUDE.md":          "see @notes.md. and @sub/y.md#part and @my\\ file.md and @" + filepath.Join(root, "abs.md") + " and @~/x.md",
		"p/notes.md":           "notes",
		"p/sub/y.md":           "sub y",
		"p/my file.md":         "spaced",
		"abs.md":               "absolute",
		"p/.claude/rules/a.md": "---\npaths: [\"src/**\"\n---\nbroken frontmatter",
	})
	m := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "p"), Home: filepath.Join(root, "h"), ManagedDirs: []string{}, TopDir: root, ExternalImports: true})
	var got []string
	for _, f := range m.Files() {
		got = append(got, f.Content)
	}
	want := []string{"see @notes.md. and @sub/y.md#part and @my\\ file.md and @" + filepath.Join(root, "abs.md") + " and @~/x.md",
		"notes", "sub y", "spaced", "absolute", "home file", "broken frontmatter"}
	if !slices.Equal(got, want) {
		t.Errorf("contents %q\nwant %q", got, want)
	}
	if !strings.Contains(strings.Join(m.Warnings(), "\n"), "applied to every file") {
		t.Errorf("no warning for the broken rule: %v", m.Warnings())
	}
}

func TestImportRefs(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"plain", "@a.md and @b/c.md", []string{"a.md", "b/c.md"}},
		{"needs space before", "mail x@y.z or (@p)", nil},
		{"code span", "use `@a.md` or ``x @b.md` `` but @c.md", []string{"c.md"}},
		{"unmatched backtick", "a ` @b.md", []string{"b.md"}},
		{"fence", "```go\n@a.md\n```\n@b.md", []string{"b.md"}},
		{"tilde fence with longer close", "~~~\n@a.md\n~~~~\n@b.md", []string{"b.md"}},
		{"shorter close does not end", "````\n@a.md\n```\n@b.md\n````\n@c.md", []string{"c.md"}},
		{"indented code", "text\n\n    @a.md\n\n@b.md", []string{"b.md"}},
		{"list continuation is not code", "- item\n\n    @a.md", []string{"a.md"}},
		{"escaped space", `@my\ file.md`, []string{"my file.md"}},
		{"line start", "@a.md\n\t@b.md", []string{"a.md", "b.md"}},
		{"bare at", "@ alone @", nil},
	} {
		if got := importRefs(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("%s: importRefs(%q) = %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
