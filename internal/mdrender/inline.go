package mdrender

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ikind is the type of an inline node.
type ikind uint8

const (
	iText ikind = iota
	iCode
	iSoftBreak
	iHardBreak
	iEmph
	iStrong
	iStrike
	iLink
	iImage
	iAutolink // text is shown, dest is the target
)

// inode is an inline node. Nodes live in one slice and link to each other
// by index (-1 for none), so emphasis and links can regroup runs of nodes
// in constant time.
type inode struct {
	kind        ikind
	text        string
	dest        string
	first, last int32 // children
	prev, next  int32 // siblings
}

// delim is an entry of the delimiter list for emphasis (CommonMark's
// "process emphasis" procedure).
type delim struct {
	node              int32
	ch                byte
	count, orig       int
	canOpen, canClose bool
	prev, next        int32
}

type bracket struct {
	node     int32 // the "[" or "![" text node
	image    bool
	active   bool
	delimTop int32 // last delimiter when the bracket opened
	start    int   // source offset just after the bracket
}

type inlineParser struct {
	src       string
	pos       int
	textStart int // start of the pending run of plain text
	refs      map[string]linkRef

	nodes        []inode
	head, tail   int32
	delims       []delim
	dFirst       int32
	dLast        int32
	brackets     []bracket
	noCloser     [32]bool // code span runs of this length have no closer
	noCloserLong bool
}

// parseInlines parses the inline content of a leaf block and returns the
// node arena and the index of the first top-level node.
func parseInlines(src string, refs map[string]linkRef) ([]inode, int32) {
	p := inlineParser{src: src, refs: refs, head: -1, tail: -1, dFirst: -1, dLast: -1}
	p.nodes = make([]inode, 0, 8+len(src)/8)
	for p.pos < len(src) {
		switch src[p.pos] {
		case '\n':
			p.newline()
		case '\\':
			p.backslash()
		case '`':
			p.codeSpan()
		case '*', '_', '~':
			p.delimRun(src[p.pos])
		case '[':
			p.openBracket(false, 1)
		case '!':
			if p.pos+1 < len(src) && src[p.pos+1] == '[' {
				p.openBracket(true, 2)
			} else {
				p.pos++
			}
		case ']':
			p.closeBracket()
		case '<':
			p.angle()
		case '&':
			p.entity()
		case ':':
			p.bareURL()
		case '.':
			p.bareWWW()
		default:
			p.pos++
		}
	}
	p.flushTo(len(src))
	p.processEmphasis(-1)
	return p.nodes, p.head
}

func (p *inlineParser) newNode(k ikind, text string) int32 {
	p.nodes = append(p.nodes, inode{kind: k, text: text, first: -1, last: -1, prev: -1, next: -1})
	return int32(len(p.nodes) - 1)
}

// push appends a node to the top-level list.
func (p *inlineParser) push(k ikind, text string) int32 {
	i := p.newNode(k, text)
	p.nodes[i].prev = p.tail
	if p.tail >= 0 {
		p.nodes[p.tail].next = i
	} else {
		p.head = i
	}
	p.tail = i
	return i
}

func (p *inlineParser) flushTo(end int) {
	if end > p.textStart {
		p.push(iText, p.src[p.textStart:end])
	}
	p.textStart = end
}

func (p *inlineParser) skipTo(pos int) {
	p.pos = pos
	p.textStart = pos
}

func (p *inlineParser) newline() {
	pending := p.src[p.textStart:p.pos]
	trimmed := strings.TrimRight(pending, " ")
	hard := len(pending)-len(trimmed) >= 2
	if trimmed != "" {
		p.push(iText, trimmed)
	}
	if hard {
		p.push(iHardBreak, "")
	} else {
		p.push(iSoftBreak, "")
	}
	i := p.pos + 1
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	p.skipTo(i)
}

