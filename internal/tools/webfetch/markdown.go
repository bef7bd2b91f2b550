package webfetch

// This file turns the parsed page into Markdown for the model: headings,
// paragraphs, emphasis, links and images (made absolute), lists, block
// quotes, code blocks with their language, and tables as pipe tables.
// Scripts, styles, forms and embedded media are dropped.

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// htmlToMarkdown converts the HTML page s, fetched from base, to Markdown.
func htmlToMarkdown(s string, base *url.URL) string {
	root := parseHTML(s)
	c := &mdConv{base: base}
	body := root
	if b := find(root, "body"); b != nil {
		body = b
	}
	return strings.TrimSpace(c.blocks(body.children))
}

type mdConv struct {
	base *url.URL
}

// find returns the first element named tag, depth first.
func find(n *node, tag string) *node {
	for _, c := range n.children {
		if c.tag == tag {
			return c
		}
		if f := find(c, tag); f != nil {
			return f
		}
	}
	return nil
}

// skipped elements carry nothing for a reader.
func skipped(tag string) bool {
	switch tag {
	case "head", "script", "style", "noscript", "template", "svg", "math", "iframe", "object", "embed", "canvas",
		"audio", "video", "map", "select", "option", "button", "input", "textarea", "form", "dialog", "title", "meta", "link":
		return true
	}
	return false
}

// blockTag reports the elements that start a block of their own.
func blockTag(tag string) bool {
	switch tag {
	case "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "address", "figure",
		"figcaption", "details", "summary", "center", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "menu", "li",
		"dl", "dt", "dd", "pre", "blockquote", "table", "hr", "html", "body", "fieldset", "legend", "caption",
		"thead", "tbody", "tfoot", "tr", "td", "th", "hgroup", "search":
		return true
	}
	return false
}

// blocks renders a sequence of nodes as blocks separated by blank lines;
// runs of inline content become paragraphs.
func (c *mdConv) blocks(nodes []*node) string {
	var out []string
	var inline []*node
	flush := func() {
		if len(inline) == 0 {
			return
		}
		if p := c.paragraph(inline); p != "" {
			out = append(out, p)
		}
		inline = nil
	}
	for _, n := range nodes {
		if n.tag == "" || !blockTag(n.tag) {
			if !skipped(n.tag) {
				inline = append(inline, n)
			}
			continue
		}
		flush()
		if b := c.block(n); b != "" {
			out = append(out, b)
		}
	}
	flush()
	return strings.Join(out, "\n\n")
}

