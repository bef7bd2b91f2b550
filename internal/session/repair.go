package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"reins/internal/llm"
)

// UnansweredText is the result given on resume to a tool call that has no
// recorded result.
const UnansweredText = "No result was recorded for this tool call: the session stopped before it finished. Whether it took effect is unknown; check before relying on it."

// repairSpace seeds the uuids of synthetic results, so that loading the
// same transcript twice gives the same history.
var repairSpace = uuid.MustParse("6f1c2a9e-52b4-4c8e-9a63-0d7e5b1f3c20")

// answerOpenCalls makes every tool_use answered exactly once: results
// that answer no open call (or answer one twice) are dropped, and calls
// left without a result get a synthetic error result right after the
// results they did get. It returns the repaired items and, when the open
// calls were at the very end, the entry to record for their answer.
func (ld *loader) answerOpenCalls(items []stamped) ([]stamped, *Entry) {
	out := make([]stamped, 0, len(items)+1)
	var open []string             // tool_use ids of the last assistant message, in order
	answered := map[string]bool{} // of open
	answerRest := func() *stamped {
		var missing []string
		for _, id := range open {
			if !answered[id] {
				missing = append(missing, id)
			}
		}
		open = nil
		clear(answered)
		if len(missing) == 0 {
			return nil
		}
		blocks := make([]llm.ContentBlock, len(missing))
		for i, id := range missing {
			blocks[i] = llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(UnansweredText)}, true)
		}
		it := stamped{Item: Item{UUID: uuid.NewSHA1(repairSpace, []byte(missing[0])).String(),
			Message: &llm.Message{Role: llm.RoleUser, Content: blocks}}}
		out = append(out, it)
		return &out[len(out)-1]
	}
	for _, it := range items {
		m := it.Message
		if m.Role == llm.RoleAssistant {
			if s := answerRest(); s != nil {
				ld.warn(it.line, "tool calls before this message had no result; answered with an error")
			}
			for _, b := range m.Content {
				if b.Type == llm.BlockToolUse && !slices.Contains(open, b.ID) {
					open = append(open, b.ID)
				}
			}
			out = append(out, it)
			continue
		}
		if !hasResults(m) {
			if s := answerRest(); s != nil {
				ld.warn(it.line, "tool calls before this message had no result; answered with an error")
			}
			out = append(out, it)
			continue
		}
		kept := m.Content[:0:0]
		dropped := 0
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				if !slices.Contains(open, b.ToolUseID) || answered[b.ToolUseID] {
					dropped++
					continue
				}
				answered[b.ToolUseID] = true
			}
			kept = append(kept, b)
		}
		if dropped > 0 {
			ld.warn(it.line, "%d tool result(s) answering no open tool call removed", dropped)
			if len(kept) == 0 {
				continue
			}
			it.Message = &llm.Message{Role: llm.RoleUser, Content: kept}
		}
		out = append(out, it)
	}
	s := answerRest()
	if s == nil {
		return out, nil
	}
	ld.warn(0, "the last tool calls had no result (the session stopped during a tool turn); answered with an error")
	return out, &Entry{Type: TypeUser, UUID: s.UUID, Message: s.Message, ToolUseResult: "Error: " + UnansweredText}
}

func hasResults(m *llm.Message) bool {
	for _, b := range m.Content {
		if b.Type == llm.BlockToolResult {
			return true
		}
	}
	return false
}

// fileTools are the tools whose calls mark a file as read (or written,
// which leaves the model knowing its content), with their path field.
var fileTools = map[string]bool{"Read": true, "Edit": true, "MultiEdit": true, "Write": true, "NotebookEdit": true}

// readFiles lists the files touched by successful file tool calls, once
// per path at its latest time, oldest first.
func readFiles(items []stamped) []FileRead {
	type call struct {
		path    string
		partial bool
	}
	calls := map[string]call{}
	latest := map[string]int{}
	var out []FileRead
	for _, it := range items {
		for _, b := range it.Message.Content {
			switch {
			case b.Type == llm.BlockToolUse && fileTools[b.Name]:
				var in struct {
					FilePath     string          `json:"file_path"`
					NotebookPath string          `json:"notebook_path"`
					Offset       json.RawMessage `json:"offset"`
					Limit        json.RawMessage `json:"limit"`
				}
				if json.Unmarshal(b.Input, &in) != nil {
					continue
				}
				p := in.FilePath
				if p == "" {
					p = in.NotebookPath
				}
				if p != "" {
					calls[b.ID] = call{path: p, partial: b.Name == "Read" && (isSet(in.Offset) || isSet(in.Limit))}
				}
			case b.Type == llm.BlockToolResult && !b.IsError:
				c, ok := calls[b.ToolUseID]
				if !ok {
					continue
				}
				ts, _ := time.Parse(time.RFC3339Nano, it.ts)
				fr := FileRead{Path: c.path, Time: ts, Partial: c.partial}
				if i, ok := latest[c.path]; ok {
					out = slices.Delete(out, i, i+1)
					for p, j := range latest {
						if j > i {
							latest[p] = j - 1
						}
					}
				}
				latest[c.path] = len(out)
				out = append(out, fr)
			}
		}
	}
	return out
}

func isSet(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// WriteRepairs appends t.Repairs to w, so that the file holds the history
// t.Items shows. Call it once, after opening the resumed transcript's
// writer and before anything else is recorded.
func (t *Transcript) WriteRepairs(w *Writer) error {
	for _, e := range t.Repairs {
		if err := w.Append(e); err != nil {
			return fmt.Errorf("record repaired tool results: %w", err)
		}
	}
	t.Repairs = nil
	return nil
}
