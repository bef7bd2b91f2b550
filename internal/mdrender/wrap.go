package mdrender

import (
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// piece is a run of text in one style. A piece with brk set is a forced
// line break and has no text.
type piece struct {
	text string
	sgr  string // SGR parameters, "" for none
	link string // OSC 8 target, "" for none
	brk  bool
}

// textWidth is the display width of s in terminal cells, counting wide
// (East Asian, emoji) grapheme clusters as two.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			if i > 0 {
				i-- // the last ASCII byte may begin a cluster (a base and its marks)
			}
			return i + displaywidth.String(s[i:])
		}
	}
	return len(s)
}

func piecesWidth(ps []piece) int {
	w := 0
	for _, p := range ps {
		w += textWidth(p.text)
	}
	return w
}

// wrapper fills lines greedily with words. Spaces are break
// opportunities (a run of them shows as one space, none at a line's
// ends); so is the boundary around a wide character, as East Asian text
// has no spaces. A word wider than the line is broken between grapheme
// clusters.
type wrapper struct {
	width int
	// emit is called per line; the slice is reused afterwards. Without
	// emit, lines are kept in lines if collect is set, else only
	// measured.
	emit     func([]piece)
	collect  bool
	lines    [][]piece
	arena    []piece
	maxLineW int  // widest line so far
	maxWordW int  // widest word so far
	started  bool // a line has been ended
	blanks   int  // blank lines (from repeated hard breaks) due before the next word

	line      []piece
	lineW     int
	word      []piece
	wordW     int
	wordASCII bool // every piece of word is ASCII

	space              bool // a space waits before the next word
	spaceSGR, spaceURL string
	afterWide          bool // the last cluster was wide: a break may follow
}

func (w *wrapper) add(p piece) {
	if p.brk {
		w.flushWord()
		w.space = false
		switch {
		case len(w.line) > 0:
			w.newline()
		case w.started:
			w.blanks++ // shown only if text follows
		}
		return
	}
	s := p.text
	for len(s) > 0 {
		if n := spaceLen(s); n > 0 {
			for n > 0 {
				s = s[n:]
				n = spaceLen(s)
			}
			w.flushWord()
			w.space, w.spaceSGR, w.spaceURL = true, p.sgr, p.link
			w.afterWide = false
			continue
		}
		j := nextSpace(s)
		w.addWord(s[:j], p.sgr, p.link)
		s = s[j:]
	}
}

// spaceLen returns the length of the break space (ASCII or Unicode, but
// not a no-break space) that s starts with, or 0.
func spaceLen(s string) int {
	if s == "" {
		return 0
	}
	if s[0] == ' ' {
		return 1
	}
	if s[0] < utf8.RuneSelf {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == 0x1680, r >= 0x2000 && r <= 0x200a && r != 0x2007, r == 0x2028, r == 0x2029, r == 0x205f, r == 0x3000:
		return n
	}
	return 0
}

// nextSpace returns the offset of the first break space in s, or len(s).
func nextSpace(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || (c >= utf8.RuneSelf && spaceLen(s[i:]) > 0) {
			return i
		}
	}
	return len(s)
}

// addWord appends text without spaces to the current word, splitting it
// where wide characters allow a break.
func (w *wrapper) addWord(s, sgr, link string) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		if w.afterWide && !noBreakBefore(s[:1]) {
			w.flushWord()
		}
		w.afterWide = false
		if len(w.word) == 0 {
			w.wordASCII = true
		}
		w.word = append(w.word, piece{text: s, sgr: sgr, link: link})
		w.wordW += len(s)
		return
	}
	start, pos, segW := 0, 0, 0
	g := displaywidth.StringGraphemes(s)
	for g.Next() {
		c := g.Value()
		cw := g.Width()
		wide := cw == 2 && !isHangul(c)
		breakBefore := (wide || w.afterWide) && !noBreakBefore(c)
		if breakBefore && (pos > start || len(w.word) > 0) {
			if pos > start {
				w.word = append(w.word, piece{text: s[start:pos], sgr: sgr, link: link})
				w.wordW += segW
				w.wordASCII = false
			}
			w.flushWord()
			start, segW = pos, 0
		}
		w.afterWide = wide
		pos += len(c)
		segW += cw
	}
	if pos > start {
		w.word = append(w.word, piece{text: s[start:pos], sgr: sgr, link: link})
		w.wordW += segW
		w.wordASCII = false
	}
}

// isHangul reports Korean syllables and jamo, which wrap at spaces like
// Latin words rather than between characters.
func isHangul(c string) bool {
	r, _ := utf8.DecodeRuneInString(c)
	return (r >= 0xac00 && r <= 0xd7a3) || (r >= 0x1100 && r <= 0x11ff) || (r >= 0x3130 && r <= 0x318f)
}

// noBreakBefore reports closing punctuation that must not start a line.
func noBreakBefore(c string) bool {
	r, _ := utf8.DecodeRuneInString(c)
	switch r {
	case '、', '。', '，', '．', '：', '；', '？', '！', '）', '」', '』', '】', '〕', '〉',
		'》', '〗', '〙', '〛', '｝', '］', '’', '”', '…', '‥', 'ー', '々', 'ゝ', 'ゞ', 'ヽ', 'ヾ',
		'ぁ', 'ぃ', 'ぅ', 'ぇ', 'ぉ', 'っ', 'ゃ', 'ゅ', 'ょ', 'ァ', 'ィ', 'ゥ', 'ェ', 'ォ', 'ッ', 'ャ', 'ュ', 'ョ',
		'.', ',', ':', ';', '!', '?', ')', ']', '}', '%':
		return true
	}
	return false
}

