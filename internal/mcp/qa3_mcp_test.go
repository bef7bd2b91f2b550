package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/tools/read"
)

// Claude Code keeps its global config in $CLAUDE_CONFIG_DIR/.claude.json
// when that is set, and records the user's answers about a project's
// .mcp.json servers in that file's projects entry. Both are honoured.
func TestLoadReadsClaudeJSONPathAndItsProjectApprovals(t *testing.T) {
	home, ccDir, proj := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"stale":{"command":"not-read"}}}`)
	writeFile(t, filepath.Join(ccDir, ".claude.json"), `{"numStartups":9,"mcpServers":{"cc":{"command":"cc-user"}},
		"projects":{
			"/elsewhere":{"enableAllProjectMcpServers":true},
			"`+proj+`":{"allowedTools":[],"history":[{"display":"x"}],"mcpServers":{},
				"enabledMcpjsonServers":["yes"],"disabledMcpjsonServers":["no"],"enableAllProjectMcpServers":false}}}`)
	writeFile(t, filepath.Join(proj, ProjectFile), `{"mcpServers":{"yes":{"command":"y"},"no":{"command":"n"},"maybe":{"command":"m"},"set":{"command":"s"}}}`)
	cfg, err := Load(LoadOptions{Cwd: proj, Home: home, ClaudeJSON: filepath.Join(ccDir, ".claude.json"),
		Approval: Approval{Enabled: []string{"set", "no"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range cfg.Servers {
		got[s.Name] = string(s.Scope) + ":" + s.Disabled
	}
	want := map[string]string{
		"cc":    "user:",
		"yes":   "project:",
		"set":   "project:",
		"no":    "project:disabled in settings (disabledMcpjsonServers)",
		"maybe": "project:" + approvalState("maybe", Approval{}),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s\nwarnings: %v", diff, cfg.Warnings)
	}
}

// A projects entry whose approval fields have unexpected types does not
// make the servers of the file unreadable.
func TestLoadToleratesOddApprovalFieldsInClaudeJSON(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"u":{"command":"x"}},
		"projects":{"`+proj+`":{"enabledMcpjsonServers":"all","enableAllProjectMcpServers":"yes"}}}`)
	cfg, err := Load(LoadOptions{Cwd: proj, Home: home})
	if err != nil || len(cfg.Servers) != 1 || len(cfg.Warnings) != 0 {
		t.Fatalf("servers %+v warnings %v err %v", cfg.Servers, cfg.Warnings, err)
	}
}

// The timeout error states the tool timeout as set: a sub-second or
// fractional MCP_TOOL_TIMEOUT was rounded to whole seconds ("within 0s").
func TestToolTimeoutErrorStatesTheTimeout(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "self")}, ToolTimeout: 300 * time.Millisecond})
	_, err := callTool(t, findTool(m.Snapshot(), "mcp__self__sleep"), `{}`)
	if err == nil || !strings.Contains(err.Error(), "within 300ms (MCP_TOOL_TIMEOUT)") {
		t.Fatalf("err = %v", err)
	}
}

// add-json takes an entry as Claude Code writes it, oauth block included,
// and keeps that block in the file (a shared .mcp.json is read by
// teammates' Claude Code too); misspelt fields are still refused.
func TestAddJSONKeepsClaudeCodeOAuthField(t *testing.T) {
	cfgDir, proj := t.TempDir(), t.TempDir()
	run := func(args ...string) (string, error) {
		cmd := NewCommand(CommandOptions{Cwd: proj, ConfigDir: cfgDir})
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		err := cmd.ExecuteContext(context.Background())
		return out.String(), err
	}
	entry := `{"type":"http","url":"https://mcp.example.com/mcp","oauth":{"clientId":"abc","callbackPort":8080}}`
	if out, err := run("add-json", "-s", "project", "slack", entry); err != nil {
		t.Fatalf("add-json: %v\n%s", err, out)
	}
	var f ServersFile
	data, _ := os.ReadFile(filepath.Join(proj, ProjectFile))
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(f.MCPServers["slack"], &got)
	if oauth, _ := got["oauth"].(map[string]any); oauth["clientId"] != "abc" || got["url"] != "https://mcp.example.com/mcp" {
		t.Errorf(".mcp.json entry = %s", f.MCPServers["slack"])
	}
	if _, err := run("add-json", "typo", `{"command":"x","arg":["1"]}`); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("misspelt field: err = %v", err)
	}
}

