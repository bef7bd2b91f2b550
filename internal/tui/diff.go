package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	xansi "github.com/charmbracelet/x/ansi"
)

// hunk is one hunk of a structuredPatch, with Claude Code's field names.
type hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"` // each starts with ' ', '-' or '+'
}

// editData is the part of an Edit, MultiEdit or Write result (or input)
// the UI shows.
type editData struct {
	FilePath        string `json:"filePath"`
	Type            string `json:"type"` // Write: "create" or "update"
	Content         string `json:"content"`
	StructuredPatch []hunk `json:"structuredPatch"`
}

// asJSON re-reads any value through JSON into out. Tool results carry
// their structured data as Go values of the tools' own types; the UI
// reads them by Claude Code's field names.
func asJSON(v any, out any) bool {
	if v == nil {
		return false
	}
	var b []byte
	switch x := v.(type) {
	case json.RawMessage:
		b = x
	case []byte:
		b = x
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			return false
		}
	}
	return json.Unmarshal(b, out) == nil
}

// patchFromResult returns the hunks of an edit tool's result: its
// structuredPatch, or, when it has none, a diff computed from the input.
func patchFromResult(name string, input json.RawMessage, data any) (path string, hunks []hunk, created bool) {
	var d editData
	if asJSON(data, &d) {
		path = d.FilePath
		if len(d.StructuredPatch) > 0 {
			return path, d.StructuredPatch, d.Type == "create"
		}
		if d.Type == "create" && d.Content != "" {
			return path, addedHunk(d.Content), true
		}
	}
	p, h := patchFromInput(name, input, false)
	if path == "" {
		path = p
	}
	return path, h, false
}

// editInput is what the edit tools take.
type editInput struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
	Content    string `json:"content"`
	Edits      []struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	} `json:"edits"`
}

// patchFromInput computes a preview diff of an edit call from its input.
// With readFile, Write is compared with the file on disk.
func patchFromInput(name string, input json.RawMessage, readFile bool) (string, []hunk) {
	var in editInput
	if json.Unmarshal(input, &in) != nil {
		return "", nil
	}
	switch name {
	case "Edit", "MultiEdit":
		if readFile {
			if hs, ok := editedFileHunks(name, in); ok {
				return in.FilePath, hs
			}
		}
	}
	switch name {
	case "Edit":
		return in.FilePath, diffHunks(in.OldString, in.NewString)
	case "MultiEdit":
		var hs []hunk
		for _, e := range in.Edits {
			hs = append(hs, diffHunks(e.OldString, e.NewString)...)
		}
		return in.FilePath, hs
	case "Write":
		if readFile {
			if old, err := os.ReadFile(in.FilePath); err == nil {
				return in.FilePath, diffHunks(string(old), in.Content)
			}
		}
		return in.FilePath, addedHunk(in.Content)
	}
	return "", nil
}

// editedFileHunks diffs the file on disk with the file as the edit call
// would leave it, so the preview shows the file's line numbers and the
// lines around the change (a diff of old_string against new_string
// numbered every change from line 1). It fails when the file cannot be
// read or a string to replace is not in it; the caller then falls back
// to the strings alone.
func editedFileHunks(name string, in editInput) ([]hunk, bool) {
	b, err := os.ReadFile(in.FilePath)
	if err != nil {
		return nil, false
	}
	old := string(b)
	type change struct {
		from, to string
		all      bool
	}
	changes := []change{{in.OldString, in.NewString, in.ReplaceAll}}
	if name == "MultiEdit" {
		changes = changes[:0]
		for _, e := range in.Edits {
			changes = append(changes, change{e.OldString, e.NewString, e.ReplaceAll})
		}
	}
	text := old
	for _, c := range changes {
		if c.from == "" || !strings.Contains(text, c.from) {
			return nil, false
		}
		if c.all {
			text = strings.ReplaceAll(text, c.from, c.to)
		} else {
			text = strings.Replace(text, c.from, c.to, 1)
		}
	}
	return diffHunks(old, text), true
}

