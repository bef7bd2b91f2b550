package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/tool"
)

// benchPool is a session's pool: a dozen core tools with full-size
// descriptions and the first n MCP tools of the test catalogue.
func benchPool(t testing.TB, n int) []tool.Tool {
	var pool []tool.Tool
	for _, name := range []string{"Agent", "Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "TodoWrite", "WebFetch", "WebSearch", "Write", "ExitPlanMode"} {
		desc := strings.Repeat("Core tool "+name+" instructions for the model, with usage notes and examples. ", 12)
		schema := `{"type":"object","properties":{"a":{"type":"string","description":"first argument, described at length for the model"},` +
			`"b":{"type":"number","description":"second argument"},"c":{"type":"boolean","description":"a flag"}},"required":["a"]}`
		pool = append(pool, &catTool{name: name, desc: desc, schema: json.RawMessage(schema)})
	}
	count := 0
	for _, tl := range loadCatalogue(t) {
		if strings.HasPrefix(tl.Name(), "mcp__") && count < n {
			pool = append(pool, tl)
			count++
		}
	}
	return pool
}

var benchSystem = []llm.SystemBlock{{Text: strings.Repeat("You are a coding agent. ", 200), Cache: true}}

// firstRequest builds the first request of a session the way the engine
// does: the tool set's specs, its reminders, then the prompt.
func firstRequest(ts *Session, pool []tool.Tool, prompt string) (*llm.Request, []*llm.Message) {
	set := ts.ToolSet(pool)
	specs := set.Specs
	if specs == nil {
		for _, tl := range set.Tools {
			specs = append(specs, llm.ToolSpec{Name: tl.Name(), Description: tl.Description(), InputSchema: tl.InputSchema()})
		}
	}
	history := []*llm.Message{llm.NewUserText(prompt)}
	if set.Reminders != nil {
		for _, r := range set.Reminders(context.Background(), history) {
			history = append(history, llm.NewUserText(r))
		}
	}
	return &llm.Request{Model: "claude-sonnet-4-5", MaxTokens: 8000, System: benchSystem, Tools: specs, Messages: history}, history
}

func encode(t testing.TB, req *llm.Request) []byte {
	body, err := anthropic.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// discoveryTurn appends a search and an ExecuteExtraTool call with their
// results to history, as a model turn that discovered a tool would.
func discoveryTurn(history []*llm.Message) []*llm.Message {
	return append(history,
		&llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: "t1", Name: SearchToolName, Input: json.RawMessage(`{"query":"slack send"}`)}}},
		&llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock("t1", []llm.ContentBlock{llm.TextBlock("<tool name=\"mcp__slack__send_message\">…</tool>")}, false)}},
		&llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: "t2", Name: ExecuteToolName, Input: json.RawMessage(`{"tool_name":"mcp__slack__send_message","input":{"channel":"dev","text":"hi"}}`)}}},
		&llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock("t2", []llm.ContentBlock{llm.TextBlock("sent")}, false)}},
	)
}

// BenchmarkFirstTurnRequest reports the first request's size with 100 MCP
// tools connected, deferral on against deferral off (the reference,
// measured in the same run), and how much of the request stays
// byte-identical after a discovery: with deferral the whole tools array
// and system prompt do; a design that adds discovered tools to the array
// (seed 000's v1, shown for contrast) loses the cache from the tools on.
func BenchmarkFirstTurnRequest(b *testing.B) {
	pool := benchPool(b, 100)
	prompt := "Post a short message to the dev channel on Slack saying the build is green."
	on := NewSession(Options{PrefetchOff: true})
	defer on.Close()
	off := NewSession(Options{Mode: Mode{Kind: Off}})
	defer off.Close()
	var onBytes, offBytes int
	b.ResetTimer()
	for range b.N {
		reqOn, _ := firstRequest(on, pool, prompt)
		reqOff, _ := firstRequest(off, pool, prompt)
		onBytes, offBytes = len(encode(b, reqOn)), len(encode(b, reqOff))
	}
	b.StopTimer()
	b.ReportMetric(float64(onBytes), "bytes-deferred")
	b.ReportMetric(float64(offBytes), "bytes-inline")
	b.ReportMetric(float64(onBytes)/float64(offBytes), "ratio")

	stable, naive := prefixAfterDiscovery(b, on, pool, prompt)
	b.ReportMetric(stable, "prefix-kept-deferred")
	b.ReportMetric(naive, "prefix-kept-include")
	b.Logf("first turn with 100 MCP tools: %d bytes deferred vs %d bytes inline (%.1f%%); after a discovery the next request keeps %.1f%% of the first byte-identical (tools array included), against %.1f%% when discovered tools join the tools array",
		onBytes, offBytes, 100*float64(onBytes)/float64(offBytes), 100*stable, 100*naive)
}

// prefixAfterDiscovery returns the share of the first request that the
// second request repeats byte for byte, with deferral and with the naive
// include-on-discovery design.
func prefixAfterDiscovery(t testing.TB, ts *Session, pool []tool.Tool, prompt string) (stable, naive float64) {
	req1, history := firstRequest(ts, pool, prompt)
	body1 := encode(t, req1)
	req2, _ := firstRequest(ts, pool, prompt) // the same session, a later turn
	req2.Messages = discoveryTurn(history)
	body2 := encode(t, req2)
	stable = float64(commonPrefix(body1, body2)) / float64(len(body1))

	include := *req2
	include.Tools = append(append([]llm.ToolSpec(nil), req2.Tools...), llm.ToolSpec{Name: "mcp__slack__send_message",
		Description: "Post a message to a Slack channel or thread as the bot user.", InputSchema: json.RawMessage(`{"type":"object"}`)})
	body3 := encode(t, &include)
	naive = float64(commonPrefix(body1, body3)) / float64(len(body1))
	return stable, naive
}

// TestRequestPrefixStableAfterDiscoveries asserts what the benchmark
// reports: after tools are discovered and run, the next request repeats
// the system prompt and the whole tools array byte for byte.
func TestRequestPrefixStableAfterDiscoveries(t *testing.T) {
	pool := benchPool(t, 100)
	ts := NewSession(Options{})
	defer ts.Close()
	req1, history := firstRequest(ts, pool, "Post a message to the dev channel on Slack.")
	body1 := encode(t, req1)
	req2, _ := firstRequest(ts, pool, "")
	req2.Messages = discoveryTurn(history)
	body2 := encode(t, req2)
	msgs := bytes.Index(body1, []byte(`"messages":[`))
	if msgs < 0 {
		t.Fatal("no messages in the body")
	}
	if n := commonPrefix(body1, body2); n < msgs {
		t.Fatalf("requests differ at byte %d, before the messages start at %d:\n%s", n, msgs, body1[max(0, n-80):min(len(body1), n+80)])
	}
	reqOff, _ := firstRequest(NewSession(Options{Mode: Mode{Kind: Off}}), pool, "x")
	if on, off := len(body1), len(encode(t, reqOff)); on >= off {
		t.Errorf("deferred first request %d bytes, inline %d: deferral made it no smaller", on, off)
	}
	for _, sp := range req1.Tools {
		if strings.HasPrefix(sp.Name, "mcp__") {
			t.Errorf("deferred request sends %s", sp.Name)
		}
	}
}
