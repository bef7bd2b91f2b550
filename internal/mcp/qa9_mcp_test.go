package mcp

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server whose configuration uses a variable that is unset and has no
// default is not started (Claude Code refuses such a configuration):
// its status names the server's variables and how to fix them, it is
// not retried, and the other servers start. Before, the reference
// expanded to "" and the server was started with an empty token.
func TestServerWithAnUnsetVariableIsNotStarted(t *testing.T) {
	bad := selfServer(t, "bad")
	bad.Config.Env["TOKEN"] = "${QA9_TOKEN}"
	bad.Config.Args = []string{"${QA9_MODE:-fast}", "${QA9_DIR}"}
	good := selfServer(t, "good")
	good.Config.Env["TOKEN"] = "${QA9_SET}"
	env := map[string]string{"QA9_SET": "x"}
	m := startManager(t, Options{Servers: []Server{bad, good}, Getenv: func(k string) string { return env[k] }})
	byName := map[string]ServerStatus{}
	for _, st := range m.Status() {
		byName[st.Name] = st
	}
	b := byName["bad"]
	want := "not started: its configuration uses unset environment variables: QA9_DIR, QA9_TOKEN (set them, or give a default: ${QA9_DIR:-value})"
	if b.State != StateFailed || b.Err != want || b.Reconnects != 0 || len(b.Tools) != 0 {
		t.Errorf("bad: %s %q (reconnects %d, tools %v); want failed %q", b.State, b.Err, b.Reconnects, b.Tools, want)
	}
	if g := byName["good"]; g.State != StateConnected || len(g.Tools) == 0 {
		t.Errorf("good: %s %q, tools %v", g.State, g.Err, g.Tools)
	}
}

// runQA9Server is a stdio MCP server whose "grow" tool adds the tool "a";
// while the client's next tools/list is being answered (with "a" only)
// it adds "b", whose list_changed notification reaches the client before
// that answer.
func runQA9Server() error {
	s := sdk.NewServer(&sdk.Implementation{Name: "qa9-server", Version: "1.0"}, nil)
	var grown, addedB atomic.Bool
	noop := func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil, nil
	}
	sdk.AddTool(s, &sdk.Tool{Name: "grow", Description: "Add tools."},
		func(ctx context.Context, req *sdk.CallToolRequest, in struct{}) (*sdk.CallToolResult, any, error) {
			sdk.AddTool(s, &sdk.Tool{Name: "a", Description: "Tool a."}, noop)
			grown.Store(true)
			return noop(ctx, req, in)
		})
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/list" && grown.Load() && addedB.CompareAndSwap(false, true) {
				sdk.AddTool(s, &sdk.Tool{Name: "b", Description: "Tool b."}, noop)
				// The SDK sends the notification after a short delay:
				// let it go out before this answer.
				time.Sleep(300 * time.Millisecond)
			}
			return res, err
		}
	})
	return s.Run(context.Background(), &sdk.StdioTransport{})
}

// A tools/list_changed notification that arrives while the tools are
// being listed again after an earlier one is not lost: the list is read
// once more. Before, it was dropped, and a tool the server added then
// never reached the model.
func TestToolListChangeDuringARefreshIsNotLost(t *testing.T) {
	srv := selfServer(t, "q")
	srv.Config.Env["REINS_MCP_TEST_PEER"] = "qa9"
	m := startManager(t, Options{Servers: []Server{srv}})
	if _, err := callTool(t, findTool(m.Snapshot(), "mcp__q__grow"), `{}`); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second)
	for {
		changed := m.Changed()
		snap := m.Snapshot()
		if findTool(snap, "mcp__q__a") != nil && findTool(snap, "mcp__q__b") != nil {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			var names []string
			for _, tl := range snap.Tools {
				names = append(names, tl.Name())
			}
			t.Fatalf("tools = %v; want mcp__q__a and mcp__q__b", names)
		}
	}
}

// reins mcp login and logout on a server whose URL uses an unset
// variable say so, naming it; before, the URL was used with the
// reference expanded to nothing and the error spoke of something else.
func TestLoginNamesAnUnsetVariableInTheURL(t *testing.T) {
	for _, verb := range []string{"login", "logout"} {
		cmd := NewCommand(CommandOptions{Cwd: t.TempDir(), ConfigDir: t.TempDir(), Getenv: func(string) string { return "" },
			MCPConfig: []string{`{"mcpServers":{"api":{"type":"http","url":"https://${QA9_HOST}/mcp"}}}`}})
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs([]string{verb, "api"})
		err := cmd.ExecuteContext(context.Background())
		want := `MCP server "api" cannot be used: its configuration uses unset environment variables: QA9_HOST`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v; want %q", verb, err, want)
		}
	}
}
