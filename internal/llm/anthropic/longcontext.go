package anthropic

import "strings"

// LongContextBeta is the anthropic-beta value that opens the 1M-token
// context window on models that offer it behind the beta.
const LongContextBeta = "context-1m-2025-08-07"

// longContextSuffix marks a model id, as Claude Code users write it
// ("sonnet[1m]"), for the long context window.
const longContextSuffix = "[1m]"

// apiModel returns the model id to send for id and the beta it needs: a
// "[1m]" suffix is not part of any API model id; it is dropped and the
// long-context beta is asked for instead.
func apiModel(id string) (model, beta string) {
	if n := len(id) - len(longContextSuffix); n > 0 && strings.EqualFold(id[n:], longContextSuffix) {
		return id[:n], LongContextBeta
	}
	return id, ""
}
