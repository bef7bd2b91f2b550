package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"reins/internal/hooks"
	"reins/internal/llm/llmtest"
)

// ask sends a control request and returns its answer's response object
// (subtype success or error), skipping other lines.
func (h *harness) ask(id, request string) map[string]any {
	h.t.Helper()
	h.send(`{"type":"control_request","request_id":"` + id + `","request":` + request + `}`)
	for {
		m := h.until("control_response", "")
		if r := m["response"].(map[string]any); r["request_id"] == id {
			return r
		}
	}
}

func okBody(t *testing.T, r map[string]any) string {
	t.Helper()
	if r["subtype"] != "success" {
		t.Fatalf("answered %v, want success", r)
	}
	b, _ := json.Marshal(r["response"])
	return string(b)
}

func TestSessionControlRequestsRefuseMalformedFieldsNamingThem(t *testing.T) {
	h := newHarness(t, Config{
		ApplyFlagSettings: func(map[string]json.RawMessage) error { return nil },
		UpdateSettings:    func(string, map[string]json.RawMessage) error { return nil },
		ReadFile:          func(ReadFileRequest) (*ReadFileResult, error) { return &ReadFileResult{}, nil },
		SeedReadState:     func(string, int64) error { return nil },
		RenameSession:     func(string) error { return nil },
	})
	for _, tc := range []struct{ req, want string }{
		{`{"subtype":"apply_flag_settings","settings":["model"]}`, `apply_flag_settings: "settings" must be an object`},
		{`{"subtype":"apply_flag_settings"}`, `apply_flag_settings: "settings" must be an object`},
		{`{"subtype":"update_settings","source":"projectSettings","settings":{}}`, `update_settings: "source" must be localSettings or userSettings, not "projectSettings"`},
		{`{"subtype":"update_settings","source":"localSettings","settings":"x"}`, `update_settings: "settings" must be an object`},
		{`{"subtype":"read_file"}`, `read_file: "path" must be a file path`},
		{`{"subtype":"read_file","path":"a","max_bytes":0}`, `read_file: "max_bytes" must be a whole number of bytes, at least 1, not 0`},
		{`{"subtype":"read_file","path":"a","max_bytes":2.5}`, `"max_bytes" must be a whole number`},
		{`{"subtype":"read_file","path":"a","encoding":"latin1"}`, `read_file: "encoding" must be utf-8 or base64, not "latin1"`},
		{`{"subtype":"seed_read_state","path":"a"}`, `seed_read_state: "mtime" must be the file's modification time in milliseconds, not nothing`},
		{`{"subtype":"seed_read_state","mtime":5}`, `seed_read_state: "path" must be a file path`},
		{`{"subtype":"mcp_set_servers","servers":[]}`, `mcp_set_servers: "servers" must be an object`},
		{`{"subtype":"mcp_read_resource","serverName":"s","uri":"file:///etc/passwd"}`, `only ui:// resources can be read`},
		{`{"subtype":"mcp_read_resource","serverName":"s","uri":"ui://w"}`, `no MCP server named "s"`},
		{`{"subtype":"rename_session","title":"  "}`, `rename_session: "title" must be a non-empty string`},
		{`{"subtype":"rename_session","title":"T","session_id":"other"}`, `session other is no longer this process's session (now s-1)`},
		{`{"subtype":"cancel_async_message"}`, `cancel_async_message: "message_uuid" must be a string`},
		{`{"subtype":"background_tasks"}`, `background_tasks: background tasks are not available in this session`},
		{`{"subtype":"background_tasks","tool_use_id":7}`, `background_tasks: "tool_use_id" must be a string`},
		{`{"subtype":"reload_plugins","add_plugins":[{"type":"local","path":"/p"}]}`, `this session cannot load plugins, so add_plugins cannot be loaded`},
		{`{"subtype":"no_such_thing"}`, `unsupported control request subtype "no_such_thing"`},
	} {
		r := h.ask("r", tc.req)
		if msg, _ := r["error"].(string); r["subtype"] != "error" || !strings.Contains(msg, tc.want) {
			t.Errorf("%s answered %v, want an error containing %q", tc.req, r, tc.want)
		}
	}
	h.finish()
}