func (p *inlineParser) backslash() {
	if p.pos+1 >= len(p.src) {
		p.pos++
		return
	}
	c := p.src[p.pos+1]
	switch {
	case c == '\n':
		p.flushTo(p.pos)
		p.push(iHardBreak, "")
		i := p.pos + 2
		for i < len(p.src) && p.src[i] == ' ' {
			i++
		}
		p.skipTo(i)
	case isASCIIPunct(c):
		p.flushTo(p.pos)
		p.push(iText, p.src[p.pos+1:p.pos+2])
		p.skipTo(p.pos + 2)
	default:
		p.pos++
	}
}

func (p *inlineParser) codeSpan() {
	start := p.pos
	n := 0
	for p.pos < len(p.src) && p.src[p.pos] == '`' {
		p.pos++
		n++
	}
	if (n < len(p.noCloser) && p.noCloser[n]) || (n >= len(p.noCloser) && p.noCloserLong) {
		return // literal backticks, left in the pending text
	}
	for i := p.pos; ; {
		j := strings.IndexByte(p.src[i:], '`')
		if j < 0 {
			if n < len(p.noCloser) {
				p.noCloser[n] = true
			} else {
				p.noCloserLong = true
			}
			return
		}
		j += i
		m := 0
		for j+m < len(p.src) && p.src[j+m] == '`' {
			m++
		}
		if m == n {
			content := strings.ReplaceAll(p.src[p.pos:j], "\n", " ")
			if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
				content = content[1 : len(content)-1]
			}
			p.flushTo(start)
			p.push(iCode, content)
			p.skipTo(j + n)
			return
		}
		i = j + m
	}
}

func (p *inlineParser) delimRun(c byte) {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
	}
	n := p.pos - start
	if c == '~' && n != 2 {
		return
	}
	before, after := ' ', ' '
	if start > 0 {
		before, _ = utf8.DecodeLastRuneInString(p.src[:start])
	}
	if p.pos < len(p.src) {
		after, _ = utf8.DecodeRuneInString(p.src[p.pos:])
	}
	beforeWS, afterWS := unicode.IsSpace(before), unicode.IsSpace(after)
	beforeP, afterP := isPunct(before), isPunct(after)
	left := !afterWS && (!afterP || beforeWS || beforeP)
	right := !beforeWS && (!beforeP || afterWS || afterP)
	canOpen, canClose := left, right
	if c == '_' {
		canOpen = left && (!right || beforeP)
		canClose = right && (!left || afterP)
	}
	p.flushTo(start)
	node := p.push(iText, p.src[start:p.pos])
	p.textStart = p.pos
	if !canOpen && !canClose {
		return
	}
	p.delims = append(p.delims, delim{node: node, ch: c, count: n, orig: n,
		canOpen: canOpen, canClose: canClose, prev: p.dLast, next: -1})
	d := int32(len(p.delims) - 1)
	if p.dLast >= 0 {
		p.delims[p.dLast].next = d
	} else {
		p.dFirst = d
	}
	p.dLast = d
}

func (p *inlineParser) removeDelim(d int32) {
	x := &p.delims[d]
	if x.prev >= 0 {
		p.delims[x.prev].next = x.next
	} else {
		p.dFirst = x.next
	}
	if x.next >= 0 {
		p.delims[x.next].prev = x.prev
	} else {
		p.dLast = x.prev
	}
}

func (p *inlineParser) removeNode(i int32) {
	n := &p.nodes[i]
	if n.prev >= 0 {
		p.nodes[n.prev].next = n.next
	} else {
		p.head = n.next
	}
	if n.next >= 0 {
		p.nodes[n.next].prev = n.prev
	} else {
		p.tail = n.prev
	}
}

func bottomKey(d *delim) int {
	k := d.orig % 3
	if d.canOpen {
		k += 3
	}
	switch d.ch {
	case '_':
		k += 6
	case '~':
		k = 12
	}
	return k
}

