package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
)

// harness runs the UI model in teatest against the fake model server,
// with a gate that asks through the UI's Asker for every call that is
// not read-only.
type harness struct {
	t     *testing.T
	srv   *llmtest.Server
	sess  *engine.Session
	asker *Asker
	model *Model
	tm    *teatest.TestModel
	mode  *fakeMode
	out   bytes.Buffer // all output read so far, ANSI stripped
	raw   bytes.Buffer // all output, as written
	stop  func()
}

type harnessOpts struct {
	tools []tool.Tool
	mode  *fakeMode
	opts  func(*Options)
	w, h  int
}

func newHarness(t *testing.T, turns []llmtest.Turn, ho harnessOpts) *harness {
	t.Helper()
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, srv: srv, asker: NewAsker(), mode: ho.mode}
	if h.mode == nil {
		h.mode = &fakeMode{mode: "default"}
	}
	cwd := t.TempDir()
	h.sess = engine.New(engine.Config{
		Provider: anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "test", MaxRetries: -1}),
		Models:   llm.NewModels(func(string) string { return "" }),
		Model:    "claude-opus-4-5",
		Cwd:      cwd,
		Tools:    func(context.Context) engine.ToolSet { return engine.ToolSet{Tools: ho.tools} },
		Gate:     askGate{asker: h.asker},
	})
	o := Options{Session: h.sess, Asker: h.asker, Mode: h.mode, Cwd: cwd, NoColor: true, Notify: "none",
		JobControl: func() bool { return false }}
	if ho.opts != nil {
		ho.opts(&o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	br := &bridge{}
	var tm *teatest.TestModel
	send := func(msg tea.Msg) {
		<-ready
		tm.Send(msg)
	}
	br.send = send
	h.model = newModel(ctx, o, br)
	w, hh := ho.w, ho.h
	if w == 0 {
		w, hh = 100, 30
	}
	tm = teatest.NewTestModel(t, h.model, teatest.WithInitialTermSize(w, hh))
	h.tm = tm
	close(ready)
	h.asker.attach(send)
	h.stop = func() {
		tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		h.asker.detach()
		cancel()
		br.wait()
		srv.Close()
	}
	t.Cleanup(h.stop)
	return h
}

// waitFor waits until the screen output (ANSI stripped) contains every
// one of wants.
func (h *harness) waitFor(wants ...string) {
	h.t.Helper()
	h.waitUntil(strings.Join(wants, " & "), func(s string) bool {
		for _, w := range wants {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

func (h *harness) waitUntil(what string, ok func(string) bool) {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	buf := make([]byte, 64<<10)
	for {
		if ok(h.out.String()) {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %q; output so far:\n%s", what, h.out.String())
		}
		n, _ := h.tm.Output().Read(buf)
		if n == 0 {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		h.raw.Write(buf[:n])
		h.out.WriteString(xansi.Strip(string(buf[:n])))
	}
}

// mark forgets the output so far, so the next wait sees only new output.
func (h *harness) mark() { h.out.Reset() }

func (h *harness) typeText(s string) { h.tm.Type(s) }

func (h *harness) key(k string) { h.tm.Send(keyMsg(k)) }

// keyMsg builds a key press from a name such as "enter", "esc",
// "shift+tab", "ctrl+c" or a single character.
func keyMsg(name string) tea.KeyPressMsg {
	var k tea.Key
	parts := strings.Split(name, "+")
	base := parts[len(parts)-1]
	for _, p := range parts[:len(parts)-1] {
		switch p {
		case "ctrl":
			k.Mod |= tea.ModCtrl
		case "shift":
			k.Mod |= tea.ModShift
		case "alt":
			k.Mod |= tea.ModAlt
		}
	}
	switch base {
	case "enter":
		k.Code = tea.KeyEnter
	case "esc":
		k.Code = tea.KeyEscape
	case "tab":
		k.Code = tea.KeyTab
	case "up":
		k.Code = tea.KeyUp
	case "down":
		k.Code = tea.KeyDown
	case "backspace":
		k.Code = tea.KeyBackspace
	case "space":
		k.Code, k.Text = tea.KeySpace, " "
	default:
		r := []rune(base)
		k.Code = r[0]
		if k.Mod == 0 {
			k.Text = base
		}
	}
	return tea.KeyPressMsg(k)
}

// requests waits until the server has seen n requests and returns them.
func (h *harness) requests(n int) []*llmtest.Request {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rs := h.srv.Requests()
		if len(rs) >= n {
			return rs
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("got %d requests, want %d", len(rs), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// askGate asks the Asker for every call that is not read-only (and for
// tools that require the user), as the real permission gate does in
// default mode.
type askGate struct{ asker engine.Asker }

func (g askGate) Before(ctx context.Context, c *tool.Call, t tool.Tool, input json.RawMessage) tool.Verdict {
	ui, _ := t.(interface{ RequiresUserInteraction() bool })
	if t.IsReadOnly(input) && (ui == nil || !ui.RequiresUserInteraction()) {
		return tool.Verdict{Allow: true}
	}
	q := engine.Question{ToolName: t.Name(), ToolUseID: c.ID, Input: input}
	switch t.Name() {
	case "Edit", "MultiEdit", "Write":
		// The real gate suggests accept-edits mode for an edit inside
		// the working folders.
		q.Suggestions = []engine.Suggestion{{Type: "setMode", Mode: "acceptEdits", Destination: "session"}}
	}
	ans, err := g.asker.Ask(ctx, q)
	if err != nil {
		return tool.Verdict{Denied: true, Reason: "no answer: " + err.Error()}
	}
	if !ans.Allow {
		return tool.Verdict{Denied: true, Reason: ans.Message, Interrupt: ans.Interrupt}
	}
	return tool.Verdict{Allow: true, Input: ans.UpdatedInput}
}

func (askGate) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {}

// fakeMode is a ModeSwitcher.
type fakeMode struct {
	mu   sync.Mutex
	mode string
}

func (f *fakeMode) Mode() string { f.mu.Lock(); defer f.mu.Unlock(); return f.mode }
func (f *fakeMode) SetMode(m string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mode = m
	return nil
}

// slowTool runs until it is cancelled.
type slowTool struct {
	tool.Defaults
	started chan struct{}
	release chan struct{} // closing it ends the call normally
}

func (*slowTool) Name() string                 { return "Slow" }
func (*slowTool) Description() string          { return "waits" }
func (*slowTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (*slowTool) IsReadOnly(json.RawMessage) bool {
	return true
}
func (s *slowTool) Call(ctx context.Context, _ *tool.Call, _ json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	progress(tool.Progress{Message: "still waiting"})
	if s.started != nil {
		close(s.started)
	}
	select {
	case <-ctx.Done():
		return nil, errors.New("stopped")
	case <-s.release:
		return tool.Text("slow done"), nil
	}
}

// fakeEdit is an "Edit" tool returning Claude Code's structured patch.
type fakeEdit struct{ tool.Defaults }

func (fakeEdit) Name() string                 { return "Edit" }
func (fakeEdit) Description() string          { return "edits" }
func (fakeEdit) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (fakeEdit) Call(_ context.Context, _ *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	var in struct {
		FilePath string `json:"file_path"`
	}
	json.Unmarshal(raw, &in)
	res := tool.Text("edited " + in.FilePath)
	res.Data = map[string]any{
		"filePath": in.FilePath,
		"structuredPatch": []map[string]any{{
			"oldStart": 1, "oldLines": 2, "newStart": 1, "newLines": 2,
			"lines": []string{" package main", "-var x = 1", "+var x = 2"},
		}},
	}
	return res, nil
}

func stripANSI(s string) string { return xansi.Strip(s) }

// do runs f on the model inside Update, where the model's state may be
// touched, and waits for it.
func (h *harness) do(f func(m *Model)) {
	h.t.Helper()
	done := make(chan struct{})
	h.tm.Send(asyncMsg{apply: func(m *Model) tea.Cmd {
		f(m)
		close(done)
		return nil
	}})
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		h.t.Fatal("the model did not run the probe")
	}
}

// check polls cond on the model until it holds.
func (h *harness) check(what string, cond func(m *Model) bool) {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ok bool
		h.do(func(m *Model) { ok = cond(m) })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
