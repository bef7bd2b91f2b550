package tui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// editor is the multi-line input: a rune buffer and a cursor, history
// browsing, Ctrl+R search and collapsed pastes.
type editor struct {
	buf []rune
	pos int

	hist    *history
	histIdx int    // entries back from the newest while browsing; -1 when not
	draft   string // the text before browsing started

	pastes map[int]string // collapsed pastes by number
	pasteN int
	// pastedHead: the text starts with pasted text (nothing but blanks
	// was before it), so a "!" it begins with was not typed: enter sends
	// it to the model as a prompt, not to the shell.
	pastedHead bool

	cwd    string              // where pasted relative paths are
	images map[int]pastedImage // images pasted as paths, by number
	imageN int

	search *histSearch // set in Ctrl+R mode
	width  int         // the width of the last drawing (0: not drawn yet)

	undos  []editState // states to go back to with Ctrl+_, oldest first
	typing bool        // the last change was typed text (typing is undone a word at a time)

	kills []string // text cut by Ctrl+K, Ctrl+U, Ctrl+W, newest last
	yank  *yankState
}

// editState is the text and cursor at one point, for undo.
type editState struct {
	text string
	pos  int
}

// yankState is the text Ctrl+Y (or Alt+Y after it) put in last: where it
// is and which kill it was, so Alt+Y can swap it for the one before.
type yankState struct {
	start, end int
	kill       int // index into kills
}

// Undo and kill ring sizes.
const (
	maxUndos = 100
	maxKills = 10
)

// histSearch is the state of a Ctrl+R search.
type histSearch struct {
	query string
	match int // index into hist.entries of the current match, -1 if none
}

// editResult says what a key did to the editor.
type editResult int

const (
	editIgnored editResult = iota // not an editor key
	editChanged                   // text or cursor changed
	editSubmit                    // Enter: submit the text
)

// pasteLines and pasteChars are the sizes past which a paste is
// collapsed, Claude Code's: more than three lines (two line breaks) or
// more than 800 characters.
const (
	pasteLines = 3
	pasteChars = 800
)

func newEditor(h *history) *editor {
	return &editor{hist: h, histIdx: -1, pastes: map[int]string{}, images: map[int]pastedImage{}}
}

func (e *editor) value() string { return string(e.buf) }

func (e *editor) empty() bool { return len(e.buf) == 0 }

func (e *editor) set(s string) {
	e.buf = []rune(s)
	e.pos = len(e.buf)
	e.pastedHead = false
}

// atHead reports whether only blanks are before the cursor.
func (e *editor) atHead() bool {
	return strings.TrimSpace(string(e.buf[:e.pos])) == ""
}

// fromEditor replaces the text with what the external editor saved,
// undoably (the pastes stay known, for the placeholders an undo brings
// back).
func (e *editor) fromEditor(text string) {
	e.pushUndo(editState{e.value(), e.pos})
	e.typing, e.yank = false, nil
	e.histIdx = -1
	e.set(text)
}

// reset clears the text, pastes and browsing.
func (e *editor) reset() {
	e.buf, e.pos = nil, 0
	e.histIdx = -1
	e.pastes = map[int]string{}
	e.images = map[int]pastedImage{}
	e.search = nil
	e.undos, e.typing, e.yank = nil, false, nil
	e.pastedHead = false
}

func (e *editor) insert(s string) {
	r := []rune(s)
	e.buf = append(e.buf[:e.pos], append(r, e.buf[e.pos:]...)...)
	e.pos += len(r)
	e.histIdx = -1
}

// key applies a key press.
func (e *editor) key(k tea.KeyPressMsg) editResult {
	if e.search != nil {
		return e.searchKey(k)
	}
	name := k.String()
	switch name {
	case "ctrl+_", "ctrl+shift+-", "ctrl+shift+_":
		e.undo()
		return editChanged
	case "alt+y":
		return e.yankPop()
	}
	before := editState{string(e.buf), e.pos}
	typed := false
	res := e.edit(k, name, &typed)
	if name != "ctrl+y" {
		e.yank = nil
	}
	if string(e.buf) != before.text {
		// A run of typing is one step, cut at the spaces between words.
		wordStart := typed && len(k.Text) > 0 && unicode.IsSpace([]rune(k.Text)[0])
		if !typed || !e.typing || wordStart {
			e.pushUndo(before)
		}
	}
	e.typing = typed
	return res
}

