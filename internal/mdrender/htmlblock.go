package mdrender

import "strings"

// htmlStart reports which CommonMark HTML block start condition (1-7) the
// line matches, or 0. Condition 7 (any lone tag) cannot interrupt a
// paragraph.
func htmlStart(rest string, inParagraph bool) int {
	if len(rest) < 2 || rest[0] != '<' {
		return 0
	}
	s := rest[1:]
	switch {
	case strings.HasPrefix(s, "!--"):
		return 2
	case s[0] == '?':
		return 3
	case strings.HasPrefix(s, "![CDATA["):
		return 5
	case s[0] == '!' && len(s) > 1 && isASCIILetter(s[1]):
		return 4
	}
	closing := s[0] == '/'
	if closing {
		s = s[1:]
	}
	n := 0
	for n < len(s) && (isASCIILetter(s[n]) || (n > 0 && (isDigit(s[n]) || s[n] == '-'))) {
		n++
	}
	if n == 0 {
		return 0
	}
	name := strings.ToLower(s[:n])
	after := s[n:]
	if !closing && isRawTag(name) && (after == "" || after[0] == ' ' || after[0] == '>') {
		return 1
	}
	if isBlockTag(name) && (after == "" || after[0] == ' ' || after[0] == '>' || strings.HasPrefix(after, "/>")) {
		return 6
	}
	if inParagraph {
		return 0
	}
	// Condition 7: a complete tag alone on the line.
	t := strings.TrimRight(after, " ")
	if strings.HasSuffix(t, ">") && strings.IndexByte(t[:len(t)-1], '>') < 0 && strings.IndexByte(t, '<') < 0 &&
		(t[0] == ' ' || t[0] == '>' || t[0] == '/') {
		return 7
	}
	return 0
}

func htmlEnds(cond int, line string) bool {
	switch cond {
	case 1:
		l := strings.ToLower(line)
		return strings.Contains(l, "</script>") || strings.Contains(l, "</pre>") ||
			strings.Contains(l, "</style>") || strings.Contains(l, "</textarea>")
	case 2:
		return strings.Contains(line, "-->")
	case 3:
		return strings.Contains(line, "?>")
	case 4:
		return strings.IndexByte(line, '>') >= 0
	case 5:
		return strings.Contains(line, "]]>")
	}
	return false
}

func isRawTag(name string) bool {
	switch name {
	case "script", "pre", "style", "textarea":
		return true
	}
	return false
}

func isBlockTag(name string) bool {
	switch name {
	case "address", "article", "aside", "base", "basefont", "blockquote", "body",
		"caption", "center", "col", "colgroup", "dd", "details", "dialog", "dir",
		"div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
		"frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header",
		"hr", "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem",
		"nav", "noframes", "ol", "optgroup", "option", "p", "param", "search",
		"section", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
		"title", "tr", "track", "ul":
		return true
	}
	return false
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
