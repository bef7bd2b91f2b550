package mdrender

import (
	"strings"
	"sync"
	"testing"
)

func TestRenderPlainKeepsStructure(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		width int
		want  string
	}{
		{"atx headings keep their marks", "# One\n## Two ##\n###### Six #", 40, "# One\n\n## Two\n\n###### Six"},
		{"setext headings", "Title\n=====\nSub\n---", 40, "# Title\n\n## Sub"},
		{"heading wraps under its text", "## a long heading text", 12, "## a long\n   heading\n   text"},
		{"soft break is a space", "a\nb", 40, "a b"},
		{"hard break by two spaces", "a  \nb", 40, "a\nb"},
		{"hard break by backslash", "a\\\nb", 40, "a\nb"},
		{"br tag is a hard break", "a<br>b<BR />c", 40, "a\nb\nc"},
		{"repeated breaks leave a blank line", "a<br><br>b", 40, "a\n\nb"},
		{"breaks at a paragraph's ends are dropped", "<br>\\\na<br><br>", 40, "a"},
		{"words wrap at the width", "aaa bbb ccc ddd", 10, "aaa bbb\nccc ddd"},
		{"runs of spaces show as one", "a    b", 40, "a b"},
		{"long word is broken at the width", "abcdefghijklmnop", 10, "abcdefghij\nklmnop"},
		{"long word starts a new line", "ab abcdefghijklmnop", 10, "ab\nabcdefghij\nklmnop"},
		{"paragraphs are separated by one blank line", "a\n\n\n\nb", 40, "a\n\nb"},
		{"fenced code is indented and kept verbatim", "```\nx := 1\n  y  \n```", 40, "  x := 1\n    y"},
		{"tilde fence and info string", "~~~python title\nprint(1)\n~~~", 40, "  print(1)"},
		{"unclosed fence runs to the end", "```\na\n\nb", 40, "  a\n\n  b"},
		{"indented code", "    code\n\n    more\n", 40, "  code\n\n  more"},
		{"code lines longer than the width break", "```\n0123456789abcdef\n```", 10, "  01234567\n  89abcdef"},
		{"tabs expand to four columns", "```\n\tx\n```", 40, "      x"},
		{"tabs stop at columns of four after text", "```\na\tb\n中\tc\nab\r\n```", 40, "  a   b\n  中  c\n  ab"},
		{"lone CR ends a line", "```\na\rb\n```", 40, "  a\n  b"},
		{"quote", "> a\n> b", 40, "│ a b"},
		{"nested quotes", "> a\n>\n> > b", 40, "│ a\n│\n│ │ b"},
		{"lazy continuation joins the quote", "> a\nb", 40, "│ a b"},
		{"empty quote", ">", 40, "│"},
		{"quote holds a list", "> - a\n> - b", 40, "│ • a\n│ • b"},
		{"tight nested bullets", "- a\n  - b\n    - c\n- d", 40, "• a\n  ◦ b\n    ▪ c\n• d"},
		{"loose list has blank lines", "- a\n\n- b", 40, "• a\n\n• b"},
		{"list item wraps under its text", "- one two three four", 12, "• one two\n  three four"},
		{"ordered list aligns numbers", "9. a\n10. b", 40, " 9. a\n10. b"},
		{"ordered list keeps its start and delimiter", "3) a\n4) b", 40, "3) a\n4) b"},
		{"different bullet starts a new list", "- a\n+ b", 40, "• a\n\n• b"},
		{"ordered list may not interrupt a paragraph unless it starts at 1", "a\n2. b", 40, "a 2. b"},
		{"empty item", "-\n- b", 40, "•\n• b"},
		{"task list", "- [ ] todo\n- [x] done\n- [X] also", 40, "[ ] todo\n[x] done\n[x] also"},
		{"brackets that are not a task", "- [a] b", 40, "• [a] b"},
		{"code in a tight item is set apart", "- a:\n  ```\n  x\n  ```\n- b", 40, "• a:\n\n    x\n\n• b"},
		{"loose item with code", "1. a\n\n   ```\n   x\n   ```\n\n   b", 40, "1. a\n\n     x\n\n   b"},
		{"thematic break fills the width", "a\n\n***\n\nb", 10, "a\n\n──────────\n\nb"},
		{"dashes under a paragraph make a heading, not a rule", "a\n---", 40, "## a"},
		{"html block is shown as text", "<div>\n*x*\n</div>", 40, "<div>\n*x*\n</div>"},
		{"html comment ends its block on its line", "<!-- note -->\ntext", 40, "<!-- note -->\n\ntext"},
		{"html block runs to a blank line", "<div>\ntext\n\nafter", 40, "<div>\ntext\n\nafter"},
		{"inline html stays", "press <kbd>q</kbd>", 40, "press <kbd>q</kbd>"},
		{"emphasis markers go", "*a* **b** ***c*** _d_ __e__", 40, "a b c d e"},
		{"intraword underscores stay", "snake_case_name", 40, "snake_case_name"},
		{"unmatched delimiters stay", "a * b ** c", 40, "a * b ** c"},
		{"inline code keeps backticks", "use `go test` now", 40, "use `go test` now"},
		{"inline code with a backtick inside", "``a`b``", 40, "`a`b`"},
		{"code span is not parsed", "`*a* [b](c)`", 40, "`*a* [b](c)`"},
		{"strikethrough keeps tildes", "~~old~~ new", 40, "~~old~~ new"},
		{"single tilde is text", "~5 min", 40, "~5 min"},
		{"link shows its URL", "[text](http://x.y)", 40, "text (http://x.y)"},
		{"link whose text is its URL shows once", "[http://x.y](http://x.y)", 40, "http://x.y"},
		{"link with title", `[t](/u "title")`, 40, "t (/u)"},
		{"link with angle destination", "[t](<a b>)", 40, "t (a b)"},
		{"empty link text shows the URL", "[](http://x.y)", 40, "http://x.y"},
		{"autolink", "<http://x.y/z>", 40, "http://x.y/z"},
		{"email autolink", "<a@b.co>", 40, "a@b.co"},
		{"bare URL", "see https://a.b/c.", 40, "see https://a.b/c."},
		{"bare URL in parentheses", "(https://a.b/c_(d))", 40, "(https://a.b/c_(d))"},
		{"www link", "www.example.com/x", 40, "www.example.com/x"},
		{"reference link", "[t][r]\n\n[r]: /u", 40, "t (/u)"},
		{"collapsed reference", "[r][]\n\n[R]: /u 'x'", 40, "r (/u)"},
		{"shortcut reference", "[r]\n\n[r]: /u", 40, "r (/u)"},
		{"undefined reference stays", "[x] and [y][z]", 40, "[x] and [y][z]"},
		{"definition alone renders nothing", "[r]: /u", 40, ""},
		{"no link inside a link", "[a [b](c)](d)", 40, "[a b (c)](d)"},
		{"image", "![alt text](a.png)", 40, "[image: alt text](a.png)"},
		{"image without URL", "![alt]()", 40, "[image: alt]"},
		{"backslash escapes", `\*a\* \_b\_ \# \\ \q`, 40, `*a* _b_ # \ \q`},
		{"entities", "&amp; &lt;b&gt; &copy; &#65; &#x263A; &bogus; &#0;", 40, "& <b> © A ☺ &bogus; \uFFFD"},
		{"control characters are neutralised", "a\x1b[31mb\x07", 40, "a\uFFFD[31mb\uFFFD"},
		{"CRLF line ends", "a\r\nb\r\n\r\nc", 40, "a b\n\nc"},
		{"invalid UTF-8 is replaced", "a\xffb", 40, "a\uFFFDb"},
		{"empty input", "", 40, ""},
		{"blank input", "\n\n  \n", 40, ""},
		{"wide characters break between them", "中文字符测试文本", 10, "中文字符测\n试文本"},
		{"no line starts with closing punctuation", "中文字符测，试", 10, "中文字符\n测，试"},
		{"emoji count two columns", "👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽", 10, "👍🏽👍🏽👍🏽👍🏽👍🏽\n👍🏽"},
		{"combining marks take no column", "éééééééééé x", 10, "éééééééééé\nx"},
		{"width below the minimum is raised", "aaa bbb ccc", 1, "aaa bbb\nccc"},
		{"zero width means 80", strings.Repeat("a ", 50), 0, strings.TrimSpace(strings.Repeat("a ", 40)) + "\n" + strings.TrimSpace(strings.Repeat("a ", 10))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.src, Options{Width: tt.width})
			if got != tt.want {
				t.Errorf("Render(%q, %d)\n got: %q\nwant: %q\n%s", tt.src, tt.width, got, tt.want, got)
			}
		})
	}
}