func TestSessionControlRequestsPassTheirFieldsToTheApplication(t *testing.T) {
	var gotOverlay map[string]json.RawMessage
	var gotSource string
	var gotRead ReadFileRequest
	var seededPath string
	var seededAt int64
	h := newHarness(t, Config{
		ApplyFlagSettings: func(o map[string]json.RawMessage) error {
			if _, bad := o["bad"]; bad {
				return errors.New("setting bad: no")
			}
			gotOverlay = o
			return nil
		},
		UpdateSettings: func(src string, _ map[string]json.RawMessage) error { gotSource = src; return nil },
		ReadFile: func(r ReadFileRequest) (*ReadFileResult, error) {
			gotRead = r
			lossy := false
			return &ReadFileResult{Contents: "hi", AbsPath: "/w/a", Lossy: &lossy}, nil
		},
		SeedReadState: func(p string, ms int64) error { seededPath, seededAt = p, ms; return nil },
		Reload: func() Reloaded {
			return Reloaded{Skills: []CommandInfo{{Name: "s1", Description: "d"}}, Commands: []CommandInfo{{Name: "c1"}, {Name: "s1"}}}
		},
	})
	okBody(t, h.ask("a", `{"subtype":"apply_flag_settings","settings":{"model":"sonnet","env":null}}`))
	if string(gotOverlay["model"]) != `"sonnet"` || string(gotOverlay["env"]) != "null" || len(gotOverlay) != 2 {
		t.Errorf("overlay %v", gotOverlay)
	}
	if r := h.ask("a2", `{"subtype":"apply_flag_settings","settings":{"bad":1}}`); r["error"] != "apply_flag_settings: setting bad: no" {
		t.Errorf("a refused overlay answered %v", r)
	}
	okBody(t, h.ask("u", `{"subtype":"update_settings","source":"userSettings","settings":{"effortLevel":"high"}}`))
	if gotSource != "userSettings" {
		t.Errorf("update_settings source %q", gotSource)
	}
	if got := okBody(t, h.ask("f", `{"subtype":"read_file","path":"a"}`)); got != `{"absPath":"/w/a","contents":"hi","lossy":false}` {
		t.Errorf("read_file answered %s", got)
	}
	if gotRead != (ReadFileRequest{Path: "a", MaxBytes: DefaultReadFileMax}) {
		t.Errorf("read_file request %+v: the default size is 1 MB, the default encoding UTF-8", gotRead)
	}
	okBody(t, h.ask("f2", `{"subtype":"read_file","path":"b","max_bytes":10,"encoding":"base64"}`))
	if gotRead != (ReadFileRequest{Path: "b", MaxBytes: 10, Base64: true}) {
		t.Errorf("read_file request %+v", gotRead)
	}
	okBody(t, h.ask("s", `{"subtype":"seed_read_state","path":"/w/a","mtime":1700000000123.9}`))
	if seededPath != "/w/a" || seededAt != 1700000000123 {
		t.Errorf("seeded %q at %d, want the mtime floored to whole milliseconds", seededPath, seededAt)
	}
	if got := okBody(t, h.ask("k", `{"subtype":"reload_skills"}`)); got != `{"skills":[{"argumentHint":"","description":"d","name":"s1"}]}` {
		t.Errorf("reload_skills answered %s", got)
	}
	if got := okBody(t, h.ask("p", `{"subtype":"reload_plugins"}`)); got != `{"agents":[],"commands":[{"argumentHint":"","description":"","name":"c1"},{"argumentHint":"","description":"","name":"s1"}],"error_count":0,"mcpServers":[],"plugins":[]}` {
		t.Errorf("reload_plugins answered %s", got)
	}
	if got := okBody(t, h.ask("o", `{"subtype":"reload_output_styles"}`)); got != `{"available_output_styles":["default"]}` {
		t.Errorf("reload_output_styles answered %s", got)
	}
	h.finish()
}

func TestMCPSetServersReportsInvalidServersAndReplacesTheClientsOwn(t *testing.T) {
	h := newHarness(t, Config{})
	okBody(t, h.ask("i", `{"subtype":"initialize","sdkMcpServers":["mine"]}`))
	status := okBody(t, h.ask("st", `{"subtype":"mcp_status"}`))
	if !strings.Contains(status, `"name":"mine"`) {
		t.Fatalf("mcp_status = %s, want the client's server", status)
	}
	got := okBody(t, h.ask("set", `{"subtype":"mcp_set_servers","servers":{"bad":{"type":"carrier-pigeon"}}}`))
	if got != `{"added":[],"errors":{"bad":"server \"bad\" in mcp_set_servers: unknown transport type \"carrier-pigeon\" (want stdio, http, sse or sdk)"},"removed":["mine"]}` {
		t.Errorf("mcp_set_servers answered %s", got)
	}
	if status := okBody(t, h.ask("st2", `{"subtype":"mcp_status"}`)); status != `{"mcpServers":[]}` {
		t.Errorf("mcp_status after the set = %s", status)
	}
	h.finish()
}

