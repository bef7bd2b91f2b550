package frontmatter

import (
	"strings"
	"testing"
	"unicode"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"---",
		"---\n---\n",
		"---\ndescription: Fix: x\n---\nbody $ARGUMENTS",
		"\ufeff---\r\ntools: Read, Bash(git:*)\r\n---\r\n",
		"---\nhooks:\n  Stop:\n    - hooks: [{type: command, command: x}]\n---\n",
		"---\n- a\n---\n",
		"---\na: &x [*x]\n---\n",
		"---\nargument-hint: [a] [b]\nstar: *\n---\n",
		"---\na: b\n",
		"no frontmatter at all\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %v is %T, want *Error", err, err)
			}
			return
		}
		if !doc.Present && doc.Body != normalize(src) {
			t.Fatalf("without frontmatter the body must be the whole text")
		}
		if doc.Present && !strings.HasSuffix(normalize(src), doc.Body) {
			t.Fatalf("body %q is not the tail of the text", doc.Body)
		}
		for _, k := range doc.Fields.Keys() {
			_ = doc.Fields.String(k)
			_ = doc.Fields.List(k)
			_, _ = doc.Fields.Bool(k)
			_, _, _ = doc.Fields.Int(k)
			var v any
			_ = doc.Fields.Decode(k, &v)
			if !doc.Fields.Has(k) || doc.Fields.Line(k) < 2 {
				t.Fatalf("key %q: Has/Line inconsistent", k)
			}
		}
	})
}

func FuzzSplitList(f *testing.F) {
	for _, s := range []string{"Read, Grep", "Bash(git add:*) Read", "((", "a,,b", " x\t\ny "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		items := SplitList(s)
		for _, it := range items {
			if it == "" || strings.TrimSpace(it) != it {
				t.Fatalf("item %q is empty or untrimmed", it)
			}
		}
		if !strings.ContainsAny(s, "()") {
			want := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
			if strings.Join(want, "\x00") != strings.Join(items, "\x00") {
				t.Fatalf("SplitList(%q) = %q, want %q", s, items, want)
			}
		}
	})
}
