package tui

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"reins/internal/search"
)

// compItem is one completion.
type compItem struct {
	label  string // as listed
	desc   string
	insert string // replaces the token
}

// completion is the open completion menu.
type completion struct {
	kind  byte // '/' or '@'
	start int  // rune index of the token's first character
	items []compItem
	sel   int
}

// completeMax is how many completions the menu lists.
const completeMax = 8

// filesMsg carries the project's file list.
type filesMsg struct{ files []string }

// maxFiles bounds the file list for @ completion.
const maxFiles = 50_000

// listFiles walks root for @ completion: regular files and folders, as
// paths relative to root, hidden folders and common dependency folders
// skipped. Unless withIgnored (respectGitignore: false), what .gitignore
// and the other ignore files leave out is not listed either.
func listFiles(ctx context.Context, root string, withIgnored bool) tea.Cmd {
	return func() tea.Msg {
		var files []string
		if withIgnored {
			files = walkAllFiles(ctx, root)
		} else {
			files = walkKeptFiles(ctx, root)
		}
		sort.Strings(files)
		return filesMsg{files: files}
	}
}

// skippedDir reports whether @ completion leaves out the folder name.
func skippedDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || name == "target" || name == "__pycache__"
}

// walkAllFiles lists every file and folder under root.
func walkAllFiles(ctx context.Context, root string) []string {
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return ctx.Err()
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if skippedDir(d.Name()) {
				return fs.SkipDir
			}
		}
		if rel, err := filepath.Rel(root, p); err == nil {
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				rel += "/" // a folder can be mentioned too
			}
			files = append(files, rel)
		}
		if len(files) >= maxFiles {
			return fs.SkipAll
		}
		return nil
	})
	return files
}

// walkKeptFiles lists the files under root that the ignore files keep,
// and the folders that hold them.
func walkKeptFiles(ctx context.Context, root string) []string {
	var seen atomic.Int64
	skip := func(abs string) bool {
		if seen.Add(1) > 2*maxFiles {
			return true // enough: stop the walk going deeper
		}
		name := filepath.Base(abs)
		if !skippedDir(name) {
			return false
		}
		fi, err := os.Lstat(abs)
		return err == nil && fi.IsDir()
	}
	found, _, err := search.Files(ctx, root, search.WalkOptions{Hidden: true, Skip: skip})
	if err != nil {
		return nil
	}
	var files []string
	dirs := map[string]bool{}
	for _, f := range found {
		rel, err := filepath.Rel(root, f.Path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		rel = filepath.ToSlash(rel)
		files = append(files, rel)
		for d := path.Dir(rel); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
			files = append(files, d+"/") // a folder can be mentioned too
		}
		if len(files) >= maxFiles {
			break
		}
	}
	return files
}

// token returns the word the cursor is in (from its start to the
// cursor). A quoted mention still open before the cursor on its line
// (`@"sub dir/in`) is one word, spaces and all.
func (e *editor) token() (start int, tok string) {
	if q := e.openQuotedMention(); q >= 0 {
		return q, string(e.buf[q:e.pos])
	}
	start = e.pos
	for start > 0 && !unicode.IsSpace(e.buf[start-1]) {
		start--
	}
	return start, string(e.buf[start:e.pos])
}

// openQuotedMention is where an `@"` mention whose closing quote is not
// yet typed starts, on the cursor's line before it; -1 if none.
func (e *editor) openQuotedMention() int {
	open := -1
	for i := e.pos - 1; i >= 0 && e.buf[i] != '\n'; i-- {
		if e.buf[i] != '"' {
			continue
		}
		if i > 0 && e.buf[i-1] == '@' && (i == 1 || unicode.IsSpace(e.buf[i-2])) {
			open = i - 1
		}
		break // the nearest quote decides: an opening one, or a closed mention
	}
	return open
}

// applyCompletion replaces the token with the selected completion.
func (e *editor) applyCompletion(c *completion) {
	it := c.items[c.sel]
	end := e.pos
	e.buf = append(e.buf[:c.start], append([]rune(it.insert), e.buf[end:]...)...)
	e.pos = c.start + len([]rune(it.insert))
}

// fuzzyScore scores how well pattern matches s as a subsequence (case
// folded): consecutive letters, matches at word starts and in the base
// name score higher; ok is false when pattern is not a subsequence.
func fuzzyScore(pattern, s string) (score int, ok bool) {
	if pattern == "" {
		return 0, true
	}
	p := []rune(strings.ToLower(pattern))
	rs := []rune(s)
	base := strings.LastIndexByte(s, '/') + 1
	pi, prev := 0, -2
	for i, r := range rs {
		if pi == len(p) {
			break
		}
		if unicode.ToLower(r) != p[pi] {
			continue
		}
		score++
		if i == prev+1 {
			score += 3
		}
		if i == 0 || strings.ContainsRune("/._- ", rs[i-1]) {
			score += 2
		}
		if i >= base {
			score++
		}
		prev = i
		pi++
	}
	if pi < len(p) {
		return 0, false
	}
	return score*4 - len(rs)/8, true
}

// Resource is an MCP resource @ completion offers.
type Resource struct {
	Server, URI string
	Name        string // shown beside it
}

// resourcesMsg carries the MCP resources for @ completion.
type resourcesMsg struct{ resources []Resource }

// listResources lists the MCP resources for @ completion.
func listResources(ctx context.Context, list func(context.Context) []Resource) tea.Cmd {
	return func() tea.Msg { return resourcesMsg{resources: list(ctx)} }
}

// mentionCompletions ranks files and MCP resources (as server:uri)
// together against the typed query.
func mentionCompletions(files []string, resources []Resource, query string) []compItem {
	type scored struct {
		f   string
		res *Resource
		s   int
	}
	var best []scored
	for _, f := range files {
		if f == query && strings.HasSuffix(f, "/") {
			continue // the folder just completed: offer what is in it
		}
		s, ok := fuzzyScore(query, f)
		if !ok {
			continue
		}
		best = append(best, scored{f: f, s: s})
	}
	for i := range resources {
		r := &resources[i]
		f := r.Server + ":" + r.URI
		s, ok := fuzzyScore(query, f)
		if !ok {
			continue
		}
		best = append(best, scored{f: f, res: r, s: s})
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].s > best[j].s })
	var out []compItem
	for i := 0; i < len(best) && i < completeMax; i++ {
		f := best[i].f
		switch {
		case best[i].res != nil:
			desc := "MCP resource"
			if best[i].res.Name != "" {
				desc += ": " + best[i].res.Name
			}
			out = append(out, compItem{label: f, desc: desc, insert: "@" + f + " "})
		case strings.ContainsRune(f, ' ') && strings.HasSuffix(f, "/"):
			// Quoted, the quote left open: the menu goes on with what is
			// in the folder, and a file picked there closes it.
			out = append(out, compItem{label: f, insert: `@"` + f})
		case strings.ContainsRune(f, ' '):
			out = append(out, compItem{label: f, insert: `@"` + f + `" `})
		case strings.HasSuffix(f, "/"):
			// No space after a folder: the menu goes on with what is in it.
			out = append(out, compItem{label: f, insert: "@" + f})
		default:
			out = append(out, compItem{label: f, insert: "@" + f + " "})
		}
	}
	return out
}