func TestReinitializeRegistersTheClientsHooksAgainInPlaceOfTheOldOnes(t *testing.T) {
	reg := &registry{}
	h := newHarness(t, Config{Hooks: reg})
	okBody(t, h.ask("i1", `{"subtype":"initialize","hooks":{"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["hook_0"]}]}}`))
	got := okBody(t, h.ask("i2", `{"subtype":"initialize","hooks":{"PostToolUse":[{"matcher":"Edit","hookCallbackIds":["hook_1"]}]}}`))
	if !strings.Contains(got, `"hooks_applied":true`) || !strings.Contains(got, `"session_state":"idle"`) {
		t.Errorf("the repeated initialize answered %s", got)
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if len(reg.hooks) != 1 || reg.hooks[0].Event != hooks.PostToolUse || reg.hooks[0].Name != "hook_1" {
		t.Errorf("registered %+v, want only the second initialize's hook", reg.hooks)
	}
}

func TestCancelAsyncMessageDropsAQueuedMessageBeforeItsTurn(t *testing.T) {
	slow := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("slow words ", 40))}, Delay: llmtest.Duration(20 * time.Millisecond)}
	h := newHarness(t, Config{}, slow, llmtest.Reply("C answered."))
	h.send(userMsg("A"))
	h.send(`{"type":"user","uuid":"u-b","message":{"role":"user","content":"B"}}`)
	h.send(`{"type":"user","uuid":"u-c","message":{"role":"user","content":"C"}}`)
	h.until("stream_event", "") // A is running, B and C wait
	if got := okBody(t, h.ask("c1", `{"subtype":"cancel_async_message","message_uuid":"u-b"}`)); got != `{"cancelled":true}` {
		t.Errorf("cancelling a queued message answered %s", got)
	}
	if got := okBody(t, h.ask("c2", `{"subtype":"cancel_async_message","message_uuid":"u-zzz"}`)); got != `{"cancelled":false}` {
		t.Errorf("cancelling an unknown message answered %s", got)
	}
	h.until("result", "")
	if r := h.until("result", ""); r["result"] != "C answered." {
		t.Errorf("second result %v", r)
	}
	h.finish()
	for _, req := range h.fake.Requests() {
		if req.LastUserText() == "B" {
			t.Error("the cancelled message reached the model")
		}
	}
}

func TestGetUsageReportsTheSessionsCost(t *testing.T) {
	h := newHarness(t, Config{}, llmtest.Reply("Hi."))
	h.send(userMsg("A"))
	h.until("result", "")
	var u Usage
	if err := json.Unmarshal([]byte(okBody(t, h.ask("g", `{"subtype":"get_usage"}`))), &u); err != nil {
		t.Fatal(err)
	}
	if len(u.Session.ModelUsage) != 1 || u.RateLimitsAvailable || u.SubscriptionType != nil {
		t.Errorf("get_usage = %+v", u)
	}
	h.finish()
}

func TestMCPPermissionModeOverrideNarrowsOnlyAndWarnsOfUnknownServers(t *testing.T) {
	var got []string
	h := newHarness(t, Config{MCPAskAlways: func(name string, ask bool) {
		got = append(got, name+"="+map[bool]string{true: "ask", false: "mode"}[ask])
	}})
	if body := okBody(t, h.ask("a", `{"subtype":"set_mcp_permission_mode_override","serverName":"gh","mode":"default"}`)); !strings.Contains(body, `"warning":"no MCP server is named \"gh\" yet`) {
		t.Errorf("override of an unknown server answered %s", body)
	}
	if body := okBody(t, h.ask("b", `{"subtype":"set_mcp_permission_mode_override","serverName":"gh","mode":null}`)); body != `{}` {
		t.Errorf("clearing answered %s", body)
	}
	if r := h.ask("c", `{"subtype":"set_mcp_permission_mode_override","serverName":"gh","mode":"auto"}`); r["subtype"] != "error" || !strings.Contains(r["error"].(string), "auto-mode classifier") {
		t.Errorf("mode auto answered %v", r)
	}
	if r := h.ask("d", `{"subtype":"set_mcp_permission_mode_override","serverName":"gh","mode":"bypassPermissions"}`); r["subtype"] != "error" {
		t.Errorf("a widening mode answered %v", r)
	}
	if strings.Join(got, ",") != "gh=ask,gh=mode" {
		t.Errorf("applied %v", got)
	}
	h.finish()
}

func TestGenerateSessionTitleAnswersFromItsOwnGoroutineAndPersistsOnRequest(t *testing.T) {
	var renamed []string
	release := make(chan struct{})
	h := newHarness(t, Config{
		GenerateTitle: func(ctx context.Context, desc string) (string, error) {
			<-release // the reader must not wait for the model
			return "Title for " + desc, nil
		},
		RenameSession: func(title string) error { renamed = append(renamed, title); return nil },
	})
	h.send(`{"type":"control_request","request_id":"g","request":{"subtype":"generate_session_title","description":"x","persist":true}}`)
	if got := okBody(t, h.ask("o", `{"subtype":"reload_output_styles"}`)); got != `{"available_output_styles":["default"]}` {
		t.Errorf("a request sent while a title is generated answered %s", got)
	}
	close(release)
	r := h.until("control_response", "")["response"].(map[string]any)
	if r["request_id"] != "g" || okBody(t, r) != `{"title":"Title for x"}` {
		t.Errorf("generate_session_title answered %v", r)
	}
	if strings.Join(renamed, ",") != "Title for x" {
		t.Errorf("renamed %v", renamed)
	}
	if r := h.ask("g2", `{"subtype":"generate_session_title","description":" "}`); r["subtype"] != "error" ||
		!strings.Contains(r["error"].(string), `"description" must be a non-empty string`) {
		t.Errorf("a blank description answered %v", r)
	}
	h.finish()
}
