package compact

import (
	"slices"

	"reins/internal/engine"
	"reins/internal/llm"
)

// ClearedText replaces the content of a tool result cleared by
// microcompaction.
const ClearedText = "[Old tool result content cleared]"

// DefaultKeepRecent is how many of the newest compactable results
// microcompaction leaves alone.
const DefaultKeepRecent = 5

// compactable are the tools whose old results can be cleared: their
// output can be produced again by calling them again.
var compactable = map[string]bool{
	"Read": true, "Bash": true, "Grep": true, "Glob": true,
	"WebFetch": true, "WebSearch": true, "Edit": true, "Write": true,
}

// Microcompact returns items with the results of compactable tool calls
// replaced by ClearedText, all but the keep newest (at least one is
// kept). Messages it does not change are returned as they are; it never
// changes a message in place. It reports how many results it cleared and
// the estimated tokens that freed; running it again clears nothing.
func Microcompact(items []engine.HistoryItem, keep int) (out []engine.HistoryItem, cleared, saved int) {
	keep = max(keep, 1)
	var ids []string
	for _, it := range items {
		if it.Message.Role != llm.RoleAssistant {
			continue
		}
		for _, b := range it.Message.Content {
			if b.Type == llm.BlockToolUse && compactable[b.Name] {
				ids = append(ids, b.ID)
			}
		}
	}
	if len(ids) <= keep {
		return items, 0, 0
	}
	drop := make(map[string]bool, len(ids)-keep)
	for _, id := range ids[:len(ids)-keep] {
		drop[id] = true
	}
	out = items
	for i, it := range items {
		m := it.Message
		if m.Role != llm.RoleUser {
			continue
		}
		var content []llm.ContentBlock
		for j, b := range m.Content {
			if b.Type != llm.BlockToolResult || !drop[b.ToolUseID] || isCleared(b) {
				continue
			}
			if content == nil {
				content = slices.Clone(m.Content)
			}
			cleared++
			saved += estimateBlock(&content[j]) - EstimateText(ClearedText)
			content[j].Content = []llm.ContentBlock{llm.TextBlock(ClearedText)}
		}
		if content == nil {
			continue
		}
		if &out[0] == &items[0] {
			out = slices.Clone(items)
		}
		out[i].Message = &llm.Message{Role: m.Role, Content: content}
	}
	return out, cleared, max(saved, 0)
}

func isCleared(b llm.ContentBlock) bool {
	return len(b.Content) == 1 && b.Content[0].Type == llm.BlockText && b.Content[0].Text == ClearedText
}
