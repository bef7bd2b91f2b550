package search

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// MatchOptions changes how a pattern matches.
type MatchOptions struct {
	// IgnoreCase matches letters without regard to case (Unicode simple
	// case folding, as ripgrep -i).
	IgnoreCase bool
	// Multiline lets a match span lines and makes . match a newline, as
	// ripgrep -U --multiline-dotall. Otherwise each line is matched on its
	// own.
	Multiline bool
}

// A Matcher finds the lines (or, in multiline mode, the spans) of a text
// that match a regular expression. It is safe for concurrent use.
//
// The expression is Go RE2 syntax, which is what ripgrep's default engine
// accepts as well (no look-around, no back-references). Before running
// the expression, the matcher looks for literals that every match must
// contain, with a byte search; most text is never seen by the regexp
// engine, and a pattern that is only literals never runs it at all.
type Matcher struct {
	pattern   string
	re        *regexp.Regexp
	multiline bool

	// finders is the prefilter: every match contains an occurrence of one
	// of them. Empty means there is no prefilter.
	finders []*finder
	// exact, when non-nil, makes an occurrence verified against these
	// strings a match without running the regexp (line mode only).
	exact []exactMember
}

// exactMember is one string of an exact set, with the offsets at which
// the prefilter literal occurs inside it.
type exactMember struct {
	f    *finder
	offs []int
}

// SyntaxError reports a pattern that does not compile.
type SyntaxError struct {
	Pattern string
	Err     error
}

func (e *SyntaxError) Error() string {
	msg := fmt.Sprintf("invalid regular expression %q: %v", e.Pattern, e.Err)
	switch {
	case strings.Contains(e.Pattern, "(?=") || strings.Contains(e.Pattern, "(?!") ||
		strings.Contains(e.Pattern, "(?<=") || strings.Contains(e.Pattern, "(?<!"):
		msg += " (look-ahead and look-behind such as (?=…), (?!…), (?<=…) and (?<!…) are not supported; match the surrounding text as part of the pattern instead)"
	case backReference.MatchString(e.Pattern):
		msg += " (back-references such as \\1 are not supported)"
	}
	return msg
}

// backReference finds \1 … \9 that is not itself an escaped backslash.
var backReference = regexp.MustCompile(`(^|[^\\])(\\\\)*\\[1-9]`)

func (e *SyntaxError) Unwrap() error { return e.Err }

// Compile returns a Matcher for pattern. A malformed pattern gives a
// *SyntaxError. Outside multiline mode a pattern holding a literal newline
// is refused, since no single line can contain one.
func Compile(pattern string, opts MatchOptions) (*Matcher, error) {
	flags := syntax.Perl
	if opts.IgnoreCase {
		flags |= syntax.FoldCase
	}
	if opts.Multiline {
		flags |= syntax.DotNL
	}
	parsed, err := syntax.Parse(pattern, flags)
	if err != nil {
		return nil, &SyntaxError{Pattern: pattern, Err: err}
	}
	if !opts.Multiline && hasNewlineLiteral(parsed) {
		return nil, &SyntaxError{Pattern: pattern,
			Err: fmt.Errorf("a literal newline cannot match within one line; search in multiline mode to match across lines")}
	}
	prefix := "(?m"
	if opts.IgnoreCase {
		prefix += "i"
	}
	if opts.Multiline {
		prefix += "s"
	}
	re, err := regexp.Compile(prefix + ")(?:" + pattern + ")")
	if err != nil {
		return nil, &SyntaxError{Pattern: pattern, Err: err}
	}
	m := &Matcher{pattern: pattern, re: re, multiline: opts.Multiline}
	m.plan(analyze(parsed.Simplify()))
	return m, nil
}

// String returns the pattern the matcher was compiled from.
func (m *Matcher) String() string { return m.pattern }

// Locate returns where the first match in line starts and ends, for
// showing the part of a long line that matched; ok is false when the
// line holds no match of its own (a context line, or a multiline match
// that spans lines).
func (m *Matcher) Locate(line string) (start, end int, ok bool) {
	loc := m.re.FindStringIndex(line)
	if loc == nil {
		return 0, 0, false
	}
	return loc[0], loc[1], true
}

func hasNewlineLiteral(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && strings.ContainsRune(string(re.Rune), '\n') {
		return true
	}
	for _, sub := range re.Sub {
		if hasNewlineLiteral(sub) {
			return true
		}
	}
	return false
}

