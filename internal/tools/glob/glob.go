package glob

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"reins/internal/fsutil"
	"reins/internal/search"
	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "Glob"

// MaxResults is the most files one call returns.
const MaxResults = 100

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Input is the tool's input, with Claude Code's field names.
type Input struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

// Output is the structured result (tool_use_result), with Claude Code's
// field names.
type Output struct {
	Filenames  []string `json:"filenames"`
	DurationMs int64    `json:"durationMs"`
	NumFiles   int      `json:"numFiles"`
	Truncated  bool     `json:"truncated"`
}

// Tool is the Glob tool. It is stateless and safe for concurrent use.
type Tool struct {
	tool.Defaults
	// ShellDir is where a search starts when its input names no folder:
	// the Bash tool's current folder, which follows cd, as in Claude Code.
	tool.ShellDir
	// Options are what the search leaves out; the zero value lists every
	// matching file, as Claude Code's Glob does by default.
	Options
}

// Options say which files a search leaves out besides version-control
// folders and paths the read-deny rules hide.
type Options struct {
	// RespectIgnore leaves out what .gitignore, .ignore and .rgignore
	// files ignore (CLAUDE_CODE_GLOB_NO_IGNORE=false).
	RespectIgnore bool
	// NoHidden leaves out files and folders whose names start with "."
	// (CLAUDE_CODE_GLOB_HIDDEN=false).
	NoHidden bool
	// Timeout bounds one search (CLAUDE_CODE_GLOB_TIMEOUT_SECONDS); zero
	// means DefaultTimeout. A search cut short answers with the files
	// found by then, and says so.
	Timeout time.Duration
}

// DefaultTimeout bounds a search, as in Claude Code.
const DefaultTimeout = 20 * time.Second

// Environment variables that set Options, as in Claude Code.
const (
	NoIgnoreEnv = "CLAUDE_CODE_GLOB_NO_IGNORE"
	HiddenEnv   = "CLAUDE_CODE_GLOB_HIDDEN"
	TimeoutEnv  = "CLAUDE_CODE_GLOB_TIMEOUT_SECONDS"
)

// EnvOptions reads Options from the environment. Each variable is on
// unless set to something other than 1, true, yes or on (in any case):
// CLAUDE_CODE_GLOB_NO_IGNORE=false makes Glob honour ignore files, and
// CLAUDE_CODE_GLOB_HIDDEN=false leaves dotfiles out. An empty value
// counts as unset. CLAUDE_CODE_GLOB_TIMEOUT_SECONDS, a whole number of
// seconds above zero, sets Timeout; another value is ignored.
func EnvOptions(getenv func(string) string) Options {
	off := func(name string) bool {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return false
		}
		switch strings.ToLower(v) {
		case "1", "true", "yes", "on":
			return false
		}
		return true
	}
	o := Options{RespectIgnore: off(NoIgnoreEnv), NoHidden: off(HiddenEnv)}
	if n, err := strconv.Atoi(strings.TrimSpace(getenv(TimeoutEnv))); err == nil && n > 0 && n <= 86400 {
		o.Timeout = time.Duration(n) * time.Second
	}
	return o
}

// New returns the Glob tool.
func New() *Tool { return &Tool{} }

// Name returns "Glob".
func (*Tool) Name() string { return Name }

// Description returns the tool description, which says what the
// search leaves out under the tool's Options.
func (t *Tool) Description() string {
	var line string
	switch {
	case t.RespectIgnore && t.NoHidden:
		line = `Files listed in .gitignore (unless the pattern names their folder, as in "dist/**/*.js"), hidden files and version-control folders are left out.`
	case t.RespectIgnore:
		line = `Files listed in .gitignore and version-control folders are left out, unless the pattern names their folder ("dist/**/*.js", "node_modules/react/*.json"); other hidden files are included.`
	case t.NoHidden:
		line = "Hidden files and version-control folders are left out; files listed in .gitignore are included."
	default:
		line = "Only version-control folders (.git and the like) are left out: files listed in .gitignore and hidden files are included."
	}
	return strings.Replace(description, "{{ignored}}", line, 1)
}

// InputSchema returns the JSON Schema of Input.
func (*Tool) InputSchema() json.RawMessage { return schema }

// IsReadOnly reports true: Glob only reads.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe reports true.
func (*Tool) IsConcurrencySafe(json.RawMessage) bool { return true }

// Validate checks the pattern and the folder.
func (t *Tool) Validate(_ context.Context, c *tool.Call, raw json.RawMessage) error {
	_, _, err := parse(t.At(c), raw)
	return err
}