// block renders one block element.
func (c *mdConv) block(n *node) string {
	switch n.tag {
	case "h1", "h2", "h3", "h4", "h5", "h6":
		text := c.paragraph(n.children)
		if text == "" {
			return ""
		}
		return strings.Repeat("#", int(n.tag[1]-'0')) + " " + strings.ReplaceAll(text, "\n", " ")
	case "hr":
		return "---"
	case "pre":
		return c.codeBlock(n)
	case "blockquote":
		inner := c.blocks(n.children)
		if inner == "" {
			return ""
		}
		return prefixLines(inner, "> ", "> ")
	case "ul", "ol", "menu":
		return c.list(n)
	case "li":
		// An item outside a list: a bullet of its own.
		return c.item(n, "- ")
	case "table":
		return c.table(n)
	case "dl":
		var parts []string
		for _, ch := range n.children {
			switch ch.tag {
			case "dt":
				if t := c.paragraph(ch.children); t != "" {
					parts = append(parts, "**"+t+"**")
				}
			case "dd":
				if t := c.blocks(ch.children); t != "" {
					parts = append(parts, prefixLines(t, ": ", "  "))
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return c.blocks(n.children)
}

// list renders a list's items, one line per item start; nested blocks
// are indented under their item.
func (c *mdConv) list(n *node) string {
	ordered := n.tag == "ol"
	num := 1
	if v, err := strconv.Atoi(strings.TrimSpace(n.attr("start"))); err == nil && ordered {
		num = v
	}
	var items []string
	for _, ch := range n.children {
		if ch.tag == "" && strings.TrimSpace(ch.text) == "" {
			continue
		}
		marker := "- "
		if ordered {
			marker = strconv.Itoa(num) + ". "
		}
		var it string
		if ch.tag == "li" {
			it = c.item(ch, marker)
		} else {
			it = c.item(&node{tag: "li", children: []*node{ch}}, marker)
		}
		if it != "" {
			items = append(items, it)
			num++
		}
	}
	return strings.Join(items, "\n")
}

// item renders one list item under marker.
func (c *mdConv) item(n *node, marker string) string {
	inner := c.blocks(n.children)
	if inner == "" {
		return ""
	}
	// Blocks inside an item are kept together (a tight list).
	inner = strings.ReplaceAll(inner, "\n\n", "\n")
	return prefixLines(inner, marker, strings.Repeat(" ", len(marker)))
}

// codeBlock renders <pre> as a fenced block, with the language a class
// names ("language-go", "lang-go").
func (c *mdConv) codeBlock(n *node) string {
	text := strings.TrimRight(rawText(n), "\n\r\t ")
	if strings.TrimSpace(text) == "" {
		return ""
	}
	lang := language(n.attr("class"))
	if lang == "" {
		if code := find(n, "code"); code != nil {
			lang = language(code.attr("class"))
		}
	}
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + text + "\n" + fence
}

func language(class string) string {
	for _, f := range strings.Fields(class) {
		for _, p := range []string{"language-", "lang-"} {
			if l, ok := strings.CutPrefix(f, p); ok && l != "" {
				return l
			}
		}
	}
	return ""
}

// rawText is the text below n as written, <br> as a newline.
func rawText(n *node) string {
	var sb strings.Builder
	var walk func(*node)
	walk = func(n *node) {
		for _, ch := range n.children {
			switch {
			case ch.tag == "":
				sb.WriteString(ch.text)
			case ch.tag == "br":
				sb.WriteByte('\n')
			case !skipped(ch.tag) || ch.tag == "textarea":
				walk(ch)
			}
		}
	}
	walk(n)
	return sb.String()
}

// table renders a table as a pipe table; the first row is the header.
func (c *mdConv) table(n *node) string {
	var rows [][]string
	var walk func(*node)
	walk = func(n *node) {
		for _, ch := range n.children {
			switch ch.tag {
			case "tr":
				var cells []string
				for _, cell := range ch.children {
					if cell.tag == "td" || cell.tag == "th" {
						t := c.paragraph(cell.children)
						t = strings.ReplaceAll(strings.ReplaceAll(t, "\n", " "), "|", `\|`)
						cells = append(cells, t)
					}
				}
				if len(cells) > 0 {
					rows = append(rows, cells)
				}
			case "thead", "tbody", "tfoot":
				walk(ch)
			}
		}
	}
	walk(n)
	if len(rows) == 0 {
		return c.blocks(n.children)
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	line := func(cells []string) string {
		var sb strings.Builder
		sb.WriteString("|")
		for i := range cols {
			cell := ""
			if i < len(cells) {
				cell = cells[i]
			}
			sb.WriteString(" " + cell + " |")
		}
		return sb.String()
	}
	out := []string{line(rows[0]), line(slices.Repeat([]string{"---"}, cols))}
	for _, r := range rows[1:] {
		out = append(out, line(r))
	}
	var caption string
	if cap := find(n, "caption"); cap != nil {
		caption = c.paragraph(cap.children)
	}
	if caption != "" {
		return caption + "\n\n" + strings.Join(out, "\n")
	}
	return strings.Join(out, "\n")
}

// hardBreak stands for <br> until white space is collapsed.
const hardBreak = "\x00br\x00"

// paragraph renders inline content: white space collapsed, <br> as a
// line break.
func (c *mdConv) paragraph(nodes []*node) string {
	var sb strings.Builder
	for _, n := range nodes {
		c.inline(&sb, n)
	}
	text := collapseSpace(sb.String())
	if strings.Contains(text, hardBreak) {
		parts := strings.Split(text, hardBreak)
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		text = strings.TrimSpace(strings.Join(parts, "\n"))
	}
	return text
}

// collapseSpace turns each run of HTML white space into one space and
// trims the ends.
func collapseSpace(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		if isHTMLSpace(s[i]) {
			space = true
			continue
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		space = false
		sb.WriteByte(s[i])
	}
	return strings.ReplaceAll(sb.String(), "\u00a0", " ")
}

// inline writes n as inline Markdown.
func (c *mdConv) inline(sb *strings.Builder, n *node) {
	if n.tag == "" {
		sb.WriteString(n.text)
		return
	}
	if skipped(n.tag) {
		return
	}
	switch n.tag {
	case "br":
		sb.WriteString(hardBreak)
	case "strong", "b":
		wrap(sb, "**", c.inlineText(n))
	case "em", "i", "cite", "dfn":
		wrap(sb, "*", c.inlineText(n))
	case "del", "s", "strike":
		wrap(sb, "~~", c.inlineText(n))
	case "code", "kbd", "samp", "tt", "var":
		t := collapseSpace(rawText(n))
		if t == "" {
			return
		}
		tick := "`"
		for strings.Contains(t, tick) {
			tick += "`"
		}
		pad := ""
		if strings.HasPrefix(t, "`") || strings.HasSuffix(t, "`") {
			pad = " "
		}
		sb.WriteString(tick + pad + t + pad + tick)
	case "a":
		text := c.inlineText(n)
		href := c.resolve(n.attr("href"))
		switch {
		case href == "" || strings.HasPrefix(strings.ToLower(href), "javascript:"):
			sb.WriteString(text)
		case text == "":
		default:
			sb.WriteString("[" + text + "](" + href + ")")
		}
	case "img":
		src := c.resolve(n.attr("src"))
		if src == "" || strings.HasPrefix(src, "data:") {
			if alt := strings.TrimSpace(n.attr("alt")); alt != "" {
				sb.WriteString(alt)
			}
			return
		}
		sb.WriteString("![" + collapseSpace(n.attr("alt")) + "](" + src + ")")
	default:
		if blockTag(n.tag) {
			// A block inside inline content: keep its words apart.
			sb.WriteString(" " + c.inlineText(n) + " ")
			return
		}
		for _, ch := range n.children {
			c.inline(sb, ch)
		}
	}
}

// inlineText renders n's children inline, collapsed.
func (c *mdConv) inlineText(n *node) string {
	var sb strings.Builder
	for _, ch := range n.children {
		c.inline(&sb, ch)
	}
	return strings.TrimSpace(strings.ReplaceAll(collapseSpace(sb.String()), hardBreak, " "))
}

// wrap writes text between marks, keeping the space around it outside.
func wrap(sb *strings.Builder, mark, text string) {
	if text == "" {
		return
	}
	sb.WriteString(mark + text + mark)
}

// resolve makes a link absolute against the page's address.
func (c *mdConv) resolve(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || c.base == nil {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return c.base.ResolveReference(u).String()
}

// prefixLines puts first before the first line of s and rest before the
// others (empty lines get rest without trailing space).
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" {
			lines[i] = strings.TrimRight(p, " ")
		} else {
			lines[i] = p + l
		}
	}
	return strings.Join(lines, "\n")
}
