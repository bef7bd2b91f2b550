package grep

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"reins/internal/fsutil"
	"reins/internal/search"
	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "Grep"

// Limits and defaults.
const (
	// MaxResultChars is the result size past which the executor stores
	// the result on disk and shows a preview.
	MaxResultChars = 20_000
	// DefaultHeadLimit caps the entries returned when head_limit is not
	// given.
	DefaultHeadLimit = 250
	// MaxLineChars is the longest line shown in content mode; longer
	// lines are cut (ripgrep's --max-columns, as Claude Code sets it),
	// around the first match when it lies past the line's start.
	MaxLineChars = 500
)

// The output modes.
const (
	ModeFiles   = "files_with_matches"
	ModeContent = "content"
	ModeCount   = "count"
)

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Input is the tool's input, with Claude Code's field names.
type Input struct {
	Pattern     string   `json:"pattern"`
	Path        string   `json:"path,omitempty"`
	Glob        string   `json:"glob,omitempty"`
	Type        string   `json:"type,omitempty"`
	OutputMode  string   `json:"output_mode,omitempty"`
	IgnoreCase  bool     `json:"-i,omitempty"`
	LineNumbers *bool    `json:"-n,omitempty"`
	After       *float64 `json:"-A,omitempty"`
	Before      *float64 `json:"-B,omitempty"`
	Context     *float64 `json:"-C,omitempty"`
	ContextAlt  *float64 `json:"context,omitempty"`
	Multiline   bool     `json:"multiline,omitempty"`
	HeadLimit   *float64 `json:"head_limit,omitempty"`
	Offset      *float64 `json:"offset,omitempty"`
}

// Output is the structured result (tool_use_result), with Claude Code's
// field names.
type Output struct {
	Mode          string   `json:"mode"`
	NumFiles      int      `json:"numFiles"`
	Filenames     []string `json:"filenames"`
	Content       string   `json:"content,omitempty"`
	NumLines      int      `json:"numLines,omitempty"`
	NumMatches    int      `json:"numMatches,omitempty"`
	AppliedLimit  *int     `json:"appliedLimit,omitempty"`
	AppliedOffset *int     `json:"appliedOffset,omitempty"`
}

// Tool is the Grep tool. It is stateless and safe for concurrent use.
type Tool struct {
	tool.Defaults
	// ShellDir is where a search starts when its input names no folder:
	// the Bash tool's current folder, which follows cd, as in Claude Code.
	tool.ShellDir
}

// New returns the Grep tool.
func New() *Tool { return &Tool{} }

// Name returns "Grep".
func (*Tool) Name() string { return Name }

// Description returns the tool description.
func (*Tool) Description() string { return description }

// InputSchema returns the JSON Schema of Input.
func (*Tool) InputSchema() json.RawMessage { return schema }

// IsReadOnly reports true: Grep only reads.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe reports true.
func (*Tool) IsConcurrencySafe(json.RawMessage) bool { return true }

// MaxResultChars returns MaxResultChars.
func (*Tool) MaxResultChars() int { return MaxResultChars }

// query is a validated input.
type query struct {
	in            Input
	root          string // absolute
	mode          string
	matcher       *search.Matcher
	walk          search.WalkOptions
	before, after int
	lineNumbers   bool
	limit, offset int // limit 0: none
}

// Validate checks the input and reports the first problem, naming the
// field.
func (t *Tool) Validate(_ context.Context, c *tool.Call, raw json.RawMessage) error {
	_, err := parse(t.At(c), raw)
	return err
}