// parse returns the folder to walk and the pattern relative to it.
func parse(c *tool.Call, raw json.RawMessage) (root, pattern string, err error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return "", "", fmt.Errorf("input is not valid: %w", err)
	}
	pattern = in.Pattern
	if strings.TrimSpace(pattern) == "" {
		return "", "", errors.New("pattern: must not be empty")
	}
	cwd := ""
	if c != nil {
		cwd = c.Cwd
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	root = in.Path
	switch root {
	case "undefined", "null":
		root = ""
	}
	if root == "" {
		root = cwd
	}
	root = fsutil.ExpandHome(root)
	if !filepath.IsAbs(root) {
		root = filepath.Join(cwd, root)
	}
	// A pattern starting with "./" or "../" is relative to the folder as
	// a path is: "./src/*.go" means src/*.go, "../lib/**" the sibling
	// folder lib. Such a pattern becomes absolute, and like any absolute
	// pattern names its own folder: search from its literal leading part.
	if strings.HasPrefix(pattern, "./") || strings.HasPrefix(pattern, "../") {
		pattern = filepath.Join(root, pattern)
	}
	if filepath.IsAbs(pattern) {
		root, pattern = splitAbsolute(pattern)
	} else if strings.Contains(pattern, "/") {
		// A relative pattern naming folders ("build/**/*.js",
		// "node_modules/react/*.json") searches from the folder it names,
		// when that exists: a folder named outright is searched even when
		// an ignore file leaves it out, as ripgrep searches a path given
		// to it, while ignore rules still apply inside it.
		if d, rest := splitAbsolute(filepath.Join(root, pattern)); d != filepath.Clean(root) && isDir(d) {
			root, pattern = d, rest
		}
	}
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", "", fmt.Errorf("path: folder %s does not exist (the working folder is %s)", root, cwd)
	case err != nil:
		return "", "", fmt.Errorf("path: %w", err)
	case !fi.IsDir():
		return "", "", fmt.Errorf("path: %s is a file, not a folder", root)
	}
	if err := search.CheckGlobs([]string{pattern}); err != nil {
		return "", "", fmt.Errorf("pattern: %w", err)
	}
	return root, pattern, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// splitAbsolute splits an absolute pattern into the longest folder
// without glob syntax and the rest, anchored to it.
func splitAbsolute(p string) (dir, rest string) {
	p = filepath.ToSlash(filepath.Clean(p))
	segs := strings.Split(p, "/")
	i := 0
	for i < len(segs)-1 && !strings.ContainsAny(segs[i], `*?[{\`) {
		i++
	}
	dir = strings.Join(segs[:i], "/")
	if dir == "" {
		dir = "/"
	}
	return filepath.FromSlash(dir), "/" + strings.Join(segs[i:], "/")
}

// Call lists the matching files.
func (t *Tool) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	c = t.At(c)
	start := time.Now()
	root, pattern, err := parse(c, raw)
	if err != nil {
		return nil, err
	}
	walk := search.WalkOptions{Hidden: !t.NoHidden, NoIgnore: !t.RespectIgnore}
	if c != nil {
		walk.Skip = c.ReadDenied
	}
	limit := t.Timeout
	if limit <= 0 {
		limit = DefaultTimeout
	}
	errTimeout := fmt.Errorf("the search took longer than %s", limit)
	sctx, cancel := context.WithTimeoutCause(ctx, limit, errTimeout)
	defer cancel()
	files, _, err := search.Glob(sctx, root, pattern, walk)
	cut := err != nil && ctx.Err() == nil && errors.Is(context.Cause(sctx), errTimeout)
	if err != nil && !cut {
		return nil, fmt.Errorf("glob %s: %w", pattern, err)
	}
	slices.SortFunc(files, func(a, b search.FileInfo) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	out := &Output{Filenames: []string{}}
	if len(files) > MaxResults {
		files, out.Truncated = files[:MaxResults], true
	}
	cwd := ""
	if c != nil {
		cwd = c.Cwd
	}
	for _, f := range files {
		out.Filenames = append(out.Filenames, displayPath(cwd, f.Path))
	}
	out.NumFiles = len(out.Filenames)
	out.DurationMs = time.Since(start).Milliseconds()
	text := "No files found"
	if out.NumFiles > 0 {
		text = strings.Join(out.Filenames, "\n")
	}
	if out.Truncated {
		text += fmt.Sprintf("\n(Only the %d newest matches are shown; narrow the pattern or the path to see others.)", MaxResults)
	}
	if cut {
		out.Truncated = true
		text += fmt.Sprintf("\n(The search stopped after %s, before it had looked through every folder: these are the files found by then. Search a narrower path or pattern.)", describe(limit))
	}
	r := tool.Text(text)
	r.Data = out
	return r, nil
}

// displayPath shows a path relative to the working folder when it lies
// inside it; otherwise absolute.
func displayPath(cwd, p string) string {
	if cwd == "" {
		return p
	}
	rel, err := filepath.Rel(cwd, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

// describe gives a duration in whole seconds, as people read it.
func describe(d time.Duration) string {
	if n := int(d / time.Second); n == 1 {
		return "1 second"
	} else if n > 1 {
		return fmt.Sprintf("%d seconds", n)
	}
	return d.String()
}
