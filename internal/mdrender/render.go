package mdrender

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultWidth is the width used when Options.Width is zero or less.
const DefaultWidth = 80

// MinWidth is the narrowest output Render produces; smaller widths are
// raised to it.
const MinWidth = 10

// minAvail is the fewest columns a nested block keeps for its text; a
// container whose margin would leave less draws no margin.
const minAvail = 6

// Options configure Render. The zero value renders 80 columns without
// colour.
type Options struct {
	// Width is the number of terminal columns to fill. Zero or less means
	// DefaultWidth; values below MinWidth are raised to it.
	Width int
	// Color turns on styles (SGR escape sequences). Without it the output
	// is plain text that keeps the structure: bullets, numbers,
	// indentation, quote bars, table borders, `code` in backticks and
	// headings marked with '#'.
	Color bool
	// Hyperlinks wraps link text in OSC 8 hyperlink sequences (colour mode
	// only), so terminals that support them make the text clickable.
	Hyperlinks bool
	// Theme holds the styles used in colour mode; nil means DarkTheme().
	Theme *Theme
}

// Style is a list of SGR parameters separated by ';' ("1;38;5;117"), or
// empty for the terminal's default.
type Style string

// Theme is the set of styles used in colour mode.
type Theme struct {
	Heading1, Heading2, Heading3 Style // Heading3 serves levels 3 to 6
	Strong, Emph, Strike         Style
	Code                         Style // inline code
	Link, URL                    Style // link text; the URL shown after it
	Quote, QuoteBar              Style
	Bullet                       Style // list bullets, numbers and task boxes
	Rule                         Style // thematic breaks
	TableBorder, TableHeader     Style
	HTML                         Style // raw HTML blocks

	// Code blocks.
	Keyword, Type, String, Comment, Number Style
	Constant, Func, Tag, Attr, Meta        Style
	Variable                               Style
	Added, Removed, Hunk                   Style // diffs
}

// DarkTheme returns the default styles, meant for dark terminals: bold
// headings, dim italic quotes, cyan inline code, blue underlined links and
// a muted palette for code.
func DarkTheme() *Theme {
	return &Theme{
		Heading1:    "1;4",
		Heading2:    "1",
		Heading3:    "1;3",
		Strong:      "1",
		Emph:        "3",
		Strike:      "9",
		Code:        "38;5;117",
		Link:        "4;38;5;111",
		URL:         "38;5;244",
		Quote:       "2;3",
		QuoteBar:    "38;5;242",
		Bullet:      "38;5;245",
		Rule:        "38;5;240",
		TableBorder: "38;5;240",
		TableHeader: "1",
		HTML:        "38;5;244",
		Keyword:     "38;5;176",
		Type:        "38;5;179",
		String:      "38;5;114",
		Comment:     "3;38;5;244",
		Number:      "38;5;173",
		Constant:    "38;5;173",
		Func:        "38;5;75",
		Tag:         "38;5;168",
		Attr:        "38;5;179",
		Meta:        "38;5;140",
		Variable:    "38;5;174",
		Added:       "38;5;114",
		Removed:     "38;5;203",
		Hunk:        "38;5;80",
	}
}

// Render returns src, CommonMark with GitHub's tables, task lists and
// strikethrough, formatted for a terminal: wrapped to opts.Width
// columns, without trailing spaces on any line and without blank lines
// at either end. Code blocks are highlighted by their fence's language.
// Render is safe for concurrent use.
func Render(src string, opts Options) string {
	src = normalize(src)
	doc, refs := parseBlocks(src)
	r := newRenderer(opts, refs)
	r.out.Grow(len(src) + len(src)/4)
	r.blocks(doc.children, false)
	return r.out.String()
}

