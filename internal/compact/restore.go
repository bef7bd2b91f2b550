package compact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"reins/internal/filestate"
	"reins/internal/llm"
)

// Limits of the files restored after a compaction (seed004 Ch.10).
const (
	MaxRestoredFiles    = 5
	MaxTokensPerFile    = 5_000
	RestoredFilesBudget = 50_000
)

var restoredHeader = template.Must(template.New("restored").Parse(mustText("restored-file.md")))

// reminder wraps text as a meta message for the model.
func reminder(text string) *llm.Message {
	return llm.NewUserText("<system-reminder>\n" + strings.TrimSpace(text) + "\n</system-reminder>")
}

// isMemoryFile reports files that reach the model as memory, not as
// restored files.
func isMemoryFile(path string) bool {
	switch filepath.Base(path) {
	case "CLAUDE.md", "CLAUDE.local.md", "AGENTS.md":
		return true
	}
	p := filepath.ToSlash(path)
	return strings.Contains(p, "/.claude/rules/") || strings.Contains(p, "/.reins/rules/")
}

// restoreFiles re-reads from disk the files read most recently, up to
// MaxRestoredFiles, each cut to MaxTokensPerFile and all within
// RestoredFilesBudget, leaving out memory files, files skip rejects and
// files whose reads are kept verbatim. It clears st and records the
// restored files in it, so they count as read.
func restoreFiles(st *filestate.State, skip func(string) bool, kept map[string]bool) []*llm.Message {
	if st == nil {
		return nil
	}
	recent := st.Recent(0)
	st.Clear()
	var out []*llm.Message
	used, tried := 0, 0
	for _, e := range recent {
		if tried == MaxRestoredFiles {
			break
		}
		if isMemoryFile(e.Path) || kept[e.Path] || (skip != nil && skip(e.Path)) {
			continue
		}
		tried++
		msg, entry, ok := restoreFile(e.Path)
		if !ok {
			continue
		}
		t := EstimateMessage(msg)
		if used+t > RestoredFilesBudget {
			continue // a smaller file after it may still fit
		}
		used += t
		out = append(out, msg)
		st.Record(entry)
	}
	return out
}

// restoreFile reads path and renders it with line numbers, cut at
// MaxTokensPerFile.
func restoreFile(path string) (*llm.Message, filestate.Entry, bool) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return nil, filestate.Entry{}, false
	}
	content, err := os.ReadFile(path)
	if err != nil || bytes.IndexByte(content, 0) >= 0 {
		return nil, filestate.Entry{}, false
	}
	limit := MaxTokensPerFile * charsPerToken
	var body strings.Builder
	lines := strings.SplitAfter(string(content), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	shown := 0
	for i, l := range lines {
		row := fmt.Sprintf("%6d\t%s", i+1, strings.TrimRight(l, "\r\n"))
		if body.Len()+len(row)+1 > limit && shown > 0 {
			break
		}
		body.WriteString(row + "\n")
		shown++
	}
	cut := shown < len(lines)
	var head bytes.Buffer
	restoredHeader.Execute(&head, struct { //nolint:errcheck // fixed template and data
		Path  string
		Cut   bool
		Lines int
	}{path, cut, shown})
	entry := filestate.EntryFor(path, content, info)
	if cut {
		entry.Full, entry.Offset, entry.Limit = false, 1, shown
	}
	return reminder(head.String() + "\n\n" + strings.TrimRight(body.String(), "\n")), entry, true
}

// readPaths collects the file_path of Read calls in msgs.
func readPaths(msgs []*llm.Message) map[string]bool {
	out := map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.ToolUses() {
			if b.Name != "Read" {
				continue
			}
			var in struct {
				FilePath string `json:"file_path"`
			}
			if json.Unmarshal(b.Input, &in) == nil && in.FilePath != "" {
				out[in.FilePath] = true
			}
		}
	}
	return out
}
