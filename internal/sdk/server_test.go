package sdk

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
	"reins/internal/streamjson"
	"reins/internal/tool"
)

// harness runs a Server in process over pipes.
type harness struct {
	t     *testing.T
	srv   *Server
	fake  *llmtest.Server
	in    *io.PipeWriter
	lines chan map[string]any
	done  chan struct{} // closed when Run returned
	err   error         // what Run returned, set before done closes
	sess  *engine.Session
}

func newHarness(t *testing.T, cfg Config, turns ...llmtest.Turn) *harness {
	t.Helper()
	fake, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fake.AssertClean(t)
		fake.Close()
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, fake: fake, in: inW, lines: make(chan map[string]any, 256), done: make(chan struct{})}
	models := llm.NewModels(func(string) string { return "" })
	prov := anthropic.New(anthropic.Config{BaseURL: fake.URL, APIKey: "x", MaxRetries: -1})
	cfg.In, cfg.Models = inR, models
	cfg.Out = streamjson.NewWriter(outW, streamjson.Options{SessionID: "s-1", Partial: true})
	var tools func() []tool.Tool
	h.sess = engine.New(engine.Config{Provider: prov, Models: models, SessionID: "s-1",
		Tools: func(context.Context) engine.ToolSet { return engine.ToolSet{Tools: tools()} }})
	cfg.Session = func() *engine.Session { return h.sess }
	h.srv = New(cfg)
	tools = h.srv.Tools
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("output line is not JSON: %q", sc.Text())
				continue
			}
			h.lines <- m
		}
		close(h.lines)
	}()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		h.err = h.srv.Run(ctx)
		outW.Close()
		close(h.done)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-h.done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return")
		}
	})
	return h
}

func (h *harness) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// until reads lines until one of the given type (and subtype) comes.
func (h *harness) until(typ, subtype string) map[string]any {
	h.t.Helper()
	for {
		select {
		case m, ok := <-h.lines:
			if !ok {
				h.t.Fatalf("output ended before a %s/%s line", typ, subtype)
			}
			if m["type"] == typ && (subtype == "" || m["subtype"] == subtype) {
				return m
			}
		case <-time.After(10 * time.Second):
			h.t.Fatalf("no %s/%s line within 10s", typ, subtype)
		}
	}
}

func (h *harness) finish() {
	h.t.Helper()
	h.in.Close()
	select {
	case <-h.done:
		if h.err != nil {
			h.t.Fatalf("Run = %v after the input ended", h.err)
		}
	case <-time.After(10 * time.Second):
		h.t.Fatal("Run did not return after the input ended")
	}
}

func userMsg(text string) string {
	b, _ := json.Marshal(text)
	return `{"type":"user","message":{"role":"user","content":` + string(b) + `}}`
}

func TestInterruptCancelsTheRunningTurnAndMessagesQueuedBeforeIt(t *testing.T) {
	slow := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("slow words ", 40))}, Delay: llmtest.Duration(50 * time.Millisecond)}
	h := newHarness(t, Config{}, slow, llmtest.Reply("C answered."))
	h.send(userMsg("A"))
	h.send(userMsg("B"))
	h.until("stream_event", "") // A is streaming
	h.send(`{"type":"control_request","request_id":"i1","request":{"subtype":"interrupt"}}`)
	h.send(userMsg("C"))
	var results []string
	for len(results) < 3 {
		r := h.until("result", "")
		text, _ := r["result"].(string)
		errs, _ := json.Marshal(r["errors"])
		results = append(results, r["subtype"].(string)+" "+text+" "+string(errs))
	}
	want := []string{
		`error_during_execution  ["interrupted by user"]`,
		`error_during_execution  ["interrupted before it started"]`,
		`success C answered. null`,
	}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
	h.finish()
	if n := len(h.fake.Requests()); n != 2 {
		t.Errorf("%d model requests, want 2: B must not reach the model", n)
	}
}