// pushUndo records the state before a change.
func (e *editor) pushUndo(st editState) {
	if len(e.undos) == maxUndos {
		e.undos = append(e.undos[:0], e.undos[1:]...)
	}
	e.undos = append(e.undos, st)
}

// undo goes back to the text before the last change.
func (e *editor) undo() {
	e.typing, e.yank = false, nil
	if len(e.undos) == 0 {
		return
	}
	st := e.undos[len(e.undos)-1]
	e.undos = e.undos[:len(e.undos)-1]
	e.buf, e.pos = []rune(st.text), min(st.pos, len([]rune(st.text)))
	e.histIdx = -1
}

// kill cuts buf[from:to] into the kill ring.
func (e *editor) kill(from, to int) {
	if from >= to {
		return
	}
	if len(e.kills) == maxKills {
		e.kills = append(e.kills[:0], e.kills[1:]...)
	}
	e.kills = append(e.kills, string(e.buf[from:to]))
	e.buf = append(e.buf[:from], e.buf[to:]...)
	if e.pos > from {
		e.pos = from
	}
}

// yankPop replaces the text just yanked with the kill before it (Alt+Y
// after Ctrl+Y).
func (e *editor) yankPop() editResult {
	y := e.yank
	if y == nil || len(e.kills) < 2 {
		return editIgnored
	}
	y.kill = (y.kill - 1 + len(e.kills)) % len(e.kills)
	r := []rune(e.kills[y.kill])
	e.buf = append(e.buf[:y.start], append(r, e.buf[y.end:]...)...)
	y.end = y.start + len(r)
	e.pos = y.end
	return editChanged
}

// edit applies an editing key; typed says whether it inserted typed text.
func (e *editor) edit(k tea.KeyPressMsg, name string, typed *bool) editResult {
	switch name {
	case "enter":
		if e.pos > 0 && e.buf[e.pos-1] == '\\' {
			e.buf = append(e.buf[:e.pos-1], e.buf[e.pos:]...)
			e.pos--
			e.insert("\n")
			return editChanged
		}
		return editSubmit
	case "shift+enter", "ctrl+j", "alt+enter":
		e.insert("\n")
	case "backspace", "ctrl+h":
		if n := e.placeholderBefore(); n > 0 {
			// A paste or image placeholder goes whole: cut short, it
			// would be sent as broken text and the paste lost.
			e.buf = append(e.buf[:e.pos-n], e.buf[e.pos:]...)
			e.pos -= n
		} else if e.pos > 0 {
			from := e.clusterBefore(e.pos)
			e.buf = append(e.buf[:from], e.buf[e.pos:]...)
			e.pos = from
		}
	case "delete", "ctrl+d": // ctrl+d on an empty input is exit (keys.go)
		if e.pos < len(e.buf) {
			e.buf = append(e.buf[:e.pos], e.buf[e.clusterAfter(e.pos):]...)
		}
	case "left", "ctrl+b":
		e.pos = e.clusterBefore(e.pos)
	case "right", "ctrl+f":
		e.pos = e.clusterAfter(e.pos)
	case "home", "ctrl+a":
		e.pos = e.lineStart()
	case "end", "ctrl+e":
		e.pos = e.lineEnd()
	case "alt+left", "alt+b", "ctrl+left":
		e.pos = e.wordLeft()
	case "alt+right", "alt+f", "ctrl+right":
		for e.pos < len(e.buf) && unicode.IsSpace(e.buf[e.pos]) {
			e.pos++
		}
		for e.pos < len(e.buf) && !unicode.IsSpace(e.buf[e.pos]) {
			e.pos++
		}
	case "ctrl+u":
		e.kill(e.lineStart(), e.pos)
	case "ctrl+k":
		e.kill(e.pos, e.lineEnd())
	case "ctrl+w", "alt+backspace":
		e.kill(e.wordLeft(), e.pos)
	case "ctrl+y":
		if len(e.kills) == 0 {
			return editIgnored
		}
		start := e.pos
		e.insert(e.kills[len(e.kills)-1])
		e.yank = &yankState{start: start, end: e.pos, kill: len(e.kills) - 1}
	case "up":
		switch {
		case e.width > 0:
			if !e.moveRow(-1) {
				e.older()
			}
		case e.lineStart() == 0:
			e.older()
		default:
			e.moveLine(-1)
		}
	case "down":
		switch {
		case e.width > 0:
			if !e.moveRow(1) {
				e.newer()
			}
		case e.lineEnd() == len(e.buf):
			e.newer()
		default:
			e.moveLine(1)
		}
	case "ctrl+r":
		e.search = &histSearch{match: -1}
	default:
		if k.Text == "" {
			return editIgnored
		}
		t := sanitize(k.Text)
		if t == "" {
			return editIgnored
		}
		if e.atHead() {
			e.pastedHead = false // typed ahead of the paste
		}
		e.insert(t)
		*typed = true
	}
	return editChanged
}

