package anthropic

import (
	"bytes"
	"encoding/json"
	"testing"

	"reins/internal/llm"
)

// TestToolsCacheGivesTheSameBytes: a request encoded with the tools
// cache is byte for byte the one encoded without it, whatever changed
// since the cached one (a description, the tool list, the TTL, whether
// the tools carry the breakpoint).
func TestToolsCacheGivesTheSameBytes(t *testing.T) {
	tools := []llm.ToolSpec{
		{Name: "Read", Description: "Reads <files> & more", InputSchema: json.RawMessage(`{ "type": "object" }`)},
		{Name: "Bash", Description: "Runs commands", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)},
	}
	req := func(specs []llm.ToolSpec, ttl string, system int) *llm.Request {
		r := &llm.Request{Model: "claude-sonnet-4-5", MaxTokens: 10, Tools: specs, CacheTTL: ttl,
			Messages: []*llm.Message{llm.NewUserText("hi")}}
		for range system {
			r.System = append(r.System, llm.SystemBlock{Text: "s", Cache: true})
		}
		return r
	}
	noCache := func(r *llm.Request) *llm.Request { r.NoCache = true; return r }
	changed := append([]llm.ToolSpec(nil), tools...)
	changed[1].Description = "Runs commands, changed"
	var tc toolsCache
	for i, r := range []*llm.Request{
		req(tools, "", 1), req(tools, "", 1), // the second comes from the cache
		req(changed, "", 1), req(tools[:1], "", 1), req(tools, "1h", 1),
		req(tools, "", 4),
		noCache(req(tools, "", 1)), // no breakpoint on the tools
		req(tools, "", 1),
	} {
		want, err := AppendRequest(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendRequest(nil, r, &tc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("request %d with the cache:\n%s\nwithout:\n%s", i, got, want)
		}
	}
	if tc.lookup(tools, "", true) == nil {
		t.Error("the last tools were not cached")
	}
}