// runQA3Server is a stdio server whose resource "qa3://hang" and prompt
// "stuck" never answer, with a text resource sent as a blob and a binary
// one.
func runQA3Server() error {
	s := sdk.NewServer(&sdk.Implementation{Name: "qa3-server", Version: "1.0"}, nil)
	hang := func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}
	s.AddResource(&sdk.Resource{URI: "qa3://hang", Name: "hang", MIMEType: "text/plain"},
		func(ctx context.Context, _ *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return nil, hang(ctx)
		})
	s.AddResource(&sdk.Resource{URI: "qa3://textblob", Name: "textblob", MIMEType: "application/json"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "qa3://textblob", MIMEType: "application/json", Blob: []byte(`{"answer":42}`)}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: "qa3://bin", Name: "bin", MIMEType: "application/octet-stream"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "qa3://bin", MIMEType: "application/octet-stream", Blob: []byte{0, 1, 2, 0xff}}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "stuck", Description: "Never answers."},
		func(ctx context.Context, _ *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return nil, hang(ctx)
		})
	sdk.AddTool(s, &sdk.Tool{Name: qa3LongTool, Description: "A tool with a long name."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "long one ran"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "shout", Description: "Print a line on stdout outside the protocol, then answer."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			fmt.Println("debug: shout was called")
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "shouted"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "die", Description: "Exit in the middle of the call."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "qa3 server: out of memory")
			os.Exit(5)
			return nil, nil, nil
		})
	return s.Run(context.Background(), &sdk.StdioTransport{})
}

func qa3Server(t *testing.T, name string) Server {
	t.Helper()
	s := selfServer(t, name)
	s.Config.Env = map[string]string{"REINS_MCP_TEST_PEER": "qa3"}
	return s
}

// Resource reads, resource lists and prompts are bounded by the tool
// timeout like tool calls: a server that never answered a resources/read
// held a print-mode run forever.
func TestResourceReadsAndPromptsAreBoundedByTheToolTimeout(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{qa3Server(t, "q")}, ToolTimeout: 300 * time.Millisecond})
	snap := m.Snapshot()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := callTool(t, findTool(snap, ReadResourceName), `{"server":"q","uri":"qa3://hang"}`)
		if err == nil || !strings.Contains(err.Error(), "MCP_TOOL_TIMEOUT") {
			t.Errorf("ReadMcpResource of a resource that never answers: err = %v", err)
		}
		if len(snap.Prompts) != 1 {
			t.Errorf("prompts = %+v", snap.Prompts)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := snap.Prompts[0].Get(ctx, nil); err == nil || !strings.Contains(err.Error(), "MCP_TOOL_TIMEOUT") {
			t.Errorf("a prompt that never answers: err = %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the requests were not bounded by the tool timeout")
	}
}

// A text resource sent as a blob (application/json here) reaches the
// model as text; a binary one is described.
func TestTextBlobResourcesAreShownAsText(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{qa3Server(t, "q")}})
	read := findTool(m.Snapshot(), ReadResourceName)
	res, err := callTool(t, read, `{"server":"q","uri":"qa3://textblob"}`)
	if err != nil || !strings.Contains(resultText(res), `{"answer":42}`) {
		t.Errorf("text blob: %q, %v", resultText(res), err)
	}
	res, err = callTool(t, read, `{"server":"q","uri":"qa3://bin"}`)
	if err != nil || !strings.Contains(resultText(res), "4 bytes of binary data") {
		t.Errorf("binary blob: %q, %v", resultText(res), err)
	}
}