func TestRenderTables(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		width int
		want  string
	}{
		{"natural widths and alignment", "| a | bb | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n| xxxx | y | zz |", 40,
			"┌──────┬────┬────┐\n" +
				"│ a    │ bb │  c │\n" +
				"├──────┼────┼────┤\n" +
				"│ 1    │ 2  │  3 │\n" +
				"│ xxxx │ y  │ zz │\n" +
				"└──────┴────┴────┘"},
		{"inline markup and escaped pipes in cells", "| a | b |\n|---|---|\n| `x\\|y` | **z** |", 40,
			"┌───────┬───┐\n" +
				"│ a     │ b │\n" +
				"├───────┼───┤\n" +
				"│ `x|y` │ z │\n" +
				"└───────┴───┘"},
		{"short and long rows", "a | b\n--|--\n1\n1 | 2 | 3", 40,
			"┌───┬───┐\n" +
				"│ a │ b │\n" +
				"├───┼───┤\n" +
				"│ 1 │   │\n" +
				"│ 1 │ 2 │\n" +
				"└───┴───┘"},
		{"cells wrap and rows get rules when a row wraps", "| key | text |\n|---|---|\n| a | one two three four five six |\n| b | x |", 28,
			"┌─────┬────────────────────┐\n" +
				"│ key │ text               │\n" +
				"├─────┼────────────────────┤\n" +
				"│ a   │ one two three four │\n" +
				"│     │ five six           │\n" +
				"├─────┼────────────────────┤\n" +
				"│ b   │ x                  │\n" +
				"└─────┴────────────────────┘"},
		{"too narrow for a box becomes records", "| name | value |\n|---|---|\n| a | 1 |\n| b | 2 |", 12,
			"name: a\nvalue: 1\n\nname: b\nvalue: 2"},
		{"table ends at a blank line", "| a |\n|---|\n| 1 |\n\nafter", 40,
			"┌───┐\n│ a │\n├───┤\n│ 1 │\n└───┘\n\nafter"},
		{"paragraph line before the header stays a paragraph", "intro\n| a |\n|---|\n| 1 |", 40,
			"intro\n\n┌───┐\n│ a │\n├───┤\n│ 1 │\n└───┘"},
		{"delimiter row with a different column count is text", "| a | b |\n|---|\n", 40, "| a | b | |---|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.src, Options{Width: tt.width})
			if got != tt.want {
				t.Errorf("Render(%q, %d)\n got: %q\nwant: %q\n%s", tt.src, tt.width, got, tt.want, got)
			}
		})
	}
}