func addedHunk(content string) []hunk {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	h := hunk{OldStart: 0, NewStart: 1, NewLines: len(lines)}
	for _, l := range lines {
		h.Lines = append(h.Lines, "+"+l)
	}
	return []hunk{h}
}

// diffHunks diffs two texts into hunks with three lines of context.
func diffHunks(old, new string) []hunk {
	if old == new {
		return nil
	}
	if !strings.HasSuffix(old, "\n") {
		old += "\n"
	}
	if !strings.HasSuffix(new, "\n") {
		new += "\n"
	}
	return parseUnified(udiff.Unified("a", "b", old, new))
}

// parseUnified reads the hunks of a unified diff. Lines it does not
// understand are skipped; it never fails.
func parseUnified(text string) []hunk {
	var out []hunk
	var cur *hunk
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			h, ok := parseHunkHeader(l)
			if !ok {
				cur = nil
				continue
			}
			out = append(out, h)
			cur = &out[len(out)-1]
		case cur == nil:
		case l == "":
		case l[0] == ' ' || l[0] == '-' || l[0] == '+':
			cur.Lines = append(cur.Lines, l)
		}
	}
	return out
}

// parseHunkHeader reads "@@ -a,b +c,d @@".
func parseHunkHeader(l string) (hunk, bool) {
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return hunk{}, false
	}
	var h hunk
	var ok1, ok2 bool
	h.OldStart, h.OldLines, ok1 = parseRange(f[1][1:])
	h.NewStart, h.NewLines, ok2 = parseRange(f[2][1:])
	return h, ok1 && ok2
}

func parseRange(s string) (start, n int, ok bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	n = 1
	if has {
		if n, err = strconv.Atoi(b); err != nil || n < 0 {
			return 0, 0, false
		}
	}
	return start, n, true
}

// countChanges counts added and removed lines.
func countChanges(hs []hunk) (add, del int) {
	for _, h := range hs {
		for _, l := range h.Lines {
			switch {
			case strings.HasPrefix(l, "+"):
				add++
			case strings.HasPrefix(l, "-"):
				del++
			}
		}
	}
	return add, del
}

// renderDiff draws hunks with line numbers, additions and removals
// coloured, each line cut to width. At most max lines are drawn (0: all);
// the rest is counted in a last line.
func renderDiff(st *styles, hs []hunk, width, max int) []string {
	numW := 1
	for _, h := range hs {
		if w := len(strconv.Itoa(h.NewStart + h.NewLines + h.OldStart + h.OldLines)); w > numW {
			numW = w
		}
	}
	var out []string
	total := 0
	for hi, h := range hs {
		if hi > 0 {
			total++
			if max == 0 || len(out) < max {
				out = append(out, st.dim.Render(strings.Repeat(" ", numW)+" ..."))
			}
		}
		oldN, newN := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			if l == "" {
				continue
			}
			total++
			var num int
			var line string
			body := expandTabs(l[1:])
			switch l[0] {
			case '+':
				num = newN
				newN++
				line = st.addedNo.Render(fmt.Sprintf("%*d", numW, num)) + " " + st.added.Render(cut("+"+body, width-numW-1))
			case '-':
				num = oldN
				oldN++
				line = st.remNo.Render(fmt.Sprintf("%*d", numW, num)) + " " + st.removed.Render(cut("-"+body, width-numW-1))
			default:
				num = newN
				oldN++
				newN++
				line = st.dim.Render(fmt.Sprintf("%*d", numW, num)) + " " + cut(" "+body, width-numW-1)
			}
			if max == 0 || len(out) < max {
				out = append(out, line)
			}
		}
	}
	if max > 0 && total > len(out) {
		out = append(out, st.dim.Render(fmt.Sprintf("… +%d lines (ctrl+o to expand)", total-len(out))))
	}
	return out
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// cut shortens s to width columns with an ellipsis.
func cut(s string, width int) string {
	if width < 1 {
		width = 1
	}
	if xansi.StringWidth(s) <= width {
		return s
	}
	return xansi.Truncate(s, width, "…")
}