func (p *inlineParser) processEmphasis(bottom int32) {
	var openersBottom [13]int32
	for i := range openersBottom {
		openersBottom[i] = bottom
	}
	closer := p.dFirst
	if bottom >= 0 {
		closer = p.delims[bottom].next
	}
	for closer >= 0 {
		cd := &p.delims[closer]
		if !cd.canClose {
			closer = cd.next
			continue
		}
		key := bottomKey(cd)
		opener, found := cd.prev, false
		for opener >= 0 && opener != bottom && opener != openersBottom[key] {
			od := &p.delims[opener]
			if od.ch == cd.ch && od.canOpen {
				odd := cd.ch != '~' && (cd.canOpen || od.canClose) && cd.orig%3 != 0 && (od.orig+cd.orig)%3 == 0
				if !odd {
					found = true
					break
				}
			}
			opener = od.prev
		}
		if !found {
			openersBottom[key] = cd.prev
			next := cd.next
			if !cd.canOpen {
				p.removeDelim(closer)
			}
			closer = next
			continue
		}
		od := &p.delims[opener]
		use, k := 1, iEmph
		switch {
		case cd.ch == '~':
			use, k = 2, iStrike
		case od.count >= 2 && cd.count >= 2:
			use, k = 2, iStrong
		}
		od.count -= use
		cd.count -= use
		p.nodes[od.node].text = p.nodes[od.node].text[:od.count]
		p.nodes[cd.node].text = p.nodes[cd.node].text[:cd.count]
		p.wrap(od.node, cd.node, k)
		// Delimiters between opener and closer are gone.
		od.next, cd.prev = closer, opener
		if od.count == 0 {
			p.removeNode(od.node)
			p.removeDelim(opener)
		}
		if cd.count == 0 {
			next := cd.next
			p.removeNode(cd.node)
			p.removeDelim(closer)
			closer = next
		}
	}
	if bottom < 0 {
		p.dFirst, p.dLast = -1, -1
	} else {
		p.delims[bottom].next = -1
		p.dLast = bottom
	}
}

// wrap moves the nodes strictly between a and b into a new node of kind k
// placed between them.
func (p *inlineParser) wrap(a, b int32, k ikind) {
	e := p.newNode(k, "")
	first, last := p.nodes[a].next, p.nodes[b].prev
	if first != b {
		p.nodes[e].first, p.nodes[e].last = first, last
		p.nodes[first].prev = -1
		p.nodes[last].next = -1
	}
	p.nodes[e].prev, p.nodes[e].next = a, b
	p.nodes[a].next = e
	p.nodes[b].prev = e
}

func (p *inlineParser) openBracket(image bool, n int) {
	p.flushTo(p.pos)
	node := p.push(iText, p.src[p.pos:p.pos+n])
	p.skipTo(p.pos + n)
	p.brackets = append(p.brackets, bracket{node: node, image: image, active: true, delimTop: p.dLast, start: p.pos})
}

func (p *inlineParser) closeBracket() {
	p.flushTo(p.pos)
	closePos := p.pos
	p.pos++ // the ']' stays in the pending text unless a link forms
	if len(p.brackets) == 0 {
		return
	}
	b := p.brackets[len(p.brackets)-1]
	p.brackets = p.brackets[:len(p.brackets)-1]
	if !b.active {
		return
	}
	dest, end, ok := "", 0, false
	if p.pos < len(p.src) && p.src[p.pos] == '(' {
		dest, end, ok = p.inlineLinkTail(p.pos)
	}
	if !ok && len(p.refs) > 0 {
		dest, end, ok = p.refLinkTail(p.pos, p.src[b.start:closePos])
	}
	if !ok {
		return
	}
	p.processEmphasis(b.delimTop)
	k := iLink
	if b.image {
		k = iImage
	}
	l := p.newNode(k, "")
	p.nodes[l].dest = dest
	if first := p.nodes[b.node].next; first >= 0 {
		p.nodes[l].first, p.nodes[l].last = first, p.tail
		p.nodes[first].prev = -1
	}
	prev := p.nodes[b.node].prev
	p.nodes[l].prev = prev
	if prev >= 0 {
		p.nodes[prev].next = l
	} else {
		p.head = l
	}
	p.tail = l
	if !b.image {
		for i := range p.brackets {
			if !p.brackets[i].image {
				p.brackets[i].active = false
			}
		}
	}
	p.skipTo(end)
}

