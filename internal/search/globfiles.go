package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Glob lists the files under root that match pattern, a glob in ripgrep's
// --glob syntax: "**" crosses directories, and a pattern without "/"
// matches base names at any depth. Unlike a --glob override, the pattern
// only filters: the walk rules of opts (ignore files, hidden files, and
// opts.Globs) still apply. Files come in no particular order. When ctx
// ends first, the files found by then come with its error.
func Glob(ctx context.Context, root, pattern string, opts WalkOptions) ([]FileInfo, *Result, error) {
	if strings.TrimSpace(pattern) == "" {
		return nil, nil, &GlobError{Glob: pattern, Msg: "empty pattern"}
	}
	g, ok, err := parseGlob(pattern)
	if err != nil {
		return nil, nil, err
	}
	if !ok || g.negate {
		return nil, nil, &GlobError{Glob: pattern, Msg: "selects no files"}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, fmt.Errorf("glob in %s: %w", root, err)
	}
	// Enter only the directories on the way to, or below, the pattern's
	// leading literal directories ("src/**/*.go" needs only src).
	return filesUnder(ctx, abs, abs, opts, g, staticPrefix(pattern))
}

// staticPrefix returns the leading directories of an anchored pattern
// that hold no glob syntax.
func staticPrefix(pattern string) string {
	p := strings.TrimPrefix(pattern, "/")
	if p == pattern && !strings.Contains(strings.TrimSuffix(p, "/"), "/") {
		return "" // not anchored: matches base names anywhere
	}
	if strings.HasPrefix(pattern, "!") {
		return ""
	}
	segs := strings.Split(p, "/")
	var keep []string
	for _, s := range segs[:len(segs)-1] {
		if s == "" || s == "." || s == ".." || strings.ContainsAny(s, globMeta) {
			break
		}
		keep = append(keep, s)
	}
	return strings.Join(keep, "/")
}
