package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// reins doctor checks the set-up without calling the model: a sound one
// passes (exit 0), and an MCP server that cannot start is named with its
// error (exit 1).
func TestDoctorNamesABrokenMCPServer(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	r := sb.Run(t, "", "doctor")
	if r.Code != 0 || !strings.Contains(r.Stdout, "API key: from ANTHROPIC_API_KEY") || !strings.Contains(r.Stdout, "checks passed") {
		t.Fatalf("sound set-up: code %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}

	sb.Write(t, ".mcp.json", `{"mcpServers":{"broken":{"command":"/nonexistent/server-binary"}}}`)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"enableAllProjectMcpServers":true}`)
	sb.Env = append(sb.Env, "MCP_STARTUP_WAIT_MS=3000")
	r = sb.Run(t, "", "doctor")
	if r.Code != 1 {
		t.Errorf("broken server: code %d, want 1\n%s", r.Code, r.Stdout)
	}
	var line string
	for _, l := range strings.Split(r.Stdout, "\n") {
		if strings.Contains(l, "MCP broken") {
			line = l
		}
	}
	if !strings.HasPrefix(line, "FAIL") || !strings.Contains(line, "server-binary") {
		t.Errorf("MCP line %q, want a FAIL naming the missing program\n%s", line, r.Stdout)
	}
}

// reins update (a Claude Code habit) says how to get a newer reins; the
// word never reaches the model as a prompt.
func TestUpdateExplainsInsteadOfPrompting(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "update")
	if r.Code != 1 || !strings.Contains(r.Stderr, "scripts/build.sh") {
		t.Errorf("update: code %d, stderr %q", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

// --debug-to-stderr (-d2e) writes the debug log to stderr.
func TestDebugToStderr(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"), llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	for _, flag := range []string{"--debug-to-stderr", "-d2e"} {
		r := sb.Run(t, "", "-p", "hi", flag)
		if r.Code != 0 || !strings.Contains(r.Stderr, "model request") || r.Stdout != "ok\n" {
			t.Errorf("%s: code %d, stdout %q, stderr %q; want the debug log on stderr", flag, r.Code, r.Stdout, r.Stderr)
		}
	}
}