// clusterBefore is where the character that ends at pos starts, and
// clusterAfter where the one that starts at pos ends: characters as the
// terminal draws them (grapheme clusters), so the cursor steps over an
// emoji made of several code points (a family, a flag, a skin tone) or a
// letter with a combining accent as one, and backspace deletes it whole;
// stepping by code point put the cursor inside it, where typed text split
// it.
func (e *editor) clusterBefore(pos int) int {
	if pos <= 0 {
		return 0
	}
	start := pos - 1 // clusters do not cross a line break
	for start > 0 && e.buf[start-1] != '\n' {
		start--
	}
	prev := start
	for at := start; at < pos; {
		prev = at
		at = e.clusterEnd(at)
	}
	return prev
}

func (e *editor) clusterAfter(pos int) int {
	if pos >= len(e.buf) {
		return len(e.buf)
	}
	start := pos
	for start > 0 && e.buf[start-1] != '\n' {
		start--
	}
	at := start
	for at <= pos {
		at = e.clusterEnd(at)
	}
	return at
}

// snap moves pos back to the start of the character it falls inside, so
// a move up or down does not leave the cursor within an emoji.
func (e *editor) snap(pos int) int {
	if pos <= 0 || pos >= len(e.buf) {
		return pos
	}
	return e.clusterBefore(e.clusterAfter(pos))
}

// clusterEnd is the end of the grapheme cluster starting at rune index
// at (a line break is one of its own; no cluster is longer than
// maxCluster runes, which bounds the work for a long line).
func (e *editor) clusterEnd(at int) int {
	end := at + 1
	for end < len(e.buf) && end-at < maxCluster && e.buf[end] != '\n' && e.buf[end-1] != '\n' {
		end++
	}
	c, _ := xansi.FirstGraphemeCluster(string(e.buf[at:end]), xansi.GraphemeWidth)
	return at + max(1, utf8.RuneCountInString(c))
}

// maxCluster bounds the runes of one grapheme cluster the editor looks
// at; the longest emoji sequences have about ten.
const maxCluster = 32

// placeholderBefore is the length in runes of the paste or image
// placeholder that ends at the cursor ("[Pasted text #1 +20 lines]",
// "[Image #2]") when it stands for a paste the editor holds, else 0.
func (e *editor) placeholderBefore() int {
	if e.pos == 0 || e.buf[e.pos-1] != ']' {
		return 0
	}
	start := e.pos - 1
	for start > 0 && e.buf[start] != '[' && e.pos-start < 64 {
		start--
	}
	if e.buf[start] != '[' {
		return 0
	}
	ref := string(e.buf[start:e.pos])
	if m := pasteRef().FindStringSubmatch(ref); m != nil && m[0] == ref {
		if n, _ := strconv.Atoi(m[1]); e.pastes[n] != "" {
			return e.pos - start
		}
	}
	if m := imageRef().FindStringSubmatch(ref); m != nil && m[0] == ref {
		if n, _ := strconv.Atoi(m[1]); e.images[n].data != nil {
			return e.pos - start
		}
	}
	return 0
}

func (e *editor) lineStart() int {
	i := e.pos
	for i > 0 && e.buf[i-1] != '\n' {
		i--
	}
	return i
}

func (e *editor) lineEnd() int {
	i := e.pos
	for i < len(e.buf) && e.buf[i] != '\n' {
		i++
	}
	return i
}

func (e *editor) wordLeft() int {
	i := e.pos
	for i > 0 && unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	return i
}

// moveLine moves the cursor one logical line up or down, keeping the
// column when it can.
func (e *editor) moveLine(dir int) {
	col := e.pos - e.lineStart()
	if dir < 0 {
		e.pos = e.lineStart() - 1 // end of the previous line
		e.pos = e.snap(min(e.lineStart()+col, e.pos))
		return
	}
	e.pos = e.lineEnd() + 1
	e.pos = e.snap(min(e.pos+col, e.lineEnd()))
}

