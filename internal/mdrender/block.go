package mdrender

import (
	"strings"
)

// kind is the type of a block node.
type kind uint8

const (
	kDocument kind = iota
	kQuote
	kList
	kItem
	kParagraph
	kHeading
	kThematic
	kFenced
	kIndented
	kHTML
	kTable
)

// block is a node of the block tree. Container blocks (document, quote,
// list, item) have children; leaf blocks keep their raw lines for the
// inline parser or the code renderer.
type block struct {
	kind     kind
	parent   *block
	children []*block
	open     bool
	// lastLineBlank records that the last line seen by this block was
	// blank; lists use it to decide whether they are loose.
	lastLineBlank bool

	lines []string // paragraph, code, HTML lines; heading text in lines[0]
	level int      // heading level

	// Lists and items.
	ordered bool
	marker  byte // '-', '+', '*' for bullets; '.' or ')' for ordered lists
	start   int  // first number of an ordered list
	tight   bool // list: no blank lines between or inside items
	indent  int  // item: columns its content is indented by

	// Fenced code.
	fenceCh     byte
	fenceLen    int
	fenceIndent int
	info        string

	htmlEnd   int // which of the HTML block end conditions applies (1-7)
	startLine int // line number the block started on

	// Tables.
	aligns []align
	rows   [][]string // raw cell text; rows[0] is the header
}

func (b *block) lastChild() *block {
	if len(b.children) == 0 {
		return nil
	}
	return b.children[len(b.children)-1]
}

// linkRef is a link reference definition.
type linkRef struct {
	dest, title string
}

// blockParser turns source lines into a block tree, following the
// CommonMark block algorithm: match open containers, start new blocks,
// then add the rest of the line to the deepest block that takes text.
type blockParser struct {
	doc  *block
	tip  *block
	refs map[string]linkRef

	line         string
	lineNo       int
	pos          int // byte offset of the unconsumed part of line
	nextNonspace int
	indent       int // columns of spaces from pos to nextNonspace
	indented     bool
	blank        bool

	oldTip               *block
	lastMatchedContainer *block
	allClosed            bool
}

// maxNesting bounds the depth of containers so hostile input cannot make
// rendering deeper than it can show.
const maxNesting = 32

func parseBlocks(src string) (*block, map[string]linkRef) {
	doc := &block{kind: kDocument, open: true}
	p := &blockParser{doc: doc, tip: doc}
	for len(src) > 0 {
		i := strings.IndexByte(src, '\n')
		var line string
		if i < 0 {
			line, src = src, ""
		} else {
			line, src = src[:i], src[i+1:]
		}
		p.addLine(line)
	}
	for p.tip != nil {
		p.finalize(p.tip)
	}
	return doc, p.refs
}

func (p *blockParser) findNextNonspace() {
	i := p.pos
	for i < len(p.line) && p.line[i] == ' ' {
		i++
	}
	p.nextNonspace = i
	p.indent = i - p.pos
	p.indented = p.indent >= 4
	p.blank = i == len(p.line)
}

func (p *blockParser) advanceToNextNonspace() { p.pos = p.nextNonspace }

func (p *blockParser) advance(n int) {
	p.pos += n
	if p.pos > len(p.line) {
		p.pos = len(p.line)
	}
}

func (p *blockParser) peek() byte {
	if p.nextNonspace < len(p.line) {
		return p.line[p.nextNonspace]
	}
	return 0
}

func depth(b *block) int {
	n := 0
	for ; b != nil; b = b.parent {
		n++
	}
	return n
}

// continueStatus is the result of matching an open block against a line.
type continueStatus int

const (
	matched continueStatus = iota
	notMatched
	lineDone
)

func (p *blockParser) continues(b *block) continueStatus {
	switch b.kind {
	case kDocument, kList:
		return matched
	case kQuote:
		if !p.indented && p.peek() == '>' {
			p.advanceToNextNonspace()
			p.advance(1)
			if p.pos < len(p.line) && p.line[p.pos] == ' ' {
				p.advance(1)
			}
			return matched
		}
		return notMatched
	case kItem:
		if p.blank {
			if len(b.children) == 0 {
				return notMatched
			}
			p.advanceToNextNonspace()
			return matched
		}
		if p.indent >= b.indent {
			p.advance(b.indent)
			return matched
		}
		return notMatched
	case kFenced:
		if !p.indented && p.isClosingFence(b) {
			p.finalize(b)
			return lineDone
		}
		for i := 0; i < b.fenceIndent && p.pos < len(p.line) && p.line[p.pos] == ' '; i++ {
			p.pos++
		}
		return matched
	case kIndented:
		if p.indented {
			p.advance(4)
			return matched
		}
		if p.blank {
			p.advanceToNextNonspace()
			return matched
		}
		return notMatched
	case kHTML:
		if p.blank && (b.htmlEnd == 6 || b.htmlEnd == 7) {
			return notMatched
		}
		return matched
	case kParagraph, kTable:
		if p.blank {
			return notMatched
		}
		return matched
	}
	return notMatched // headings and thematic breaks hold one line
}

