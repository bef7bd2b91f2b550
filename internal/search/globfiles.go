package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Glob lists the files under root that match pattern, a glob in ripgrep's
// --glob syntax: "**" crosses directories, and a pattern without "/"
// matches base names at any depth. The walk rules of opts apply (its Globs
// must be empty). Files come in no particular order.
func Glob(ctx context.Context, root, pattern string, opts WalkOptions) ([]FileInfo, *Result, error) {
	if strings.TrimSpace(pattern) == "" {
		return nil, nil, &GlobError{Glob: pattern, Msg: "empty pattern"}
	}
	if _, ok, err := parseGlob(pattern); err != nil {
		return nil, nil, err
	} else if !ok {
		return nil, nil, &GlobError{Glob: pattern, Msg: "matches nothing"}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, fmt.Errorf("glob in %s: %w", root, err)
	}
	opts.Globs = []string{pattern}
	// Walk only below the pattern's leading literal directories, when it
	// is anchored ("src/**/*.go" starts in src).
	dir := abs
	if prefix := staticPrefix(pattern); prefix != "" {
		d := filepath.Join(abs, filepath.FromSlash(prefix))
		if isDir, err := statRoot(d); err != nil || !isDir {
			return nil, &Result{}, nil
		}
		dir = d
	}
	return filesUnder(ctx, dir, abs, opts)
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
