package toolsearch

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/tool"
)

// scripted is a fake llm.Provider answering with prepared messages and
// recording each request.
type scripted struct {
	mu      sync.Mutex
	replies [][]llm.ContentBlock
	reqs    []*llm.Request
}

func (p *scripted) Stream(_ context.Context, req *llm.Request) (llm.Stream, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cp := *req
	cp.Messages = append([]*llm.Message(nil), req.Messages...)
	p.reqs = append(p.reqs, &cp)
	var blocks []llm.ContentBlock
	if len(p.replies) > 0 {
		blocks, p.replies = p.replies[0], p.replies[1:]
	} else {
		blocks = []llm.ContentBlock{llm.TextBlock("done")}
	}
	stop := "end_turn"
	evs := []llm.Event{{Type: llm.EventMessageStart, Message: &llm.Message{ID: "msg", Model: req.Model, Usage: &llm.Usage{InputTokens: 10}}}}
	for i, b := range blocks {
		switch b.Type {
		case llm.BlockToolUse:
			stop = "tool_use"
			start := llm.ContentBlock{Type: llm.BlockToolUse, ID: b.ID, Name: b.Name}
			evs = append(evs, llm.Event{Type: llm.EventContentBlockStart, Index: i, Block: &start},
				llm.Event{Type: llm.EventContentBlockDelta, Index: i, DeltaType: llm.DeltaInputJSON, Delta: string(b.Input)})
		default:
			start := llm.ContentBlock{Type: llm.BlockText}
			evs = append(evs, llm.Event{Type: llm.EventContentBlockStart, Index: i, Block: &start},
				llm.Event{Type: llm.EventContentBlockDelta, Index: i, DeltaType: llm.DeltaText, Delta: b.Text})
		}
		evs = append(evs, llm.Event{Type: llm.EventContentBlockStop, Index: i})
	}
	evs = append(evs, llm.Event{Type: llm.EventMessageDelta, StopReason: stop, Usage: &llm.Usage{OutputTokens: 5}},
		llm.Event{Type: llm.EventMessageStop})
	return &sliceStream{evs: evs}, nil
}

type sliceStream struct{ evs []llm.Event }

func (s *sliceStream) Next() (llm.Event, error) {
	if len(s.evs) == 0 {
		return llm.Event{}, io.EOF
	}
	ev := s.evs[0]
	s.evs = s.evs[1:]
	return ev, nil
}
func (s *sliceStream) Close() error { return nil }

func toolUse(id, name, input string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: name, Input: json.RawMessage(input)}
}

// nameGate records the tool names the permission step sees.
type nameGate struct {
	mu    sync.Mutex
	names []string
}

func (g *nameGate) Before(_ context.Context, c *tool.Call, t tool.Tool, _ json.RawMessage) tool.Verdict {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.names = append(g.names, c.Name+"="+t.Name())
	return tool.Verdict{Allow: true}
}
func (g *nameGate) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {}

func specsJSON(t *testing.T, specs []llm.ToolSpec) string {
	t.Helper()
	b, err := json.Marshal(specs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestModelRunsDeferredToolThroughSearchAndExecute drives a whole turn:
// the model searches, runs the deferred tool through ExecuteExtraTool, and
// tries a direct call; the tools sent never change.
func TestModelRunsDeferredToolThroughSearchAndExecute(t *testing.T) {
	echo := &catTool{name: "mcp__srv__echo", desc: "Echo the text back.",
		schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
	pool := []tool.Tool{coreTool("Read"), echo, mcpTool("mcp__srv__other", "another tool")}
	ts := NewSession(Options{})
	defer ts.Close()
	prov := &scripted{replies: [][]llm.ContentBlock{
		{toolUse("t1", SearchToolName, `{"query":"select:mcp__srv__echo"}`)},
		{toolUse("t2", ExecuteToolName, `{"tool_name":"mcp__srv__echo","input":{"text":"hi"}}`)},
		{toolUse("t3", "mcp__srv__echo", `{"text":"direct"}`)},
		{llm.TextBlock("all done")},
	}}
	gate := &nameGate{}
	sess := engine.New(engine.Config{Provider: prov, Models: llm.NewModels(nil), Model: "claude-sonnet-4-5",
		Gate: gate, Tools: func(context.Context) engine.ToolSet { return ts.ToolSet(pool) }})
	results := map[string]string{}
	for ev := range sess.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock("echo hi please")}}) {
		if r, ok := ev.(*engine.ToolResult); ok {
			results[r.ID] = r.Block.ResultText()
		}
	}
	if len(prov.reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(prov.reqs))
	}
	first := specsJSON(t, prov.reqs[0].Tools)
	for i, r := range prov.reqs[1:] {
		if got := specsJSON(t, r.Tools); got != first {
			t.Errorf("request %d tools differ from request 1:\n%s\n%s", i+2, got, first)
		}
	}
	if strings.Contains(first, "mcp__srv__echo") {
		t.Error("the deferred tool's schema was sent")
	}
	listing := prov.reqs[0].Messages[len(prov.reqs[0].Messages)-1].Text()
	if !strings.Contains(listing, headAvailable+"\nmcp__srv__echo\nmcp__srv__other") {
		t.Errorf("first request lacks the deferred listing; last message: %q", listing)
	}
	if !strings.Contains(results["t1"], `"required":["text"]`) {
		t.Errorf("search result = %q", results["t1"])
	}
	if results["t2"] != `mcp__srv__echo called with {"text":"hi"}` {
		t.Errorf("execute result = %q", results["t2"])
	}
	if !strings.Contains(results["t3"], "deferred tool") || !strings.Contains(results["t3"], "ExecuteExtraTool") {
		t.Errorf("direct call result = %q", results["t3"])
	}
	want := "SearchExtraTools=SearchExtraTools,mcp__srv__echo=mcp__srv__echo"
	if got := strings.Join(gate.names, ","); got != want {
		t.Errorf("gate saw %s, want %s", got, want)
	}
}
