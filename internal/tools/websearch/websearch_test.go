package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"reins/internal/llm"
	"reins/internal/tool"
)

// scripted is a fake provider that replays one response and records the
// request.
type scripted struct {
	events []llm.Event
	err    error
	req    *llm.Request
}

func (s *scripted) Stream(_ context.Context, req *llm.Request) (llm.Stream, error) {
	s.req = req
	if s.err != nil {
		return nil, s.err
	}
	return &replay{evs: s.events}, nil
}

type replay struct{ evs []llm.Event }

func (r *replay) Next() (llm.Event, error) {
	if len(r.evs) == 0 {
		return llm.Event{}, io.EOF
	}
	ev := r.evs[0]
	r.evs = r.evs[1:]
	return ev, nil
}

func (r *replay) Close() error { return nil }

// block decodes a content block the way a provider does.
func block(t *testing.T, js string) *llm.ContentBlock {
	t.Helper()
	var b llm.ContentBlock
	if err := json.Unmarshal([]byte(js), &b); err != nil {
		t.Fatal(err)
	}
	return &b
}

const resultJSON = `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[` +
	`{"type":"web_search_result","title":"Go 1.26 Release Notes","url":"https://go.dev/doc/go1.26","encrypted_content":"EqAB","page_age":"2 days ago"},` +
	`{"type":"web_search_result","title":"","url":"https://go.dev/blog/go1.26","encrypted_content":"EqCD"}]}`

