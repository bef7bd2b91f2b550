package mdrender

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzRender checks that any input renders without panicking, within the
// width, without trailing spaces or control characters, and without
// losing any paragraph's text.
func FuzzRender(f *testing.F) {
	for _, name := range goldenInputs(f) {
		f.Add(readInput(f, name), uint8(20), false)
	}
	for _, s := range []string{
		"", "*", "**a*", "_a_b_", "`", "``a`", "[a](", "[a]: <", "<a", "&#x;", "&#99999999;",
		"> > > > > > > > > > > > > > > > > > > > > > x", strings.Repeat("- ", 40) + "x",
		"|a|\n|-|\n|" + strings.Repeat("中", 30) + "|", "1.\n2.\n\n3.", "```\n\t\tx\n```",
		"\x1b[2J\r\n\x00", "a\u0301\u0301\u0301 👨‍👩‍👧‍👦 🇯🇵", "- [ ]\n- [x]", "***\n---\n___",
		"<div>\n\n<pre>\na\n</pre>", "[x]\n\n[x]: /u\n[x]: /v", "    a\n  b", "a  \n", "\\",
	} {
		f.Add(s, uint8(0), true)
	}
	f.Fuzz(func(t *testing.T, src string, w uint8, color bool) {
		width := MinWidth + int(w)%110
		out := Render(src, Options{Width: width, Color: color, Hyperlinks: true})
		checkLayout(t, src, out, width)
		if color {
			return
		}
		for i := 0; i < len(out); i++ {
			if c := out[i]; (c < ' ' && c != '\n') || c == 0x7f {
				t.Fatalf("control byte %#x in plain output at %d: %q", c, i, out)
			}
		}
		checkParagraphText(t, src, out)
	})
}

// checkParagraphText asserts that the text of every paragraph appears in
// the output, in order: the characters other than spaces form a
// subsequence of the output's (the output adds margins and URLs).
func checkParagraphText(t *testing.T, src, out string) {
	t.Helper()
	doc, refs := parseBlocks(normalize(src))
	var want []rune
	var walk func(b *block)
	walk = func(b *block) {
		if b.kind == kParagraph {
			nodes, head := parseInlines(strings.Join(b.lines, "\n"), refs)
			for _, r := range plainText(nodes, head) {
				if !unicode.IsSpace(r) {
					want = append(want, unicode.ToLower(r))
				}
			}
		}
		for _, c := range b.children {
			walk(c)
		}
	}
	walk(doc)
	i := 0
	for _, r := range out {
		if i < len(want) && unicode.ToLower(r) == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Fatalf("paragraph text lost at %q (rune %d of %d)\ninput: %q\noutput:\n%s", string(want[i:min(len(want), i+20)]), i, len(want), src, out)
	}
}
