package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/tool"
)

// testTool is a built-in-like tool for Serve tests.
type testTool struct {
	tool.Defaults
	name, desc string
	readOnly   bool
	run        func(in map[string]any) (string, error)
}

func (t *testTool) Name() string        { return t.name }
func (t *testTool) Description() string { return t.desc }
func (t *testTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)
}
func (t *testTool) IsReadOnly(json.RawMessage) bool { return t.readOnly }
func (t *testTool) Call(_ context.Context, _ *tool.Call, in json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	var m map[string]any
	if err := json.Unmarshal(in, &m); err != nil {
		return nil, err
	}
	s, err := t.run(m)
	if err != nil {
		return nil, err
	}
	return tool.Text(s), nil
}

func serveTestTools() []tool.Tool {
	return []tool.Tool{
		&testTool{name: "Upper", desc: "Upper-case the text.", readOnly: true, run: func(m map[string]any) (string, error) {
			return fmt.Sprintf("%v!", m["text"]), nil
		}},
		&testTool{name: "Write", desc: "Pretend to write.", run: func(map[string]any) (string, error) { return "written", nil }},
		&testTool{name: "Fail", desc: "Always fails.", run: func(map[string]any) (string, error) { return "", fmt.Errorf("it broke") }},
	}
}

// denyGate refuses one tool as the permission gate would when a rule
// says ask and nobody can be asked.
type denyGate struct{ deny string }

func (g denyGate) Before(_ context.Context, c *tool.Call, _ tool.Tool, _ json.RawMessage) tool.Verdict {
	if c.Name == g.deny {
		return tool.Verdict{Reason: "Permission to use " + c.Name + " needs approval, and no one can be asked over MCP.", Denied: true}
	}
	return tool.Verdict{Allow: true}
}
func (denyGate) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {}

func TestServeToTypeScriptClient(t *testing.T) {
	node, _ := peer(t, "@modelcontextprotocol/sdk/package.json")
	_, sdkPkg := peer(t, "@modelcontextprotocol/sdk")
	// The script runs from a folder whose node_modules is the installed
	// one, so its imports resolve.
	dir := t.TempDir()
	script, err := os.ReadFile("testdata/ts_client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(filepath.Dir(sdkPkg)), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), exe)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ts client: %v\n%s", err, stderr.String())
	}
	var report struct {
		Server struct{ Name, Version string }
		Tools  []struct {
			Name     string
			ReadOnly *bool
			Required []string
		}
		Calls map[string]struct {
			IsError bool
			Text    string
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("report %q: %v", out, err)
	}
	if report.Server.Name != "reins" || report.Server.Version != "test" {
		t.Errorf("server = %+v", report.Server)
	}
	var names []string
	for _, tl := range report.Tools {
		names = append(names, tl.Name)
		if tl.Name == "Upper" && (tl.ReadOnly == nil || !*tl.ReadOnly || len(tl.Required) != 1) {
			t.Errorf("Upper listed as %+v", tl)
		}
	}
	if strings.Join(names, ",") != "Fail,Upper,Write" && strings.Join(names, ",") != "Upper,Write,Fail" {
		t.Errorf("tools = %v", names)
	}
	want := map[string]struct {
		isError bool
		text    string
	}{
		"upper":   {false, "hi!"},
		"write":   {true, "needs approval, and no one can be asked"},
		"fail":    {true, "it broke"},
		"invalid": {true, "InputValidationError"},
	}
	for k, w := range want {
		got := report.Calls[k]
		if got.IsError != w.isError || !strings.Contains(got.Text, w.text) {
			t.Errorf("call %s = %+v, want error=%v containing %q", k, got, w.isError, w.text)
		}
	}
}

func TestServeToGoClient(t *testing.T) {
	cr, sw := io.Pipe() // server → client
	sr, cw := io.Pipe() // client → server
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, serveTestTools(), denyGate{deny: "Write"}, sr, sw, nil) }()
	client := sdk.NewClient(&sdk.Implementation{Name: "go-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Write", Arguments: map[string]any{"text": "x"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "needs approval") {
		t.Fatalf("Write = %+v, %v", res, err)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "Upper", Arguments: map[string]any{"text": "ok"}})
	if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != "ok!" {
		t.Fatalf("Upper = %+v, %v", res, err)
	}
	cs.Close()
	cw.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve returned %v after the client left", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the client left")
	}
}
