package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
	"reins/internal/tool"
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

// The API refuses an image whose bytes do not match its media type, and
// the refused message stays in the conversation: an MCP image (a tool's
// or an @-mentioned resource's) goes with the type its bytes show, and
// bytes that are no image the API takes become a note.
func TestMCPImagesGoWithTheTypeTheirBytesShow(t *testing.T) {
	jpeg := []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")
	b := imageBlock("image/png", jpeg)
	if b.Type != llm.BlockImage || b.Source.MediaType != "image/jpeg" {
		t.Errorf("a JPEG said to be a PNG: %+v, want an image/jpeg block", b)
	}
	b = resourceBlock(&sdk.ResourceContents{URI: "img://x", MIMEType: "image/png", Blob: []byte("this is not a png")})
	if b.Type != llm.BlockText || !strings.Contains(b.Text, "image said to be image/png, 17 bytes, whose content is not an image") {
		t.Errorf("text said to be a PNG: %+v, want a note", b)
	}
	res := MapResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/webp", Data: []byte{1, 2, 3}}}})
	if len(res.Content) != 1 || res.Content[0].Type != llm.BlockText {
		t.Errorf("a tool's image of three stray bytes: %+v, want a note", res.Content)
	}
}

// Stopping a server (removed by mcp_set_servers, turned off, shut down)
// while one of its tools is still running must not wait for the tool:
// the SDK's Close waits for calls in flight, and it held the caller (the
// SDK session's reader, so even an interrupt) until the call ended. The
// call in flight ends with an error instead.
func TestClosingAServerEndsAToolCallStillRunning(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}})
	sleep := findTool(m.Snapshot(), "mcp__self__sleep")
	if sleep == nil {
		t.Fatal("no sleep tool")
	}
	type outcome struct {
		res *tool.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := sleep.Call(context.Background(), &tool.Call{ID: "toolu_1", Name: sleep.Name()}, json.RawMessage(`{}`), nil)
		done <- outcome{res, err}
	}()
	// Give the call time to reach the server; if it has not, it fails
	// all the same.
	time.Sleep(500 * time.Millisecond)
	m.Close()
	o := <-done
	if o.err == nil && (o.res == nil || !o.res.IsError) {
		t.Fatalf("the call went on to finish (%+v) after its server was closed; want it ended with an error", o.res)
	}
	if o.err != nil && !strings.Contains(o.err.Error(), `MCP server "self" was stopped (removed or turned off) while answering`) {
		t.Errorf("error %q; want it to say the server was stopped, not that it is restarting", o.err)
	}
}