func TestPendingRequestsFailOnceTheInputEnds(t *testing.T) {
	h := newHarness(t, Config{})
	errc := make(chan error, 1)
	go func() {
		_, err := h.srv.Asker().Ask(context.Background(), engine.Question{ToolName: "Bash", ToolUseID: "t1", Input: json.RawMessage(`{}`)})
		errc <- err
	}()
	h.until("control_request", "")
	h.finish()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrInputClosed) {
			t.Errorf("Ask = %v, want ErrInputClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the pending question was not failed when the input ended")
	}
	if _, err := h.srv.Asker().Ask(context.Background(), engine.Question{ToolName: "Bash"}); !errors.Is(err, ErrInputClosed) {
		t.Errorf("a question after the input ended = %v, want ErrInputClosed at once", err)
	}
}

func TestAbandonedRequestIsWithdrawnWithControlCancel(t *testing.T) {
	h := newHarness(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := h.srv.Asker().Ask(ctx, engine.Question{ToolName: "Bash", ToolUseID: "t1"})
		errc <- err
	}()
	req := h.until("control_request", "")
	id := req["request_id"].(string)
	cancel()
	c := h.until("control_cancel_request", "")
	if c["request_id"] != id {
		t.Errorf("cancelled %v, want %s", c["request_id"], id)
	}
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Ask = %v, want the context's error", err)
	}
	// A late answer to the withdrawn request is dropped quietly.
	h.send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + id + `","response":{"behavior":"allow"}}}`)
	h.finish()
}

func TestClientErrorAnswerFailsTheRequest(t *testing.T) {
	h := newHarness(t, Config{})
	errc := make(chan error, 1)
	go func() {
		_, err := h.srv.MCPHost().Message(context.Background(), "srv", json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		errc <- err
	}()
	req := h.until("control_request", "")
	r := req["request"].(map[string]any)
	if r["subtype"] != "mcp_message" || r["server_name"] != "srv" {
		t.Errorf("request %v", r)
	}
	h.send(`{"type":"control_response","response":{"subtype":"error","request_id":"` + req["request_id"].(string) + `","error":"Server 'srv' not found"}}`)
	var ce *ClientError
	if err := <-errc; !errors.As(err, &ce) || ce.Message != "Server 'srv' not found" || ce.Subtype != "mcp_message" {
		t.Errorf("Message = %v, want the client's error", err)
	}
	h.finish()
}

func TestHookCallbacksRegisterAndAnswerThroughTheClient(t *testing.T) {
	reg := &registry{}
	h := newHarness(t, Config{Hooks: reg})
	h.send(`{"type":"control_request","request_id":"init","request":{"subtype":"initialize","hooks":{"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["hook_0","hook_1"],"timeout":5}],"NoSuchEvent":[{"hookCallbackIds":["hook_9"]}]}}}`)
	resp := h.until("control_response", "")
	if r := resp["response"].(map[string]any); r["subtype"] != "success" {
		t.Fatalf("initialize answered %v", r)
	}
	if len(reg.hooks) != 2 || reg.hooks[0].Event != hooks.PreToolUse || reg.hooks[0].Matcher != "Bash" ||
		reg.hooks[1].Name != "hook_1" || reg.hooks[0].Timeout != 5*time.Second {
		t.Fatalf("registered %+v", reg.hooks)
	}
	outc := make(chan hooks.Output, 1)
	go func() {
		outc <- reg.hooks[0].Handler.Run(context.Background(), []byte(`{"hook_event_name":"PreToolUse","tool_use_id":"toolu_9"}`))
	}()
	req := h.until("control_request", "")
	r := req["request"].(map[string]any)
	if r["subtype"] != "hook_callback" || r["callback_id"] != "hook_0" || r["tool_use_id"] != "toolu_9" {
		t.Errorf("hook_callback request %v", r)
	}
	h.send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + req["request_id"].(string) + `","response":{"decision":"block","reason":"no"}}}`)
	if out := <-outc; out.Stdout != `{"decision":"block","reason":"no"}` || out.ExitCode != 0 || out.Err != nil {
		t.Errorf("hook output %+v", out)
	}
	h.finish()
}

type registry struct {
	mu    sync.Mutex
	hooks []hooks.Hook
}

