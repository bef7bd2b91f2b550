package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// everythingConfig is an --mcp-config naming server-everything as "ev".
func everythingConfig(t *testing.T) string {
	node, modules := npmPeer(t, "@modelcontextprotocol/server-everything")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"ev": map[string]any{
		"command": node, "args": []string{filepath.Join(modules, "@modelcontextprotocol/server-everything/dist/index.js"), "stdio"}}}})
	return string(cfg)
}

// A stdio MCP server that keeps running after its stdin closes (as
// server-everything does) must not hold up the end of a print-mode run:
// scripts that call reins -p in a loop paid seconds per call.
func TestQAMCPPrintModeExitsPromptlyAfterTheResult(t *testing.T) {
	cfg := everythingConfig(t)
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "hi", "--output-format", "stream-json", "--verbose", "--mcp-config", cfg)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var resultAt time.Time
	var init string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.Contains(l, `"subtype":"init"`) {
			init = l
		}
		if strings.Contains(l, `"type":"result"`) {
			resultAt = time.Now()
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("reins: %v", err)
	}
	if resultAt.IsZero() {
		t.Fatal("no result line")
	}
	if !strings.Contains(init, `{"name":"ev","status":"connected"}`) {
		t.Fatalf("the MCP server did not connect: %s", init)
	}
	if d := time.Since(resultAt); d > 1500*time.Millisecond {
		t.Errorf("reins took %s to exit after its result line (stopping the MCP server)", d)
	}
}

// An MCP server that cannot start is reported on stderr with its name and
// the reason, and the run goes on without it.
func TestQAMCPServerThatFailsToStartIsReportedAndTheRunGoesOn(t *testing.T) {
	srv := server(t, llmtest.Reply("answered anyway"))
	sb := e2etest.NewSandbox(t, srv.URL)
	cfg := `{"mcpServers":{"broken":{"command":"/nonexistent/qa-mcp-server"},"crash":{"command":"sh","args":["-c","echo qa-boom >&2; exit 3"]}}}`
	r := sb.Run(t, "", "-p", "hi", "--mcp-config", cfg)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "answered anyway" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{`MCP server "broken"`, "/nonexistent/qa-mcp-server", `MCP server "crash"`, "qa-boom"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if n := strings.Count(r.Stderr, `MCP server "broken"`); n != 1 {
		t.Errorf("the failure is reported %d times:\n%s", n, r.Stderr)
	}
}

// A server that never answers holds up a print-mode run for the start-up
// wait once (MCP_STARTUP_WAIT_MS), not once per place that waits for it:
// the run used to sit for twice the wait before its first request.
func TestQAMCPStartupWaitIsPaidOnce(t *testing.T) {
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "MCP_STARTUP_WAIT_MS=3000")
	e2etest.Binary(t)
	start := time.Now()
	r := sb.Run(t, "", "-p", "hi", "--mcp-config", `{"mcpServers":{"silent":{"command":"sh","args":["-c","sleep 60"]}}}`)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "done" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	wait := srv.Requests()[0].Arrived.Sub(start)
	if wait < 3*time.Second {
		t.Errorf("the first request came after %s, before the start-up wait ended", wait)
	}
	if wait > 5*time.Second {
		t.Errorf("the first request came after %s; the start-up wait is 3s", wait)
	}
}