func parse(c *tool.Call, raw json.RawMessage) (*query, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("input is not valid: %w", err)
	}
	q := &query{in: in, mode: in.OutputMode, lineNumbers: true, limit: DefaultHeadLimit}
	if q.mode == "" {
		q.mode = ModeFiles
	}
	if q.mode != ModeFiles && q.mode != ModeContent && q.mode != ModeCount {
		return nil, fmt.Errorf("output_mode %q is not one of content, files_with_matches, count", in.OutputMode)
	}
	if in.LineNumbers != nil {
		q.lineNumbers = *in.LineNumbers
	}
	var ctxLines int
	for _, f := range []struct {
		field string
		v     *float64
		dst   *int
	}{
		{"-A", in.After, &q.after},
		{"-B", in.Before, &q.before},
		{"-C", firstSet(in.Context, in.ContextAlt), &ctxLines},
		{"head_limit", in.HeadLimit, &q.limit},
		{"offset", in.Offset, &q.offset},
	} {
		if f.v == nil {
			continue
		}
		n, err := count(f.field, *f.v)
		if err != nil {
			return nil, err
		}
		*f.dst = n
	}
	if ctxLines > 0 {
		if in.Before == nil {
			q.before = ctxLines
		}
		if in.After == nil {
			q.after = ctxLines
		}
	}
	root, err := resolvePath(c, in.Path)
	if err != nil {
		return nil, err
	}
	q.root = root
	if q.matcher, err = search.Compile(in.Pattern, search.MatchOptions{IgnoreCase: in.IgnoreCase, Multiline: in.Multiline}); err != nil {
		return nil, fmt.Errorf("pattern: %w", err)
	}
	q.walk.Globs = search.SplitGlobs(in.Glob)
	for i, g := range q.walk.Globs {
		// "./src/**/*.ts" means src/**/*.ts: globs match paths relative
		// to the searched folder, which never start with "./".
		rest, neg := strings.CutPrefix(g, "!")
		for strings.HasPrefix(rest, "./") {
			rest = rest[2:]
		}
		if neg {
			rest = "!" + rest
		}
		q.walk.Globs[i] = rest
	}
	if t := strings.TrimSpace(in.Type); t != "" {
		q.walk.Types = strings.Split(t, ",")
		for _, name := range q.walk.Types {
			if _, ok := search.TypeGlobs(strings.ToLower(strings.TrimSpace(name))); !ok {
				return nil, fmt.Errorf("type: %w", &search.UnknownTypeError{Name: name})
			}
		}
	}
	// Compile the globs now, so a bad one is reported before any work.
	if err := search.CheckGlobs(q.walk.Globs); err != nil {
		return nil, fmt.Errorf("glob: %w", err)
	}
	return q, nil
}

func firstSet(vs ...*float64) *float64 {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// count converts a JSON number to a non-negative int.
func count(field string, v float64) (int, error) {
	if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, fmt.Errorf("%s must be a whole number of at least 0, got %v", field, v)
	}
	return int(v), nil
}

// resolvePath makes the path absolute against the call's working folder
// and checks that it exists.
func resolvePath(c *tool.Call, p string) (string, error) {
	cwd := ""
	if c != nil {
		cwd = c.Cwd
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if p == "" {
		p = cwd
	}
	p = fsutil.ExpandHome(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("path: %s does not exist (the working folder is %s)", p, cwd)
		}
		return "", fmt.Errorf("path: %w", err)
	}
	return p, nil
}

// Call runs the search.
func (t *Tool) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	c = t.At(c)
	q, err := parse(c, raw)
	if err != nil {
		return nil, err
	}
	opts := search.Options{Walk: q.walk, ModTime: q.mode == ModeFiles}
	if c != nil {
		opts.Walk.Skip = c.ReadDenied
	}
	switch q.mode {
	case ModeContent:
		opts.Mode, opts.Before, opts.After = search.Content, q.before, q.after
	case ModeCount:
		opts.Mode = search.Count
	}
	res, err := search.Search(ctx, q.root, q.matcher, opts)
	if err != nil {
		return nil, fmt.Errorf("grep %s: %w", q.in.Pattern, err)
	}
	cwd := ""
	if c != nil {
		cwd = c.Cwd
	}
	var out *Output
	var text string
	switch q.mode {
	case ModeContent:
		out, text = formatContent(q, res, cwd)
	case ModeCount:
		out, text = formatCount(q, res, cwd)
	default:
		out, text = formatFiles(q, res, cwd)
	}
	if res.ErrorCount > 0 {
		text += fmt.Sprintf("\n\n(%d paths could not be read, e.g. %v)", res.ErrorCount, res.Errors[0])
	}
	r := tool.Text(text)
	r.Data = out
	return r, nil
}

// page applies offset and limit to n entries and returns the range to
// keep and the values to report as applied (nil when nothing was cut).
func page(n, limit, offset int) (lo, hi int, appliedLimit, appliedOffset *int) {
	lo = min(offset, n)
	hi = n
	if limit > 0 && lo+limit < n {
		hi = lo + limit
		l := limit
		appliedLimit = &l
	}
	if offset > 0 {
		o := offset
		appliedOffset = &o
	}
	return lo, hi, appliedLimit, appliedOffset
}

func pageNote(appliedLimit, appliedOffset *int) string {
	if appliedLimit == nil && appliedOffset == nil {
		return ""
	}
	var parts []string
	if appliedLimit != nil {
		parts = append(parts, fmt.Sprintf("limit %d", *appliedLimit))
	}
	if appliedOffset != nil {
		parts = append(parts, fmt.Sprintf("offset %d", *appliedOffset))
	}
	note := "[results paged: " + strings.Join(parts, ", ")
	if appliedLimit != nil {
		note += "; raise offset for more"
	}
	return note + "]"
}

// displayPath shows a path relative to the working folder when it lies
// inside it, which saves tokens; otherwise absolute.
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

