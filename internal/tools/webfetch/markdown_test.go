package webfetch

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHTMLToMarkdown(t *testing.T) {
	base, _ := url.Parse("https://example.com/docs/page.html")
	for _, tc := range []struct{ name, html, want string }{
		{"heading and paragraph", `<html><head><title>T</title><style>p{}</style></head><body><h1>Title</h1><p>Some <b>bold</b> and <i>it</i>.</p></body></html>`,
			"# Title\n\nSome **bold** and *it*."},
		{"unclosed paragraphs", `<p>one<p>two<div>three</div>`, "one\n\ntwo\n\nthree"},
		{"links resolved", `<p><a href="/x">abs</a> <a href="y.html#z">rel</a> <a href="https://o.org/">ext</a> <a href="javascript:go()">js</a> <a href="/e"></a></p>`,
			"[abs](https://example.com/x) [rel](https://example.com/docs/y.html#z) [ext](https://o.org/) js"},
		{"image", `<p><img src="a.png" alt="A cat"> <img src="data:image/png;base64,xx" alt="inline"></p>`, "![A cat](https://example.com/docs/a.png) inline"},
		{"nested lists", `<ul><li>a<ul><li>a1</li><li>a2</li></ul></li><li>b</ul><ol start="3"><li>c<li>d</ol>`,
			"- a\n  - a1\n  - a2\n- b\n\n3. c\n4. d"},
		{"code block with language", "<pre><code class=\"language-go\">func main() {\n\tfmt.Println(\"&lt;hi&gt;\")\n}\n</code></pre>",
			"```go\nfunc main() {\n\tfmt.Println(\"<hi>\")\n}\n```"},
		{"inline code", `<p>Run <code>go test ./...</code> or <code>a` + "`" + `b</code></p>`, "Run `go test ./...` or ``a`b``"},
		{"blockquote", `<blockquote><p>one</p><p>two</p></blockquote>`, "> one\n>\n> two"},
		{"table", `<table><thead><tr><th>Flag</th><th>Default</th></tr></thead><tbody><tr><td>--fast</td><td>off</td></tr><tr><td>a|b</td></tr></tbody></table>`,
			"| Flag | Default |\n| --- | --- |\n| --fast | off |\n| a\\|b |  |"},
		{"line breaks and spaces", "<p>first\n   line<br>second&nbsp;line</p>", "first line\nsecond line"},
		{"entities", `<p>&amp; &lt;tag&gt; &copy; &eacute; &#233; &#xE9; &#8212; &#150; &bogus; &amp</p>`, "& <tag> © é é é — – &bogus; &"},
		{"script and comments dropped", `<p>a<!-- hidden -->b</p><script>alert("</p>")</script><noscript>x</noscript><p>c</p>`, "ab\n\nc"},
		{"stray end tags and junk", `</div><p>x</span> y</p> <3 a<b`, "x y\n\n<3 a"},
		{"headings levels", `<h2>Two</h2><h6>Six <a href="#s">link</a></h6>`, "## Two\n\n###### Six [link](https://example.com/docs/page.html#s)"},
		{"definition list", `<dl><dt>Term</dt><dd>Meaning</dd></dl>`, "**Term**\n: Meaning"},
		{"horizontal rule", `<p>a</p><hr><p>b</p>`, "a\n\n---\n\nb"},
		{"uppercase tags and attributes", `<P CLASS=x>Hi <A HREF='/u'>U</A></P>`, "Hi [U](https://example.com/u)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := htmlToMarkdown(tc.html, base); got != tc.want {
				t.Errorf("htmlToMarkdown(%q)\n got %q\nwant %q", tc.html, got, tc.want)
			}
		})
	}
}

func TestToUTF8(t *testing.T) {
	for _, tc := range []struct {
		body, ctype string
		html        bool
		want        string
	}{
		{"caf\xe9", "text/html; charset=iso-8859-1", true, "café"},
		{"\x93quoted\x94", "text/plain; charset=windows-1252", false, "\u201cquoted\u201d"},
		{`<meta charset="latin1"><p>caf` + "\xe9", "text/html", true, `<meta charset="latin1"><p>café`},
		{`<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">` + "\xe9", "", true, `<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">é`},
		{"caf\xc3\xa9", "text/html", true, "café"},
		{"caf\xe9", "text/html", true, "café"}, // not UTF-8 and nothing declared
		{"\xef\xbb\xbfhi", "text/plain; charset=latin1", false, "hi"},
		{"\xff\xfeh\x00i\x00", "", false, "hi"},
		{"bad \xff utf8", "text/plain; charset=utf-8", false, "bad \uFFFD utf8"},
	} {
		if got := toUTF8([]byte(tc.body), tc.ctype, tc.html); got != tc.want {
			t.Errorf("toUTF8(%q, %q) = %q, want %q", tc.body, tc.ctype, got, tc.want)
		}
	}
}

func FuzzHTMLToMarkdown(f *testing.F) {
	for _, s := range []string{"<p>a<b>b", "<table><tr><td>x<td>y<tr><th>z", "<ul><li><ol><li>x", "&#x110000;&#0;&#xd800;",
		"<a href='x", "<pre>\n```\n</pre>", "<script>", "<!--", "<", "</", "<a b=c d='e' f=\"g\" h>", "\xff\xfe<p>"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://example.com/")
	f.Fuzz(func(t *testing.T, s string) {
		out := htmlToMarkdown(s, base)
		if !utf8.ValidString(out) && utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 out of valid input %q: %q", s, out)
		}
		if strings.Contains(out, hardBreak) {
			t.Fatalf("break marker left in %q", out)
		}
	})
}
