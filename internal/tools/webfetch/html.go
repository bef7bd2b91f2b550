package webfetch

// This file parses HTML into a small tree, forgivingly, the way pages in
// the wild need: unclosed paragraphs and list items, stray end tags,
// unquoted attributes, raw-text elements (script, style). It keeps what
// the Markdown conversion needs — elements, their attributes and text —
// and drops comments, doctypes and processing instructions.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// node is an element or a text run. A text node has no tag.
type node struct {
	tag      string // lower case; "" for text
	attrs    map[string]string
	text     string // text nodes only
	children []*node
	parent   *node
}

func (n *node) attr(name string) string { return n.attrs[name] }

// voidElements never have content.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// rawTextElements hold text up to their end tag, with no markup inside.
var rawTextElements = map[string]bool{
	"script": true, "style": true, "textarea": true, "title": true, "xmp": true, "iframe": true,
	"noembed": true, "noframes": true, "noscript": true,
}

// closesP lists the elements whose start ends an open paragraph.
var closesP = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "details": true, "div": true, "dl": true,
	"fieldset": true, "figcaption": true, "figure": true, "footer": true, "form": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "header": true, "hr": true, "main": true, "nav": true, "ol": true,
	"p": true, "pre": true, "section": true, "table": true, "ul": true,
}

// parseHTML builds the tree of s. It never fails: anything it cannot make
// sense of is kept as text or dropped.
func parseHTML(s string) *node {
	root := &node{tag: "#root"}
	cur := root
	depth := 0 // of cur below root
	open := func(n *node) {
		n.parent = cur
		cur.children = append(cur.children, n)
	}
	// closeTo pops up to and including the nearest open element named one
	// of names, unless a boundary element comes first; it reports whether
	// it found one.
	closeTo := func(boundary map[string]bool, names ...string) bool {
		d := depth
		for n := cur; n != nil && n != root && d > depth-maxCloseSearch; n = n.parent {
			for _, name := range names {
				if n.tag == name {
					cur, depth = n.parent, d-1
					return true
				}
			}
			d--
			if boundary[n.tag] {
				return false
			}
		}
		return false
	}
	listBoundary := map[string]bool{"ul": true, "ol": true, "menu": true, "table": true}
	tableBoundary := map[string]bool{"table": true}
	dlBoundary := map[string]bool{"dl": true}
	pBoundary := map[string]bool{"button": true, "table": true, "li": true, "td": true, "th": true, "blockquote": true, "div": true}
	for i := 0; i < len(s); {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			open(&node{text: decodeEntities(s[i:])})
			break
		}
		if lt > 0 {
			open(&node{text: decodeEntities(s[i : i+lt])})
			i += lt
		}
		// s[i] == '<'
		rest := s[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return root
			}
			i += 4 + end + 3
			continue
		case strings.HasPrefix(rest, "<!") || strings.HasPrefix(rest, "<?"):
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return root
			}
			i += end + 1
			continue
		case strings.HasPrefix(rest, "</"):
			name, _ := tagName(rest[2:])
			if name == "" {
				open(&node{text: "</"})
				i += 2
				continue
			}
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return root
			}
			i += end + 1
			switch name {
			case "p":
				if !closeTo(closesP, "p") {
					open(&node{tag: "p"}) // a stray </p> is an empty paragraph
				}
			case "li":
				closeTo(listBoundary, "li")
			case "tr", "td", "th", "thead", "tbody", "tfoot", "caption":
				closeTo(tableBoundary, name)
			case "dt", "dd":
				closeTo(dlBoundary, name)
			default:
				closeTo(nil, name)
			}
			continue
		}
		name, n := tagName(rest[1:])
		if name == "" {
			open(&node{text: "<"})
			i++
			continue
		}
		attrs, selfClosing, m := parseAttrs(rest[1+n:])
		if m < 0 {
			// An unterminated tag at the end: drop it.
			return root
		}
		i += 1 + n + m
		switch name {
		case "li":
			closeTo(listBoundary, "li")
		case "dt", "dd":
			closeTo(dlBoundary, "dt", "dd")
		case "tr":
			closeTo(tableBoundary, "td", "th")
			closeTo(tableBoundary, "tr")
		case "td", "th":
			closeTo(tableBoundary, "td", "th")
		case "thead", "tbody", "tfoot":
			closeTo(tableBoundary, "td", "th")
			closeTo(tableBoundary, "tr")
			closeTo(tableBoundary, "thead", "tbody", "tfoot")
		case "option":
			closeTo(nil, "option")
		}
		if closesP[name] {
			closeTo(pBoundary, "p")
		}
		el := &node{tag: name, attrs: attrs}
		open(el)
		if rawTextElements[name] {
			end := indexFold(s[i:], "</"+name)
			if end < 0 {
				end = len(s) - i
			}
			if name != "script" && name != "style" {
				el.children = []*node{{text: decodeEntities(s[i : i+end]), parent: el}}
			}
			i += end
			if gt := strings.IndexByte(s[i:], '>'); gt >= 0 {
				i += gt + 1
			} else {
				i = len(s)
			}
			continue
		}
		if voidElements[name] || selfClosing {
			continue
		}
		if depth >= maxDepth {
			continue // deeper content stays at this level
		}
		if name == "pre" || name == "textarea" || name == "listing" {
			// A newline right after the start tag is not content.
			if strings.HasPrefix(s[i:], "\r\n") {
				i += 2
			} else if strings.HasPrefix(s[i:], "\n") {
				i++
			}
		}
		cur = el
		depth++
	}
	return root
}

