package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"reins/internal/llm"
)

// fakeTool is a tool whose answers the test sets.
type fakeTool struct {
	Defaults
	name     string
	schema   string
	readOnly bool
	validate func(json.RawMessage) error
	calls    int
	mu       sync.Mutex
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "a test tool" }
func (f *fakeTool) InputSchema() json.RawMessage {
	if f.schema == "" {
		return json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}`)
	}
	return json.RawMessage(f.schema)
}
func (f *fakeTool) IsConcurrencySafe(json.RawMessage) bool { return f.readOnly }
func (f *fakeTool) Validate(_ context.Context, _ *Call, in json.RawMessage) error {
	if f.validate != nil {
		return f.validate(in)
	}
	return nil
}
func (f *fakeTool) Call(_ context.Context, c *Call, in json.RawMessage, _ func(Progress)) (*Result, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	return Text(fmt.Sprintf("%s ran with %s", c.Name, in)), nil
}

// proxyTool runs another tool named in its input.
type proxyTool struct {
	fakeTool
	targets map[string]Tool
}

func (p *proxyTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"tool_name":{"type":"string"},"input":{"type":"object"}},"required":["tool_name"]}`)
}

func (p *proxyTool) Target(in json.RawMessage) (Tool, json.RawMessage, error) {
	var v struct {
		ToolName string          `json:"tool_name"`
		Input    json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(in, &v); err != nil {
		return nil, nil, err
	}
	t, ok := p.targets[v.ToolName]
	if !ok {
		return nil, nil, fmt.Errorf("no deferred tool named %q", v.ToolName)
	}
	if v.Input == nil {
		v.Input = json.RawMessage(`{}`)
	}
	return t, v.Input, nil
}

// recordingGate records the names it was asked about and denies names in
// deny.
type recordingGate struct {
	mu     sync.Mutex
	before []string
	after  []string
	deny   map[string]bool
}

func (g *recordingGate) Before(_ context.Context, c *Call, t Tool, _ json.RawMessage) Verdict {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.before = append(g.before, c.Name+"/"+t.Name())
	if g.deny[c.Name] {
		return Verdict{Reason: "denied by rule " + c.Name, Denied: true}
	}
	return Verdict{Allow: true}
}

func (g *recordingGate) After(_ context.Context, c *Call, t Tool, _ json.RawMessage, _ *Result) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.after = append(g.after, c.Name+"/"+t.Name())
}

func TestPipelineProxyRunsTargetUnderTargetName(t *testing.T) {
	target := &fakeTool{name: "mcp__srv__do"}
	px := &proxyTool{fakeTool: fakeTool{name: "ExecuteExtraTool"}, targets: map[string]Tool{"mcp__srv__do": target}}
	tests := []struct {
		name      string
		input     string
		deny      map[string]bool
		wantErr   string // substring of the error result; "" means success
		wantGate  []string
		wantDeny  bool
		wantCalls int
	}{
		{name: "allowed", input: `{"tool_name":"mcp__srv__do","input":{"x":"1"}}`,
			wantGate: []string{"mcp__srv__do/mcp__srv__do"}, wantCalls: 1},
		{name: "denied by target rule", input: `{"tool_name":"mcp__srv__do","input":{"x":"1"}}`,
			deny: map[string]bool{"mcp__srv__do": true}, wantErr: "denied by rule mcp__srv__do",
			wantGate: []string{"mcp__srv__do/mcp__srv__do"}, wantDeny: true},
		{name: "proxy rule does not apply", input: `{"tool_name":"mcp__srv__do","input":{"x":"1"}}`,
			deny: map[string]bool{"ExecuteExtraTool": true}, wantGate: []string{"mcp__srv__do/mcp__srv__do"}, wantCalls: 1},
		{name: "target schema enforced", input: `{"tool_name":"mcp__srv__do","input":{}}`,
			wantErr: "InputValidationError: mcp__srv__do input is invalid"},
		{name: "unknown target", input: `{"tool_name":"nope"}`, wantErr: `no deferred tool named "nope"`},
		{name: "proxy schema enforced", input: `{"input":{}}`, wantErr: "InputValidationError: ExecuteExtraTool input is invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target.calls = 0
			g := &recordingGate{deny: tt.deny}
			p := Pipeline{Gate: g}
			out := p.Run(context.Background(), &Call{ID: "toolu_1", Name: "ExecuteExtraTool"}, px, json.RawMessage(tt.input))
			text := out.Block.ResultText()
			if tt.wantErr == "" {
				if out.IsError {
					t.Fatalf("error result: %s", text)
				}
				if !strings.Contains(text, "mcp__srv__do ran with") {
					t.Errorf("result %q does not come from the target", text)
				}
				if out.Name != "mcp__srv__do" || out.Via != "ExecuteExtraTool" {
					t.Errorf("Name, Via = %q, %q", out.Name, out.Via)
				}
			} else if !out.IsError || !strings.Contains(text, tt.wantErr) {
				t.Fatalf("result %q (error %v), want error containing %q", text, out.IsError, tt.wantErr)
			}
			if out.Block.ToolUseID != "toolu_1" {
				t.Errorf("result answers %q, want toolu_1", out.Block.ToolUseID)
			}
			if strings.Join(g.before, ",") != strings.Join(tt.wantGate, ",") {
				t.Errorf("gate saw %v, want %v", g.before, tt.wantGate)
			}
			if out.Denied != tt.wantDeny {
				t.Errorf("Denied = %v, want %v", out.Denied, tt.wantDeny)
			}
			if target.calls != tt.wantCalls {
				t.Errorf("target called %d times, want %d", target.calls, tt.wantCalls)
			}
		})
	}
}

