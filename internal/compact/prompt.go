package compact

import (
	"errors"
	"fmt"
	"strconv"

	"reins/internal/engine"
	"reins/internal/llm"
)

// PromptTooLongError ends a turn whose newest prompt cannot fit in the
// model's context window even with the rest of the conversation
// summarised away (a pasted log of several megabytes, say). The prompt is
// recorded in the transcript but taken out of the conversation, so the
// session goes on with the next prompt. It matches
// engine.ErrBlockingLimit.
type PromptTooLongError struct {
	// Tokens is the estimated size of the prompt, with the system prompt
	// and context sent along with it; Bytes is the prompt's own size.
	Tokens, Bytes int
	// Limit is the most a request may hold; Window is the model's
	// context window.
	Limit, Window int
}

// Error says how large the prompt is and what the limit is.
func (e *PromptTooLongError) Error() string {
	return fmt.Sprintf("Prompt is too long: about %s tokens (the prompt is %s bytes), more than the %s tokens a request may hold in the model's %s-token context window; the prompt was not sent. Shorten it, or save the content to a file and ask for it to be read",
		thousands(e.Tokens), thousands(e.Bytes), thousands(e.Limit), thousands(e.Window))
}

// Is makes the error match engine.ErrBlockingLimit.
func (e *PromptTooLongError) Is(target error) bool { return target == engine.ErrBlockingLimit }

// errNothingBefore is returned by compact when the only thing that could
// be summarised is the prompt the model has not answered yet.
var errNothingBefore = errors.New("compact: there is nothing before the newest prompt to summarise, and the prompt itself is kept")

// pendingPrompt returns the index of the newest user prompt no response
// has followed yet (the request about to be sent is its first), or -1.
// Meta items after it (reminders, hook context) go with it.
func pendingPrompt(items []engine.HistoryItem) int {
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.Message.Role == llm.RoleAssistant {
			return -1
		}
		if it.Meta || it.Summary || hasToolResult(it.Message) {
			continue
		}
		return i
	}
	return -1
}

func hasToolResult(m *llm.Message) bool {
	for i := range m.Content {
		if m.Content[i].Type == llm.BlockToolResult {
			return true
		}
	}
	return false
}

// hasResponse reports whether items hold a response of the model: with
// none, there is no conversation to summarise.
func hasResponse(items []engine.HistoryItem) bool {
	for _, it := range items {
		if it.Message.Role == llm.RoleAssistant {
			return true
		}
	}
	return false
}

// messageBytes is the size of a message's text content.
func messageBytes(m *llm.Message) int {
	n := 0
	for i := range m.Content {
		b := &m.Content[i]
		n += len(b.Text) + len(b.ResultText())
	}
	return n
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