// maxDepth bounds the tree's depth and maxCloseSearch how far up an end
// tag looks for its element, so that a pathological page costs linear
// time and stack.
const (
	maxDepth       = 256
	maxCloseSearch = 64
)

// tagName reads an element name at the start of s, lower-cased, and
// its length; "" when s does not start with one.
func tagName(s string) (string, int) {
	n := 0
	for n < len(s) {
		c := s[n]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || n > 0 && (c >= '0' && c <= '9' || c == '-' || c == ':' || c == '_' || c == '.') {
			n++
			continue
		}
		break
	}
	if n == 0 {
		return "", 0
	}
	return strings.ToLower(s[:n]), n
}

// parseAttrs reads attributes up to the tag's ">", returning them, whether
// the tag ends with "/>", and how many bytes it read (-1 when no ">").
func parseAttrs(s string) (map[string]string, bool, int) {
	var attrs map[string]string
	i := 0
	for {
		for i < len(s) && isHTMLSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return nil, false, -1
		}
		switch s[i] {
		case '>':
			return attrs, false, i + 1
		case '/':
			if i+1 < len(s) && s[i+1] == '>' {
				return attrs, true, i + 2
			}
			i++
			continue
		}
		start := i
		for i < len(s) && !isHTMLSpace(s[i]) && s[i] != '=' && s[i] != '>' && !(s[i] == '/' && i+1 < len(s) && s[i+1] == '>') {
			i++
		}
		name := strings.ToLower(s[start:i])
		for i < len(s) && isHTMLSpace(s[i]) {
			i++
		}
		val := ""
		if i < len(s) && s[i] == '=' {
			i++
			for i < len(s) && isHTMLSpace(s[i]) {
				i++
			}
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				q := s[i]
				end := strings.IndexByte(s[i+1:], q)
				if end < 0 {
					return nil, false, -1
				}
				val = s[i+1 : i+1+end]
				i += end + 2
			} else {
				vs := i
				for i < len(s) && !isHTMLSpace(s[i]) && s[i] != '>' {
					i++
				}
				val = s[vs:i]
			}
		}
		if name != "" {
			if attrs == nil {
				attrs = map[string]string{}
			}
			if _, dup := attrs[name]; !dup {
				attrs[name] = decodeEntities(val)
			}
		}
	}
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// indexFold is strings.Index ignoring ASCII case in s.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// decodeEntities replaces character references: &name; for the names a
// page is likely to use, &#n; and &#xn;. Unknown names stay as written.
func decodeEntities(s string) string {
	amp := strings.IndexByte(s, '&')
	if amp < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	sb.WriteString(s[:amp])
	for i := amp; i < len(s); {
		if s[i] != '&' {
			j := strings.IndexByte(s[i:], '&')
			if j < 0 {
				sb.WriteString(s[i:])
				break
			}
			sb.WriteString(s[i : i+j])
			i += j
			continue
		}
		r, n := entityAt(s[i:])
		if n == 0 {
			sb.WriteByte('&')
			i++
			continue
		}
		sb.WriteString(r)
		i += n
	}
	return sb.String()
}

// entityAt decodes the reference at the start of s ("&..."), returning
// its text and length, or 0 when there is none.
func entityAt(s string) (string, int) {
	if len(s) > 2 && s[1] == '#' {
		j, base := 2, 10
		if s[2] == 'x' || s[2] == 'X' {
			j, base = 3, 16
		}
		k := j
		for k < len(s) && k-j < 8 && (s[k] >= '0' && s[k] <= '9' || base == 16 && (s[k]|0x20 >= 'a' && s[k]|0x20 <= 'f')) {
			k++
		}
		if k == j {
			return "", 0
		}
		v, err := strconv.ParseUint(s[j:k], base, 32)
		r := rune(v)
		if err != nil || r == 0 || r > utf8.MaxRune || r >= 0xD800 && r < 0xE000 {
			r = utf8.RuneError
		} else if r >= 0x80 && r < 0xA0 {
			if m := cp1252[r-0x80]; m != 0 {
				r = m // what browsers do with these references
			}
		}
		if k < len(s) && s[k] == ';' {
			k++
		}
		return string(r), k
	}
	k := 1
	for k < len(s) && k < 32 && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= '0' && s[k] <= '9') {
		k++
	}
	if k == 1 {
		return "", 0
	}
	name := s[1:k]
	semi := k < len(s) && s[k] == ';'
	if !semi {
		// Only the oldest names work without the semicolon.
		switch name {
		case "amp", "lt", "gt", "quot", "nbsp", "copy", "reg":
		default:
			return "", 0
		}
	}
	r := namedEntity(name)
	if r == "" {
		return "", 0
	}
	if semi {
		k++
	}
	return r, k
}