// normalize turns CR LF and CR into LF, expands tabs (stops every 4
// columns) and replaces control characters and invalid UTF-8 with U+FFFD
// so nothing reaches the terminal that could move its cursor.
func normalize(src string) string {
	clean := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		if (c < ' ' && c != '\n') || c == 0x7f || (c == 0xc2 && i+1 < len(src) && src[i+1] >= 0x80 && src[i+1] < 0xa0) {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(src) {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + len(src)/8)
	lineStart := 0 // in b
	run := 0       // start of the bytes of src not yet copied
	for i := 0; i < len(src); {
		c := src[i]
		if c >= ' ' && c < utf8.RuneSelf && c != 0x7f || c == '\n' {
			if c == '\n' {
				b.WriteString(src[run : i+1])
				run = i + 1
				lineStart = b.Len()
			}
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(src[i:])
			if !(r == utf8.RuneError && size == 1) && !(r >= 0x80 && r < 0xa0) {
				i += size
				continue
			}
			b.WriteString(src[run:i])
			b.WriteRune(utf8.RuneError)
			i += size
			run = i
			continue
		}
		b.WriteString(src[run:i])
		i++
		run = i
		switch c {
		case '\r':
			if i < len(src) && src[i] == '\n' {
				continue // the LF is copied with the next run
			}
			b.WriteByte('\n')
			lineStart = b.Len()
		case '\t':
			col := textWidth(b.String()[lineStart:])
			b.WriteString("    "[:4-col%4])
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
	b.WriteString(src[run:])
	return b.String()
}

// frame is the margin a container block draws on each of its lines:
// first on its first line, rest on the others.
type frame struct {
	first, rest string
	style       string
	w           int
	used        bool
}

type renderer struct {
	width  int
	color  bool
	links  bool
	th     Theme
	refs   map[string]linkRef
	out    strings.Builder
	frames []frame
	avail  int // columns left for text inside the frames

	wrote        bool   // a line has been written
	pending      bool   // a blank line is due before the next line
	pendingDepth int    // frames that the pending blank line shows
	base         string // style under the text of the current block
	listDepth    int
	quoteDepth   int

	pieces []piece // scratch
	prefix []string
	wr     wrapper       // reused by every paragraph and cell
	emitFn func([]piece) // r.emit, made once
}

func newRenderer(opts Options, refs map[string]linkRef) *renderer {
	w := opts.Width
	if w <= 0 {
		w = DefaultWidth
	}
	if w < MinWidth {
		w = MinWidth
	}
	r := &renderer{width: w, avail: w, color: opts.Color, links: opts.Color && opts.Hyperlinks, refs: refs}
	r.emitFn = r.emit
	if opts.Color {
		if opts.Theme != nil {
			r.th = *opts.Theme
		} else {
			r.th = *DarkTheme()
		}
	}
	return r
}

func join(a string, b Style) string {
	switch {
	case b == "":
		return a
	case a == "":
		return string(b)
	}
	return a + ";" + string(b)
}

func (r *renderer) pushFrame(first, rest string, style Style) {
	w := textWidth(first)
	if r.avail-w < minAvail {
		first, rest, w = "", "", 0
	}
	r.frames = append(r.frames, frame{first: first, rest: rest, style: string(style), w: w})
	r.avail -= w
}

func (r *renderer) popFrame() {
	f := r.frames[len(r.frames)-1]
	r.frames = r.frames[:len(r.frames)-1]
	r.avail += f.w
	if r.pending && r.pendingDepth > len(r.frames) {
		r.pendingDepth = len(r.frames)
	}
}

// sep asks for a blank line before the next line written.
func (r *renderer) sep() {
	if !r.wrote {
		return
	}
	if !r.pending || len(r.frames) < r.pendingDepth {
		r.pendingDepth = len(r.frames)
	}
	r.pending = true
}

// emit writes one line: the frames' margins, then the pieces.
func (r *renderer) emit(ps []piece) {
	if r.pending {
		r.pending = false
		r.writeLine(r.frames[:r.pendingDepth], nil, false)
	}
	r.writeLine(r.frames, ps, true)
}

func (r *renderer) writeLine(frames []frame, ps []piece, consume bool) {
	if r.wrote {
		r.out.WriteByte('\n')
	}
	r.wrote = true
	pre := r.prefix[:0]
	for i := range frames {
		f := &frames[i]
		s := f.rest
		if consume && !f.used {
			s = f.first
			f.used = true
		}
		pre = append(pre, s)
	}
	r.prefix = pre
	if len(ps) == 0 {
		// No text: the margin must not end in spaces.
		for len(pre) > 0 {
			t := strings.TrimRight(pre[len(pre)-1], " ")
			if t != "" {
				pre[len(pre)-1] = t
				break
			}
			pre = pre[:len(pre)-1]
		}
	}
	// Adjacent margins in one style are written as one run; blank ones
	// are written bare.
	for i := 0; i < len(pre); {
		j, run := i+1, pre[i]
		for j < len(pre) && frames[j].style == frames[i].style {
			run += pre[j]
			j++
		}
		if strings.TrimLeft(run, " ") == "" {
			r.out.WriteString(run)
		} else {
			r.styled(run, frames[i].style)
		}
		i = j
	}
	r.writePieces(ps)
}

func (r *renderer) styled(s, sgr string) {
	if s == "" {
		return
	}
	if sgr == "" || !r.color {
		r.out.WriteString(s)
		return
	}
	r.out.WriteString("\x1b[")
	r.out.WriteString(sgr)
	r.out.WriteByte('m')
	r.out.WriteString(s)
	r.out.WriteString("\x1b[m")
}

func (r *renderer) writePieces(ps []piece) {
	if !r.color {
		for _, p := range ps {
			r.out.WriteString(p.text)
		}
		return
	}
	cur, link := "", ""
	for _, p := range ps {
		if r.links && p.link != link {
			if link != "" {
				r.out.WriteString("\x1b]8;;\x1b\\")
			}
			if p.link != "" {
				r.out.WriteString("\x1b]8;;")
				r.out.WriteString(p.link)
				r.out.WriteString("\x1b\\")
			}
			link = p.link
		}
		if p.sgr != cur {
			if cur != "" {
				r.out.WriteString("\x1b[m")
			}
			if p.sgr != "" {
				r.out.WriteString("\x1b[")
				r.out.WriteString(p.sgr)
				r.out.WriteByte('m')
			}
			cur = p.sgr
		}
		r.out.WriteString(p.text)
	}
	if cur != "" {
		r.out.WriteString("\x1b[m")
	}
	if link != "" {
		r.out.WriteString("\x1b]8;;\x1b\\")
	}
}

// blocks renders a container's children with a blank line between them;
// in a tight list item only code, tables, quotes and the like get one,
// text and nested lists follow each other directly.
func (r *renderer) blocks(children []*block, tight bool) {
	for i, c := range children {
		if i > 0 && (!tight || !flows(children[i-1]) || !flows(c)) {
			r.sep()
		}
		r.block(c, tight)
	}
}

func flows(b *block) bool { return b.kind == kParagraph || b.kind == kList }

// endsFlowing reports whether an item ends in text, so that the next
// item of a tight list may follow it directly.
func endsFlowing(item *block) bool {
	for item != nil {
		last := item.lastChild()
		if last == nil {
			return true
		}
		if last.kind != kList {
			return flows(last)
		}
		item = last.lastChild()
	}
	return true
}

func (r *renderer) block(b *block, tight bool) {
	switch b.kind {
	case kParagraph:
		if len(b.lines) == 1 {
			r.paragraph(b.lines[0], r.base)
		} else {
			r.paragraph(strings.Join(b.lines, "\n"), r.base)
		}
	case kHeading:
		r.heading(b)
	case kThematic:
		r.emit([]piece{{text: strings.Repeat("─", r.avail), sgr: string(r.th.Rule)}})
	case kFenced, kIndented:
		r.code(b)
	case kHTML:
		r.html(b)
	case kQuote:
		r.quote(b)
	case kList:
		r.list(b)
	case kTable:
		r.table(b)
	}
}

// paragraph wraps inline text to the available width.
func (r *renderer) paragraph(text, sgr string) {
	text = strings.TrimRight(text, " \n")
	if text == "" {
		return
	}
	ps := r.inlinePieces(text, sgr, r.pieces[:0])
	w := &r.wr
	w.reset(r.avail, r.emitFn)
	for _, p := range ps {
		w.add(p)
	}
	w.finish()
	r.pieces = ps[:0]
}

func (r *renderer) heading(b *block) {
	text := b.lines[0]
	if strings.TrimSpace(text) == "" {
		return
	}
	st := r.th.Heading3
	switch b.level {
	case 1:
		st = r.th.Heading1
	case 2:
		st = r.th.Heading2
	}
	if r.color {
		r.paragraph(text, join(r.base, st))
		return
	}
	marks := strings.Repeat("#", b.level) + " "
	r.pushFrame(marks, strings.Repeat(" ", len(marks)), "")
	r.paragraph(text, r.base)
	r.popFrame()
}

func (r *renderer) quote(b *block) {
	saved := r.base
	if r.quoteDepth == 0 {
		r.base = join(r.base, r.th.Quote)
	}
	r.quoteDepth++
	defer func() { r.quoteDepth-- }()
	r.pushFrame("│ ", "│ ", r.th.QuoteBar)
	if len(b.children) == 0 {
		r.emit(nil)
	}
	r.blocks(b.children, false)
	r.popFrame()
	r.base = saved
}

func (r *renderer) list(b *block) {
	r.listDepth++
	numW := 0
	if b.ordered {
		numW = len(strconv.Itoa(b.start + len(b.children) - 1))
	}
	for i, item := range b.children {
		if i > 0 && (!b.tight || !endsFlowing(b.children[i-1])) {
			r.sep()
		}
		marker := r.marker(b, i, numW)
		if box, ok := taskBox(item); ok {
			marker = "[ ] "
			if box {
				marker = "[x] "
				if r.color {
					marker = "[✓] "
				}
			}
		}
		r.pushFrame(marker, strings.Repeat(" ", textWidth(marker)), r.th.Bullet)
		if len(item.children) == 0 {
			r.emit(nil)
		} else {
			r.blocks(item.children, b.tight)
		}
		r.popFrame()
	}
	r.listDepth--
}

func (r *renderer) marker(b *block, i, numW int) string {
	if !b.ordered {
		switch (r.listDepth - 1) % 3 {
		case 0:
			return "• "
		case 1:
			return "◦ "
		default:
			return "▪ "
		}
	}
	n := strconv.Itoa(b.start + i)
	return strings.Repeat(" ", numW-len(n)) + n + string(b.marker) + " "
}

// taskBox detects a GFM task item ("[ ] text", "[x] text"), removes the
// box from its first paragraph and reports whether it is checked.
func taskBox(item *block) (checked, ok bool) {
	if len(item.children) == 0 || item.children[0].kind != kParagraph {
		return false, false
	}
	p := item.children[0]
	l := p.lines[0]
	if len(l) < 3 || l[0] != '[' || l[2] != ']' || (len(l) > 3 && l[3] != ' ') {
		return false, false
	}
	switch l[1] {
	case ' ':
	case 'x', 'X':
		checked = true
	default:
		return false, false
	}
	p.lines[0] = strings.TrimLeft(l[3:], " ")
	if len(p.lines) == 1 && p.lines[0] == "" {
		item.children = item.children[1:]
	}
	return checked, true
}

// Inline styles in effect, as bits; a style nested in itself adds
// nothing, so escape sequences stay short however deep the nesting.
const (
	stEmph uint8 = 1 << iota
	stStrong
	stStrike
	stLink
	stURL
	stCode
)

// inlineStyles maps sets of inline styles to SGR parameters over one
// base style.
type inlineStyles struct {
	th    *Theme
	base  string
	cache [64]string
	done  [64]bool
}

func (s *inlineStyles) sgr(mask uint8) string {
	if s.done[mask] {
		return s.cache[mask]
	}
	v := s.base
	for _, x := range [...]struct {
		bit uint8
		st  Style
	}{{stLink, s.th.Link}, {stURL, s.th.URL}, {stStrong, s.th.Strong}, {stEmph, s.th.Emph}, {stStrike, s.th.Strike}, {stCode, s.th.Code}} {
		if mask&x.bit != 0 {
			v = join(v, x.st)
		}
	}
	s.cache[mask], s.done[mask] = v, true
	return v
}

// inlinePieces parses inline Markdown and flattens it into styled pieces.
func (r *renderer) inlinePieces(text, sgr string, out []piece) []piece {
	nodes, head := parseInlines(text, r.refs)
	if cap(out) < len(nodes) {
		out = make([]piece, 0, len(nodes)+len(nodes)/4)
	}
	st := inlineStyles{th: &r.th, base: sgr}
	return r.flatten(nodes, head, &st, 0, "", out)
}

func (r *renderer) flatten(nodes []inode, i int32, st *inlineStyles, mask uint8, link string, out []piece) []piece {
	for ; i >= 0; i = nodes[i].next {
		n := &nodes[i]
		switch n.kind {
		case iText:
			if n.text != "" {
				out = append(out, piece{text: n.text, sgr: st.sgr(mask), link: link})
			}
		case iSoftBreak:
			out = append(out, piece{text: " ", sgr: st.sgr(mask), link: link})
		case iHardBreak:
			out = append(out, piece{brk: true})
		case iCode:
			if r.color {
				out = append(out, piece{text: n.text, sgr: st.sgr(mask | stCode), link: link})
			} else {
				out = append(out, piece{text: "`" + n.text + "`", link: link})
			}
		case iEmph:
			out = r.flatten(nodes, n.first, st, mask|stEmph, link, out)
		case iStrong:
			out = r.flatten(nodes, n.first, st, mask|stStrong, link, out)
		case iStrike:
			if !r.color {
				out = append(out, piece{text: "~~", link: link})
			}
			out = r.flatten(nodes, n.first, st, mask|stStrike, link, out)
			if !r.color {
				out = append(out, piece{text: "~~", link: link})
			}
		case iLink:
			out = r.flatten(nodes, n.first, st, mask|stLink, n.dest, out)
			if n.dest == "" {
				break
			}
			switch shown := plainText(nodes, n.first); {
			case shown == "":
				out = append(out, piece{text: n.dest, sgr: st.sgr(mask | stLink), link: n.dest})
			case shown != n.dest && "mailto:"+shown != n.dest:
				out = append(out, piece{text: " ", sgr: st.sgr(mask)}, piece{text: "(" + n.dest + ")", sgr: st.sgr(mask&^stLink | stURL)})
			}
		case iImage:
			alt := plainText(nodes, n.first)
			out = append(out, piece{text: "[image: " + alt + "]", sgr: st.sgr(mask | stLink), link: n.dest})
			if n.dest != "" {
				out = append(out, piece{text: "(" + n.dest + ")", sgr: st.sgr(mask&^stLink | stURL)})
			}
		case iAutolink:
			out = append(out, piece{text: n.text, sgr: st.sgr(mask | stLink), link: n.dest})
		}
	}
	return out
}

// plainText is the text of inline nodes without styles.
func plainText(nodes []inode, i int32) string {
	var b strings.Builder
	var walk func(int32)
	walk = func(i int32) {
		for ; i >= 0; i = nodes[i].next {
			n := &nodes[i]
			switch n.kind {
			case iText, iCode, iAutolink:
				b.WriteString(n.text)
			case iSoftBreak, iHardBreak:
				b.WriteByte(' ')
			default:
				walk(n.first)
			}
		}
	}
	walk(i)
	return b.String()
}

func (r *renderer) html(b *block) {
	sgr := join(r.base, r.th.HTML)
	lines := b.lines
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for _, l := range lines {
		r.pieces = append(r.pieces[:0], piece{text: l, sgr: sgr})
		hardWrap(r.pieces, r.avail, r.emitFn)
	}
}