func TestRenderColorStyles(t *testing.T) {
	tests := []struct {
		name string
		src  string
		opts Options
		want string
	}{
		{"emphasis and strong", "*a* **b**", Options{}, "\x1b[3ma\x1b[m \x1b[1mb\x1b[m"},
		{"nested emphasis combines", "**a *b***", Options{}, "\x1b[1ma \x1b[m\x1b[1;3mb\x1b[m"},
		{"heading 1 without marks", "# H", Options{}, "\x1b[1;4mH\x1b[m"},
		{"heading 2", "## H", Options{}, "\x1b[1mH\x1b[m"},
		{"heading 3 and deeper", "#### H", Options{}, "\x1b[1;3mH\x1b[m"},
		{"inline code without backticks", "`c`", Options{}, "\x1b[38;5;117mc\x1b[m"},
		{"strikethrough without tildes", "~~s~~", Options{}, "\x1b[9ms\x1b[m"},
		{"quote bar and dim text", "> q", Options{}, "\x1b[38;5;242m│ \x1b[m\x1b[2;3mq\x1b[m"},
		{"link text and URL", "[t](u)", Options{}, "\x1b[4;38;5;111mt\x1b[m \x1b[38;5;244m(u)\x1b[m"},
		{"bare URL without trailing dot", "x https://a.b.", Options{}, "x \x1b[4;38;5;111mhttps://a.b\x1b[m."},
		{"hyperlinks", "[t](u)", Options{Hyperlinks: true},
			"\x1b]8;;u\x1b\\\x1b[4;38;5;111mt\x1b]8;;\x1b\\\x1b[m \x1b[38;5;244m(u)\x1b[m"},
		{"bullet style", "- a", Options{}, "\x1b[38;5;245m• \x1b[ma"},
		{"checked task", "- [x] a", Options{}, "\x1b[38;5;245m[✓] \x1b[ma"},
		{"rule", "---", Options{Width: 10}, "\x1b[38;5;240m──────────\x1b[m"},
		{"diff lines", "```diff\n+a\n-b\n@@ x\n```", Options{}, "  \x1b[38;5;114m+a\x1b[m\n  \x1b[38;5;203m-b\x1b[m\n  \x1b[38;5;80m@@ x\x1b[m"},
		{"go keywords, strings, numbers", "```go\nreturn \"s\", 1\n```", Options{},
			"  \x1b[38;5;176mreturn\x1b[m \x1b[38;5;114m\"s\"\x1b[m, \x1b[38;5;173m1\x1b[m"},
		{"unknown language is plain", "```brainfuck\n+[-]\n```", Options{}, "  +[-]"},
		{"table header bold, borders dim", "|a|\n|-|\n|b|", Options{},
			"\x1b[38;5;240m┌───┐\x1b[m\n\x1b[38;5;240m│ \x1b[m\x1b[1ma\x1b[m\x1b[38;5;240m │\x1b[m\n\x1b[38;5;240m├───┤\x1b[m\n" +
				"\x1b[38;5;240m│ \x1b[mb\x1b[38;5;240m │\x1b[m\n\x1b[38;5;240m└───┘\x1b[m"},
		{"custom theme", "**b**", Options{Theme: &Theme{Strong: "7"}}, "\x1b[7mb\x1b[m"},
		{"empty theme style writes no escape", "*a*", Options{Theme: &Theme{}}, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Color = true
			got := Render(tt.src, tt.opts)
			if got != tt.want {
				t.Errorf("Render(%q)\n got: %q\nwant: %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestRenderPlainHasNoEscapes(t *testing.T) {
	for _, name := range goldenInputs(t) {
		src := readInput(t, name)
		for _, w := range []int{20, 80} {
			got := Render(src, Options{Width: w, Hyperlinks: true})
			if i := strings.IndexByte(got, 0x1b); i >= 0 {
				t.Errorf("%s at %d: escape in plain output at byte %d: %q", name, w, i, got[max(0, i-20):min(len(got), i+20)])
			}
		}
	}
}

func TestRenderIsSafeForConcurrentUse(t *testing.T) {
	src := readInput(t, "answer.md")
	want := Render(src, Options{Width: 60, Color: true})
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if got := Render(src, Options{Width: 60, Color: true}); got != want {
					errs <- got
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for got := range errs {
		t.Errorf("concurrent render differs:\n%s", got)
	}
}
