package tool

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"reins/internal/llm"
)

// PreviewBytes is the size of the preview kept in context for a persisted
// result.
const PreviewBytes = 2000

// MessageBudgetChars is the most tool-result text one user message may
// carry before the largest fresh results are persisted.
const MessageBudgetChars = 200_000

// ResultStore writes oversized tool results to a session folder
// (<session>/tool-results/<tool_use_id>.txt). The zero value (no Dir)
// cannot persist and keeps results inline, cut to their limit instead.
type ResultStore struct {
	Dir string
}

// UserLimited is implemented by a tool whose result limit is a setting of
// the user's rather than the tool's own (MCP tools follow
// MAX_MCP_OUTPUT_TOKENS): Threshold applies it as it is, also above
// DefaultMaxResultChars, and the text that replaces a result over it
// ends with the tool's note.
type UserLimited interface {
	// ResultLimit is the most result text kept inline, in characters;
	// 0 or less leaves the ordinary threshold.
	ResultLimit() int
	// OverLimitNote tells the model that a result of size characters
	// went over the limit, and how it was kept.
	OverLimitNote(size int) string
}

// Threshold returns the persistence threshold of a tool: the smaller of its
// declared limit and DefaultMaxResultChars (a UserLimited tool's own
// limit when it sets one); -1 when it is never persisted.
func Threshold(t Tool) int {
	if u, ok := t.(UserLimited); ok && u.ResultLimit() > 0 {
		return u.ResultLimit()
	}
	n := t.MaxResultChars()
	switch {
	case n == NoLimit:
		return -1
	case n <= 0 || n > DefaultMaxResultChars:
		return DefaultMaxResultChars
	}
	return n
}

// Persist writes text for the tool_use id and returns the model-facing
// replacement. The file is created exclusively; if it already exists
// (the same result persisted before) it is left as it is.
func (s *ResultStore) Persist(id, text string) (string, error) {
	if s == nil || s.Dir == "" {
		return "", errors.New("persist tool result: no session folder")
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("persist tool result %s: %w", id, err)
	}
	path := filepath.Join(s.Dir, safeName(id)+".txt")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
	case err != nil:
		return "", fmt.Errorf("persist tool result %s: %w", id, err)
	default:
		_, werr := f.WriteString(text)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			os.Remove(path)
			return "", fmt.Errorf("persist tool result %s: %w", id, errors.Join(werr, cerr))
		}
	}
	return PersistedMessage(path, len(text), Preview(text, PreviewBytes)), nil
}

func safeName(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, id)
}

// PersistedMessage is the text the model sees in place of a persisted
// result.
func PersistedMessage(path string, size int, preview string) string {
	var sb strings.Builder
	sb.WriteString("<persisted-output>\n")
	fmt.Fprintf(&sb, "Output too large (%s). Full output saved to: %s\n\n", humanSize(size), path)
	fmt.Fprintf(&sb, "Preview (first %s):\n", humanSize(PreviewBytes))
	sb.WriteString(preview)
	if !strings.HasSuffix(preview, "\n") {
		sb.WriteByte('\n')
	}
	sb.WriteString("...\n</persisted-output>")
	return sb.String()
}

func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Preview returns about limit bytes from the start of text, cut at the last
// newline in the second half of the window when there is one, and never
// inside a UTF-8 sequence.
func Preview(text string, limit int) string {
	if len(text) <= limit {
		return text
	}
	cut := text[:limit]
	if i := strings.LastIndexByte(cut, '\n'); i >= limit/2 {
		return cut[:i+1]
	}
	for limit > 0 && !utf8Start(text[limit]) {
		limit--
	}
	return text[:limit]
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// EmptyResult is the text that replaces an empty result.
func EmptyResult(toolName string) string {
	return "(" + toolName + " completed with no output)"
}

// textSize is the number of text bytes in a result's content.
func textSize(content []llm.ContentBlock) int {
	n := 0
	for _, b := range content {
		if b.Type == llm.BlockText {
			n += len(b.Text)
		}
	}
	return n
}

// Budget applies the per-message limit on tool-result text. The engine
// applies it once, when a message's results arrive, and keeps the result
// in history as replaced, so every later request (and a resumed session,
// whose transcript records the replaced text) sends the same bytes. Within
// one Budget, decisions are sticky too. Safe for concurrent use.
type Budget struct {
	Limit int // 0 means MessageBudgetChars
	Store *ResultStore

	mu       sync.Mutex
	replaced map[string]string // tool_use id → replacement text
	kept     map[string]bool   // tool_use ids seen and kept
}

// Replacement is a decision Apply made.
type Replacement struct {
	ToolUseID string `json:"toolUseId"`
	Text      string `json:"replacement"`
}

func (b *Budget) init() {
	if b.replaced == nil {
		b.replaced = map[string]string{}
		b.kept = map[string]bool{}
	}
}

// Apply returns msg with the budget applied, and the new decisions made.
// msg itself is not changed; when nothing changes msg is returned as is.
func (b *Budget) Apply(msg *llm.Message) (*llm.Message, []Replacement) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	limit := b.Limit
	if limit <= 0 {
		limit = MessageBudgetChars
	}
	type cand struct {
		i    int
		size int
	}
	var fresh []cand
	total := 0
	changed := false
	for i, blk := range msg.Content {
		if blk.Type != llm.BlockToolResult {
			continue
		}
		if _, ok := b.replaced[blk.ToolUseID]; ok {
			changed = true
			continue
		}
		sz := textSize(blk.Content)
		total += sz
		if !b.kept[blk.ToolUseID] && !strings.HasPrefix(blk.ResultText(), "<persisted-output>") {
			fresh = append(fresh, cand{i, sz})
		}
	}
	var added []Replacement
	if total > limit && len(fresh) > 0 {
		slices.SortStableFunc(fresh, func(a, c cand) int { return c.size - a.size })
		for _, c := range fresh {
			if total <= limit {
				break
			}
			blk := msg.Content[c.i]
			text := blk.ResultText()
			repl, err := b.Store.Persist(blk.ToolUseID, text)
			if err != nil {
				// No folder to persist to: cut instead, still sticky.
				repl = Preview(text, PreviewBytes) + fmt.Sprintf("\n… [output cut: %d of %d bytes kept; %v]", len(Preview(text, PreviewBytes)), len(text), err)
			}
			b.replaced[blk.ToolUseID] = repl
			added = append(added, Replacement{ToolUseID: blk.ToolUseID, Text: repl})
			total -= c.size - len(repl)
			changed = true
		}
	}
	for _, c := range fresh {
		id := msg.Content[c.i].ToolUseID
		if _, ok := b.replaced[id]; !ok {
			b.kept[id] = true
		}
	}
	if !changed {
		return msg, nil
	}
	out := &llm.Message{Role: msg.Role, Content: slices.Clone(msg.Content)}
	for i, blk := range out.Content {
		if blk.Type != llm.BlockToolResult {
			continue
		}
		if repl, ok := b.replaced[blk.ToolUseID]; ok {
			out.Content[i].Content = []llm.ContentBlock{llm.TextBlock(repl)}
		}
	}
	return out, added
}
