package mcp

import (
	"fmt"
	"strconv"
	"strings"

	"reins/internal/llm"
	"reins/internal/tool"
)

// Output limits of MCP results, in tokens (Claude Code's).
const (
	// DefaultMaxOutputTokens is the limit when MAX_MCP_OUTPUT_TOKENS is
	// not set.
	DefaultMaxOutputTokens = 25_000
	// OutputWarnTokens is the size above which the user is warned that a
	// result fills much of the context.
	OutputWarnTokens = 10_000
)

// charsPerToken converts token limits to characters, the rough estimate
// reins makes everywhere (compact.EstimateText): four characters a token.
const charsPerToken = 4

// estimateTokens is the token estimate of n characters of text.
func estimateTokens(n int) int { return (n + charsPerToken - 1) / charsPerToken }

// outputTokens is set if positive, else the MAX_MCP_OUTPUT_TOKENS in env,
// else DefaultMaxOutputTokens.
func outputTokens(set int, env string) int {
	if set > 0 {
		return set
	}
	if n, err := strconv.Atoi(strings.TrimSpace(env)); err == nil && n > 0 {
		return n
	}
	return DefaultMaxOutputTokens
}

// MaxOutputTokens is the limit on one MCP result, in tokens.
func (m *Manager) MaxOutputTokens() int { return m.outputTokens }

// overLimitNote says, for the model, what happened to a result of size
// characters that went over the limit.
func (m *Manager) overLimitNote(name string, size int) string {
	return fmt.Sprintf("[%s returned about %d tokens, over the limit of %d tokens on MCP output (MAX_MCP_OUTPUT_TOKENS), so it is not shown here whole. Where it was saved to a file, read that in parts (Read with offset and limit, or Grep); or call again asking for less.]",
		name, estimateTokens(size), m.outputTokens)
}

// warnLarge tells the user that name's result is large enough to fill
// much of the context (Claude Code warns above OutputWarnTokens).
func (m *Manager) warnLarge(name string, content []llm.ContentBlock) {
	n := 0
	for _, b := range content {
		if b.Type == llm.BlockText {
			n += len(b.Text)
		}
	}
	tokens := estimateTokens(n)
	if tokens <= OutputWarnTokens || m.opts.Notify == nil {
		return
	}
	msg := fmt.Sprintf("%s returned about %d tokens of output (more than %d)", name, tokens, OutputWarnTokens)
	if tokens > m.outputTokens {
		msg += fmt.Sprintf("; over the MAX_MCP_OUTPUT_TOKENS limit of %d, it was saved to a file", m.outputTokens)
	}
	m.opts.Notify("warning", msg)
}

// ResultLimit is MAX_MCP_OUTPUT_TOKENS in characters (tool.UserLimited):
// a larger result is saved to a file, the model told so.
func (t *Tool) ResultLimit() int { return t.srv.m.outputTokens * charsPerToken }

// OverLimitNote says what happened to a result over the limit.
func (t *Tool) OverLimitNote(size int) string { return t.srv.m.overLimitNote(t.name, size) }

// ResultLimit is MAX_MCP_OUTPUT_TOKENS in characters, as for server tools.
func (t *readResourceTool) ResultLimit() int { return t.m.outputTokens * charsPerToken }

// OverLimitNote says what happened to a resource over the limit.
func (t *readResourceTool) OverLimitNote(size int) string {
	return t.m.overLimitNote(ReadResourceName, size)
}

var (
	_ tool.UserLimited = (*Tool)(nil)
	_ tool.UserLimited = (*readResourceTool)(nil)
)
