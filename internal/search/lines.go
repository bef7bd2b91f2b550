package search

import "bytes"

// lineSink collects the lines Content mode reports for one file: the
// matching lines and up to before/after context lines around them, each
// line once, in order.
type lineSink struct {
	data          []byte
	before, after int

	lineNo    int // number of the line that starts at counted
	counted   int // newlines before this offset are counted in lineNo
	emitted   int // offset just past the last reported line and its newline
	afterLeft int // context lines still owed after the last match
	lines     []Line
}

func (s *lineSink) lineEnd(p int) int {
	if i := bytes.IndexByte(s.data[p:], '\n'); i >= 0 {
		return p + i
	}
	return len(s.data)
}

// numAt returns the number of the line starting at off; offsets must not
// decrease between calls.
func (s *lineSink) numAt(off int) int {
	s.lineNo += bytes.Count(s.data[s.counted:off], []byte{'\n'})
	s.counted = off
	return s.lineNo
}

func (s *lineSink) emit(start, end int, context bool) {
	s.lines = append(s.lines, Line{Num: s.numAt(start), Text: string(s.data[start:end]), Context: context})
	s.emitted = end + 1
}

// flushAfter reports owed context lines that start before limit.
func (s *lineSink) flushAfter(limit int) {
	for s.afterLeft > 0 && s.emitted < limit && s.emitted < len(s.data) {
		start := s.emitted
		s.emit(start, s.lineEnd(start), true)
		s.afterLeft--
	}
	s.afterLeft = 0
}

// beforeContext reports up to s.before lines ending just before start
// that were not reported yet.
func (s *lineSink) beforeContext(start int) {
	from := start
	for k := 0; k < s.before && from > s.emitted; k++ {
		from = bytes.LastIndexByte(s.data[:from-1], '\n') + 1
	}
	for p := from; p < start; {
		e := s.lineEnd(p)
		s.emit(p, e, true)
		p = e + 1
	}
}

// matchLine reports the matching line [start, end).
func (s *lineSink) matchLine(start, end int) {
	s.flushAfter(start)
	s.beforeContext(start)
	s.emit(start, end, false)
	s.afterLeft = s.after
}

// matchSpan reports every line that the match [start, end) touches.
func (s *lineSink) matchSpan(start, end int) {
	ls := bytes.LastIndexByte(s.data[:start], '\n') + 1
	last := start
	if end > start {
		last = end - 1
	}
	le := s.lineEnd(last)
	if ls < s.emitted {
		ls = s.emitted
	}
	if ls > le || ls > len(s.data) {
		return // every line of this match is reported already
	}
	s.flushAfter(ls)
	s.beforeContext(ls)
	for p := ls; p <= le && p <= len(s.data); {
		e := s.lineEnd(p)
		s.emit(p, e, false)
		p = e + 1
		if e == len(s.data) {
			break
		}
	}
	s.afterLeft = s.after
}

// finish reports the context owed after the last match.
func (s *lineSink) finish() { s.flushAfter(len(s.data) + 1) }