// older shows the previous history entry.
func (e *editor) older() {
	if e.hist == nil || e.histIdx+1 >= len(e.hist.entries) {
		return
	}
	if e.histIdx < 0 {
		e.draft = e.value()
	}
	e.histIdx++
	e.set(e.hist.entries[len(e.hist.entries)-1-e.histIdx])
}

// newer shows the next history entry, then the draft.
func (e *editor) newer() {
	if e.histIdx < 0 {
		return
	}
	e.histIdx--
	if e.histIdx < 0 {
		e.set(e.draft)
		return
	}
	e.set(e.hist.entries[len(e.hist.entries)-1-e.histIdx])
}

// searchKey applies a key in Ctrl+R mode, as Claude Code's docs describe
// it: tab or esc takes the match into the input to edit, enter takes it
// and sends it, ctrl+c (and backspace on an empty search) leaves the
// search with the input as it was.
func (e *editor) searchKey(k tea.KeyPressMsg) editResult {
	s := e.search
	switch k.String() {
	case "ctrl+c", "ctrl+g":
		e.search = nil
	case "enter", "esc", "tab", "right", "left":
		if s.match >= 0 {
			e.set(e.hist.entries[s.match])
		}
		e.search = nil
		if k.String() == "enter" && s.match >= 0 {
			return editSubmit
		}
	case "ctrl+r":
		e.findFrom(s.match - 1)
	case "backspace":
		r := []rune(s.query)
		if len(r) == 0 {
			e.search = nil
			break
		}
		s.query = string(r[:len(r)-1])
		e.findFrom(len(e.hist.entries) - 1)
	default:
		if t := sanitize(k.Text); t != "" {
			s.query += t
			e.findFrom(len(e.hist.entries) - 1)
		}
	}
	return editChanged
}

// findFrom finds the newest entry at or before index i containing the
// query. When there is none, a search typed further has no match (the
// entry found for a shorter query does not hold the new one), while
// ctrl+r past the oldest match keeps that match.
func (e *editor) findFrom(i int) {
	s := e.search
	if e.hist == nil || s.query == "" {
		s.match = -1
		return
	}
	q := strings.ToLower(s.query)
	for ; i >= 0; i-- {
		if strings.Contains(strings.ToLower(e.hist.entries[i]), q) {
			s.match = i
			return
		}
	}
	if s.match < 0 || s.match >= len(e.hist.entries) || !strings.Contains(strings.ToLower(e.hist.entries[s.match]), q) {
		s.match = -1
	}
}

// paste inserts pasted text, collapsed to a placeholder when large.
func (e *editor) paste(text string) {
	text = sanitize(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"))
	if text == "" {
		return
	}
	if s := e.search; s != nil {
		// Into the search, as typed text goes: in the hidden input it
		// was overwritten by the match that esc or tab takes.
		s.query += strings.Join(strings.Fields(text), " ")
		e.findFrom(len(e.hist.entries) - 1)
		return
	}
	e.pushUndo(editState{string(e.buf), e.pos})
	e.typing, e.yank = false, nil
	if e.atHead() {
		e.pastedHead = true
	}
	if imgs := imagePaths(text, e.cwd); imgs != nil {
		e.pasteImages(imgs)
		return
	}
	breaks := strings.Count(text, "\n")
	if breaks+1 <= pasteLines && len(text) <= pasteChars {
		e.insert(text)
		return
	}
	e.pasteN++
	e.pastes[e.pasteN] = text
	if breaks > 0 {
		// "+N lines" counts line breaks, as Claude Code does: the lines
		// after the first, and a log ending in a newline counts its lines.
		e.insert(fmt.Sprintf("[Pasted text #%d +%d lines]", e.pasteN, breaks))
	} else {
		e.insert(fmt.Sprintf("[Pasted text #%d]", e.pasteN)) // one long line
	}
}

var pasteRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[Pasted text #(\d+)(?: [^\]]*)?\]`) })

// expanded returns the text with collapsed pastes put back.
func (e *editor) expanded() string {
	if len(e.pastes) == 0 {
		return e.value()
	}
	return pasteRef().ReplaceAllStringFunc(e.value(), func(ref string) string {
		m := pasteRef().FindStringSubmatch(ref)
		n, _ := strconv.Atoi(m[1])
		if p, ok := e.pastes[n]; ok {
			return p
		}
		return ref
	})
}

// screenText is output of a command or tool made safe to print: each
// line keeps what a terminal would have left on it after its carriage
// returns (the last piece a progress bar drew, taken whole), and escape
// sequences and other control characters are removed, so output that
// moves the cursor, clears the screen or sets the title cannot garble the
// conversation printed around it. Colours and text attributes (SGR) stay,
// as Claude Code shows a command's colours; each line closes the ones it
// leaves open (see keepColours).
func screenText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if strings.IndexByte(s, '\r') >= 0 {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if strings.IndexByte(l, '\r') < 0 {
				continue
			}
			parts := strings.Split(l, "\r")
			l = ""
			for j := len(parts) - 1; j >= 0; j-- {
				if parts[j] != "" {
					l = parts[j]
					break
				}
			}
			lines[i] = l
		}
		s = strings.Join(lines, "\n")
	}
	return keepColours(s)
}