func (p *blockParser) isClosingFence(b *block) bool {
	s := p.line[p.nextNonspace:]
	n := 0
	for n < len(s) && s[n] == b.fenceCh {
		n++
	}
	return n >= b.fenceLen && strings.TrimRight(s[n:], " ") == ""
}

func (p *blockParser) addLine(line string) {
	p.line, p.pos = line, 0
	p.lineNo++
	p.oldTip = p.tip
	container := p.doc
	for {
		last := container.lastChild()
		if last == nil || !last.open {
			break
		}
		p.findNextNonspace()
		st := p.continues(last)
		if st == lineDone {
			return
		}
		if st == notMatched {
			break
		}
		container = last
	}
	p.allClosed = container == p.oldTip
	p.lastMatchedContainer = container

	matchedLeaf := container.kind != kParagraph && container.kind != kTable && acceptsLines(container.kind)
	for !matchedLeaf {
		p.findNextNonspace()
		c := p.peek()
		if !p.indented && !maybeSpecial(c) {
			p.advanceToNextNonspace()
			break
		}
		nb, leaf := p.startBlock(container)
		if nb == nil {
			if leaf { // the line was consumed (heading, break, fence, table delimiter)
				for c := p.tip; c != nil; c = c.parent {
					c.lastLineBlank = false
				}
				return
			}
			p.advanceToNextNonspace()
			break
		}
		container = nb
		if leaf {
			matchedLeaf = true
		}
	}

	// The rest of the line is text.
	if !p.allClosed && !p.blank && p.tip.kind == kParagraph {
		p.tip.lines = append(p.tip.lines, p.line[p.pos:]) // lazy continuation
		return
	}
	p.closeUnmatched()
	if p.blank && container.lastChild() != nil {
		container.lastChild().lastLineBlank = true
	}
	lastBlank := p.blank && !(container.kind == kQuote || container.kind == kFenced ||
		(container.kind == kItem && len(container.children) == 0 && container.startLine == p.lineNo))
	for c := container; c != nil; c = c.parent {
		c.lastLineBlank = lastBlank
	}
	switch container.kind {
	case kParagraph, kFenced, kIndented:
		container.lines = append(container.lines, p.line[p.pos:])
	case kTable:
		container.rows = append(container.rows, splitRow(p.line[p.pos:]))
	case kHTML:
		container.lines = append(container.lines, p.line[p.pos:])
		if container.htmlEnd <= 5 && htmlEnds(container.htmlEnd, p.line[p.pos:]) {
			p.finalize(container)
		}
	default:
		// A text line a list cannot hold (the line after a list's last
		// item) closes the list: addChild walks up to a block that can
		// hold the paragraph.
		if !p.blank {
			p.advanceToNextNonspace()
			para := p.addChild(kParagraph, container)
			para.lines = append(para.lines, p.line[p.pos:])
		}
	}
}

func (p *blockParser) closeUnmatched() {
	if p.allClosed {
		return
	}
	for p.oldTip != p.lastMatchedContainer {
		parent := p.oldTip.parent
		p.finalize(p.oldTip)
		p.oldTip = parent
	}
	p.allClosed = true
}

func acceptsLines(k kind) bool {
	switch k {
	case kParagraph, kFenced, kIndented, kHTML, kTable:
		return true
	}
	return false
}

func canContain(parent, child kind) bool {
	switch parent {
	case kDocument, kQuote, kItem:
		return child != kItem
	case kList:
		return child == kItem
	}
	return false
}

