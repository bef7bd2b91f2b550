package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
	"reins/internal/tool"
)

func TestStdioServerToolsPromptsAndAnnotations(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}})
	st := m.Status()
	if len(st) != 1 || st[0].State != StateConnected || st[0].ServerName != "go-test-server" || st[0].Instructions != "test instructions" {
		t.Fatalf("status = %+v", st)
	}
	snap := m.Snapshot()
	echo, pid := findTool(snap, "mcp__self__echo"), findTool(snap, "mcp__self__pid")
	if echo == nil || pid == nil {
		t.Fatalf("tools = %v", st[0].Tools)
	}
	if d := echo.(tool.Deferrable); !d.ShouldDefer() || echo.IsConcurrencySafe(nil) || echo.IsReadOnly(nil) {
		t.Error("echo: want deferred, not read-only")
	}
	if d := pid.(tool.Deferrable); d.ShouldDefer() || !pid.IsConcurrencySafe(nil) || !pid.IsReadOnly(nil) {
		t.Error("pid: want alwaysLoad (not deferred) and read-only")
	}
	res, err := callTool(t, echo, `{"text":"hi"}`)
	if err != nil || resultText(res) != "echo: hi" {
		t.Fatalf("echo = %q, %v", resultText(res), err)
	}
	if _, err := callTool(t, echo, `{"text":5}`); err == nil || !strings.Contains(err.Error(), "InputValidationError") {
		t.Errorf("bad input error = %v", err)
	}
	res, err = callTool(t, pid, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if data, ok := res.Data.(map[string]any); !ok || data["pid"] == nil {
		t.Errorf("structured content not kept as Data: %#v", res.Data)
	}
	if len(snap.Prompts) != 1 || snap.Prompts[0].Name != "mcp__self__greet" || !snap.Prompts[0].Arguments[0].Required {
		t.Fatalf("prompts = %+v", snap.Prompts)
	}
	msgs, err := snap.Prompts[0].Get(context.Background(), snap.Prompts[0].ArgumentNames([]string{"Ada", "Lovelace"}))
	if err != nil || len(msgs) != 1 || msgs[0].Text() != "Say hello to Ada Lovelace" {
		t.Fatalf("prompt = %v, %v", msgs, err)
	}
	if _, err := snap.Prompts[0].Get(context.Background(), nil); err == nil || !strings.Contains(err.Error(), `"who"`) {
		t.Errorf("missing argument error = %v", err)
	}
}

func TestKilledServerIsReportedAndReconnected(t *testing.T) {
	// The failure stays visible for the whole backoff (1s) before the
	// reconnect.
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, ReconnectMin: time.Second})
	pidOf := func() int {
		res, err := callTool(t, findTool(m.Snapshot(), "mcp__self__pid"), `{}`)
		if err != nil {
			t.Fatal(err)
		}
		return int(res.Data.(map[string]any)["pid"].(float64))
	}
	first := pidOf()
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the failure to be reported", func() bool {
		st := m.Status()[0]
		return st.State == StateFailed && strings.Contains(st.Err, "the server stopped") && strings.Contains(st.Err, "reconnecting")
	})
	if len(m.Snapshot().Tools) != 0 {
		t.Error("a stopped server still offers tools")
	}
	if _, err := callTool(t, &Tool{srv: m.servers[0], name: "mcp__self__echo", remote: "echo", schema: json.RawMessage(`{"type":"object"}`)}, `{}`); err == nil || !strings.Contains(err.Error(), "not connected") {
		t.Errorf("call while down = %v", err)
	}
	eventually(t, 20*time.Second, "the server to reconnect", func() bool {
		st := m.Status()[0]
		return st.State == StateConnected && st.Reconnects >= 1
	})
	if second := pidOf(); second == first {
		t.Errorf("same pid %d after reconnect", second)
	}
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__self__echo"), `{"text":"again"}`)
	if err != nil || resultText(res) != "echo: again" {
		t.Fatalf("echo after reconnect = %q, %v", resultText(res), err)
	}
}

func TestFailedServerIsReportedWithStderr(t *testing.T) {
	srv := Server{Name: "broken", Scope: ScopeLocal, Config: ServerConfig{Command: "sh", Args: []string{"-c", "echo boom >&2; exit 3"}}}
	m := startManager(t, Options{Servers: []Server{srv}, MaxReconnects: -1})
	st := m.Status()[0]
	if st.State != StateFailed || !strings.Contains(st.Err, "boom") {
		t.Fatalf("status = %+v", st)
	}
	if len(m.Snapshot().Tools) != 0 {
		t.Error("a failed server offers tools")
	}
}

func TestSlowToolCallTimesOut(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, ToolTimeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := callTool(t, findTool(m.Snapshot(), "mcp__self__sleep"), `{}`)
	if err == nil || !strings.Contains(err.Error(), "MCP_TOOL_TIMEOUT") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("timeout took %s", time.Since(start))
	}
}

