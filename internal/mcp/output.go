package mcp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"reins/internal/llm"
	"reins/internal/tool"
)

// Output limits of MCP results (Claude Code's).
const (
	// DefaultMaxOutputTokens is MAX_MCP_OUTPUT_TOKENS when it is not
	// set. Under it, the ordinary limit on one tool result
	// (tool.DefaultMaxResultChars, about 12,500 tokens) comes first, as
	// in Claude Code.
	DefaultMaxOutputTokens = 25_000
	// OutputWarnTokens is the size above which the user is warned that a
	// result fills much of the context.
	OutputWarnTokens = 10_000
	// MetaMaxResultSizeChars is the _meta key by which a server raises
	// (or lowers) the limit on one tool's results, in characters.
	MetaMaxResultSizeChars = "anthropic/maxResultSizeChars"
	// MaxResultSizeCharsCap bounds MetaMaxResultSizeChars.
	MaxResultSizeCharsCap = 500_000
)

// charsPerToken converts token limits to characters, the rough estimate
// reins makes everywhere (compact.EstimateText): four characters a token.
const charsPerToken = 4

// estimateTokens is the token estimate of n characters of text.
func estimateTokens(n int) int { return (n + charsPerToken - 1) / charsPerToken }

// maxOutputTokens bounds MAX_MCP_OUTPUT_TOKENS, so that the limit in
// characters (and sums with it) cannot overflow: a larger value means
// "no limit" just as well.
const maxOutputTokens = math.MaxInt32 / charsPerToken

// outputTokens is set if positive, else the MAX_MCP_OUTPUT_TOKENS in env;
// 0 when neither gives a limit. A huge value counts as maxOutputTokens.
func outputTokens(set int, env string) int {
	if set > 0 {
		return min(set, maxOutputTokens)
	}
	env = strings.TrimSpace(env)
	if n, err := strconv.Atoi(env); err == nil && n > 0 {
		return min(n, maxOutputTokens)
	}
	if n, err := strconv.ParseUint(env, 10, 64); err == nil && n > 0 {
		return maxOutputTokens // beyond int
	}
	return 0
}

// MaxOutputTokens is the limit on one MCP result, in tokens: the
// MAX_MCP_OUTPUT_TOKENS the user set, else DefaultMaxOutputTokens.
func (m *Manager) MaxOutputTokens() int {
	if m.outputTokens > 0 {
		return m.outputTokens
	}
	return DefaultMaxOutputTokens
}

// resultLimit is the most characters of one result kept inline, and what
// sets it, for the note: the tool's own declared limit (declared > 0,
// from MetaMaxResultSizeChars), else MAX_MCP_OUTPUT_TOKENS when the user
// set it, else the ordinary limit on a tool result.
func (m *Manager) resultLimit(declared int) (int, string) {
	switch {
	case declared > 0:
		n := min(declared, MaxResultSizeCharsCap)
		return n, fmt.Sprintf("the limit of %d characters its server set for this tool", n)
	case m.outputTokens > 0:
		return m.outputTokens * charsPerToken, fmt.Sprintf("the limit of %d tokens that MAX_MCP_OUTPUT_TOKENS sets", m.outputTokens)
	}
	n := min(DefaultMaxOutputTokens*charsPerToken, tool.DefaultMaxResultChars)
	return n, fmt.Sprintf("the limit of about %d tokens on one tool result (MAX_MCP_OUTPUT_TOKENS changes it)", estimateTokens(n))
}

// overLimitNote says, for the model, what happened to a result of size
// characters that went over the limit.
func (m *Manager) overLimitNote(name string, declared, size int) string {
	_, why := m.resultLimit(declared)
	return fmt.Sprintf("[%s returned about %d tokens, over %s, so it is not shown here whole. Where it was saved to a file, read that in parts (Read with offset and limit, or Grep); or call again asking for less.]",
		name, estimateTokens(size), why)
}

// warnLarge tells the user that name's result is large enough to fill
// much of the context (Claude Code warns above OutputWarnTokens).
func (m *Manager) warnLarge(name string, declared int, content []llm.ContentBlock) {
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
	if limit, why := m.resultLimit(declared); n > limit {
		msg += "; it is over " + why + ", so the model gets it as a file"
	}
	m.opts.Notify("warning", msg)
}

// ResultLimit is the MCP result limit in characters (tool.UserLimited):
// a larger result is saved to a file, the model told so.
func (t *Tool) ResultLimit() int {
	n, _ := t.srv.m.resultLimit(t.maxResultChars)
	return n
}

// OverLimitNote says what happened to a result over the limit.
func (t *Tool) OverLimitNote(size int) string {
	return t.srv.m.overLimitNote(t.name, t.maxResultChars, size)
}

// ResultLimit is the MCP result limit in characters, as for server tools.
func (t *readResourceTool) ResultLimit() int {
	n, _ := t.m.resultLimit(0)
	return n
}

// OverLimitNote says what happened to a resource over the limit.
func (t *readResourceTool) OverLimitNote(size int) string {
	return t.m.overLimitNote(ReadResourceName, 0, size)
}

var (
	_ tool.UserLimited = (*Tool)(nil)
	_ tool.UserLimited = (*readResourceTool)(nil)
)