func (r *registry) Add(h hooks.Hook) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks = append(r.hooks, h)
}

func (r *registry) Remove(drop func(hooks.Hook) bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.hooks)
	r.hooks = slices.DeleteFunc(r.hooks, drop)
	return n - len(r.hooks)
}

func TestInitializeJSONSchemaAddsStructuredOutput(t *testing.T) {
	h := newHarness(t, Config{},
		llmtest.Calls(llmtest.ToolUse("toolu_1", StructuredToolName, map[string]any{"result": []string{"a", "b"}})),
		llmtest.Reply("Listed."))
	h.send(`{"type":"control_request","request_id":"init","request":{"subtype":"initialize","jsonSchema":{"type":"array","items":{"type":"string"}}}}`)
	h.until("control_response", "")
	h.send(userMsg("List two letters."))
	r := h.until("result", "")
	if got, _ := json.Marshal(r["structured_output"]); string(got) != `["a","b"]` {
		t.Errorf("structured_output = %s, want the unwrapped array", got)
	}
	h.finish()
}

func TestStartDeliversAnswersWhileOtherMessagesWaitForReady(t *testing.T) {
	fake, err := llmtest.Start(llmtest.Reply("ok"))
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	lines := make(chan map[string]any, 64)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]any
			json.Unmarshal(sc.Bytes(), &m)
			lines <- m
		}
		close(lines)
	}()
	models := llm.NewModels(func(string) string { return "" })
	sess := engine.New(engine.Config{Provider: anthropic.New(anthropic.Config{BaseURL: fake.URL, APIKey: "x"}), Models: models})
	srv := New(Config{In: inR, Out: streamjson.NewWriter(outW, streamjson.Options{}), Models: models,
		Session: func() *engine.Session { return sess }})
	srv.Start()

	askErr := make(chan error, 1)
	go func() {
		_, err := srv.Asker().Ask(context.Background(), engine.Question{ToolName: "Bash"})
		askErr <- err
	}()
	req := <-lines // requires_action
	if req["subtype"] != "session_state_changed" {
		t.Fatalf("first line %v", req)
	}
	req = <-lines
	io.WriteString(inW, `{"type":"control_request","request_id":"st","request":{"subtype":"mcp_status"}}`+"\n")
	io.WriteString(inW, userMsg("hello")+"\n")
	io.WriteString(inW, `{"type":"control_response","response":{"subtype":"success","request_id":"`+req["request_id"].(string)+`","response":{"behavior":"allow"}}}`+"\n")
	select {
	case err := <-askErr:
		if err != nil {
			t.Fatalf("Ask before Ready = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the answer was not delivered before Ready")
	}
	if m := <-lines; m["state"] != "running" {
		t.Fatalf("after the answer: %v", m)
	}
	select {
	case m := <-lines:
		t.Fatalf("a message was served before Ready: %v", m)
	case <-time.After(100 * time.Millisecond):
	}
	inW.Close()
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background()); outW.Close() }()
	var kinds []string
	for m := range lines {
		k, _ := m["type"].(string)
		if st, ok := m["subtype"].(string); ok && k == "system" {
			k += "/" + st
		}
		kinds = append(kinds, k)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := "control_response system/session_state_changed assistant result system/session_state_changed"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("after Ready: %s\nwant:        %s", got, want)
	}
}

func TestPriorityNowInterruptsTheRunningTurn(t *testing.T) {
	slow := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("slow words ", 40))}, Delay: llmtest.Duration(50 * time.Millisecond)}
	h := newHarness(t, Config{}, slow, llmtest.Reply("Urgent answered."))
	h.send(userMsg("A"))
	h.until("stream_event", "")
	h.send(`{"type":"user","priority":"now","message":{"role":"user","content":"urgent"}}`)
	first := h.until("result", "")
	second := h.until("result", "")
	if first["subtype"] != "error_during_execution" || second["result"] != "Urgent answered." {
		t.Errorf("results %v then %v", first["subtype"], second["result"])
	}
	h.finish()
}
