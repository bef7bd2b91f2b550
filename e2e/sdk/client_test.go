// Package sdk_test plays the Agent SDK's side of the stream-json control
// protocol against the built reins binary and the fake model server.
package sdk_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// lineTimeout bounds the wait for one output line.
const lineTimeout = 20 * time.Second

const sessionID = "5f0c8d2e-7a61-4b39-9c3e-2d8e4f6a1b70"

// client is the SDK side of one reins process.
type client struct {
	t   *testing.T
	cmd *exec.Cmd
	m   *matcher

	inMu  sync.Mutex // guards stdin
	stdin io.WriteCloser

	lines  chan string   // output lines the test reads
	exited chan struct{} // closed when the process ended
	code   int           // exit code, set before exited closes

	errMu  sync.Mutex
	stderr bytes.Buffer

	mcp *fakeMCP // answers mcp_message requests when set
}

func server(t *testing.T, turns ...llmtest.Turn) *llmtest.Server {
	t.Helper()
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.AssertClean(t)
		srv.Close()
	})
	return srv
}

// start runs reins in SDK mode with the SDK's standard arguments plus
// extra.
func start(t *testing.T, sb *e2etest.Sandbox, mcp *fakeMCP, extra ...string) *client {
	t.Helper()
	args := append([]string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--session-id", sessionID}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := sb.Command(t, ctx, args...)
	c := &client{t: t, cmd: cmd, m: newMatcher(sessionID), lines: make(chan string, 1024), exited: make(chan struct{}), mcp: mcp}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &lockedWriter{mu: &c.errMu, w: &c.stderr}
	c.stdin = in
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := sc.Text()
			if c.autoAnswer(line) {
				continue
			}
			c.lines <- line
		}
	}()
	go func() {
		<-readDone
		err := cmd.Wait()
		c.code = 0
		if ee, ok := err.(*exec.ExitError); ok {
			c.code = ee.ExitCode()
		} else if err != nil {
			c.code = -1
		}
		close(c.lines)
		close(c.exited)
	}()
	t.Cleanup(func() {
		c.closeInput()
		select {
		case <-c.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-c.exited
		}
		cancel()
		if t.Failed() {
			t.Logf("reins stderr:\n%s", c.stderrText())
		}
	})
	return c
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (c *client) stderrText() string {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.stderr.String()
}

// send writes raw input (a line end is added unless it ends with one).
func (c *client) send(line string) {
	c.t.Helper()
	if !strings.HasSuffix(line, "\n") {
		line += "\n"
	}
	c.write(line)
}

func (c *client) write(s string) {
	c.t.Helper()
	c.inMu.Lock()
	defer c.inMu.Unlock()
	if _, err := io.WriteString(c.stdin, s); err != nil {
		c.t.Fatalf("write to reins: %v", err)
	}
}

// user sends a user message with text content.
func (c *client) user(text string) {
	c.t.Helper()
	b, _ := json.Marshal(text)
	c.send(`{"type":"user","session_id":"","message":{"role":"user","content":` + string(b) + `},"parent_tool_use_id":null}`)
}

// request sends a control request.
func (c *client) request(id, body string) {
	c.t.Helper()
	c.send(`{"type":"control_request","request_id":"` + id + `","request":` + body + `}`)
}

// answer sends a success control_response.
func (c *client) answer(id, body string) {
	c.t.Helper()
	c.send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + id + `","response":` + body + `}}`)
}

func (c *client) closeInput() {
	c.inMu.Lock()
	defer c.inMu.Unlock()
	c.stdin.Close()
}

// next returns the next output line.
func (c *client) next() string {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("reins exited (code %d) while a line was expected; stderr:\n%s", c.code, c.stderrText())
		}
		return l
	case <-time.After(lineTimeout):
		c.t.Fatalf("no output line within %s", lineTimeout)
	}
	return ""
}

// expect reads the next line and checks it against pattern.
func (c *client) expect(pattern string) {
	c.t.Helper()
	line := c.next()
	if err := c.m.match(pattern, line); err != nil {
		c.t.Fatal(err)
	}
}

// expectSkipping is expect after skipping lines whose type/subtype is in
// skip (for example stream_event lines whose number depends on timing).
func (c *client) expectSkipping(skip []string, pattern string) {
	c.t.Helper()
	for {
		line := c.next()
		if kindIn(line, skip) {
			continue
		}
		if err := c.m.match(pattern, line); err != nil {
			c.t.Fatal(err)
		}
		return
	}
}

// expectAnyOrder reads len(patterns) lines and matches each to a distinct
// pattern, in whatever order they come.
func (c *client) expectAnyOrder(patterns ...string) {
	c.t.Helper()
	c.expectAnyOrderSkipping(nil, patterns...)
}