func TestPipelineRefusesNestedProxy(t *testing.T) {
	inner := &proxyTool{fakeTool: fakeTool{name: "Inner"}}
	px := &proxyTool{fakeTool: fakeTool{name: "ExecuteExtraTool"}, targets: map[string]Tool{"Inner": inner}}
	var p Pipeline
	out := p.Run(context.Background(), &Call{ID: "a", Name: "ExecuteExtraTool"}, px, json.RawMessage(`{"tool_name":"Inner","input":{"tool_name":"x"}}`))
	if !out.IsError || !strings.Contains(out.Block.ResultText(), "cannot run another proxy") {
		t.Fatalf("got %q", out.Block.ResultText())
	}
}

func TestPipelineRecoversPanic(t *testing.T) {
	bad := &fakeTool{name: "Bad", validate: func(json.RawMessage) error { panic("boom") }}
	var p Pipeline
	out := p.Run(context.Background(), &Call{ID: "a", Name: "Bad"}, bad, json.RawMessage(`{"x":"1"}`))
	if !out.IsError || !strings.Contains(out.Block.ResultText(), "failed unexpectedly: boom") {
		t.Fatalf("got %q", out.Block.ResultText())
	}
}

func runExecutor(t *testing.T, cfg ExecConfig, blocks ...llm.ContentBlock) []*Outcome {
	t.Helper()
	ex := NewExecutor(context.Background(), cfg)
	for _, b := range blocks {
		ex.Add(b, nil)
	}
	ex.Close()
	var outs []*Outcome
	for !ex.Done() {
		for _, o := range ex.Take() {
			if o.Kind == OutResult {
				outs = append(outs, o.Outcome)
			}
		}
		if !ex.Done() {
			<-ex.Ready()
		}
	}
	ex.Wait()
	return outs
}

func TestExecutorDeferredDirectCallGetsHint(t *testing.T) {
	cfg := ExecConfig{
		Lookup: func(string) (Tool, bool) { return nil, false },
		Deferred: func(name string) (string, bool) {
			return "use SearchExtraTools for " + name, name == "mcp__a__b"
		},
	}
	outs := runExecutor(t, cfg,
		llm.ContentBlock{Type: llm.BlockToolUse, ID: "1", Name: "mcp__a__b", Input: json.RawMessage(`{}`)},
		llm.ContentBlock{Type: llm.BlockToolUse, ID: "2", Name: "Unknown", Input: json.RawMessage(`{}`)})
	if len(outs) != 2 {
		t.Fatalf("%d outcomes", len(outs))
	}
	if got := outs[0].Block.ResultText(); got != "use SearchExtraTools for mcp__a__b" {
		t.Errorf("deferred call answer = %q", got)
	}
	if got := outs[1].Block.ResultText(); !strings.Contains(got, `no tool named "Unknown"`) {
		t.Errorf("unknown call answer = %q", got)
	}
}

func TestExecutorReportsProxiedCallUnderTargetName(t *testing.T) {
	target := &fakeTool{name: "mcp__srv__read", readOnly: true}
	px := &proxyTool{fakeTool: fakeTool{name: "ExecuteExtraTool"}, targets: map[string]Tool{"mcp__srv__read": target}}
	g := &recordingGate{deny: map[string]bool{"mcp__srv__read": true}}
	cfg := ExecConfig{Gate: g, Lookup: func(n string) (Tool, bool) {
		if n == "ExecuteExtraTool" {
			return px, true
		}
		return nil, false
	}}
	ex := NewExecutor(context.Background(), cfg)
	ex.Add(llm.ContentBlock{Type: llm.BlockToolUse, ID: "1", Name: "ExecuteExtraTool",
		Input: json.RawMessage(`{"tool_name":"mcp__srv__read","input":{"x":"a"}}`)}, nil)
	ex.mu.Lock()
	safe := ex.calls[0].safe
	ex.mu.Unlock()
	if !safe {
		t.Error("a proxied call of a concurrency-safe target is not scheduled as safe")
	}
	ex.Close()
	var res []Output
	for !ex.Done() {
		for _, o := range ex.Take() {
			if o.Kind == OutResult {
				res = append(res, o)
			}
		}
		if !ex.Done() {
			<-ex.Ready()
		}
	}
	ex.Wait()
	if len(res) != 1 || res[0].Name != "mcp__srv__read" || !res[0].Outcome.Denied || res[0].Outcome.Via != "ExecuteExtraTool" {
		t.Fatalf("result = %+v", res)
	}
}

func TestPipelineGivesToolsWholeNumbersAsIntegers(t *testing.T) {
	var got struct {
		Offset int `json:"offset"`
	}
	tl := &fakeTool{name: "Read", schema: `{"type":"object","properties":{"offset":{"type":"integer"}}}`,
		validate: func(in json.RawMessage) error { return json.Unmarshal(in, &got) }}
	var p Pipeline
	in := json.RawMessage(`{"offset":10.0}`)
	out := p.Run(context.Background(), &Call{ID: "a", Name: "Read"}, tl, in)
	if out.IsError || got.Offset != 10 {
		t.Fatalf("offset 10.0: error %v %q, decoded %d", out.IsError, out.Block.ResultText(), got.Offset)
	}
	out = p.Run(context.Background(), &Call{ID: "b", Name: "Read"}, tl, json.RawMessage(`{"offset":10.5}`))
	if !out.IsError || !strings.Contains(out.Block.ResultText(), "InputValidationError") {
		t.Errorf("offset 10.5 = %q, want a validation error", out.Block.ResultText())
	}
}