func formatFiles(q *query, res *search.Result, cwd string) (*Output, string) {
	files := slices.Clone(res.Files)
	slices.SortStableFunc(files, func(a, b search.FileMatch) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	lo, hi, lim, off := page(len(files), q.limit, q.offset)
	out := &Output{Mode: ModeFiles, Filenames: []string{}, AppliedLimit: lim, AppliedOffset: off}
	for _, f := range files[lo:hi] {
		out.Filenames = append(out.Filenames, displayPath(cwd, f.Path))
	}
	out.NumFiles = len(out.Filenames)
	if out.NumFiles == 0 {
		return out, "No files found"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Found %d %s", out.NumFiles, plural(out.NumFiles, "file", "files"))
	if note := pageNote(lim, off); note != "" {
		sb.WriteString(" " + note)
	}
	sb.WriteString("\n")
	sb.WriteString(strings.Join(out.Filenames, "\n"))
	return out, sb.String()
}

func formatContent(q *query, res *search.Result, cwd string) (*Output, string) {
	var lines []string
	withContext := q.before > 0 || q.after > 0
	for i, f := range res.Files {
		name := displayPath(cwd, f.Path)
		if f.Binary {
			lines = append(lines, fmt.Sprintf("%s: binary file matches (%d %s)", name, f.Count, plural(f.Count, "line", "lines")))
			continue
		}
		prev := -1
		for _, l := range f.Lines {
			if withContext && (prev >= 0 && l.Num != prev+1 || prev < 0 && i > 0 && len(lines) > 0) {
				lines = append(lines, "--")
			}
			prev = l.Num
			sep := ":"
			if l.Context {
				sep = "-"
			}
			text := cutLine(l.Text)
			if !l.Context && len(l.Text) > MaxLineChars {
				text = cutAroundMatch(l.Text, q.matcher)
			}
			if q.lineNumbers {
				lines = append(lines, fmt.Sprintf("%s%s%d%s%s", name, sep, l.Num, sep, text))
			} else {
				lines = append(lines, name+sep+text)
			}
		}
		if f.Stopped {
			lines = append(lines, name+": binary data follows; the rest of this file was not searched")
		}
	}
	lo, hi, lim, off := page(len(lines), q.limit, q.offset)
	shown := lines[lo:hi]
	out := &Output{Mode: ModeContent, NumFiles: len(res.Files), Filenames: []string{},
		Content: strings.Join(shown, "\n"), NumLines: len(shown), AppliedLimit: lim, AppliedOffset: off}
	if len(shown) == 0 {
		return out, "No matches found"
	}
	text := out.Content
	if note := pageNote(lim, off); note != "" {
		text += "\n\n" + note
	}
	return out, text
}

// cutLine shortens a line longer than MaxLineChars, on a rune boundary.
func cutLine(s string) string {
	if len(s) <= MaxLineChars {
		return s
	}
	cut := MaxLineChars
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s … [line cut: %d more bytes]", s[:cut], len(s)-cut)
}

// cutAroundMatch shortens a long matching line to about MaxLineChars
// bytes around its first match, so that a match deep in a minified file
// is seen: the line's start when the match lies within it, else a window
// beginning a little before the match, with what was left out counted
// on either side.
func cutAroundMatch(s string, m *search.Matcher) string {
	start, end, ok := m.Locate(s)
	if !ok || end <= MaxLineChars || start < MaxLineChars*3/4 {
		return cutLine(s) // the match is seen (or begins) in the line's start
	}
	from := start - MaxLineChars/4
	to := min(len(s), from+MaxLineChars)
	for from > 0 && s[from]&0xC0 == 0x80 {
		from--
	}
	for to < len(s) && s[to]&0xC0 == 0x80 {
		to++
	}
	out := fmt.Sprintf("[line cut: %d bytes before] … %s", from, s[from:to])
	if to < len(s) {
		out += fmt.Sprintf(" … [line cut: %d more bytes]", len(s)-to)
	}
	return out
}

func formatCount(q *query, res *search.Result, cwd string) (*Output, string) {
	lo, hi, lim, off := page(len(res.Files), q.limit, q.offset)
	out := &Output{Mode: ModeCount, Filenames: []string{}, AppliedLimit: lim, AppliedOffset: off}
	var lines []string
	for _, f := range res.Files[lo:hi] {
		lines = append(lines, fmt.Sprintf("%s:%d", displayPath(cwd, f.Path), f.Count))
		out.NumMatches += f.Count
	}
	out.NumFiles = len(lines)
	out.Content = strings.Join(lines, "\n")
	if len(lines) == 0 {
		return out, "No matches found"
	}
	unit := plural(out.NumMatches, "matching line", "matching lines")
	if q.in.Multiline {
		unit = plural(out.NumMatches, "match", "matches")
	}
	text := fmt.Sprintf("%s\n\n%d %s in %d %s", out.Content, out.NumMatches, unit, out.NumFiles, plural(out.NumFiles, "file", "files"))
	if note := pageNote(lim, off); note != "" {
		text += " " + note
	}
	return out, text
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
