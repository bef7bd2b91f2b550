package search

import (
	"strings"
)

// overrides are ripgrep's --glob patterns: a pattern selects the files it
// matches, and one starting with "!" excludes them. When at least one
// selecting pattern is given, files that match none are left out. The
// last pattern that matches decides, and a match beats ignore files and
// the hidden-file rule.
type overrides struct {
	globs      []*glob
	whitelists int
}

// newOverrides compiles glob patterns. An empty list gives nil.
func newOverrides(patterns []string) (*overrides, error) {
	var ov overrides
	for _, p := range patterns {
		if strings.TrimSpace(p) == "" {
			continue
		}
		g, ok, err := parseGlob(p)
		if err != nil {
			return nil, err
		}
		if !ok {
			// A comment line or a lone "!" selects nothing; ripgrep
			// treats it the same way.
			continue
		}
		if !g.negate {
			ov.whitelists++
		}
		ov.globs = append(ov.globs, g)
	}
	if len(ov.globs) == 0 {
		return nil, nil
	}
	return &ov, nil
}

func (ov *overrides) match(rel, name string, isDir bool) verdict {
	if ov == nil {
		return noVerdict
	}
	for i := len(ov.globs) - 1; i >= 0; i-- {
		if g := ov.globs[i]; g.match(rel, name, isDir) {
			if g.negate {
				return ignored
			}
			return whitelisted
		}
	}
	if ov.whitelists > 0 && !isDir {
		return ignored
	}
	return noVerdict
}

// SplitGlobs splits the glob argument of a search the way Claude Code's
// Grep tool does before handing it to ripgrep: on white space, and on
// commas unless the piece holds a {...} alternation.
func SplitGlobs(arg string) []string {
	var out []string
	for _, piece := range strings.Fields(arg) {
		if strings.Contains(piece, "{") && strings.Contains(piece, "}") {
			out = append(out, piece)
			continue
		}
		for _, p := range strings.Split(piece, ",") {
			if p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// CheckGlobs reports the first of the glob patterns that does not
// compile, as a *GlobError.
func CheckGlobs(globs []string) error {
	_, err := newOverrides(globs)
	return err
}