// A server that dies in the middle of a call is reported as stopped and
// being restarted, not as a bare "calling tools/call: EOF". (What it wrote
// to stderr is added when it has arrived; that is not asserted, the two
// pipes race.)
func TestServerDyingMidCallIsExplained(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{qa3Server(t, "q")}})
	_, err := callTool(t, findTool(m.Snapshot(), "mcp__q__die"), `{}`)
	for _, want := range []string{`MCP server "q" stopped while answering die`, "restarting"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v; want it to contain %q", err, want)
		}
	}
}

// A server that fails while its configuration names unset variables
// (a token in a header, a path in args) says which: the failure alone
// ("401", "no such file") hid the cause.
func TestFailureNamesUnsetVariables(t *testing.T) {
	srv := Server{Name: "gh", Scope: ScopeLocal, Config: ServerConfig{Command: "/nonexistent/${QA3_UNSET_DIR}/server",
		Env: map[string]string{"TOKEN": "${QA3_UNSET_TOKEN}", "MODE": "${QA3_UNSET_MODE:-fast}"}}}
	m := startManager(t, Options{Servers: []Server{srv}, MaxReconnects: -1, Getenv: func(string) string { return "" }})
	st := m.Status()[0]
	if st.State != StateFailed || !strings.Contains(st.Err, "unset environment variables: QA3_UNSET_DIR, QA3_UNSET_TOKEN") || strings.Contains(st.Err, "QA3_UNSET_MODE") {
		t.Errorf("status = %s: %s", st.State, st.Err)
	}
}

// reins mcp add NAME npx -y PKG (without "--") fails on the server's own
// flag; the error says to put the command after "--".
func TestAddWithoutDashDashExplainsTheFix(t *testing.T) {
	cmd := NewCommand(CommandOptions{Cwd: t.TempDir(), ConfigDir: t.TempDir()})
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"add", "fs", "npx", "-y", "@modelcontextprotocol/server-filesystem"})
	err := cmd.ExecuteContext(context.Background())
	if err == nil || !strings.Contains(err.Error(), "after --") || !strings.Contains(err.Error(), "-y") {
		t.Errorf("err = %v", err)
	}
}

const qa3LongTool = "fetch_the_complete_order_history_of_every_customer_in_the_warehouse"

// Tool names the API would refuse (over 64 characters; one such tool made
// every request of the session fail) are shortened, stay distinct and
// valid, and short names are left alone.
func TestLongToolNamesFitTheAPILimit(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	cases := [][2]string{
		{"github", "create_issue"},
		{"warehouse", qa3LongTool},
		{"warehouse", qa3LongTool + "_v2"},
		{"enterprise-database-management-production", "sync"},
		{"enterprise-database-management-production", qa3LongTool},
		{"enterprise-database-management-staging", qa3LongTool},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		got := ToolName(c[0], c[1])
		if !valid.MatchString(got) || !strings.HasPrefix(got, "mcp__") || strings.Count(got, "__") < 2 {
			t.Errorf("ToolName(%q, %q) = %q (%d chars)", c[0], c[1], got, len(got))
		}
		if seen[got] {
			t.Errorf("ToolName(%q, %q) = %q collides", c[0], c[1], got)
		}
		seen[got] = true
		if got != ToolName(c[0], c[1]) {
			t.Errorf("ToolName(%q, %q) is not stable", c[0], c[1])
		}
	}
	if got := ToolName("github", "create_issue"); got != "mcp__github__create_issue" {
		t.Errorf("short name changed: %q", got)
	}
	if got := ToolName("enterprise-database-management-production", "sync"); got != "mcp__enterprise-database-management-production__sync" {
		t.Errorf("a name within the limit changed: %q", got)
	}
}