// sanitize removes escape sequences and control characters other than
// newline and tab from text typed or pasted.
func sanitize(s string) string {
	if s == "" {
		return s
	}
	s = xansi.Strip(s)
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		}
		return r
	}, s)
}

// view draws the editor width columns wide, at most maxLines tall, and
// returns the cursor's row and column within the drawing.
func (e *editor) view(st *styles, width, maxLines int, placeholder string) (string, int, int) {
	if e.search != nil {
		return e.searchView(st, width)
	}
	e.width = width
	prompt := st.accent.Render("> ")
	if len(e.buf) == 0 {
		return prompt + st.dim.Render(cut(placeholder, width-2)), 0, 2
	}
	var rows []string
	curRow, curCol := 0, 0
	row := []rune{}
	e.layout(width, func(i, r, c int) {
		if r == len(rows)+1 {
			rows = append(rows, string(row))
			row = row[:0:0]
		}
		if i == e.pos {
			curRow, curCol = r, c
		}
		if i < len(e.buf) && e.buf[i] != '\n' {
			if e.buf[i] == '\t' {
				row = append(row, ' ')
			} else {
				row = append(row, e.buf[i])
			}
		}
	})
	rows = append(rows, string(row))
	// Show the rows around the cursor.
	first := 0
	if len(rows) > maxLines {
		first = min(max(0, curRow-maxLines/2), len(rows)-maxLines)
		rows = rows[first : first+maxLines]
	}
	for i, r := range rows {
		p := "  "
		if first+i == 0 {
			p = prompt
		}
		rows[i] = p + r
	}
	return strings.Join(rows, "\n"), curRow - first, curCol + 2
}

// layout places the text in rows of width-2 columns, as view draws it:
// it calls place for each position 0..len(buf) (len(buf) is the end)
// with its row and column, in order. A cursor at the end of a full row
// is shown at the start of the next.
func (e *editor) layout(width int, place func(i, row, col int)) {
	inner := max(4, width-2)
	row, col := 0, 0
	for i := 0; i <= len(e.buf); i++ {
		if i == len(e.buf) {
			if col >= inner {
				row, col = row+1, 0
			}
			place(i, row, col)
			return
		}
		r := e.buf[i]
		if r == '\n' {
			place(i, row, col)
			row, col = row+1, 0
			continue
		}
		if r == '\t' {
			r = ' '
		}
		w := xansi.StringWidth(string(r))
		if col+w > inner || (i == e.pos && col >= inner) {
			row, col = row+1, 0
		}
		place(i, row, col)
		col += w
	}
}

// moveRow moves the cursor one drawn row up (dir -1) or down (1),
// keeping its column when it can; false when there is no such row.
func (e *editor) moveRow(dir int) bool {
	type spot struct{ i, row, col int }
	var spots []spot
	cur := spot{}
	e.layout(e.width, func(i, r, c int) {
		spots = append(spots, spot{i, r, c})
		if i == e.pos {
			cur = spot{i, r, c}
		}
	})
	target := cur.row + dir
	best := -1
	for _, s := range spots {
		if s.row != target {
			continue
		}
		if best < 0 || s.col <= cur.col {
			best = s.i
		}
	}
	if best < 0 {
		return false
	}
	e.pos = e.snap(best)
	return true
}

func (e *editor) searchView(st *styles, width int) (string, int, int) {
	s := e.search
	label := "search history: "
	match := ""
	if s.match >= 0 {
		match = strings.ReplaceAll(e.hist.entries[s.match], "\n", " ↵ ")
	} else if s.query != "" {
		match = st.dim.Render("no match")
	}
	line := st.search.Render(label) + s.query
	col := xansi.StringWidth(label + s.query)
	return cut(line, width) + "\n" + "  " + cut(match, width-2), 0, min(col, width-1)
}