// inlineLinkTail parses `(dest "title")` at pos.
func (p *inlineParser) inlineLinkTail(pos int) (string, int, bool) {
	i := skipSpaceNL(p.src, pos+1)
	if i < len(p.src) && p.src[i] == ')' {
		return "", i + 1, true
	}
	dest, n, ok := linkDestination(p.src[i:])
	if !ok {
		return "", 0, false
	}
	i += n
	j := skipSpaceNL(p.src, i)
	if j > i && j < len(p.src) && p.src[j] != ')' {
		if _, m, ok := linkTitle(p.src[j:]); ok {
			j = skipSpaceNL(p.src, j+m)
		} else {
			return "", 0, false
		}
	}
	if j >= len(p.src) || p.src[j] != ')' {
		return "", 0, false
	}
	return dest, j + 1, true
}

// refLinkTail resolves `[label]`, `[]` or a shortcut reference.
func (p *inlineParser) refLinkTail(pos int, text string) (string, int, bool) {
	label, end := text, pos
	if pos < len(p.src) && p.src[pos] == '[' {
		close := strings.IndexByte(p.src[pos+1:], ']')
		if close < 0 {
			return "", 0, false
		}
		if l := p.src[pos+1 : pos+1+close]; l != "" {
			label = l
		}
		end = pos + close + 2
	}
	ref, ok := p.refs[normalizeLabel(label)]
	if !ok {
		return "", 0, false
	}
	return ref.dest, end, true
}

func skipSpaceNL(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
		i++
	}
	return i
}

// linkDestination reads `<dest>` or a run without spaces and with
// balanced parentheses. It returns the destination with escapes removed
// and the bytes used.
func linkDestination(s string) (string, int, bool) {
	if strings.HasPrefix(s, "<") {
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '\n', '<':
				return "", 0, false
			case '>':
				return unescape(s[1:i]), i + 1, true
			}
		}
		return "", 0, false
	}
	depth, i := 0, 0
loop:
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			i++
		case c == '(':
			depth++
			if depth > 32 {
				return "", 0, false
			}
		case c == ')':
			if depth == 0 {
				break loop
			}
			depth--
		case c <= ' ':
			break loop
		}
	}
	if depth != 0 {
		return "", 0, false
	}
	return unescape(s[:i]), i, true
}

func linkTitle(s string) (string, int, bool) {
	if s == "" {
		return "", 0, false
	}
	closeCh := s[0]
	switch closeCh {
	case '"', '\'':
	case '(':
		closeCh = ')'
	default:
		return "", 0, false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case closeCh:
			return unescape(s[1:i]), i + 1, true
		}
	}
	return "", 0, false
}