func TestToolTimeoutFromEnvironment(t *testing.T) {
	m := NewManager(Options{Getenv: func(k string) string {
		return map[string]string{"MCP_TOOL_TIMEOUT": "1500", "MCP_TIMEOUT": "2500"}[k]
	}})
	defer m.Close()
	if m.toolTimeout != 1500*time.Millisecond || m.connTimeout != 2500*time.Millisecond {
		t.Errorf("timeouts = %s, %s", m.toolTimeout, m.connTimeout)
	}
}

func TestDisabledServersAreNotStarted(t *testing.T) {
	s := selfServer(t, "proj")
	s.Scope, s.Disabled = ScopeProject, "not approved"
	m := startManager(t, Options{Servers: []Server{s}})
	if st := m.Status()[0]; st.State != StateDisabled || st.Err != "not approved" {
		t.Fatalf("status = %+v", st)
	}
}

// newHTTPServer serves a Go SDK MCP server over streamable HTTP (or SSE),
// requiring the Authorization header want.
func newHTTPServer(t *testing.T, sse bool, want string) (*httptest.Server, *sdk.Server) {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "http-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "http: " + in.Text}}}, nil, nil
		})
	var h http.Handler
	if sse {
		h = sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil)
	} else {
		h = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != want {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs, s
}

func TestStreamableHTTPServerWithExpandedHeadersAndListChanged(t *testing.T) {
	hs, s := newHTTPServer(t, false, "Bearer secret-token")
	cfg := ServerConfig{Type: "http", URL: "${MCP_URL}", Headers: map[string]string{"Authorization": "Bearer ${TOKEN:-none}"}}
	env := map[string]string{"MCP_URL": hs.URL, "TOKEN": "secret-token"}
	m := startManager(t, Options{Servers: []Server{{Name: "remote", Scope: ScopeUser, Config: cfg}}, Getenv: func(k string) string { return env[k] }})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("status = %+v", st)
	}
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__remote__echo"), `{"text":"over http"}`)
	if err != nil || resultText(res) != "http: over http" {
		t.Fatalf("echo = %q, %v", resultText(res), err)
	}
	// A tool added on the server arrives through tools/list_changed.
	sdk.AddTool(s, &sdk.Tool{Name: "added_later", Description: "New."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil, nil
		})
	eventually(t, 10*time.Second, "the new tool", func() bool { return findTool(m.Snapshot(), "mcp__remote__added_later") != nil })
}

func TestSSEServer(t *testing.T) {
	hs, _ := newHTTPServer(t, true, "k")
	m := startManager(t, Options{Servers: []Server{{Name: "old", Config: ServerConfig{Type: "sse", URL: hs.URL, Headers: map[string]string{"Authorization": "k"}}}}})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("status = %+v", st)
	}
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__old__echo"), `{"text":"sse"}`)
	if err != nil || resultText(res) != "http: sse" {
		t.Fatalf("echo = %q, %v (status %+v)", resultText(res), err, m.Status())
	}
}

func TestUnauthorizedRemoteServerNeedsAuth(t *testing.T) {
	hs, _ := newHTTPServer(t, false, "Bearer right")
	m := startManager(t, Options{Servers: []Server{{Name: "locked", Config: ServerConfig{Type: "http", URL: hs.URL}}}})
	if st := m.Status()[0]; st.State != StateNeedsAuth || !strings.Contains(st.Err, "401") {
		t.Fatalf("status = %+v", st)
	}
}

// fakeHost answers an SDK server's JSON-RPC by hand.
type fakeHost struct{ calls atomic.Int32 }