// A tool with a long name is offered under its shortened name and runs
// the server's tool of the original name.
func TestLongNamedToolIsCallable(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{qa3Server(t, "warehouse")}})
	name := ToolName("warehouse", qa3LongTool)
	tl := findTool(m.Snapshot(), name)
	if tl == nil || len(name) > MaxToolNameLen {
		t.Fatalf("%q (%d chars) not offered: %v", name, len(name), m.Status()[0].Tools)
	}
	res, err := callTool(t, tl, `{}`)
	if err != nil || resultText(res) != "long one ran" {
		t.Errorf("call = %q, %v", resultText(res), err)
	}
}

// A stdio server that prints other text on stdout (a banner at start, a
// debug line during a call) keeps working, as with Claude Code's client;
// the stray lines are kept for error reports. The first stray line used
// to end the connection ("invalid character 'q' looking for beginning of
// value").
func TestStdioServerPrintingNonProtocolLinesKeepsWorking(t *testing.T) {
	srv := qa3Server(t, "noisy")
	srv.Config.Env = map[string]string{"REINS_MCP_TEST_PEER": "qa3-noisy"}
	m := startManager(t, Options{Servers: []Server{srv}, MaxReconnects: -1})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("state %s: %s", st.State, st.Err)
	}
	for range 2 {
		res, err := callTool(t, findTool(m.Snapshot(), "mcp__noisy__shout"), `{}`)
		if err != nil || resultText(res) != "shouted" {
			t.Fatalf("shout = %q, %v", resultText(res), err)
		}
	}
	if st := m.Status()[0]; st.State != StateConnected {
		t.Errorf("after stray stdout lines: %s: %s", st.State, st.Err)
	}
	if tail := m.servers[0].stderr.String(); !strings.Contains(tail, "(stdout) qa3 server 1.0 starting") || !strings.Contains(tail, "(stdout) debug: shout was called") {
		t.Errorf("stray lines not kept: %q", tail)
	}
}

// The project root offered to servers is a valid file: URI: a folder
// with a space was sent as "file:///a b" (not a URI).
func TestRootsAreEscapedFileURIs(t *testing.T) {
	for _, dir := range []string{"/home/u/work", "/home/u/my project#1", "/tmp/100%"} {
		got := fileURI(dir)
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "file" || u.Path != dir || strings.ContainsAny(got, " #") {
			t.Errorf("fileURI(%q) = %q (parsed %+v, %v)", dir, got, u, err)
		}
	}
	if got := fileURI("/home/u/work"); got != "file:///home/u/work" {
		t.Errorf("plain folder: %q", got)
	}
}

// An image result larger than the API takes (a full-page screenshot) is
// scaled down as Read does (re-encoded, as a PNG when that fits); sent as
// is, it made every later request of the session fail.
func TestLargeImageResultsAreScaledDown(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1000, 1000))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.Uint32())
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if buf.Len() <= read.MaxImageBytes {
		t.Fatalf("test image is only %d bytes", buf.Len())
	}
	res := MapResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: buf.Bytes()}}})
	if len(res.Content) != 1 || res.Content[0].Source == nil {
		t.Fatalf("content = %+v", res.Content)
	}
	src := res.Content[0].Source
	data, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil || len(data) > read.MaxImageBytes || http.DetectContentType(data) != src.MediaType {
		t.Errorf("image sent: %s, %d bytes (limit %d), %v", src.MediaType, len(data), read.MaxImageBytes, err)
	}
	small := MapResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG\r\n\x1a\ntiny")}}})
	if s := small.Content[0].Source; s == nil || s.MediaType != "image/png" || s.Data != base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\ntiny")) {
		t.Errorf("a small image was changed: %+v", small.Content[0])
	}
}