func searchEvents(t *testing.T) []llm.Event {
	return []llm.Event{
		{Type: llm.EventMessageStart, Message: &llm.Message{ID: "msg_1", Model: "claude"}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: block(t, `{"type":"text","text":""}`)},
		{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaText, Delta: "I'll search for that."},
		{Type: llm.EventContentBlockStop, Index: 0},
		{Type: llm.EventContentBlockStart, Index: 1, Block: block(t, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`)},
		{Type: llm.EventContentBlockDelta, Index: 1, DeltaType: llm.DeltaInputJSON, Delta: `{"query": "go 1.26`},
		{Type: llm.EventContentBlockDelta, Index: 1, DeltaType: llm.DeltaInputJSON, Delta: ` release"}`},
		{Type: llm.EventContentBlockStop, Index: 1},
		{Type: llm.EventContentBlockStart, Index: 2, Block: block(t, resultJSON)},
		{Type: llm.EventContentBlockStop, Index: 2},
		{Type: llm.EventContentBlockStart, Index: 3, Block: block(t, `{"type":"text","text":""}`)},
		{Type: llm.EventContentBlockDelta, Index: 3, DeltaType: llm.DeltaText, Delta: "Go 1.26 was released "},
		{Type: llm.EventContentBlockStop, Index: 3},
		{Type: llm.EventContentBlockStart, Index: 4, Block: block(t, `{"type":"text","text":""}`)},
		{Type: llm.EventContentBlockDelta, Index: 4, DeltaType: llm.DeltaText, Delta: "in February."},
		{Type: llm.EventContentBlockStop, Index: 4},
		{Type: llm.EventMessageDelta, StopReason: "end_turn"},
		{Type: llm.EventMessageStop},
	}
}

func call(t *testing.T, ws *Tool, input string, progress func(tool.Progress)) (*tool.Result, error) {
	t.Helper()
	raw := json.RawMessage(input)
	if err := (&tool.Schemas{}).Validate(ws.InputSchema(), raw); err != nil {
		return nil, err
	}
	if err := ws.Validate(context.Background(), &tool.Call{}, raw); err != nil {
		return nil, err
	}
	return ws.Call(context.Background(), &tool.Call{}, raw, progress)
}

func TestWebSearchSendsTheServerTool(t *testing.T) {
	tests := []struct {
		input, wantTool string
	}{
		{`{"query":"go 1.26 release"}`, `{"max_uses":8,"name":"web_search","type":"web_search_20250305"}`},
		{`{"query":"go 1.26 release","allowed_domains":["go.dev"]}`, `{"allowed_domains":["go.dev"],"max_uses":8,"name":"web_search","type":"web_search_20250305"}`},
		{`{"query":"go 1.26 release","blocked_domains":["example.com"]}`, `{"blocked_domains":["example.com"],"max_uses":8,"name":"web_search","type":"web_search_20250305"}`},
	}
	for _, tt := range tests {
		p := &scripted{events: searchEvents(t)}
		if _, err := call(t, New(p, "claude-haiku", true), tt.input, nil); err != nil {
			t.Fatal(err)
		}
		if len(p.req.Tools) != 1 || string(p.req.Tools[0].Raw) != tt.wantTool {
			t.Errorf("tools = %+v, want raw %s", p.req.Tools, tt.wantTool)
		}
		if p.req.Model != "claude-haiku" || !strings.Contains(p.req.Messages[0].Text(), "go 1.26 release") {
			t.Errorf("model %q, message %q", p.req.Model, p.req.Messages[0].Text())
		}
	}
}

func TestWebSearchResult(t *testing.T) {
	p := &scripted{events: searchEvents(t)}
	var progressed []string
	r, err := call(t, New(p, "m", true), `{"query":"go 1.26 release"}`, func(pr tool.Progress) { progressed = append(progressed, pr.Message) })
	if err != nil {
		t.Fatal(err)
	}
	want := "Web search results for \"go 1.26 release\":\n" +
		"1. Go 1.26 Release Notes\n   https://go.dev/doc/go1.26\n" +
		"2. https://go.dev/blog/go1.26\n   https://go.dev/blog/go1.26\n" +
		"\nSummary:\nI'll search for that.Go 1.26 was released in February.\n" +
		"\nWhen you use these results, cite the pages you rely on as Markdown links ([title](URL)) in a Sources list at the end of your answer."
	if got := r.Content[0].Text; got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if len(progressed) != 1 || progressed[0] != "Searching: go 1.26 release" {
		t.Errorf("progress = %q", progressed)
	}

	out := r.Data.(*Output)
	if len(out.Blocks) != 5 {
		t.Fatalf("%d blocks, want 5", len(out.Blocks))
	}
	if got := string(out.Blocks[2].Raw); got != resultJSON {
		t.Errorf("web_search_tool_result changed:\n%s\nwant\n%s", got, resultJSON)
	}
	if got, want := string(out.Blocks[1].Raw), `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go 1.26 release"}}`; got != want {
		t.Errorf("server_tool_use = %s, want %s", got, want)
	}
	enc, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(enc), resultJSON) || !strings.Contains(string(enc), `"results":["I'll search for that.",{"tool_use_id":"srvtoolu_1","content":[{"title":"Go 1.26 Release Notes","url":"https://go.dev/doc/go1.26"}`) {
		t.Errorf("structured result: %s", enc)
	}
}

func TestWebSearchFailures(t *testing.T) {
	failed := []llm.Event{
		{Type: llm.EventMessageStart, Message: &llm.Message{ID: "msg_1"}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: block(t, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"x"}}`)},
		{Type: llm.EventContentBlockStop, Index: 0},
		{Type: llm.EventContentBlockStart, Index: 1, Block: block(t, `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`)},
		{Type: llm.EventContentBlockStop, Index: 1},
		{Type: llm.EventMessageStop},
	}
	tests := []struct {
		name string
		p    *scripted
		want string
	}{
		{"search error", &scripted{events: failed}, "the search failed (max_uses_exceeded)"},
		{"provider error", &scripted{err: &llm.APIError{Status: 400, Message: "web search is disabled"}}, "web search is disabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := call(t, New(tt.p, "m", true), `{"query":"xy"}`, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestWebSearchInputErrors(t *testing.T) {
	ws := New(&scripted{}, "m", true)
	tests := []struct{ input, want string }{
		{`{"query":"x"}`, "query"},
		{`{"query":"go","allowed_domains":["a.com"],"blocked_domains":["b.com"]}`, "not both"},
		{`{"query":"go","allowed_domains":["a b"]}`, `allowed_domains[0]: "a b" is not a domain`},
		{`{}`, "query"},
	}
	for _, tt := range tests {
		_, err := call(t, ws, tt.input, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tt.input, err, tt.want)
		}
	}
}

func TestWebSearchNotAvailable(t *testing.T) {
	for _, ws := range []*Tool{New(&scripted{}, "gpt", false), New(nil, "m", true)} {
		_, err := call(t, ws, `{"query":"go"}`, nil)
		if !errors.Is(err, ErrNotAvailable) || !strings.Contains(err.Error(), "not available") {
			t.Errorf("err = %v, want ErrNotAvailable", err)
		}
		if ws.Available() {
			t.Error("Available() = true")
		}
	}
}
