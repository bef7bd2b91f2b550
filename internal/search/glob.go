package search

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// globKind says how a compiled glob is matched.
type globKind uint8

const (
	globLiteral globKind = iota // target == lit
	globSuffix                  // target ends with lit ("*.go")
	globPrefix                  // target starts with lit ("Makefile*")
	globRE                      // re matches target
)

// glob is one pattern in gitignore syntax, as used by ignore files,
// ripgrep's --glob overrides and the file type table.
//
// A pattern without a slash (other than a trailing one) matches a file's
// base name at any depth; one with a slash is anchored to the directory
// the pattern is relative to. "*" and "?" never match "/", "**" matches
// any number of directories, "[...]" is a class ("[!...]" negated), and
// "{a,b}" is an alternation, which ripgrep accepts as well.
type glob struct {
	text     string // the pattern as written
	negate   bool   // the pattern began with "!"
	dirOnly  bool   // the pattern ended with "/"
	anchored bool   // matched against the relative path, not the base name
	kind     globKind
	lit      string
	re       *regexp.Regexp
}

// match reports whether the pattern matches an entry, given its path
// relative to the pattern's directory (slash separated) and its base name.
func (g *glob) match(rel, name string, isDir bool) bool {
	if g.dirOnly && !isDir {
		return false
	}
	target := name
	if g.anchored {
		target = rel
	}
	switch g.kind {
	case globLiteral:
		return target == g.lit
	case globSuffix:
		return strings.HasSuffix(target, g.lit)
	case globPrefix:
		return strings.HasPrefix(target, g.lit)
	}
	return g.re.MatchString(target)
}

// GlobError reports a glob pattern that cannot be compiled.
type GlobError struct {
	Glob string
	Msg  string
}

func (e *GlobError) Error() string { return fmt.Sprintf("invalid glob %q: %s", e.Glob, e.Msg) }

// parseGlob compiles one line of gitignore syntax. ok is false for a blank
// line or a comment.
func parseGlob(line string) (g *glob, ok bool, err error) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpace(line)
	if line == "" || line[0] == '#' {
		return nil, false, nil
	}
	g = &glob{text: line}
	body := line
	switch {
	case body[0] == '!':
		g.negate = true
		body = body[1:]
	case strings.HasPrefix(body, `\!`), strings.HasPrefix(body, `\#`):
		body = body[1:]
	}
	if strings.HasSuffix(body, "/") && !strings.HasSuffix(body, `\/`) {
		g.dirOnly = true
		body = strings.TrimRight(body, "/")
	}
	if body == "" {
		return nil, false, nil
	}
	if strings.Contains(body, "/") {
		g.anchored = true
		body = strings.TrimPrefix(body, "/")
		// "**/name" is the same as "name": a base name at any depth.
		if rest, found := strings.CutPrefix(body, "**/"); found && !strings.Contains(rest, "/") && rest != "**" {
			g.anchored = false
			body = rest
		}
	}
	if body == "" {
		return nil, false, nil
	}
	if err := g.compile(body); err != nil {
		return nil, false, &GlobError{Glob: line, Msg: err.Error()}
	}
	return g, true, nil
}

// trimTrailingSpace removes trailing spaces that are not escaped with a
// backslash.
func trimTrailingSpace(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

const globMeta = `*?[{\`

func (g *glob) compile(body string) error {
	if !strings.ContainsAny(body, globMeta) {
		g.kind, g.lit = globLiteral, body
		return nil
	}
	if !g.anchored && body[0] == '*' && !strings.ContainsAny(body[1:], globMeta) {
		g.kind, g.lit = globSuffix, body[1:]
		return nil
	}
	if !g.anchored && body[len(body)-1] == '*' && !strings.ContainsAny(body[:len(body)-1], globMeta) {
		g.kind, g.lit = globPrefix, body[:len(body)-1]
		return nil
	}
	expr, err := globRegexp(body)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return err
	}
	g.kind, g.re = globRE, re
	return nil
}

// globRegexp translates a glob body into an anchored regular expression.
func globRegexp(p string) (string, error) {
	var sb strings.Builder
	sb.WriteString(`^`)
	depth := 0 // open braces
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '*':
			if i+1 < len(p) && p[i+1] == '*' {
				startSeg := i == 0 || p[i-1] == '/'
				j := i + 2
				endSeg := j == len(p) || p[j] == '/'
				if startSeg && endSeg {
					switch {
					case j == len(p): // "dir/**" or a lone "**"
						sb.WriteString(`.*`)
					default: // "**/" : zero or more directories
						sb.WriteString(`(?:.*/)?`)
						j++
					}
					i = j - 1
					continue
				}
				// "**" inside a segment is a plain star.
				for i+1 < len(p) && p[i+1] == '*' {
					i++
				}
			}
			sb.WriteString(`[^/]*`)
		case '?':
			sb.WriteString(`[^/]`)
		case '[':
			n, class, err := globClass(p[i:])
			if err != nil {
				return "", err
			}
			sb.WriteString(class)
			i += n - 1
		case '{':
			depth++
			sb.WriteString(`(?:`)
		case '}':
			if depth == 0 {
				sb.WriteString(`\}`)
				continue
			}
			depth--
			sb.WriteString(`)`)
		case ',':
			if depth > 0 {
				sb.WriteString(`|`)
			} else {
				sb.WriteString(`,`)
			}
		case '\\':
			if i+1 == len(p) {
				return "", fmt.Errorf("dangling escape at the end")
			}
			i++
			sb.WriteString(regexp.QuoteMeta(p[i : i+1]))
		default:
			sb.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	if depth > 0 {
		return "", fmt.Errorf("unclosed {")
	}
	sb.WriteString(`$`)
	return sb.String(), nil
}

// globClass translates the class at the start of p ("[...]") and returns
// how many bytes it used.
func globClass(p string) (int, string, error) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	var items strings.Builder
	first := true
	next := func() rune { // the rune at i, after an optional backslash
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		i += size
		return r
	}
	for {
		if i >= len(p) {
			return 0, "", fmt.Errorf("unclosed character class")
		}
		if p[i] == ']' && !first {
			i++
			break
		}
		first = false
		lo := next()
		fmt.Fprintf(&items, `\x{%x}`, lo)
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			i++
			hi := next()
			if hi < lo {
				return 0, "", fmt.Errorf("invalid range %c-%c in character class", lo, hi)
			}
			fmt.Fprintf(&items, `-\x{%x}`, hi)
		}
	}
	if negate {
		return i, `[^/` + items.String() + `]`, nil
	}
	return i, `[` + items.String() + `]`, nil
}