// An administrator's managed-mcp.json is exclusive, as in Claude Code:
// its servers are the only ones (user, project, local and --mcp-config
// ignored); a broken one starts no server rather than all the others.
func TestManagedMCPFileIsExclusive(t *testing.T) {
	home, proj, policy := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"mine":{"command":"m"}}}`)
	writeFile(t, filepath.Join(proj, ProjectFile), `{"mcpServers":{"team":{"command":"t"}}}`)
	managed := filepath.Join(policy, "managed-mcp.json")
	missing := filepath.Join(policy, "none", "managed-mcp.json")
	opts := LoadOptions{Cwd: proj, Home: home, Approval: Approval{EnableAll: true},
		MCPConfig: []string{`{"mcpServers":{"flag":{"command":"f"}}}`}, Managed: []string{missing, managed}}

	cfg, err := Load(opts)
	if err != nil || len(cfg.Servers) != 3 {
		t.Fatalf("without a managed file: %+v, %v", cfg, err)
	}
	writeFile(t, managed, `{"mcpServers":{"corp":{"type":"http","url":"https://mcp.corp.example/mcp"}}}`)
	cfg, err = Load(opts)
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Name != "corp" || cfg.Servers[0].Scope != ScopeManaged {
		t.Fatalf("with a managed file: %+v, %v", cfg, err)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "--mcp-config is ignored") {
		t.Errorf("warnings = %q", cfg.Warnings)
	}
	writeFile(t, managed, `{"mcpServers":`)
	cfg, err = Load(opts)
	if err != nil || len(cfg.Servers) != 0 || len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], managed) {
		t.Errorf("with a broken managed file: %+v, %v", cfg, err)
	}
}

// A remote server's headersHelper runs before it connects (told the
// server's name and URL) and its JSON output adds headers, over the
// static ones; it was recorded and never run, so servers that rely on it
// refused reins. A helper that fails says why.
func TestHeadersHelperSuppliesHeaders(t *testing.T) {
	hs, _ := newHTTPServer(t, false, "Bearer from-helper remote")
	helper := `printf '{"Authorization":"Bearer from-helper %s"}' "$CLAUDE_CODE_MCP_SERVER_NAME"`
	cfg := ServerConfig{Type: "http", URL: hs.URL, Headers: map[string]string{"Authorization": "Bearer stale"}, HeadersHelper: helper}
	m := startManager(t, Options{Servers: []Server{{Name: "remote", Scope: ScopeUser, Config: cfg}}, MaxReconnects: -1})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("status = %s: %s", st.State, st.Err)
	}
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__remote__echo"), `{"text":"with helper"}`)
	if err != nil || resultText(res) != "http: with helper" {
		t.Fatalf("echo = %q, %v", resultText(res), err)
	}

	bad := ServerConfig{Type: "http", URL: hs.URL, HeadersHelper: `echo not json; echo oops >&2`}
	m2 := startManager(t, Options{Servers: []Server{{Name: "bad", Scope: ScopeUser, Config: bad}}, MaxReconnects: -1})
	if st := m2.Status()[0]; st.State != StateFailed || !strings.Contains(st.Err, "headersHelper") || !strings.Contains(st.Err, "JSON object") {
		t.Errorf("bad helper: %s: %s", st.State, st.Err)
	}
}

// Unavailable explains a tool name of a server that is not connected,
// long server names (shortened in tool names) included, and says nothing
// of connected servers or unknown names.
func TestUnavailableNamesTheServerState(t *testing.T) {
	long := "enterprise-database-management-production"
	m := startManager(t, Options{MaxReconnects: -1, Servers: []Server{
		selfServer(t, "up"),
		{Name: "down", Scope: ScopeLocal, Config: ServerConfig{Command: "/nonexistent/down"}},
		{Name: long, Scope: ScopeLocal, Config: ServerConfig{Command: "/nonexistent/long"}},
	}})
	if why := m.Unavailable("mcp__down__anything"); !strings.Contains(why, `MCP server "down" is failed`) || !strings.Contains(why, "/nonexistent/down") {
		t.Errorf("down: %q", why)
	}
	if why := m.Unavailable(ToolName(long, qa3LongTool)); !strings.Contains(why, long) {
		t.Errorf("long-named server: %q", why)
	}
	for _, name := range []string{"mcp__up__echo", "mcp__other__x", "Bash"} {
		if why := m.Unavailable(name); why != "" {
			t.Errorf("%s: %q", name, why)
		}
	}
}
