package mdrender

import (
	"strings"
	"testing"
)

// treeString prints an inline tree as HTML-like tags, for tests.
func treeString(src string, refs map[string]linkRef) string {
	nodes, head := parseInlines(src, refs)
	var b strings.Builder
	var walk func(int32)
	walk = func(i int32) {
		for ; i >= 0; i = nodes[i].next {
			n := &nodes[i]
			switch n.kind {
			case iText:
				b.WriteString(n.text)
			case iCode:
				b.WriteString("<code>" + n.text + "</code>")
			case iSoftBreak:
				b.WriteString("\n")
			case iHardBreak:
				b.WriteString("<br>")
			case iEmph, iStrong, iStrike:
				tag := map[ikind]string{iEmph: "em", iStrong: "strong", iStrike: "del"}[n.kind]
				b.WriteString("<" + tag + ">")
				walk(n.first)
				b.WriteString("</" + tag + ">")
			case iLink:
				b.WriteString(`<a href="` + n.dest + `">`)
				walk(n.first)
				b.WriteString("</a>")
			case iImage:
				b.WriteString(`<img src="` + n.dest + `" alt="`)
				walk(n.first)
				b.WriteString(`">`)
			case iAutolink:
				b.WriteString(`<a href="` + n.dest + `">` + n.text + "</a>")
			}
		}
	}
	walk(head)
	return b.String()
}

// The delimiter cases follow the CommonMark specification's examples.
func TestInlineEmphasisFollowsCommonMark(t *testing.T) {
	tests := []struct{ src, want string }{
		{"*foo bar*", "<em>foo bar</em>"},
		{"a * foo bar*", "a * foo bar*"},
		{"foo*bar*", "foo<em>bar</em>"},
		{"_foo_bar", "_foo_bar"},
		{"foo_bar_", "foo_bar_"},
		{"snake_case_name", "snake_case_name"},
		{"__init__", "<strong>init</strong>"},
		{"**foo*bar*baz**", "<strong>foo<em>bar</em>baz</strong>"},
		{"***strong emph***", "<em><strong>strong emph</strong></em>"},
		{"*foo**bar**baz*", "<em>foo<strong>bar</strong>baz</em>"},
		{"**foo*", "*<em>foo</em>"},
		{"*foo**", "<em>foo</em>*"},
		{"foo***bar***baz", "foo<em><strong>bar</strong></em>baz"},
		{"*(*foo*)*", "<em>(<em>foo</em>)</em>"},
		{"**bold**text", "<strong>bold</strong>text"},
		{"**Note:** text", "<strong>Note:</strong> text"},
		{"*a **b** c*", "<em>a <strong>b</strong> c</em>"},
		{"~~a~~", "<del>a</del>"},
		{"~a~", "~a~"},
		{"~~~a~~~", "~~~a~~~"},
		{"**a ~~b~~**", "<strong>a <del>b</del></strong>"},
		{"2 * 3 * 4", "2 * 3 * 4"},
		{"*a\nb*", "<em>a\nb</em>"},
		{"** a **", "** a **"},
		{"*[a*](u)", `*<a href="u">a*</a>`},
		{"[*a*](u)", `<a href="u"><em>a</em></a>`},
		{"[a [b](c)](d)", `[a <a href="c">b</a>](d)`},
		{"![a *b*](i.png)", `<img src="i.png" alt="a <em>b</em>">`},
		{"[a](u 'title') x", `<a href="u">a</a> x`},
		{"[a]( u )", `<a href="u">a</a>`},
		{"[a](b(c)d)", `<a href="b(c)d">a</a>`},
		{"[a](b c)", "[a](b c)"},
		{"`*a*`", "<code>*a*</code>"},
		{"`` a ` b ``", "<code>a ` b</code>"},
		{"` `", "<code> </code>"},
		{"`a\nb`", "<code>a b</code>"},
		{"``unclosed", "``unclosed"},
		{"`a`` b`", "<code>a`` b</code>"},
		{`\*a\*`, "*a*"},
		{"a  \nb", "a<br>b"},
		{"a\\\nb", "a<br>b"},
		{"a\n   b", "a\nb"},
		{"<http://a.b>", `<a href="http://a.b">http://a.b</a>`},
		{"<a@b.co>", `<a href="mailto:a@b.co">a@b.co</a>`},
		{"<not a link>", "<not a link>"},
		{"go to https://x.y/z?a=1, then", `go to <a href="https://x.y/z?a=1">https://x.y/z?a=1</a>, then`},
		{"**https://x.y**", `<strong><a href="https://x.y">https://x.y</a></strong>`},
		{"[https://x.y](https://x.y)", `<a href="https://x.y">https://x.y</a>`},
		{"[see https://x.y](https://x.y)", `<a href="https://x.y">see <a href="https://x.y">https://x.y</a></a>`},
		{"xhttps://a.b", "xhttps://a.b"},
		{"www.go.dev.", `<a href="http://www.go.dev">www.go.dev</a>.`},
		{"&amp;&#x41;&unknown;", "&A&unknown;"},
	}
	for _, tt := range tests {
		if got := treeString(tt.src, nil); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

func TestInlineReferenceLinks(t *testing.T) {
	refs := map[string]linkRef{"foo bar": {dest: "/u"}}
	tests := []struct{ src, want string }{
		{"[x][Foo  Bar]", `<a href="/u">x</a>`},
		{"[foo bar][]", `<a href="/u">foo bar</a>`},
		{"[Foo Bar]", `<a href="/u">Foo Bar</a>`},
		{"[nope]", "[nope]"},
	}
	for _, tt := range tests {
		if got := treeString(tt.src, refs); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}
