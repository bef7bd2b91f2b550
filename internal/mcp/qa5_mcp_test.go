package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A MAX_MCP_OUTPUT_TOKENS too large for the limit in characters must not
// wrap around to a negative limit (an attached resource was then cut at
// a negative length: a panic).
func TestHugeMaxMCPOutputTokensAttachesAResourceWhole(t *testing.T) {
	for _, env := range []string{"9223372036854775807", "4611686018427387904", "99999999999999999999999"} {
		m := &Manager{outputTokens: outputTokens(0, env)}
		if limit, _ := m.resultLimit(0); limit <= 0 {
			t.Errorf("MAX_MCP_OUTPUT_TOKENS=%s: limit %d characters, want a large positive one", env, limit)
		}
		r := ResourceMention{Server: "docs", URI: "docs://a"}
		res := &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "docs://a", Text: "the whole text"}}}
		blocks := m.resourceBlocks(r, res)
		if len(blocks) != 1 || !strings.Contains(blocks[0].Text, "the whole text\n</mcp-resource>") {
			t.Errorf("MAX_MCP_OUTPUT_TOKENS=%s: blocks %+v", env, blocks)
		}
	}
}

// MCP_TIMEOUT and MCP_TOOL_TIMEOUT too large for a time.Duration mean a
// very long wait, not a negative timeout that ends every wait at once;
// zero, negative and non-numbers keep the default.
func TestMCPTimeoutsFromTheEnvironmentNeverGoNegative(t *testing.T) {
	const def = 30 * time.Second
	for env, want := range map[string]time.Duration{
		"9300000000000":        time.Duration(maxEnvMillis) * time.Millisecond,
		"18446744073709551615": time.Duration(maxEnvMillis) * time.Millisecond,
		"1500":                 1500 * time.Millisecond,
		"0":                    def,
		"-5":                   def,
		"abc":                  def,
		"1e3":                  def,
		"":                     def,
	} {
		if got := envDuration(0, env, def); got != want {
			t.Errorf("envDuration(%q) = %v, want %v", env, got, want)
		}
	}
	// A wait bounded by the largest value still waits.
	ctx, cancel := context.WithTimeout(context.Background(), envDuration(0, "9300000000000", def))
	defer cancel()
	if ctx.Err() != nil {
		t.Error("a context with the largest MCP timeout is already done")
	}
}