// unescape removes backslash escapes and decodes entities in a link
// destination or title.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 && strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == '&' {
			if text, n := decodeEntity(s[i:]); n > 0 {
				b.WriteString(text)
				i += n - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func (p *inlineParser) angle() {
	s := p.src[p.pos:]
	if n := brTag(s); n > 0 {
		p.flushTo(p.pos)
		p.push(iHardBreak, "")
		p.skipTo(p.pos + n)
		return
	}
	if url, n := autolink(s); n > 0 {
		p.flushTo(p.pos)
		i := p.push(iAutolink, strings.TrimPrefix(url, "mailto:"))
		if strings.IndexByte(url, ':') < 0 {
			url = "mailto:" + url
		}
		p.nodes[i].dest = url
		p.skipTo(p.pos + n)
		return
	}
	p.pos++
}

// brTag matches <br>, <br/> and <br /> in any case.
func brTag(s string) int {
	if len(s) < 4 || (s[1]|0x20) != 'b' || (s[2]|0x20) != 'r' {
		return 0
	}
	i := 3
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i < len(s) && s[i] == '/' {
		i++
	}
	if i < len(s) && s[i] == '>' {
		return i + 1
	}
	return 0
}

// autolink matches <scheme:rest> and <user@host> at the start of s.
func autolink(s string) (string, int) {
	end := strings.IndexByte(s, '>')
	if end < 3 {
		return "", 0
	}
	inner := s[1:end]
	if strings.ContainsAny(inner, " <\n") {
		return "", 0
	}
	if c := strings.IndexByte(inner, ':'); c >= 2 && c <= 32 && isASCIILetter(inner[0]) {
		for i := 1; i < c; i++ {
			ch := inner[i]
			if !isASCIILetter(ch) && !isDigit(ch) && ch != '+' && ch != '.' && ch != '-' {
				return "", 0
			}
		}
		return inner, end + 1
	}
	if at := strings.IndexByte(inner, '@'); at > 0 && at < len(inner)-1 && strings.IndexByte(inner[at+1:], '.') > 0 {
		return inner, end + 1
	}
	return "", 0
}

func (p *inlineParser) entity() {
	text, n := decodeEntity(p.src[p.pos:])
	if n == 0 {
		p.pos++
		return
	}
	p.flushTo(p.pos)
	p.push(iText, text)
	p.skipTo(p.pos + n)
}

// bareURL turns http:// and https:// URLs in running text into links
// (GFM's extended autolinks). It runs at the ':'.
func (p *inlineParser) bareURL() {
	colon := p.pos
	p.pos++
	if !strings.HasPrefix(p.src[colon:], "://") {
		return
	}
	start := -1
	for _, scheme := range [...]string{"https", "http"} {
		s := colon - len(scheme)
		if s >= p.textStart && strings.EqualFold(p.src[s:colon], scheme) && urlBoundary(p.src, s) {
			start = s
			break
		}
	}
	if start < 0 {
		return
	}
	end := urlEnd(p.src, colon+3, len(p.brackets) > 0)
	if end <= colon+3 {
		return
	}
	p.flushTo(start)
	i := p.push(iAutolink, p.src[start:end])
	p.nodes[i].dest = p.src[start:end]
	p.skipTo(end)
}

// bareWWW turns www.example.com in running text into a link. It runs at
// the '.'.
func (p *inlineParser) bareWWW() {
	dot := p.pos
	p.pos++
	s := dot - 3
	if s < p.textStart || !strings.EqualFold(p.src[s:dot], "www") || !urlBoundary(p.src, s) {
		return
	}
	end := urlEnd(p.src, dot+1, len(p.brackets) > 0)
	if end <= dot+1 || strings.IndexByte(p.src[dot+1:end], '.') < 0 {
		return
	}
	p.flushTo(s)
	i := p.push(iAutolink, p.src[s:end])
	p.nodes[i].dest = "http://" + p.src[s:end]
	p.skipTo(end)
}

func urlBoundary(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case ' ', '\n', '(', '*', '_', '~', '"', '\'':
		return true
	}
	return false
}

// urlEnd finds where a bare URL starting at i ends: at whitespace or '<'
// (or ']' inside link text), less trailing punctuation and unbalanced
// closing parentheses.
func urlEnd(s string, i int, inBracket bool) int {
	end := i
	for end < len(s) {
		c := s[end]
		if c <= ' ' || c == '<' || c == '`' || (inBracket && c == ']') {
			break
		}
		end++
	}
	for end > i {
		c := s[end-1]
		switch c {
		case '?', '!', '.', ',', ':', '*', '_', '~', '\'', '"', ';':
			end--
			continue
		case ')':
			if strings.Count(s[i:end], "(") < strings.Count(s[i:end], ")") {
				end--
				continue
			}
		}
		break
	}
	return end
}

func isASCIIPunct(c byte) bool {
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~')
}

func isPunct(r rune) bool {
	if r < 0x80 {
		return isASCIIPunct(byte(r))
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}