func (h *fakeHost) Message(_ context.Context, server string, msg json.RawMessage) (json.RawMessage, error) {
	h.calls.Add(1)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal(msg, &req); err != nil {
		return nil, err
	}
	if req.ID == nil {
		return nil, nil // a notification
	}
	var result string
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"` + server + `","version":"1"}}`
	case "tools/list":
		result = `{"tools":[{"name":"hello","description":"Say hello.","inputSchema":{"type":"object","properties":{"name":{"type":"string"}}}}]}`
	case "tools/call":
		result = `{"content":[{"type":"text","text":"hello from the SDK, ` + req.Params.Arguments["name"].(string) + `"}]}`
	default:
		return json.RawMessage(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"no such method"}}`), nil
	}
	return json.RawMessage(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`), nil
}

func TestSDKServerThroughHost(t *testing.T) {
	host := &fakeHost{}
	m := startManager(t, Options{SDK: host, Servers: []Server{{Name: "inproc", Scope: ScopeDynamic, Config: ServerConfig{Type: "sdk", Name: "inproc"}}}})
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__inproc__hello"), `{"name":"Ada"}`)
	if err != nil || resultText(res) != "hello from the SDK, Ada" {
		t.Fatalf("hello = %q, %v (status %+v)", resultText(res), err, m.Status())
	}
	// Without a host the server fails with a reason.
	m2 := startManager(t, Options{Servers: []Server{{Name: "inproc", Config: ServerConfig{Type: "sdk", Name: "inproc"}}}, MaxReconnects: -1})
	if st := m2.Status()[0]; st.State != StateFailed || !strings.Contains(st.Err, "SDK") {
		t.Fatalf("status = %+v", st)
	}
}

func TestEverythingServer(t *testing.T) {
	node, script := peer(t, "@modelcontextprotocol/server-everything/dist/index.js")
	m := startManager(t, Options{Servers: []Server{{Name: "everything", Scope: ScopeProject, Config: ServerConfig{Command: node, Args: []string{script, "stdio"}}}}})
	st := m.Status()[0]
	if st.State != StateConnected {
		t.Fatalf("status = %+v", st)
	}
	snap := m.Snapshot()
	echo := findTool(snap, "mcp__everything__echo")
	if echo == nil {
		t.Fatalf("no echo among %v", st.Tools)
	}
	res, err := callTool(t, echo, `{"message":"from reins"}`)
	if err != nil || !strings.Contains(resultText(res), "from reins") {
		t.Fatalf("echo = %q, %v", resultText(res), err)
	}
	schemas := &tool.Schemas{}
	for _, tl := range snap.Tools {
		if err := schemas.Validate(tl.InputSchema(), json.RawMessage(`{}`)); err != nil && strings.Contains(err.Error(), "tool schema is invalid") {
			t.Errorf("%s: schema does not compile: %v", tl.Name(), err)
		}
	}
	if !st.Resources {
		t.Fatal("everything offers resources")
	}
	list := findTool(snap, ListResourcesName)
	res, err = callTool(t, list, `{"server":"everything"}`)
	if err != nil {
		t.Fatal(err)
	}
	infos := res.Data.([]ResourceInfo)
	if len(infos) == 0 {
		t.Fatal("no resources listed")
	}
	read := findTool(snap, ReadResourceName)
	in, _ := json.Marshal(map[string]string{"server": "everything", "uri": infos[0].URI})
	res, err = callTool(t, read, string(in))
	if err != nil || len(res.Content) == 0 {
		t.Fatalf("read %s = %v, %v", infos[0].URI, res, err)
	}
	if len(snap.Prompts) == 0 {
		t.Error("everything offers prompts")
	}
}

func TestFilesystemServer(t *testing.T) {
	node, script := peer(t, "@modelcontextprotocol/server-filesystem/dist/index.js")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("hello from a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	m := startManager(t, Options{Cwd: dir, Servers: []Server{{Name: "fs", Config: ServerConfig{Command: node, Args: []string{script, dir}}}}})
	snap := m.Snapshot()
	if st := m.Status()[0]; st.State != StateConnected || len(st.Tools) < 5 {
		t.Fatalf("status = %+v", st)
	}
	readName := "mcp__fs__read_text_file"
	if findTool(snap, readName) == nil {
		readName = "mcp__fs__read_file"
	}
	in, _ := json.Marshal(map[string]string{"path": filepath.Join(dir, "note.txt")})
	res, err := callTool(t, findTool(snap, readName), string(in))
	if err != nil || !strings.Contains(resultText(res), "hello from a file") {
		t.Fatalf("%s = %q, %v", readName, resultText(res), err)
	}
	list := findTool(snap, "mcp__fs__list_directory")
	if list == nil || !list.IsReadOnly(nil) {
		t.Fatal("list_directory missing or not read-only")
	}
	in, _ = json.Marshal(map[string]string{"path": dir})
	res, err = callTool(t, list, string(in))
	if err != nil || !strings.Contains(resultText(res), "note.txt") {
		t.Fatalf("list_directory = %q, %v", resultText(res), err)
	}
	// Outside the allowed folder the server refuses: an error result.
	in, _ = json.Marshal(map[string]string{"path": "/etc/hostname"})
	if _, err := callTool(t, findTool(snap, readName), string(in)); err == nil {
		t.Error("reading outside the allowed folder succeeded")
	}
}

func TestCloseReleasesProcessesAndGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	m := NewManager(Options{Servers: []Server{selfServer(t, "a"), selfServer(t, "b")}})
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m.Wait(ctx)
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__a__pid"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	pid := int(res.Data.(map[string]any)["pid"].(float64))
	m.Close()
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("server process %d still runs after Close", pid)
	}
	eventually(t, 5*time.Second, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before+1 })
	if s := m.Snapshot(); len(s.Tools) != 0 {
		t.Errorf("tools after Close: %d", len(s.Tools))
	}
}

func TestMapResultContent(t *testing.T) {
	res := MapResult(&sdk.CallToolResult{IsError: true, Content: []sdk.Content{
		&sdk.TextContent{Text: "a"},
		&sdk.ImageContent{Data: []byte("\x89PNG\r\n\x1a\n"), MIMEType: "image/png"},
		&sdk.ImageContent{Data: []byte{1}, MIMEType: "image/tiff"},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///x", Text: "body"}},
		&sdk.ResourceLink{URI: "file:///y", Name: "y"},
	}})
	want := []string{llm.BlockText, llm.BlockImage, llm.BlockText, llm.BlockText, llm.BlockText}
	if !res.IsError || len(res.Content) != len(want) {
		t.Fatalf("result = %+v", res)
	}
	for i, b := range res.Content {
		if b.Type != want[i] {
			t.Errorf("block %d type %s, want %s", i, b.Type, want[i])
		}
	}
	if res.Content[1].Source.Data != "iVBORw0KGgo=" || !strings.Contains(res.Content[2].Text, "image/tiff") || !strings.Contains(res.Content[3].Text, "body") {
		t.Errorf("content = %+v", res.Content)
	}
	structured := MapResult(&sdk.CallToolResult{StructuredContent: map[string]any{"n": 1}})
	if len(structured.Content) != 1 || structured.Content[0].Text != `{"n":1}` {
		t.Errorf("structured-only result = %+v", structured.Content)
	}
}

func TestReconnectRestartsAServer(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, ReconnectMin: 10 * time.Millisecond})
	if m.Reconnect("nope") {
		t.Error("Reconnect of an unknown server reported true")
	}
	if !m.Reconnect("self") {
		t.Fatal("Reconnect(self) = false")
	}
	eventually(t, 20*time.Second, "the reconnection", func() bool {
		st := m.Status()[0]
		return st.State == StateConnected && st.Reconnects == 1
	})
}

func TestSetEnabledStopsAndRestartsAServer(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}})
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__self__pid"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	first := int(res.Data.(map[string]any)["pid"].(float64))
	if err := m.SetEnabled("nope", false); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("SetEnabled(unknown) = %v, want an error naming it", err)
	}

	if err := m.SetEnabled("self", false); err != nil {
		t.Fatal(err)
	}
	if st := m.Status()[0]; st.State != StateDisabled || len(m.Snapshot().Tools) != 0 {
		t.Fatalf("after disabling: state %s, %d tools", st.State, len(m.Snapshot().Tools))
	}
	eventually(t, 10*time.Second, "the server process to end", func() bool {
		return syscall.Kill(first, 0) != nil
	})
	time.Sleep(50 * time.Millisecond) // a late state change would land now
	if st := m.Status()[0]; st.State != StateDisabled {
		t.Fatalf("disabled server went back to %s (%s)", st.State, st.Err)
	}

	if err := m.SetEnabled("self", true); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the server to connect again", func() bool {
		return m.Status()[0].State == StateConnected
	})
	res, err = callTool(t, findTool(m.Snapshot(), "mcp__self__pid"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if second := int(res.Data.(map[string]any)["pid"].(float64)); second == first {
		t.Errorf("same server process %d after disable and enable", second)
	}
}

func TestSetEnabledRefusesAnInvalidServer(t *testing.T) {
	bad := Server{Name: "bad", Scope: ScopeLocal, Invalid: "no command"}
	m := startManager(t, Options{Servers: []Server{bad}})
	if err := m.SetEnabled("bad", true); err == nil || !strings.Contains(err.Error(), "no command") {
		t.Errorf("SetEnabled(invalid, true) = %v", err)
	}
	if st := m.Status()[0]; st.State != StateDisabled {
		t.Errorf("state = %s", st.State)
	}
}

// Two servers whose names give their tools the same names ("my.srv" and
// "my_srv") do not share them silently: the first by name connects, the
// second is held back with a reason that names both.
func TestServersWhoseToolNamesWouldClashAreReported(t *testing.T) {
	m := NewManager(Options{Servers: []Server{selfServer(t, "my_srv"), selfServer(t, "my.srv")}})
	defer m.Close()
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m.Wait(ctx)
	states := map[string]ServerStatus{}
	for _, s := range m.Status() {
		states[s.Name] = s
	}
	if s := states["my.srv"]; s.State != StateConnected {
		t.Errorf("my.srv: state %s (%s), want connected", s.State, s.Err)
	}
	second := states["my_srv"]
	if second.State != StateDisabled || !strings.Contains(second.Err, `"my.srv"`) || !strings.Contains(second.Err, "mcp__my_srv__") {
		t.Errorf("my_srv: state %s, reason %q; want it held back naming my.srv", second.State, second.Err)
	}
	if findTool(m.Snapshot(), "mcp__my_srv__pid") == nil {
		t.Error("the first server's tools are missing")
	}
}