// plan turns the literal facts of the pattern into the prefilter.
func (m *Matcher) plan(info litSet) {
	strs := info.strs
	if len(strs) == 0 || info.hasEmpty() {
		return
	}
	exact := info.exact && info.pure && !m.multiline
	if info.fold {
		safe := make([]string, len(strs))
		for i, s := range strs {
			if !foldSafe(s) {
				exact = false
				s = longestFoldSafeRun(s)
				if s == "" {
					return
				}
			}
			safe[i] = s
		}
		strs = safe
	}
	for _, s := range strs {
		if strings.Contains(s, "\uFFFD") {
			// The regexp matches an invalid byte where the pattern says
			// U+FFFD; a byte search for its encoding would miss it.
			return
		}
	}
	if len(strs) == 1 {
		f := newFinder([]byte(strs[0]), info.fold)
		m.finders = []*finder{f}
		if exact {
			m.exact = []exactMember{{f: f, offs: []int{0}}}
		}
		return
	}
	// Several strings: search for a long substring they share, if any,
	// else for each of them.
	if common := longestCommonSubstring(strs); len(common) >= 3 && litCost(common, info.fold) <= setCost(litSet{strs: strs, fold: info.fold}) {
		m.finders = []*finder{newFinder([]byte(common), info.fold)}
		if exact {
			for _, s := range strs {
				mem := exactMember{f: newFinder([]byte(s), info.fold)}
				for i := 0; i+len(common) <= len(s); i++ {
					if s[i:i+len(common)] == common {
						mem.offs = append(mem.offs, i)
					}
				}
				m.exact = append(m.exact, mem)
			}
		}
		return
	}
	for _, s := range strs {
		f := newFinder([]byte(s), info.fold)
		m.finders = append(m.finders, f)
		if exact {
			m.exact = append(m.exact, exactMember{f: f, offs: []int{0}})
		}
	}
}

// verifyExact reports whether a prefilter hit at p (by finder which) is a
// match of one of the exact strings.
func (m *Matcher) verifyExact(h []byte, p, which int) bool {
	if len(m.finders) > 1 {
		return true // each finder is an exact string itself
	}
	for _, mem := range m.exact {
		for _, off := range mem.offs {
			if mem.f.equalAt(h, p-off) {
				return true
			}
		}
	}
	return false
}

// candidates walks the prefilter hits of one haystack in order.
type candidates struct {
	one   cursor
	multi *multiCursor
}

func (m *Matcher) candidates(h []byte) candidates {
	if len(m.finders) == 1 {
		return candidates{one: m.finders[0].cursor(h)}
	}
	return candidates{multi: newMultiCursor(m.finders, h)}
}

func (c *candidates) next(from int) (pos, which int) {
	if c.multi != nil {
		return c.multi.find(from)
	}
	return c.one.next(from), 0
}

// mayMatch reports whether data can hold a match at all.
func (m *Matcher) mayMatch(data []byte) bool {
	if len(m.finders) == 0 {
		return true
	}
	c := m.candidates(data)
	p, _ := c.next(0)
	return p >= 0
}

// eachLine calls fn with the start and end (excluding the newline) of each
// line of data that holds a match, in order, until fn returns false.
// Matching is per line: a match never spans a newline.
func (m *Matcher) eachLine(data []byte, fn func(start, end int) bool) {
	var cands candidates
	usePrefilter := len(m.finders) > 0
	if usePrefilter {
		cands = m.candidates(data)
	}
	pos := 0
	floor := 0 // start of the line holding pos
	for pos <= len(data) {
		var p, which int
		if usePrefilter {
			if p, which = cands.next(pos); p < 0 {
				return
			}
		} else {
			loc := m.re.FindIndex(data[pos:])
			if loc == nil {
				return
			}
			p = pos + loc[0]
		}
		if p == len(data) && (p == 0 || data[p-1] == '\n') {
			return // the empty "line" after the final newline
		}
		ls := floor
		if i := bytes.LastIndexByte(data[floor:p], '\n'); i >= 0 {
			ls = floor + i + 1
		}
		le := len(data)
		if i := bytes.IndexByte(data[p:], '\n'); i >= 0 {
			le = p + i
		}
		var ok bool
		switch {
		case m.exact != nil:
			if !m.verifyExact(data, p, which) {
				pos, floor = p+1, ls
				continue
			}
			ok = true
		default:
			ok = m.re.Match(data[ls:le])
		}
		if ok && !fn(ls, le) {
			return
		}
		pos = le + 1
		floor = pos
	}
}

// eachMatch calls fn with the start and end of each match of the pattern
// in data, in order, until fn returns false. Used in multiline mode.
func (m *Matcher) eachMatch(data []byte, first bool, fn func(start, end int) bool) {
	if !m.mayMatch(data) {
		return
	}
	if first {
		if loc := m.re.FindIndex(data); loc != nil && !isPhantom(data, loc[0], loc[1]) {
			fn(loc[0], loc[1])
		}
		return
	}
	for _, loc := range m.re.FindAllIndex(data, -1) {
		if isPhantom(data, loc[0], loc[1]) {
			continue
		}
		if !fn(loc[0], loc[1]) {
			return
		}
	}
}

// isPhantom reports an empty match after the final newline of data, where
// ripgrep sees no line.
func isPhantom(data []byte, s, e int) bool {
	return s == e && s == len(data) && (s == 0 || data[s-1] == '\n')
}
