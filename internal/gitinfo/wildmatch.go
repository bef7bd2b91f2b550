package gitinfo

// This file matches gitignore patterns the way git's wildmatch does:
// "*" and "?" stop at "/" when matching a path, "**" between slashes
// (or at either end) crosses any number of folders, "[...]" classes
// accept "!" or "^" for negation, ranges and backslash escapes, and a
// backslash makes the next character literal.

// Results of one matching attempt. The two abort results let a caller
// stop trying further positions for an asterisk: once the text is
// used up no later position can match, and a single "*" that reached a
// "/" hands the search back to the enclosing "**".
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch reports whether text matches pattern. With pathname set,
// wildcards other than "**" do not match "/".
func wildmatch(pattern, text string, pathname bool) bool {
	return wildAt(pattern, text, pathname, 0) == wmMatch
}

// maxWildDepth bounds the recursion of one match; patterns with this
// many asterisks do not occur in ignore files.
const maxWildDepth = 256

// byteAt returns s[i], or 0 past its end (the patterns and paths this
// matches hold no NUL bytes).
func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

func wildAt(p, t string, pathname bool, depth int) int {
	if depth > maxWildDepth {
		return wmAbortAll
	}
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		tc := byteAt(t, ti)
		if ti >= len(t) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) || tc != p[pi] {
				return wmNoMatch
			}
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
		case '[':
			var r int
			if pi, r = matchClass(p, pi, tc, pathname); r != wmMatch {
				return r
			}
		case '*':
			r, npi, nti, done := matchStar(p, t, pi, ti, pathname, depth)
			if done {
				return r
			}
			pi, ti = npi, nti
		default:
			if tc != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// matchStar handles the asterisks starting at p[pi] against t[ti:].
// Either it settles the match (done) or, for a single "*" followed by
// "/", it moves both positions to the slash, which the caller's loop
// then matches.
func matchStar(p, t string, pi, ti int, pathname bool, depth int) (result, npi, nti int, done bool) {
	matchSlash := !pathname
	pi++
	if byteAt(p, pi) == '*' {
		before := pi - 2 // the character before the first asterisk
		for byteAt(p, pi) == '*' {
			pi++
		}
		if pathname {
			next := byteAt(p, pi)
			if (before < 0 || p[before] == '/') &&
				(next == 0 || next == '/' || (next == '\\' && byteAt(p, pi+1) == '/')) {
				// "**/" may match no folder at all.
				if next == '/' && wildAt(p[pi+1:], t[ti:], pathname, depth+1) == wmMatch {
					return wmMatch, 0, 0, true
				}
				matchSlash = true
			}
		} else {
			matchSlash = true
		}
	}
	if pi >= len(p) {
		// A trailing "**" matches everything, a trailing "*" only what
		// has no more slashes.
		if !matchSlash && containsByte(t[ti:], '/') {
			return wmNoMatch, 0, 0, true
		}
		return wmMatch, 0, 0, true
	}
	if !matchSlash && p[pi] == '/' {
		// One asterisk before a slash matches the rest of this folder
		// name.
		k := indexByteFrom(t, ti, '/')
		if k < 0 {
			return wmNoMatch, 0, 0, true
		}
		return 0, pi, k, false
	}
	for ti < len(t) {
		if c := p[pi]; !isGlobSpecial(c) {
			// The text before the next literal belongs to the asterisk.
			for ti < len(t) && (matchSlash || t[ti] != '/') && t[ti] != c {
				ti++
			}
			if ti >= len(t) || t[ti] != c {
				return wmNoMatch, 0, 0, true
			}
		}
		r := wildAt(p[pi:], t[ti:], pathname, depth+1)
		if r != wmNoMatch {
			if !matchSlash || r != wmAbortToStarStar {
				return r, 0, 0, true
			}
		} else if !matchSlash && t[ti] == '/' {
			return wmAbortToStarStar, 0, 0, true
		}
		ti++
	}
	return wmAbortAll, 0, 0, true
}

// matchClass matches the class starting at p[pi] ("[") against tc. It
// returns the position of the closing "]" and wmMatch, or the result
// that ends the match.
func matchClass(p string, pi int, tc byte, pathname bool) (int, int) {
	pi++
	pc := byteAt(p, pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = byteAt(p, pi)
	}
	var prev byte
	matched := false
	for {
		switch {
		case pc == 0:
			return pi, wmAbortAll
		case pc == '\\':
			pi++
			pc = byteAt(p, pi)
			if pc == 0 {
				return pi, wmAbortAll
			}
			if tc == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && byteAt(p, pi+1) != 0 && byteAt(p, pi+1) != ']':
			pi++
			pc = byteAt(p, pi)
			if pc == '\\' {
				pi++
				pc = byteAt(p, pi)
				if pc == 0 {
					return pi, wmAbortAll
				}
			}
			if tc <= pc && tc >= prev {
				matched = true
			}
			pc = 0 // a range cannot start another range
		case pc == '[' && byteAt(p, pi+1) == ':':
			start := pi + 2
			end := start
			for byteAt(p, end) != 0 && p[end] != ']' {
				end++
			}
			if byteAt(p, end) == 0 {
				return end, wmAbortAll
			}
			if end-start-1 < 0 || p[end-1] != ':' {
				// No ":]": the "[" is an ordinary member.
				if tc == '[' {
					matched = true
				}
				pc = '['
				break
			}
			in, known := charClass(p[start:end-1], tc)
			if !known {
				return end, wmAbortAll
			}
			matched = matched || in
			pi = end
			pc = 0
		default:
			if tc == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		pc = byteAt(p, pi)
		if pc == ']' {
			break
		}
	}
	if matched == negated || (pathname && tc == '/') {
		return pi, wmNoMatch
	}
	return pi, wmMatch
}

// charClass reports whether c is in the named POSIX class, for the
// classes whose ASCII meaning is unambiguous. Ignore files using any
// "[:" are declined before matching (see parseIgnore), so the others
// only matter to keep this function total.
func charClass(name string, c byte) (in, known bool) {
	isUpper := 'A' <= c && c <= 'Z'
	isLower := 'a' <= c && c <= 'z'
	isDigit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return isUpper || isLower || isDigit, true
	case "alpha":
		return isUpper || isLower, true
	case "digit":
		return isDigit, true
	case "lower":
		return isLower, true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	case "blank", "cntrl", "graph", "print", "punct", "space":
		return false, true
	}
	return false, false
}

func containsByte(s string, c byte) bool { return indexByteFrom(s, 0, c) >= 0 }

func indexByteFrom(s string, from int, c byte) int {
	for i := from; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