// expectAnyOrderSkipping is expectAnyOrder ignoring lines of the kinds in
// skip.
func (c *client) expectAnyOrderSkipping(skip []string, patterns ...string) {
	c.t.Helper()
	left := append([]string(nil), patterns...)
	for range patterns {
		line := c.next()
		for kindIn(line, skip) {
			line = c.next()
		}
		found := -1
		var errs []string
		for i, p := range left {
			// Try on a copy so a failed attempt captures nothing.
			trial := &matcher{vars: map[string]any{}}
			for k, v := range c.m.vars {
				trial.vars[k] = v
			}
			if err := trial.match(p, line); err == nil {
				found = i
				c.m = trial
				break
			} else {
				errs = append(errs, err.Error())
			}
		}
		if found < 0 {
			c.t.Fatalf("line matches none of the expected lines:\n%s", strings.Join(errs, "\n"))
		}
		left = append(left[:found], left[found+1:]...)
	}
}

// kindIn reports whether a line's type (or type/subtype) is listed.
func kindIn(line string, kinds []string) bool {
	var v struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
	}
	json.Unmarshal([]byte(line), &v)
	for _, k := range kinds {
		if k == v.Type || k == v.Type+"/"+v.Subtype {
			return true
		}
	}
	return false
}

// get returns a captured value.
func (c *client) get(name string) string {
	c.t.Helper()
	v, ok := c.m.vars[name]
	if !ok {
		c.t.Fatalf("nothing captured as %s", name)
	}
	s, _ := v.(string)
	return s
}

// wait waits for the process to exit and returns its exit code; no
// output line may be left unread.
func (c *client) wait() int {
	c.t.Helper()
	select {
	case <-c.exited:
	case <-time.After(lineTimeout):
		c.t.Fatalf("reins did not exit within %s", lineTimeout)
	}
	var extra []string
	for l := range c.lines {
		extra = append(extra, l)
	}
	if len(extra) > 0 {
		c.t.Fatalf("unexpected lines before exit:\n%s", strings.Join(extra, "\n"))
	}
	return c.code
}

// autoAnswer answers mcp_message requests from the fake MCP server; it
// reports whether the line was one.
func (c *client) autoAnswer(line string) bool {
	if c.mcp == nil {
		return false
	}
	var req struct {
		Type      string `json:"type"`
		RequestID string `json:"request_id"`
		Request   struct {
			Subtype    string          `json:"subtype"`
			ServerName string          `json:"server_name"`
			Message    json.RawMessage `json:"message"`
		} `json:"request"`
	}
	if json.Unmarshal([]byte(line), &req) != nil || req.Type != "control_request" || req.Request.Subtype != "mcp_message" {
		return false
	}
	resp := c.mcp.handle(req.Request.ServerName, req.Request.Message, line)
	b, _ := json.Marshal(map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "success", "request_id": req.RequestID, "response": map[string]any{"mcp_response": resp}}})
	c.inMu.Lock()
	defer c.inMu.Unlock()
	io.WriteString(c.stdin, string(b)+"\n")
	return true
}

// fakeMCP is an MCP server hosted by the SDK side, with one tool "echo".
type fakeMCP struct {
	name  string
	title string // the echo tool's title, if any

	mu    sync.Mutex
	lines []string // the mcp_message request lines received
	calls []json.RawMessage
}

func (f *fakeMCP) handle(server string, msg json.RawMessage, line string) any {
	f.mu.Lock()
	f.lines = append(f.lines, line)
	f.mu.Unlock()
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	json.Unmarshal(msg, &m)
	reply := func(result any) any {
		return map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}
	}
	if server != f.name {
		return map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no server " + server}}
	}
	switch m.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(m.Params, &p)
		return reply(map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": f.name, "version": "1.0.0"}})
	case "notifications/initialized":
		return map[string]any{"jsonrpc": "2.0", "result": map[string]any{}}
	case "tools/list":
		// alwaysLoad: the tool is sent with its schema rather than
		// deferred behind tool search.
		echo := map[string]any{"name": "echo", "description": "Echo the text back.",
			"_meta": map[string]any{"anthropic/alwaysLoad": true},
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}},
				"required": []string{"text"}}}
		if f.title != "" {
			echo["title"] = f.title
		}
		return reply(map[string]any{"tools": []any{echo}})
	case "tools/call":
		var p struct {
			Arguments struct {
				Text string `json:"text"`
			} `json:"arguments"`
		}
		json.Unmarshal(m.Params, &p)
		f.mu.Lock()
		f.calls = append(f.calls, append(json.RawMessage(nil), m.Params...))
		f.mu.Unlock()
		return reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo: " + p.Arguments.Text}}})
	}
	if len(m.ID) == 0 {
		return map[string]any{"jsonrpc": "2.0", "result": map[string]any{}}
	}
	return map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": fmt.Sprintf("method %s not found", m.Method)}}
}

// toolCalls returns the params of every tools/call received.
func (f *fakeMCP) toolCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		out = append(out, string(c))
	}
	return out
}