func (w *wrapper) flushWord() {
	if len(w.word) == 0 {
		return
	}
	for ; w.blanks > 0; w.blanks-- {
		w.endLine()
	}
	if len(w.word) > 1 && !w.wordASCII {
		// A cluster may span pieces (a base in one style, its variation
		// selector in the next): measure the word whole.
		var b strings.Builder
		for _, p := range w.word {
			b.WriteString(p.text)
		}
		w.wordW = textWidth(b.String())
	}
	w.maxWordW = max(w.maxWordW, w.wordW)
	sp := 0
	if w.space && w.lineW > 0 {
		sp = 1
	}
	switch {
	case w.lineW+sp+w.wordW <= w.width:
		if sp == 1 {
			w.line = append(w.line, piece{text: " ", sgr: w.spaceSGR, link: w.spaceURL})
			w.lineW++
		}
		w.line = append(w.line, w.word...)
		w.lineW += w.wordW
	case w.wordW <= w.width:
		w.newline()
		w.line = append(w.line, w.word...)
		w.lineW = w.wordW
	default:
		if w.lineW > 0 {
			w.newline()
		}
		w.splitWord()
	}
	w.word = w.word[:0]
	w.wordW = 0
	w.space = false
}

// splitWord places a word wider than the line, breaking it between
// grapheme clusters.
func (w *wrapper) splitWord() {
	for _, p := range w.word {
		s := p.text
		for len(s) > 0 {
			n, cw := fitPrefix(s, w.width-w.lineW)
			if n == 0 {
				if w.lineW > 0 {
					w.newline()
					continue
				}
				// Not even one cluster fits an empty line: place it anyway.
				n, cw = firstCluster(s)
			}
			w.line = append(w.line, piece{text: s[:n], sgr: p.sgr, link: p.link})
			w.lineW += cw
			s = s[n:]
			if len(s) > 0 {
				w.newline()
			}
		}
	}
}

// fitPrefix returns the longest prefix of s (in whole grapheme clusters)
// at most max cells wide, as bytes and cells.
func fitPrefix(s string, max int) (int, int) {
	n, w := 0, 0
	for n < len(s) {
		if s[n] < utf8.RuneSelf && (n+1 == len(s) || s[n+1] < utf8.RuneSelf) {
			if w+1 > max {
				break
			}
			n++
			w++
			continue
		}
		cl, cw := firstCluster(s[n:])
		if w+cw > max {
			break
		}
		n += cl
		w += cw
	}
	return n, w
}

func firstCluster(s string) (int, int) {
	g := displaywidth.StringGraphemes(s)
	if g.Next() {
		return len(g.Value()), g.Width()
	}
	return len(s), textWidth(s)
}

func (w *wrapper) newline() {
	w.endLine()
	w.afterWide = false
}

// endLine hands the current line on: to emit, or to lines when
// collecting, or only to the measurements.
func (w *wrapper) endLine() {
	w.started = true
	w.maxLineW = max(w.maxLineW, w.lineW)
	switch {
	case w.emit != nil:
		w.emit(w.line)
	case w.collect:
		start := len(w.arena)
		w.arena = append(w.arena, w.line...)
		w.lines = append(w.lines, w.arena[start:len(w.arena):len(w.arena)])
	}
	w.line = w.line[:0]
	w.lineW = 0
}

// reset prepares a wrapper for new text, keeping its buffers.
func (w *wrapper) reset(width int, emit func([]piece)) {
	*w = wrapper{width: width, emit: emit, line: w.line[:0], word: w.word[:0], arena: w.arena[:0], lines: w.lines[:0]}
}

// finish places the last word and emits the last line.
func (w *wrapper) finish() {
	w.flushWord()
	if len(w.line) > 0 {
		w.endLine()
	}
}

// hardWrap emits a line of pieces, broken into lines of at most width
// cells between grapheme clusters, keeping spaces (code and raw HTML).
// Trailing spaces are dropped.
func hardWrap(ps []piece, width int, emit func([]piece)) {
	ps = trimTrailingSpace(ps)
	if piecesWidth(ps) <= width {
		emit(ps)
		return
	}
	var line []piece
	lineW := 0
	for _, p := range ps {
		s := p.text
		for len(s) > 0 {
			n, cw := fitPrefix(s, width-lineW)
			if n == 0 {
				if lineW > 0 {
					if l := trimTrailingSpace(line); len(l) > 0 {
						emit(l)
					}
					line, lineW = line[:0], 0
					continue
				}
				n, cw = firstCluster(s)
			}
			line = append(line, piece{text: s[:n], sgr: p.sgr, link: p.link})
			lineW += cw
			s = s[n:]
			if len(s) > 0 {
				// A stretch of spaces broken off a long line is no line.
				if l := trimTrailingSpace(line); len(l) > 0 {
					emit(l)
				}
				line, lineW = line[:0], 0
			}
		}
	}
	if l := trimTrailingSpace(line); len(l) > 0 {
		emit(l)
	}
}

func trimTrailingSpace(ps []piece) []piece {
	for len(ps) > 0 {
		last := ps[len(ps)-1]
		t := strings.TrimRight(last.text, " ")
		if t == "" {
			ps = ps[:len(ps)-1]
			continue
		}
		if len(t) < len(last.text) {
			ps[len(ps)-1].text = t
		}
		break
	}
	return ps
}
