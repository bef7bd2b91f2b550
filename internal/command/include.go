package command

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxListing caps the entries shown for an @folder.
const maxListing = 200

// Attachments returns the blocks for the files and folders a typed prompt
// mentions ("@path" or "@\"a path\"", read as in a template), each once and
// in order, as an expansion includes them (limits, notes and permission
// checks alike). A mention of a path that does not exist is left alone (an
// @ in prose need not be a path), as is one skip reports (already
// included elsewhere).
func (e *Expander) Attachments(text string, skip func(path string) bool) []string {
	x := &expansion{e: e, c: &Command{}, seen: map[string]bool{}}
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || !startsWord(text, i) {
			continue
		}
		n, _, path := x.mention(text[i:])
		if n == 0 {
			continue
		}
		i += n - 1
		if path == "" || x.seen[path] || (skip != nil && skip(path)) {
			continue
		}
		x.seen[path] = true
		if _, err := os.Stat(e.resolve(path)); err != nil {
			continue
		}
		out = append(out, e.include(x.c, path))
	}
	return out
}

// include returns the block for one @file mention (shown as written).
func (e *Expander) include(c *Command, shown string) string {
	note := func(why string) string { return "[@" + shown + " not included: " + why + "]" }
	abs := e.resolve(shown)
	allowed := e.AllowRead
	if allowed == nil {
		allowed = func(p string) bool { return e.insideDefault(c, p) }
	}
	if e.DenyRead != nil && e.DenyRead(abs) {
		return note("a permission rule denies reading it")
	}
	if !allowed(abs) {
		return note("it is outside the working folder")
	}
	fi, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return note("no such file or folder")
	case err != nil:
		return note(strings.TrimPrefix(err.Error(), "stat "+abs+": "))
	case fi.IsDir():
		return listFolder(abs, shown, note)
	}
	limit := e.MaxFileChars
	if limit <= 0 {
		limit = 50_000
	}
	f, err := os.Open(abs)
	if err != nil {
		return note(strings.TrimPrefix(err.Error(), "open "+abs+": "))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return note(err.Error())
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return note("it is a binary file")
	}
	var b strings.Builder
	b.WriteString(`<file path="` + shown + "\">\n")
	body := string(data)
	truncated := len(data) > limit
	if truncated {
		body = validPrefix(body, limit)
	}
	b.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	if truncated {
		fmt.Fprintf(&b, "[truncated: the first %d of %d bytes are shown]\n", len(body), fi.Size())
	}
	b.WriteString("</file>")
	return b.String()
}

func listFolder(abs, shown string, note func(string) string) string {
	entries, err := os.ReadDir(abs)
	if err != nil {
		return note(err.Error())
	}
	names := make([]string, 0, len(entries))
	for _, en := range entries {
		n := en.Name()
		if en.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(`<folder path="` + shown + "\">\n")
	for i, n := range names {
		if i == maxListing {
			fmt.Fprintf(&b, "[and %d more]\n", len(names)-maxListing)
			break
		}
		b.WriteString(n + "\n")
	}
	b.WriteString("</folder>")
	return b.String()
}

// resolve makes a mentioned path absolute.
func (e *Expander) resolve(p string) string {
	if e.Home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(e.Home, p[1:])
	}
	if !filepath.IsAbs(p) {
		dir := e.Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// insideDefault reports whether p lies in the working folder or in the
// command's skill folder, after resolving symbolic links.
func (e *Expander) insideDefault(c *Command, p string) bool {
	real := realPath(p)
	dir := e.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if within(realPath(dir), real) {
		return true
	}
	return c.Skill && c.Dir != "" && within(realPath(c.Dir), real)
}

// realPath resolves symbolic links in p as far as the path exists.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == p || dir == "" {
		return p
	}
	return filepath.Join(realPath(filepath.Clean(dir)), base)
}

// within reports whether p is base or below it.
func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