func maybeSpecial(c byte) bool {
	switch c {
	case '#', '`', '~', '*', '+', '_', '=', '<', '>', '-', '|', ':',
		'0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

// addChild closes blocks until one can hold a child of kind k, then adds it.
func (p *blockParser) addChild(k kind, container *block) *block {
	for !canContain(container.kind, k) {
		p.finalize(container)
		container = container.parent
	}
	b := &block{kind: k, parent: container, open: true, startLine: p.lineNo}
	container.children = append(container.children, b)
	p.tip = b
	return b
}

// startBlock tries each block start at the current position. It returns
// the new block and whether it is a leaf that takes the rest of the line;
// nil with leaf true means the line was consumed entirely.
func (p *blockParser) startBlock(container *block) (*block, bool) {
	rest := p.line[p.nextNonspace:]
	c := p.peek()
	tooDeep := depth(container) >= maxNesting
	if !p.indented {
		switch {
		case c == '>' && !tooDeep:
			p.advanceToNextNonspace()
			p.advance(1)
			if p.pos < len(p.line) && p.line[p.pos] == ' ' {
				p.advance(1)
			}
			p.closeUnmatched()
			return p.addChild(kQuote, container), false
		case c == '#':
			if level, text, ok := atxHeading(rest); ok {
				p.closeUnmatched()
				h := p.addChild(kHeading, container)
				h.level, h.lines = level, []string{text}
				p.finalize(h)
				return nil, true
			}
		case c == '`' || c == '~':
			if n, info, ok := fenceOpen(rest); ok {
				p.closeUnmatched()
				f := p.addChild(kFenced, container)
				f.fenceCh, f.fenceLen, f.fenceIndent, f.info = c, n, p.indent, info
				return nil, true
			}
		case c == '<':
			if t := htmlStart(rest, container.kind == kParagraph); t > 0 {
				p.closeUnmatched()
				h := p.addChild(kHTML, container)
				h.htmlEnd = t
				return h, true
			}
		}
		if container.kind == kParagraph && len(container.lines) > 0 && strings.IndexByte(rest, '|') >= 0 {
			if aligns, ok := delimiterRow(rest); ok {
				header := splitRow(container.lines[len(container.lines)-1])
				if len(header) == len(aligns) {
					p.closeUnmatched()
					p.startTable(container, header, aligns)
					return nil, true
				}
			}
		}
		if container.kind == kParagraph && (c == '=' || c == '-') {
			if level := setextLevel(rest); level > 0 && p.setext(container, level) {
				return nil, true
			}
		}
		if isThematicBreak(rest) {
			p.closeUnmatched()
			t := p.addChild(kThematic, container)
			p.finalize(t)
			return nil, true
		}
	}
	if (!p.indented || container.kind == kList) && !tooDeep {
		if item := p.listItem(container); item != nil {
			return item, false
		}
	}
	if p.indented && p.tip.kind != kParagraph && !p.blank {
		p.advance(4)
		p.closeUnmatched()
		return p.addChild(kIndented, container), true
	}
	return nil, false
}

// setext turns the open paragraph into a heading, unless it held only link
// reference definitions.
func (p *blockParser) setext(para *block, level int) bool {
	p.closeUnmatched()
	p.extractRefs(para)
	if len(para.lines) == 0 {
		return false
	}
	para.kind = kHeading
	para.level = level
	para.lines = []string{strings.Join(para.lines, "\n")}
	p.finalize(para)
	return true
}

func (p *blockParser) startTable(para *block, header []string, aligns []align) {
	para.lines = para.lines[:len(para.lines)-1]
	parent := para.parent
	if len(para.lines) > 0 {
		p.finalize(para)
	} else {
		parent.children = parent.children[:len(parent.children)-1]
		p.tip = parent
	}
	t := p.addChild(kTable, parent)
	t.aligns = aligns
	t.rows = [][]string{header}
}

func (p *blockParser) listItem(container *block) *block {
	rest := p.line[p.nextNonspace:]
	if p.indent >= 4 {
		return nil
	}
	var (
		ordered bool
		marker  byte
		start   int
		n       int // marker length in bytes
	)
	switch c := p.peek(); {
	case c == '-' || c == '+' || c == '*':
		marker, n = c, 1
	case c >= '0' && c <= '9':
		for n < len(rest) && n < 9 && rest[n] >= '0' && rest[n] <= '9' {
			start = start*10 + int(rest[n]-'0')
			n++
		}
		if n >= len(rest) || (rest[n] != '.' && rest[n] != ')') {
			return nil
		}
		if container.kind == kParagraph && start != 1 {
			return nil
		}
		ordered, marker = true, rest[n]
		n++
	default:
		return nil
	}
	if n < len(rest) && rest[n] != ' ' {
		return nil
	}
	after := rest[n:]
	blankItem := strings.TrimLeft(after, " ") == ""
	if container.kind == kParagraph && blankItem {
		return nil
	}
	spaces := 0
	for spaces < len(after) && after[spaces] == ' ' {
		spaces++
	}
	padding := n + spaces
	if spaces >= 5 || spaces < 1 || blankItem {
		padding = n + 1
	}
	itemIndent := p.indent + padding
	p.advanceToNextNonspace()
	p.advance(padding)
	if blankItem {
		p.pos = len(p.line)
	}
	p.closeUnmatched()

	if container.kind != kList || container.ordered != ordered || container.marker != marker {
		list := p.addChild(kList, container)
		list.ordered, list.marker, list.start, list.tight = ordered, marker, start, true
		container = list
	}
	item := p.addChild(kItem, container)
	item.indent = itemIndent
	return item
}

func (p *blockParser) finalize(b *block) {
	if !b.open {
		return
	}
	b.open = false
	p.tip = b.parent
	switch b.kind {
	case kParagraph:
		p.extractRefs(b)
		if len(b.lines) == 0 {
			if parent := b.parent; parent != nil {
				parent.children = parent.children[:len(parent.children)-1]
			}
		}
	case kIndented:
		for len(b.lines) > 0 && strings.TrimSpace(b.lines[len(b.lines)-1]) == "" {
			b.lines = b.lines[:len(b.lines)-1]
		}
	case kList:
		b.tight = listIsTight(b)
	}
}

func endsWithBlankLine(b *block) bool {
	for b != nil {
		if b.lastLineBlank {
			return true
		}
		if b.kind != kList && b.kind != kItem {
			return false
		}
		b = b.lastChild()
	}
	return false
}

func listIsTight(list *block) bool {
	for i, item := range list.children {
		last := i == len(list.children)-1
		if endsWithBlankLine(item) && !last {
			return false
		}
		for j, sub := range item.children {
			if endsWithBlankLine(sub) && (!last || j < len(item.children)-1) {
				return false
			}
		}
	}
	return true
}

// atxHeading parses "# text #" (rest starts at the first '#').
func atxHeading(rest string) (int, string, bool) {
	level := 0
	for level < len(rest) && rest[level] == '#' {
		level++
	}
	if level > 6 || (level < len(rest) && rest[level] != ' ') {
		return 0, "", false
	}
	text := strings.Trim(rest[level:], " ")
	// Drop a closing sequence of '#' preceded by a space.
	end := len(text)
	for end > 0 && text[end-1] == '#' {
		end--
	}
	if end == 0 {
		text = ""
	} else if end < len(text) && text[end-1] == ' ' {
		text = strings.TrimRight(text[:end], " ")
	}
	return level, text, true
}

func fenceOpen(rest string) (int, string, bool) {
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < 3 {
		return 0, "", false
	}
	info := strings.TrimSpace(rest[n:])
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return 0, "", false
	}
	return n, info, true
}

func setextLevel(rest string) int {
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if strings.TrimRight(rest[n:], " ") != "" {
		return 0
	}
	if c == '=' {
		return 1
	}
	return 2
}

func isThematicBreak(rest string) bool {
	if rest == "" {
		return false
	}
	c := rest[0]
	if c != '*' && c != '-' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case c:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

// extractRefs removes link reference definitions from the start of a
// paragraph and records them.
func (p *blockParser) extractRefs(b *block) {
	for len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "[") {
		label, ref, used, ok := parseRefDef(b.lines)
		if !ok {
			return
		}
		key := normalizeLabel(label)
		if p.refs == nil {
			p.refs = make(map[string]linkRef)
		}
		if _, dup := p.refs[key]; !dup {
			p.refs[key] = ref
		}
		b.lines = b.lines[used:]
	}
}

// parseRefDef reads `[label]: dest "title"` from the first line (the
// title may sit on the next line). It returns how many lines it used.
func parseRefDef(lines []string) (string, linkRef, int, bool) {
	s := lines[0]
	end := -1
	for i := 1; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '[' {
			return "", linkRef{}, 0, false
		}
		if s[i] == ']' {
			end = i
			break
		}
	}
	if end < 2 || end+1 >= len(s) || s[end+1] != ':' {
		return "", linkRef{}, 0, false
	}
	label := s[1:end]
	if strings.TrimSpace(label) == "" {
		return "", linkRef{}, 0, false
	}
	rest := strings.TrimLeft(s[end+2:], " ")
	used := 1
	if rest == "" {
		if len(lines) < 2 {
			return "", linkRef{}, 0, false
		}
		rest = strings.TrimLeft(lines[1], " ")
		used = 2
	}
	dest, n, ok := linkDestination(rest)
	if !ok || n == 0 {
		return "", linkRef{}, 0, false
	}
	rest = rest[n:]
	ref := linkRef{dest: dest}
	if strings.TrimSpace(rest) == "" {
		// A title may follow on the next line.
		if used < len(lines) {
			next := strings.TrimLeft(lines[used], " ")
			if title, m, ok := linkTitle(next); ok && strings.TrimSpace(next[m:]) == "" {
				ref.title = title
				used++
			}
		}
		return label, ref, used, true
	}
	if rest[0] != ' ' {
		return "", linkRef{}, 0, false
	}
	rest = strings.TrimLeft(rest, " ")
	title, m, ok := linkTitle(rest)
	if !ok || strings.TrimSpace(rest[m:]) != "" {
		return "", linkRef{}, 0, false
	}
	ref.title = title
	return label, ref, used, true
}

func normalizeLabel(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
