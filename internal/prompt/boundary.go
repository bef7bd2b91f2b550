package prompt

import (
	"strings"

	"reins/internal/llm"
)

// DynamicBoundary is the marker the Agent SDKs export
// (SYSTEM_PROMPT_DYNAMIC_BOUNDARY): a line of its own in a custom system
// prompt (or an element of the SDK's string-list prompt) that parts the
// text every session shares from the text of this session. It is an
// instruction to the program, never text for the model.
const DynamicBoundary = "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__"

// CustomBlocks returns a custom system prompt as blocks, each a cache
// breakpoint: the text before a DynamicBoundary line, then the text after
// it (the marker itself is dropped). Without the marker it is one block;
// empty parts are left out.
func CustomBlocks(text string) []llm.SystemBlock {
	var blocks []llm.SystemBlock
	for _, part := range splitBoundary(text) {
		blocks = append(blocks, llm.SystemBlock{Text: part, Cache: true})
	}
	return blocks
}

// withoutBoundary is text with its DynamicBoundary lines taken out, for
// the prompts that are sent as a single block.
func withoutBoundary(text string) string {
	if !strings.Contains(text, DynamicBoundary) {
		return text
	}
	return strings.Join(splitBoundary(text), "\n\n")
}

// splitBoundary cuts text at each line that is DynamicBoundary alone
// (spaces around it allowed) and returns the non-blank parts, trimmed of
// the blank lines at their edges.
func splitBoundary(text string) []string {
	if !strings.Contains(text, DynamicBoundary) {
		if strings.TrimSpace(text) == "" {
			return nil
		}
		return []string{text}
	}
	var parts []string
	var cur []string
	flush := func() {
		p := strings.Trim(strings.Join(cur, "\n"), "\r\n")
		if strings.TrimSpace(p) != "" {
			parts = append(parts, p)
		}
		cur = nil
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == DynamicBoundary {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return parts
}
