package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/tool"
)

// The test binary doubles as MCP peers: with REINS_MCP_TEST_PEER set it
// runs a small stdio server ("stdio") or reins's Serve ("serve") instead
// of the tests.
func TestMain(m *testing.M) {
	switch os.Getenv("REINS_MCP_TEST_PEER") {
	case "stdio":
		if err := runTestServer(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "qa3", "qa3-noisy":
		if os.Getenv("REINS_MCP_TEST_PEER") == "qa3-noisy" {
			fmt.Println("qa3 server 1.0 starting (a banner on stdout)")
		}
		if err := runQA3Server(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "qa9":
		if err := runQA9Server(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "serve":
		if err := Serve(context.Background(), serveTestTools(), denyGate{deny: "Write"}, os.Stdin, os.Stdout, &ServeOptions{Version: "test"}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

// runTestServer is a stdio MCP server with an echo tool, a read-only
// clock tool, a prompt, and a pid tool (so a test can kill it).
func runTestServer() error {
	s := sdk.NewServer(&sdk.Implementation{Name: "go-test-server", Version: "1.0"}, &sdk.ServerOptions{Instructions: "test instructions"})
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "pid", Description: "Report the process id.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		Meta: sdk.Meta{MetaAlwaysLoad: true}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, map[string]any, error) {
			return nil, map[string]any{"pid": os.Getpid()}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "sleep", Description: "Sleep a while."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			select {
			case <-time.After(time.Minute):
			case <-ctx.Done():
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "woke"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "ask", Description: "Ask the user for a name and report the answer."},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			// The protocol's multi round-trip way: ask for input in the
			// result, and get the answer with the call made again.
			if res, ok := req.Params.InputResponses["who"].(*sdk.ElicitResult); ok {
				b, _ := json.Marshal(res.Content)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Action + " " + string(b)}}}, nil, nil
			}
			return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"who": &sdk.ElicitParams{Message: "Who are you?", RequestedSchema: map[string]any{
				"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "title": "Name"}}, "required": []string{"name"}}}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "steps", Description: "Report progress twice, then wait to be cancelled."},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "half way"})
				req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: 2, Total: 2})
				// Wait for the client, which has what it waited for,
				// to cancel the call.
				select {
				case <-ctx.Done():
				case <-time.After(30 * time.Second):
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "greet", Description: "Greet someone.", Arguments: []*sdk.PromptArgument{{Name: "who", Required: true}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Say hello to " + req.Params.Arguments["who"]}}}}, nil
		})
	return s.Run(context.Background(), &sdk.StdioTransport{})
}

// selfServer is a stdio server entry that runs this test binary as the
// test server.
func selfServer(t *testing.T, name string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Server{Name: name, Scope: ScopeLocal, Config: ServerConfig{Command: exe, Env: map[string]string{"REINS_MCP_TEST_PEER": "stdio"}}}
}

// peer returns the entry script of an npm MCP package installed under
// .ci/node_modules, or skips (fails under CI=true) when it or node is
// missing.
func peer(t *testing.T, pkg string) (node, script string) {
	t.Helper()
	missing := func(what string) {
		msg := fmt.Sprintf("%s is missing; install the MCP peers with: npm install --prefix .ci (from the repository root)", what)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root not found")
		}
		dir = parent
	}
	script = filepath.Join(dir, ".ci", "node_modules", pkg)
	if _, err := os.Stat(script); err != nil {
		missing(pkg)
	}
	return node, script
}

// startManager starts a manager for servers and waits (bounded) for them.
func startManager(t *testing.T, opts Options) *Manager {
	t.Helper()
	m := NewManager(opts)
	t.Cleanup(func() { m.Close() })
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !m.Wait(ctx) {
		t.Fatalf("servers still pending: %+v", m.Status())
	}
	return m
}

func findTool(snap Snapshot, name string) tool.Tool {
	for _, t := range snap.Tools {
		if t.Name() == name {
			return t
		}
	}
	return nil
}

func callTool(t *testing.T, tl tool.Tool, input string) (*tool.Result, error) {
	t.Helper()
	if tl == nil {
		t.Fatal("the tool is not available")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := tool.Pipeline{Schemas: &tool.Schemas{}}
	call := &tool.Call{ID: "toolu_test", Name: tl.Name()}
	o := p.Run(ctx, call, tl, json.RawMessage(input))
	res := &tool.Result{Content: o.Block.Content, IsError: o.IsError, Data: o.Data}
	if o.IsError {
		return res, errors.New(o.Block.ResultText())
	}
	return res, nil
}

func resultText(r *tool.Result) string {
	var parts []string
	for _, b := range r.Content {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// eventually polls cond until it holds or the time is up.
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
