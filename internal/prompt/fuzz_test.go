package prompt

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// FuzzImportRefs: any text yields references that appear in it after an
// "@", never span lines, and are never empty.
func FuzzImportRefs(f *testing.F) {
	for _, s := range []string{
		"@a.md `@b` ```\n@c\n``` @d\\ e.md",
		"~~~~\n@x\n~~~\n    @y\n- l\n\n    @z",
		"`` ` `` @a ``` @b",
		"@\\",
		"\t@a\r\n@b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, ref := range importRefs(text) {
			if ref == "" || strings.ContainsAny(ref, "\n\r\t") {
				t.Fatalf("bad reference %q", ref)
			}
			if !strings.Contains(text, "@"+strings.ReplaceAll(ref, " ", `\ `)) && !strings.Contains(text, "@"+ref) {
				t.Fatalf("reference %q does not occur in the text", ref)
			}
		}
	})
}

// FuzzParseRule: any rule file gives a body and only valid globs, and a
// rule without usable frontmatter applies everywhere.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{
		"---\npaths: \"**/*.go\"\n---\nbody",
		"---\npaths:\n  - src/**/*.{ts,tsx}\n  - \"[bad\"\n---\nx",
		"---\nglobs: a, b\n---\n",
		"---\npaths: [unclosed\n---\nbody",
		"---\nno end",
		"\xef\xbb\xbf---\r\npaths: x\r\n---\r\nwindows",
		"plain",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m := &Memory{}
		body, globs := m.parseRule("rule.md", text)
		for _, g := range globs {
			if !doublestar.ValidatePattern(g) {
				t.Fatalf("invalid glob %q returned", g)
			}
		}
		if !strings.HasPrefix(strings.TrimLeft(text, "\xef\xbb\xbf"), "---") && globs != nil {
			t.Fatalf("globs %q from text without frontmatter", globs)
		}
		if len(body) > len(text) {
			t.Fatalf("body longer than the file")
		}
		f := File{Paths: globs, BaseDir: "/base"}
		f.matches("/base/src/a.go")
	})
}
