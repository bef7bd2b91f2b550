package gitinfo

// This file reads gitignore files and decides whether a path is
// ignored, with git's rules: within one file the last matching line
// wins; a ".gitignore" deeper in the tree is consulted before those
// above it, then .git/info/exclude, then core.excludesFile.

import (
	"bytes"
	"fmt"
	"strings"
)

// ignorePattern is one line of an ignore file.
type ignorePattern struct {
	pattern   string // without "!", the trailing "/" and a leading "/"
	negative  bool   // "!pattern": re-includes
	mustBeDir bool   // "pattern/": matches folders only
	noDir     bool   // no "/" inside: matches the base name at any depth
	base      string // the folder of the file holding it, "" or "a/b/"
}

// ignoreList is the patterns of one file, in file order.
type ignoreList struct {
	patterns []ignorePattern
}

// maxPatternStars bounds the asterisks of one pattern; more is declined
// (wildmatch recurses once per asterisk).
const maxPatternStars = 64

// parseIgnore parses the ignore file data whose patterns apply below
// base ("" for the top, else a folder path ending in "/"). A file git
// would read differently from this matcher (NUL bytes, POSIX character
// classes) is errUnsupported.
func parseIgnore(data []byte, base string) (*ignoreList, error) {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("NUL byte: %w", errUnsupported)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	l := &ignoreList{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		line = trimIgnoreSpaces(line)
		if strings.Contains(line, "[:") {
			return nil, fmt.Errorf("pattern %q: character class: %w", line, errUnsupported)
		}
		if strings.Count(line, "*") > maxPatternStars {
			return nil, fmt.Errorf("pattern %q: too many asterisks: %w", line, errUnsupported)
		}
		p := ignorePattern{base: base}
		if strings.HasPrefix(line, "!") {
			p.negative = true
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.mustBeDir = true
			line = line[:len(line)-1]
		}
		if line == "" {
			continue // matches nothing
		}
		p.noDir = !strings.Contains(line, "/")
		if !p.noDir {
			line = strings.TrimPrefix(line, "/")
		}
		p.pattern = line
		l.patterns = append(l.patterns, p)
	}
	return l, nil
}

// trimIgnoreSpaces removes trailing spaces that no backslash escapes.
func trimIgnoreSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// match returns the last pattern of the list matching path (relative to
// the top, no trailing slash), whose last element is name.
func (l *ignoreList) match(path, name string, isDir bool) (*ignorePattern, bool) {
	for i := len(l.patterns) - 1; i >= 0; i-- {
		p := &l.patterns[i]
		if p.mustBeDir && !isDir {
			continue
		}
		if p.noDir {
			if wildmatch(p.pattern, name, false) {
				return p, true
			}
			continue
		}
		rel, ok := strings.CutPrefix(path, p.base)
		if !ok || rel == "" {
			continue
		}
		if wildmatch(p.pattern, rel, true) {
			return p, true
		}
	}
	return nil, false
}

// ignoreStack is the ignore files in force in one folder of a walk:
// the global files first, then each .gitignore from the top down.
type ignoreStack []*ignoreList

// excluded reports whether path is ignored: the first list to match,
// from the deepest .gitignore to core.excludesFile, decides.
func (s ignoreStack) excluded(path, name string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		if p, ok := s[i].match(path, name, isDir); ok {
			return !p.negative
		}
	}
	return false
}
